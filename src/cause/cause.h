/*
 * cause.h - the cause registry: every cause gpudoctor can name, defined once
 * in data/causes.tsv and compiled in (build/gen/cause_ids.h, cause_table.c).
 *
 * Rules, explain and the reports refer to causes by enum cause_id; the id
 * strings of docs/causes.md (a public contract) live only in the table.
 * The table also holds each cause's usual severity, its stage of the
 * doctor's causal chain, its rank in the one causal order the doctor and
 * explain share, and the causes it follows from.
 */
#ifndef GD_CAUSE_CAUSE_H
#define GD_CAUSE_CAUSE_H

#include <stdbool.h>

#include "cause_ids.h"

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

enum cause_from {
	CAUSE_FROM_DOCTOR,
	CAUSE_FROM_EXPLAIN,
	CAUSE_FROM_BOTH,
};

struct cause {
	const char *id;			/* the public id: driver.not-loaded */
	enum severity severity;		/* the usual one */
	enum stage stage;		/* the usual one */
	int rank;			/* causal order: lower is nearer the root; equal ranks are peers */
	const enum cause_id *follows;	/* the causes this one usually follows from, in table order */
	int nfollows;
	enum cause_from from;
	const char *title;
};

extern const struct cause cause_table[CAUSE_COUNT];

/* The registry's row of a cause (never NULL for a valid id). */
const struct cause *cause_get(enum cause_id id);
/* The public id string, e.g. driver.not-loaded. */
const char *cause_name(enum cause_id id);
/* The cause with this id string; false when the registry has none. */
bool cause_by_name(const char *name, enum cause_id *out);
/* Whether cause follows from maybe_cause (the registry's follows column). */
bool cause_follows(enum cause_id cause, enum cause_id maybe_cause);

const char *severity_name(enum severity sev);
const char *stage_name(enum stage stage);

#endif
