#include "rules/finding.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/str.h"

static bool reserve(struct findings *list, size_t more)
{
	size_t cap = list->cap ? list->cap : 16;
	struct finding *items;

	if (list->count + more <= list->cap)
		return true;
	while (cap < list->count + more)
		cap *= 2;
	items = realloc(list->items, cap * sizeof(*items));
	if (!items)
		return false;
	list->items = items;
	list->cap = cap;
	return true;
}

/*
 * See finding.h. The pointer is valid only until the next add to or removal from list: the array may move.
 * The title is NULL when its formatting ran out of memory; the finding is kept all the same.
 */
struct finding *findings_add(struct findings *list, enum cause_id cause, enum severity sev,
			     const char *title_fmt, ...)
{
	struct finding *f;
	va_list ap, local;

	if (!reserve(list, 1))
		return NULL;
	f = &list->items[list->count++];
	memset(f, 0, sizeof(*f));
	f->cause = cause;
	f->severity = sev;
	f->stage = cause_get(cause)->stage;
	f->gpu = -1;
	va_start(ap, title_fmt);
	f->title = str_vdupf(title_fmt, ap);
	va_end(ap);
	if (i18n_active()) {
		va_start(local, title_fmt);
		f->title_local = i18n_local_vdupf(f->title, title_fmt, local);
		va_end(local);
	}
	return f;
}

/* See finding.h. */
void finding_gpu(struct finding *f, int gpu)
{
	if (f)
		f->gpu = gpu;
}

/* Overrides the stage findings_add took from the cause registry; NULL f is ignored. */
void finding_stage(struct finding *f, enum stage stage)
{
	if (f)
		f->stage = stage;
}

/* Free the text in *slot and put a formatted copy there, owned by the finding. */
static void replace_text(char **slot, const char *fmt, va_list ap)
{
	free(*slot);
	*slot = str_vdupf(fmt, ap);
}

/* The same for the localized copy (NULL unless a translation is active), after replace_text. */
static void replace_local(char **slot, const char *english, const char *fmt, va_list ap)
{
	free(*slot);
	*slot = i18n_local_vdupf(english, fmt, ap);
}

/* Replace the detail (the old one is freed) with a formatted copy f owns; NULL f is ignored. */
void finding_detail(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	replace_text(&f->detail, fmt, ap);
	va_end(ap);
	if (i18n_active() || f->detail_local) {
		va_start(ap, fmt);
		replace_local(&f->detail_local, f->detail, fmt, ap);
		va_end(ap);
	}
}

/* See finding.h. Replaces an earlier summary; NULL f is ignored. */
void finding_summary(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	replace_text(&f->summary, fmt, ap);
	va_end(ap);
	if (i18n_active() || f->summary_local) {
		va_start(ap, fmt);
		replace_local(&f->summary_local, f->summary, fmt, ap);
		va_end(ap);
	}
}

/*
 * Add a row of evidence; fact and source (NULL for "") are copied, value formatted; f owns all three.
 * Past FINDING_MAX_EVIDENCE the row is only counted in evidence_dropped. NULL f is ignored.
 */
void finding_evidence(struct finding *f, const char *fact, const char *source, const char *value_fmt, ...)
{
	struct evidence *e;
	va_list ap;

	if (!f)
		return;
	if (f->nevidence >= FINDING_MAX_EVIDENCE) {
		f->evidence_dropped++;
		return;
	}
	e = &f->evidence[f->nevidence++];
	e->fact = str_dup(fact);
	e->source = str_dup(source ? source : "");
	va_start(ap, value_fmt);
	e->value = str_vdupf(value_fmt, ap);
	va_end(ap);
	if (i18n_active()) {
		va_start(ap, value_fmt);
		e->value_local = i18n_local_vdupf(e->value, value_fmt, ap);
		va_end(ap);
	}
}

