/*
 * rules.c - runs every rule family, links consequences to causes, orders
 * the findings along the causal chain and decides the verdict.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "util/str.h"

static const struct rule_family *const families[] = {
	/* runtime after the static families: it adds the driver's word to their findings */
	&rules_platform, &rules_gpu, &rules_driver, &rules_libs, &rules_toolkit, &rules_env, &rules_runtime,
	&rules_torch, &rules_summary,
};

/*
 * Which findings merely follow from which: when the cause is present, the
 * consequence names it in blocked_by and cannot be the root cause.
 */
static const struct {
	const char *id;
	const char *causes[8];
} consequences[] = {
	{ "gpu.none", { "container.no-gpu" } },
	{ "driver.not-loaded", { "gpu.hardware-fault" } },
	{ "driver.device-missing", { "driver.not-loaded", "container.no-gpu" } },
	{ "driver.device-permission", { "driver.not-loaded", "driver.not-installed" } },
	{ "cuda.lib-missing", { "driver.not-installed", "container.no-gpu", "wsl.driver" } },
	{ "driver.library-mismatch", { "wsl.driver" } },
	{ "toolkit.newer-than-driver", { "driver.too-old" } },
	{ "torch.driver-too-old", { "driver.too-old" } },
	{ "torch.cuda-unavailable", { "driver.not-loaded", "driver.not-installed", "container.no-gpu", "cuda.init-failed",
				      "driver.library-mismatch", "driver.device-permission", "env.visible-devices",
				      "cuda.stub-library" } },
	/* cuInit failing is what every lower failure looks like from above */
	{ "cuda.init-failed", { "driver.not-loaded", "driver.not-installed", "container.no-gpu", "gpu.hardware-fault",
				"driver.device-missing", "driver.device-permission", "cuda.lib-missing", "wsl.driver" } },
};

static void link_consequences(struct findings *list)
{
	for (size_t i = 0; i < list->count; i++) {
		struct finding *f = &list->items[i];

		for (size_t c = 0; c < sizeof(consequences) / sizeof(consequences[0]); c++) {
			if (strcmp(consequences[c].id, f->id) != 0)
				continue;
			for (int k = 0; k < 8 && consequences[c].causes[k]; k++)
				if (findings_get(list, consequences[c].causes[k]) && f->nblocked < FINDING_MAX_BLOCKERS)
					f->blocked_by[f->nblocked++] = consequences[c].causes[k];
		}
	}
}

/* Errors before warnings before info; within each, down the chain; a
 * finding that follows from another sorts after the independent ones. */
static int compare_findings(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if ((a->nblocked > 0) != (b->nblocked > 0))
		return a->nblocked > 0 ? 1 : -1;
	if (a->stage != b->stage)
		return a->stage < b->stage ? -1 : 1;
	return strcmp(a->id, b->id);
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_READY:
		return "ready";
	case VERDICT_DEGRADED:
		return "degraded";
	case VERDICT_BROKEN:
		return "broken";
	case VERDICT_NO_GPU:
		return "no-gpu";
	}
	return "broken";
}

void rules_run(const struct facts *facts, struct diagnosis *out)
{
	struct findings *list = &out->findings;
	bool warnings = false;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		for (size_t r = 0; r < families[i]->count; r++)
			families[i]->rules[r].check(facts, list);
	link_consequences(list);
	if (list->count > 1)
		qsort(list->items, list->count, sizeof(list->items[0]), compare_findings);
	for (size_t i = 0; i < list->count; i++) {
		if (list->items[i].severity == SEV_ERROR && !out->root_cause)
			out->root_cause = &list->items[i];
		if (list->items[i].severity == SEV_WARNING)
			warnings = true;
	}
	if (out->root_cause) {
		out->verdict = strcmp(out->root_cause->id, "gpu.none") == 0 ? VERDICT_NO_GPU : VERDICT_BROKEN;
		str_copy(out->summary, sizeof(out->summary), out->root_cause->title);
	} else {
		const struct finding *ready = findings_get(list, "gpu.ready");

		out->verdict = warnings ? VERDICT_DEGRADED : VERDICT_READY;
		str_copy(out->summary, sizeof(out->summary),
			 ready ? ready->title : warnings ? "usable, with warnings" : "no problems found");
	}
}

void diagnosis_release(struct diagnosis *d)
{
	findings_release(&d->findings);
	d->root_cause = NULL;
}
