/*
 * rules.c - runs every rule family, reconciles their findings, links
 * consequences to causes, orders the findings along the causal chain and
 * decides the verdict.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "rules/reconcile.h"
#include "util/i18n.h"
#include "util/str.h"

/* The families in their fixed order; a finding's origin starts with its family's place here. */
static const struct rule_family *const families[] = {
	&rules_platform, &rules_gpu, &rules_driver, &rules_libs, &rules_toolkit, &rules_env, &rules_runtime,
	&rules_health, &rules_load, &rules_torch, &rules_cudnn, &rules_summary,
};

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

/* Which findings merely follow from which: the registry's follows column, in its order. */
static void link_consequences(struct findings *list)
{
	for (size_t i = 0; i < list->count; i++) {
		struct finding *f = &list->items[i];
		const struct cause *c = cause_get(f->cause);

		f->nblocked = 0;
		for (int k = 0; k < c->nfollows; k++)
			if (findings_get(list, c->follows[k]) && f->nblocked < FINDING_MAX_BLOCKERS)
				f->blocked_by[f->nblocked++] = c->follows[k];
	}
}

/*
 * Errors before warnings before info; within each, the independent ones
 * first; then down the chain: by stage, then by the registry's rank; then
 * by id, and by origin, so that the order never depends on the order the
 * families ran in.
 */
static int compare_findings(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	int ra = cause_get(a->cause)->rank, rb = cause_get(b->cause)->rank, c;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if ((a->nblocked > 0) != (b->nblocked > 0))
		return a->nblocked > 0 ? 1 : -1;
	if (a->stage != b->stage)
		return a->stage < b->stage ? -1 : 1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((c = strcmp(cause_name(a->cause), cause_name(b->cause))) != 0)
		return c;
	return a->origin < b->origin ? -1 : a->origin > b->origin;
}

/* A static name for JSON and text; an out-of-range value reads "broken", never NULL. */
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

static size_t family_place(const struct rule_family *family)
{
	for (size_t i = 0; i < NFAMILIES; i++)
		if (families[i] == family)
			return i;
	return NFAMILIES;
}

/* Each check starts from an empty list, so it cannot read another's findings. */
static void run_family(const struct facts *facts, const struct rule_family *family, struct findings *list)
{
	size_t place = family_place(family);

	for (size_t r = 0; r < family->count; r++) {
		struct findings own = { 0 };

		family->rules[r].check(facts, &own);
		for (size_t k = 0; k < own.count; k++)
			own.items[k].origin = (unsigned)(place << 16 | r << 8 | (k < 255 ? k : 255));
		findings_take(list, &own);
	}
}

static void decide(struct diagnosis *out)
{
	struct findings *list = &out->findings;
	bool warnings = false;

	for (size_t i = 0; i < list->count; i++) {
		if (list->items[i].severity == SEV_ERROR && !out->root_cause)
			out->root_cause = &list->items[i];
		if (list->items[i].severity == SEV_WARNING)
			warnings = true;
	}
	if (out->root_cause) {
		out->verdict = out->root_cause->cause == CAUSE_GPU_NONE ? VERDICT_NO_GPU : VERDICT_BROKEN;
		str_copy(out->summary, sizeof(out->summary),
			 out->root_cause->summary ? out->root_cause->summary : out->root_cause->title);
		if (out->root_cause->summary ? out->root_cause->summary_local : out->root_cause->title_local)
			str_copy(out->summary_local, sizeof(out->summary_local),
				 out->root_cause->summary ? out->root_cause->summary_local : out->root_cause->title_local);
	} else {
		const struct finding *ready = findings_get(list, CAUSE_GPU_READY);

		out->verdict = warnings ? VERDICT_DEGRADED : VERDICT_READY;
		str_copy(out->summary, sizeof(out->summary),
			 ready ? ready->title : warnings ? N_("usable, with warnings") : N_("no problems found"));
		if (ready ? ready->title_local != NULL : i18n_active())
			str_copy(out->summary_local, sizeof(out->summary_local),
				 ready ? ready->title_local : i18n_text(out->summary));
	}
}

/*
 * See rules.h. out is zeroed first, so it must not hold findings still to be released. root_cause points
 * into out->findings and summary is copied from its title.
 */
void rules_run_families(const struct facts *facts, const struct rule_family *const *order, size_t n,
			struct diagnosis *out)
{
	struct findings *list = &out->findings;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		run_family(facts, order[i], list);
	rules_reconcile(list);
	link_consequences(list);
	if (list->count > 1)
		qsort(list->items, list->count, sizeof(list->items[0]), compare_findings);
	decide(out);
}

/* rules_run_families over every family in the fixed order; see rules.h. */
void rules_run(const struct facts *facts, struct diagnosis *out)
{
	rules_run_families(facts, families, NFAMILIES, out);
}

/* Free the findings and clear root_cause; verdict and summary stay readable. Safe to call twice. */
void diagnosis_release(struct diagnosis *d)
{
	findings_release(&d->findings);
	d->root_cause = NULL;
}
