#include "rules/reconcile.h"

#include "util/i18n.h"

#include <stdlib.h>
#include <string.h>

static int compare_origin(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;

	return a->origin < b->origin ? -1 : a->origin > b->origin;
}

static bool in_list(const enum cause_id *list, int n, enum cause_id cause)
{
	for (int i = 0; i < n; i++)
		if (list[i] == cause)
			return true;
	return false;
}

/* The first finding of cause other than skip, or -1; for_self limits it to those before skip. */
static long first_of(const struct findings *list, enum cause_id cause, size_t skip, bool before_only)
{
	for (size_t i = 0; i < list->count; i++) {
		if (i == skip)
			continue;
		if (before_only && i > skip)
			break;
		if (list->items[i].cause == cause)
			return (long)i;
	}
	return -1;
}

static void withdraw(struct findings *list)
{
	for (size_t w = 0; w < list->count; w++) {
		struct finding *f = &list->items[w];
		int withdrawn = 0;

		if (f->links.nwithdraws == 0)
			continue;
		for (size_t i = 0; i < list->count; i++) {
			struct finding *old = &list->items[i];

			if (i == w || old->severity != SEV_ERROR || !in_list(f->links.withdraws, f->links.nwithdraws, old->cause))
				continue;
			finding_evidence(f, N_("withdrawn"), cause_name(old->cause), "%s", old->title);
			finding_last_evidence_local(f, old->title_local);
			findings_remove_at(list, i);
			if (i < w)
				w--;
			f = &list->items[w];
			i--;
			withdrawn++;
		}
		f->links.nwithdraws = 0;
		if (!withdrawn) {
			findings_remove_at(list, w);
			w--;
		}
	}
}

static void unless(struct findings *list)
{
	for (size_t u = 0; u < list->count; u++) {
		const struct finding *f = &list->items[u];
		bool other = false;

		for (int k = 0; k < f->links.nunless && !other; k++)
			other = first_of(list, f->links.unless[k], u, false) >= 0;
		if (other) {
			findings_remove_at(list, u);
			u--;
		}
	}
}

/* Move f's evidence (and fix steps, when it says so) into target; the higher severity stays. */
static void merge(struct finding *target, struct finding *f)
{
	for (int i = 0; i < f->nevidence; i++) {
		int before = target->nevidence;

		finding_evidence(target, f->evidence[i].fact, f->evidence[i].source, "%s", f->evidence[i].value);
		if (target->nevidence > before)
			finding_last_evidence_local(target, f->evidence[i].value_local);
	}
	target->evidence_dropped += f->evidence_dropped;
	if (f->links.join_fixes) {
		int base = target->nalt;	/* f's alternatives come after target's own */

		for (int k = 0; k < f->nalt; k++) {
			int before = target->nalt;

			finding_alternative(target, "%s", f->alt_titles[k]);
			if (target->nalt > before)
				finding_last_alternative_local(target, f->alt_titles_local[k]);
		}
		for (int i = 0; i < f->nfix; i++)
			if (!f->fix[i].command || !findings_fix_has(target, f->fix[i].command)) {
				int before = target->nfix;

				finding_fix_alt(target, f->fix[i].alt ? base + f->fix[i].alt : 0, f->fix[i].command, "%s",
						f->fix[i].text);
				if (target->nfix > before)
					finding_last_fix_local(target, f->fix[i].text_local);
			}
		target->filling = 0;
	}
	if (target->severity < f->severity)
		target->severity = f->severity;
}

static void join(struct findings *list)
{
	for (size_t j = 0; j < list->count; j++) {
		struct finding *f = &list->items[j];
		long target = -1;

		for (int k = 0; k < f->links.njoins && target < 0; k++)
			target = first_of(list, f->links.joins[k], j, f->links.joins[k] == f->cause);
		if (target < 0)
			continue;
		merge(&list->items[target], f);
		findings_remove_at(list, j);
		j--;
	}
}

static void unless_errors(struct findings *list)
{
	bool errors = false;

	for (size_t i = 0; i < list->count; i++)
		errors |= list->items[i].severity == SEV_ERROR && !list->items[i].links.unless_errors;
	for (size_t i = 0; errors && i < list->count; i++) {
		if (list->items[i].links.unless_errors) {
			findings_remove_at(list, i);
			i--;
		}
	}
}

/*
 * See reconcile.h. Sorts list by origin first and removes findings in place, so earlier pointers and
 * indices into list are stale afterwards. Evidence added by withdrawing and joining is copied.
 */
void rules_reconcile(struct findings *list)
{
	if (list->count > 1)
		qsort(list->items, list->count, sizeof(list->items[0]), compare_origin);
	withdraw(list);
	unless(list);
	join(list);
	unless_errors(list);
}
