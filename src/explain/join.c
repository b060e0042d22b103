/*
 * join.c - explain's causes joined with the doctor's findings on this
 * machine: a cause the doctor also finds is confirmed, leads the ranking and
 * takes the doctor's fix (which knows this GPU, driver and interpreter).
 */
#include "explain/join.h"

#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/str.h"

static void take_doctor_fix(struct explain_cause *c, const struct finding *f)
{
	struct fix_step keep[FINDING_MAX_FIX];
	int nkeep = 0;

	/* the doctor's steps first, then the catalog's general ones that still fit */
	for (int i = 0; i < c->nfix; i++)
		keep[nkeep++] = c->fix[i];
	c->nfix = 0;
	for (int i = 0; i < f->nfix && c->nfix < FINDING_MAX_FIX; i++) {
		if (f->fix[i].alt)
			continue;	/* the doctor's alternatives stay in its report */
		c->fix[c->nfix].text = str_dup(f->fix[i].text);
		/* every field of the slot: it held a catalog step (kept above), whose text_local is not ours */
		c->fix[c->nfix].text_local = f->fix[i].text_local ? str_dup(f->fix[i].text_local) : NULL;
		c->fix[c->nfix].command = f->fix[i].command ? str_dup(f->fix[i].command) : NULL;
		c->fix[c->nfix].alt = 0;
		c->nfix++;
	}
	for (int i = 0; i < nkeep; i++) {
		if (c->nfix < FINDING_MAX_FIX && !(keep[i].command && findings_fix_has(f, keep[i].command))) {
			c->fix[c->nfix++] = keep[i];
			continue;
		}
		free(keep[i].text);
		free(keep[i].text_local);
		free(keep[i].command);
	}
}

/*
 * A doctor note in the text reports' language: fmt's translation with id (when fmt takes one, else NULL)
 * and f's title as the finding shows it (its title_local, else the catalog's). NULL when no translation
 * is active or on failure (the English note shows). The caller owns the result.
 */
static char *local_note(const char *fmt, const char *id, const struct finding *f)
{
	const char *title = f->title_local ? f->title_local : i18n_text(f->title);

	if (!i18n_active())
		return NULL;
	return id ? str_dupf(i18n_text(fmt), id, title) : str_dupf(i18n_text(fmt), title);
}

/*
 * See join.h. Reorders r->causes (confirmed first) and adds doctor notes and fix steps that r owns; d is
 * only read. Without any confirmed cause the top cause gets a note naming the doctor's root cause.
 */
void explain_join_doctor(struct explain_report *r, const struct diagnosis *d)
{
	bool any = false;

	for (size_t i = 0; i < r->count; i++) {
		struct explain_cause *c = &r->causes[i];
		const struct finding *f = findings_get(&d->findings, c->cause);

		if (!f || f->severity == SEV_INFO)
			continue;
		c->confirmed = any = true;
		c->confidence = 100;
		free(c->doctor_note);
		free(c->doctor_note_local);
		c->doctor_note = str_dupf("the doctor finds it too: %s", f->title);
		c->doctor_note_local = local_note(N_("the doctor finds it too: %s"), NULL, f);
		take_doctor_fix(c, f);
	}
	/* Confirmed causes first, each group in its old order. */
	if (any && r->count > 1) {
		struct explain_cause *copy = malloc(r->count * sizeof(*copy));
		size_t n = 0;

		if (copy) {
			for (size_t i = 0; i < r->count; i++)
				if (r->causes[i].confirmed)
					copy[n++] = r->causes[i];
			for (size_t i = 0; i < r->count; i++)
				if (!r->causes[i].confirmed)
					copy[n++] = r->causes[i];
			memcpy(r->causes, copy, r->count * sizeof(*copy));
			free(copy);
		}
	}
	if (!any && d->root_cause && r->count > 0) {
		struct explain_cause *top = &r->causes[0];

		free(top->doctor_note);
		free(top->doctor_note_local);
		top->doctor_note = str_dupf("the doctor's root cause here is %s: %s", cause_name(d->root_cause->cause),
					    d->root_cause->title);
		top->doctor_note_local = local_note(N_("the doctor's root cause here is %s: %s"),
						    cause_name(d->root_cause->cause), d->root_cause);
	}
}

/* Findings whose evidence is an error message a program printed. */
static const enum cause_id message_findings[] = { CAUSE_TORCH_IMPORT_FAILED, CAUSE_TORCH_GPU_COMPUTE_FAILED };

static void annotate(struct finding *f, const struct explain_cause *c)
{
	char *detail = str_dupf("%s The message reads as %s: %s.", f->detail ? f->detail : "", cause_name(c->cause),
				c->title);
	char *local = NULL;

	/* the localized detail gets the same sentence, localized (made before the English detail changes) */
	if (i18n_active())
		local = str_dupf(_("%s The message reads as %s: %s."),
				 f->detail_local ? f->detail_local : i18n_text(f->detail ? f->detail : ""),
				 cause_name(c->cause), c->title_local ? c->title_local : i18n_text(c->title));
	free(f->detail);
	f->detail = detail;
	if (local) {
		free(f->detail_local);
		f->detail_local = local;
	}
	for (int i = 0; i < c->nfix && f->nfix < FINDING_MAX_FIX; i++)
		if (!c->fix[i].command || !findings_fix_has(f, c->fix[i].command))
			finding_fix_text(f, c->fix[i].command, c->fix[i].text, c->fix[i].text_local);
}

/*
 * See join.h. Edits the findings of d in place (detail, fix steps); a finding is annotated only when the
 * message reads as another cause with confidence of 30 or more. Opens and closes a scanner per finding.
 */
void explain_annotate_findings(struct diagnosis *d)
{
	for (size_t k = 0; k < sizeof(message_findings) / sizeof(message_findings[0]); k++) {
		struct finding *f = findings_find(&d->findings, message_findings[k]);
		struct explain_scanner *s;
		struct explain_report r;
		struct error err;

		if (!f || f->nevidence == 0 || !(s = explain_open(&err)))
			continue;
		/* the last evidence is the message the run printed */
		explain_feed_text(s, f->evidence[f->nevidence - 1].value, strlen(f->evidence[f->nevidence - 1].value),
				  "deep probe", &err);
		if (explain_rank(s, &r) == 0) {
			if (r.count > 0 && r.causes[0].confidence >= 30 && r.causes[0].cause != f->cause)
				annotate(f, &r.causes[0]);
			explain_report_release(&r);
		}
		explain_close(s);
	}
}
