/*
 * rules.h - from facts to findings, and the verdict.
 *
 * Each family of rules lives in its own file as a const table of checks.
 * A check is a pure function of the facts: it is given an empty list and
 * adds findings to it; it never sees another check's findings. rules_run()
 * then collects them, lets the reconcile step (rules/reconcile.h) merge and
 * withdraw what the findings ask for, links consequences to their causes
 * (blocked_by, from the cause registry), orders the findings along the
 * causal chain and names the root cause.
 */
#ifndef GD_RULES_RULES_H
#define GD_RULES_RULES_H

#include <stddef.h>

#include "probe/facts.h"
#include "rules/finding.h"

struct rule {
	enum cause_id cause;	/* the cause this check names (it may name others too, e.g. the driver's answers) */
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
	char summary_local[512];	/* in the text reports' language; "" when English (util/i18n.h) */
};

/* Run every family over facts into out (released with diagnosis_release). */
void rules_run(const struct facts *facts, struct diagnosis *out);
/*
 * The same with the families in the order given (each at most once, from
 * the set rules_run uses): the report must not depend on it. For tests.
 */
void rules_run_families(const struct facts *facts, const struct rule_family *const *order, size_t n,
			struct diagnosis *out);
void diagnosis_release(struct diagnosis *d);
const char *verdict_name(enum verdict v);

/* The families, each defined in its own file. */
extern const struct rule_family rules_platform, rules_gpu, rules_driver, rules_libs,
	rules_toolkit, rules_env, rules_runtime, rules_health, rules_load, rules_torch, rules_cudnn, rules_summary,
	rules_driver_calls, rules_live;

#endif
