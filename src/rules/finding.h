/*
 * finding.h - what rules produce: a diagnosis with evidence and a fix.
 *
 * A finding owns all of its strings. Ids are a public contract (see
 * docs/causes.md): other tools and the scenario tests match on them.
 */
#ifndef GD_RULES_FINDING_H
#define GD_RULES_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#define FINDING_MAX_EVIDENCE 12
#define FINDING_MAX_FIX 8
#define FINDING_MAX_BLOCKERS 8

enum severity {
	SEV_INFO,
	SEV_WARNING,
	SEV_ERROR,
};

/*
 * Stages of the causal chain, bottom up. A failure low in the chain
 * explains everything above it, so the root cause is the lowest error.
 */
enum stage {
	STAGE_PLATFORM,		/* container, WSL */
	STAGE_GPU,		/* the device on the bus */
	STAGE_KERNEL,		/* kernel module */
	STAGE_DEVICE_NODES,	/* /dev/nvidia* */
	STAGE_USER_LIBS,	/* libcuda, libnvidia-ml */
	STAGE_CUDA,		/* driver API, visibility */
	STAGE_TOOLKIT,
	STAGE_CUDNN,
	STAGE_PYTHON,
	STAGE_ENV,		/* tuning and debugging variables */
	STAGE_SUMMARY,		/* gpu.ready */
};

struct evidence {
	char *fact;	/* what was observed: "kernel module" */
	char *value;	/* "not loaded" */
	char *source;	/* where: "/proc/modules" */
};

struct fix_step {
	char *text;	/* what to do and why */
	char *command;	/* exact command, or NULL */
};

struct finding {
	const char *id;		/* static string from the rule table */
	enum severity severity;
	enum stage stage;
	char *title;
	char *detail;
	struct evidence evidence[FINDING_MAX_EVIDENCE];
	int nevidence;
	int evidence_dropped;		/* added past FINDING_MAX_EVIDENCE: counted, shown as a count */
	struct fix_step fix[FINDING_MAX_FIX];
	int nfix;
	int fix_dropped;
	const char *blocked_by[FINDING_MAX_BLOCKERS];	/* ids of findings this follows from */
	int nblocked;
};

struct findings {
	struct finding *items;
	size_t count, cap;
};

/* Append a finding; returns it (owned by the list) or NULL when out of memory. */
struct finding *findings_add(struct findings *list, const char *id, enum severity sev, enum stage stage,
			     const char *title_fmt, ...) __attribute__((format(printf, 5, 6)));
void finding_detail(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_evidence(struct finding *f, const char *fact, const char *source, const char *value_fmt, ...)
	__attribute__((format(printf, 4, 5)));
void finding_fix(struct finding *f, const char *command, const char *text_fmt, ...)
	__attribute__((format(printf, 3, 4)));

const struct finding *findings_get(const struct findings *list, const char *id);
/* The finding with this id for adding evidence to, or NULL. */
struct finding *findings_find(struct findings *list, const char *id);
/* Withdraw the finding with this id (a later fact overturned it); whether there was one. */
bool findings_remove(struct findings *list, const char *id);
void findings_release(struct findings *list);

/* Whether a fix step with this command is already there. */
bool findings_fix_has(const struct finding *f, const char *command);
const char *severity_name(enum severity sev);
const char *stage_name(enum stage stage);

#endif