static void add_fix(struct finding *f, int alt, const char *command, const char *fmt, va_list ap, va_list *local)
{
	struct fix_step *s;

	if (f->nfix >= FINDING_MAX_FIX || alt < 0 || alt > f->nalt) {
		f->fix_dropped++;
		return;
	}
	s = &f->fix[f->nfix++];
	s->command = command ? str_dup(command) : NULL;
	s->text = str_vdupf(fmt, ap);
	s->text_local = local ? i18n_local_vdupf(s->text, fmt, *local) : NULL;
	s->alt = alt;
}

/*
 * Add a fix step to the group being filled (the fix, or the alternative finding_alternative started);
 * command (may be NULL: text only) is copied, text formatted; f owns both. Past FINDING_MAX_FIX the step is
 * only counted in fix_dropped. NULL f is ignored.
 */
void finding_fix(struct finding *f, const char *command, const char *text_fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, text_fmt);
	if (i18n_active()) {
		va_list local;

		va_start(local, text_fmt);
		add_fix(f, f->filling, command, text_fmt, ap, &local);
		va_end(local);
	} else {
		add_fix(f, f->filling, command, text_fmt, ap, NULL);
	}
	va_end(ap);
}

/* See finding.h; alt 0 is the fix itself, alt k the k-th alternative (which must have been started). */
void finding_fix_alt(struct finding *f, int alt, const char *command, const char *text_fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, text_fmt);
	if (i18n_active()) {
		va_list local;

		va_start(local, text_fmt);
		add_fix(f, alt, command, text_fmt, ap, &local);
		va_end(local);
	} else {
		add_fix(f, alt, command, text_fmt, ap, NULL);
	}
	va_end(ap);
}

/* See finding.h. Past FINDING_MAX_ALTS the title is dropped and the steps that follow are only counted. */
void finding_alternative(struct finding *f, const char *title_fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	if (f->nalt >= FINDING_MAX_ALTS) {
		f->filling = -1;	/* steps from here on are dropped */
		return;
	}
	va_start(ap, title_fmt);
	f->alt_titles[f->nalt] = str_vdupf(title_fmt, ap);
	va_end(ap);
	if (i18n_active()) {
		va_start(ap, title_fmt);
		f->alt_titles_local[f->nalt] = i18n_local_vdupf(f->alt_titles[f->nalt], title_fmt, ap);
		va_end(ap);
	}
	f->nalt++;
	f->filling = f->nalt;
}

/* A copy of local for a text that reads english, NULL when there is none or it reads the same. */
static char *local_copy(const char *english, const char *local)
{
	return local && local[0] && (!english || strcmp(english, local) != 0) ? str_dup(local) : NULL;
}

/* See finding.h. */
void finding_fix_text(struct finding *f, const char *command, const char *text, const char *local)
{
	struct fix_step *s;

	if (!f)
		return;
	if (f->nfix >= FINDING_MAX_FIX || f->filling < 0 || f->filling > f->nalt) {
		f->fix_dropped++;
		return;
	}
	s = &f->fix[f->nfix++];
	s->command = command ? str_dup(command) : NULL;
	s->text = str_dup(text);
	s->text_local = local_copy(text, local);
	s->alt = f->filling;
}

/* See finding.h. */
void finding_alternative_text(struct finding *f, const char *title, const char *local)
{
	if (!f)
		return;
	if (f->nalt >= FINDING_MAX_ALTS) {
		f->filling = -1;
		return;
	}
	f->alt_titles[f->nalt] = str_dup(title);
	f->alt_titles_local[f->nalt] = local_copy(title, local);
	f->nalt++;
	f->filling = f->nalt;
}

/* Replace *slot with a copy of local (NULL stays NULL). */
static void set_local(char **slot, const char *local)
{
	free(*slot);
	*slot = local ? str_dup(local) : NULL;
}

/* See finding.h. */
void finding_last_evidence_local(struct finding *f, const char *local)
{
	if (f && f->nevidence > 0)
		set_local(&f->evidence[f->nevidence - 1].value_local, local);
}

/* See finding.h. */
void finding_last_fix_local(struct finding *f, const char *local)
{
	if (f && f->nfix > 0)
		set_local(&f->fix[f->nfix - 1].text_local, local);
}

