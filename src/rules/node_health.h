/*
 * node_health.h - a node's GPU health, for schedulers: the doctor's
 * findings narrowed to the layers the node itself owns (the platform, the
 * GPUs on the bus, the kernel module, device nodes, the driver libraries and
 * the driver API), judged healthy, unhealthy or unknown.
 *
 * A user's Python, toolkit or environment never makes a node unhealthy: a
 * scheduler drains nodes, not users' virtual environments.
 */
#ifndef GD_RULES_NODE_HEALTH_H
#define GD_RULES_NODE_HEALTH_H

#include "rules/rules.h"

enum node_status { NODE_HEALTHY, NODE_UNHEALTHY, NODE_UNKNOWN };

struct node_health {
	enum node_status status;
	const struct finding *cause;	/* the first error of the node's layers (into the diagnosis); NULL if none */
	const struct finding *warning;	/* the first warning of the node's layers, NULL if none */
	int errors, warnings;		/* findings of the node's layers */
	int gpus;			/* GPUs the driver lists, else those on the bus; -1 unknown */
	char reason[160];		/* unknown: what could not be read (English: JSON, --npd, Slurm) */
	char reason_local[320];		/* the same in the text reports' language, "" when it reads the same */
};

/* Whether a finding belongs to the node's layers: its stage is below the toolkits, and it is not about the
 * caller's environment variables (env.*). */
bool node_health_counts(const struct finding *f);
/*
 * Judge d (rules_run over facts) into out. Unhealthy on any error of the node's layers; unknown when none
 * but part of those layers could not be read (permission) or the driver was not asked; else healthy.
 * out->cause and out->warning point into d: keep d while using them.
 */
void node_health_judge(const struct facts *facts, const struct diagnosis *d, struct node_health *out);
const char *node_status_name(enum node_status s);

#endif
