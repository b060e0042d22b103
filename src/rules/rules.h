/*
 * rules.h - from facts to findings, and the verdict.
 *
 * Each family of rules lives in its own file as a const table of checks.
 * A check is a pure function: it reads facts and appends findings, nothing
 * else. rules_run() then links consequences to their causes (blocked_by),
 * orders the findings along the causal chain and names the root cause.
 */
#ifndef GD_RULES_RULES_H
#define GD_RULES_RULES_H

#include "probe/facts.h"
#include "rules/finding.h"

struct rule {
	const char *id;		/* the id (or id family) this check may emit */
	void (*check)(const struct facts *facts, struct findings *out);
};

struct rule_family {
	const char *name;
	const struct rule *rules;
	size_t count;
};

enum verdict {
	VERDICT_READY,
	VERDICT_DEGRADED,
	VERDICT_BROKEN,
	VERDICT_NO_GPU,
};

struct diagnosis {
	struct findings findings;	/* ordered: root cause first */
	enum verdict verdict;
	const struct finding *root_cause;	/* into findings, or NULL */
	char summary[256];
};

void rules_run(const struct facts *facts, struct diagnosis *out);
void diagnosis_release(struct diagnosis *d);
const char *verdict_name(enum verdict v);

/* The families, each defined in its own file. */
extern const struct rule_family rules_platform, rules_gpu, rules_driver, rules_libs,
	rules_toolkit, rules_env, rules_runtime, rules_torch, rules_summary;

#endif