/* See finding.h. */
void finding_last_alternative_local(struct finding *f, const char *local)
{
	if (f && f->nalt > 0)
		set_local(&f->alt_titles_local[f->nalt - 1], local);
}

static void add_link(enum cause_id *list, int *n, enum cause_id cause)
{
	if (*n < FINDING_MAX_LINKS)
		list[(*n)++] = cause;
}

/* Ask reconcile to merge f into the first finding of target. Past FINDING_MAX_LINKS ignored; NULL f too. */
void finding_joins(struct finding *f, enum cause_id target)
{
	if (f)
		add_link(f->links.joins, &f->links.njoins, target);
}

/* f goes when a finding of other remains. Past FINDING_MAX_LINKS silently ignored; NULL f is ignored. */
void finding_unless(struct finding *f, enum cause_id other)
{
	if (f)
		add_link(f->links.unless, &f->links.nunless, other);
}

/* f removes the findings of other. Past FINDING_MAX_LINKS silently ignored; NULL f is ignored. */
void finding_withdraws(struct finding *f, enum cause_id other)
{
	if (f)
		add_link(f->links.withdraws, &f->links.nwithdraws, other);
}

/* f goes when any error-severity finding remains after the other steps; NULL f is ignored. */
void finding_unless_errors(struct finding *f)
{
	if (f)
		f->links.unless_errors = true;
}

/* The first finding of cause in list order, borrowed from list; NULL when there is none. */
const struct finding *findings_get(const struct findings *list, enum cause_id cause)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].cause == cause)
			return &list->items[i];
	return NULL;
}

/* findings_get for a caller that will modify the finding; valid until list changes size. */
struct finding *findings_find(struct findings *list, enum cause_id cause)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].cause == cause)
			return &list->items[i];
	return NULL;
}

/* Free every string f owns and zero it; f stays in its list (see findings_remove_at to take it out). */
void finding_release(struct finding *f)
{
	free(f->title);
	free(f->summary);
	free(f->detail);
	free(f->title_local);
	free(f->summary_local);
	free(f->detail_local);
	for (int j = 0; j < f->nevidence; j++) {
		free(f->evidence[j].fact);
		free(f->evidence[j].value);
		free(f->evidence[j].value_local);
		free(f->evidence[j].source);
	}
	for (int j = 0; j < f->nfix; j++) {
		free(f->fix[j].text);
		free(f->fix[j].text_local);
		free(f->fix[j].command);
	}
	for (int j = 0; j < f->nalt; j++) {
		free(f->alt_titles[j]);
		free(f->alt_titles_local[j]);
	}
	memset(f, 0, sizeof(*f));
}

/* See finding.h. Later findings shift down one place, so pointers and indices past i go stale. */
void findings_remove_at(struct findings *list, size_t i)
{
	if (i >= list->count)
		return;
	finding_release(&list->items[i]);
	memmove(&list->items[i], &list->items[i + 1], (list->count - i - 1) * sizeof(list->items[0]));
	list->count--;
}

/*
 * See finding.h. src is released either way: when list cannot grow, src's findings are freed and lost,
 * and list keeps what it had.
 */
bool findings_take(struct findings *list, struct findings *src)
{
	bool ok = src->count == 0 || reserve(list, src->count);

	if (ok && src->count > 0) {
		memcpy(list->items + list->count, src->items, src->count * sizeof(src->items[0]));
		list->count += src->count;
		src->count = 0;
	}
	findings_release(src);
	return ok;
}

/* Release every finding and the array; list is left empty and reusable. */
void findings_release(struct findings *list)
{
	for (size_t i = 0; i < list->count; i++)
		finding_release(&list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

/* Exact comparison with each step's command; steps without one never match. f and command must be non-NULL. */
bool findings_fix_has(const struct finding *f, const char *command)
{
	for (int i = 0; i < f->nfix; i++)
		if (f->fix[i].command && strcmp(f->fix[i].command, command) == 0)
			return true;
	return false;
}
