/*
 * slurm.h - the few scontrol calls `gpudoctor health --slurm` makes: this
 * node's state and drain reason, a drain and a resume.
 *
 * slurmd runs a health check as root with an almost empty environment (no
 * PATH), so scontrol is looked for at absolute paths, and only SLURM_CONF is
 * passed on to it. Every call has a deadline: a hung slurmctld must not hang
 * the check, nor slurmd behind it. Nothing here goes through a shell.
 */
#ifndef GD_CLUSTER_SLURM_H
#define GD_CLUSTER_SLURM_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/* Drain reasons gpudoctor writes start with this; only such drains are ever undone by it. */
#define SLURM_REASON_PREFIX "gpudoctor:"

struct slurm {
	char scontrol[256];	/* absolute path */
	char *env[2];		/* SLURM_CONF=... or nothing, then NULL (owned) */
	double timeout_s;	/* each scontrol call's deadline */
};

struct slurm_node {
	char name[128];
	bool drained;		/* State has DRAIN (draining or drained) */
	char reason[256];	/* Reason=..., without Slurm's " [user@time]" suffix; "" none */
};

/*
 * Find scontrol (the first executable of /usr/bin, /usr/local/bin, /opt/slurm/bin, /usr/sbin) and keep
 * SLURM_CONF from envp. -1 with err set when there is none.
 */
int slurm_open(struct slurm *s, char *const envp[], double timeout_s, struct error *err);
void slurm_close(struct slurm *s);
/* This node's name as Slurm knows it: SLURMD_NODENAME from envp, else the short host name. -1 when neither. */
int slurm_node_name(char *const envp[], char *out, size_t outsz);
/* `scontrol show node NAME` into out. -1 with err set when scontrol failed or did not know the node. */
int slurm_show_node(const struct slurm *s, const char *name, struct slurm_node *out, struct error *err);
/* `scontrol update NodeName=NAME State=DRAIN Reason=REASON`; -1 with err set on failure. */
int slurm_drain(const struct slurm *s, const char *name, const char *reason, struct error *err);
/* `scontrol update NodeName=NAME State=RESUME`; -1 with err set on failure. */
int slurm_resume(const struct slurm *s, const char *name, struct error *err);
/* Whether a node's drain is gpudoctor's own (its reason starts with SLURM_REASON_PREFIX). */
bool slurm_drained_by_us(const struct slurm_node *n);

#endif
