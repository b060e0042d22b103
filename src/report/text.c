/*
 * text.c - the human report: verdict and root cause first, then the other
 * findings, then a compact summary of the facts. Fits 80 columns.
 */
#include <string.h>

#include "report/report.h"
#include "report/text_facts.h"
#include "report/textfmt.h"
#include "util/i18n.h"

static const char *severity_color(enum severity s)
{
	return s == SEV_ERROR ? TF_RED : s == SEV_WARNING ? TF_YELLOW : TF_CYAN;
}

static void print_evidence(struct textfmt *t, const struct finding *f)
{
	if (f->nevidence == 0)
		return;
	tf_line(t, 2, "%s%s%s", tf_c(t, TF_DIM), _("evidence:"), tf_c(t, TF_RESET));
	for (int i = 0; i < f->nevidence; i++) {
		const struct evidence *e = &f->evidence[i];

		tf_wrapf(t, 4, 6, "%s: %s%s%s%s", i18n_text(e->fact), shown_text(e->value, e->value_local),
			 e->source[0] ? " [" : "", i18n_text(e->source), e->source[0] ? "]" : "");
	}
	if (f->evidence_dropped)
		tf_line(t, 4, _("(%d more not shown)"), f->evidence_dropped);
}

static void print_fix(struct textfmt *t, const struct finding *f)
{
	if (f->nfix == 0)
		return;
	report_fix_steps(t, f->fix, f->nfix, (const char *const *)f->alt_titles, (const char *const *)f->alt_titles_local,
			 f->nalt);
	if (f->fix_dropped)
		tf_line(t, 4, _("(%d more steps not shown)"), f->fix_dropped);
}

/* The severity's word in the text reports' language. */
static const char *severity_word(enum severity s)
{
	return s == SEV_ERROR ? _("error") : s == SEV_WARNING ? _("warning") : _("info");
}

static void print_finding(struct textfmt *t, const struct finding *f, bool full)
{
	const char *title = shown_text(f->title, f->title_local);
	const char *sev = severity_word(f->severity);
	int sev_cols = tf_width(sev) < 7 ? 7 : tf_width(sev);

	fputs(tf_c(t, severity_color(f->severity)), t->out);
	tf_pad(t, sev, 7);
	fprintf(t->out, "%s %s%s%s", tf_c(t, TF_RESET), tf_c(t, TF_BOLD), cause_name(f->cause), tf_c(t, TF_RESET));
	/* A long title goes on lines of its own rather than past the right margin. */
	if (sev_cols + 1 + (int)strlen(cause_name(f->cause)) + 2 + tf_width(title) <= t->width) {
		fprintf(t->out, "  %s\n", title);
	} else {
		fputc('\n', t->out);
		tf_wrap(t, 2, 2, title);
	}
	if (f->nblocked > 0) {
		char ids[128] = "";

		for (int i = 0; i < f->nblocked; i++) {
			strncat(ids, i ? ", " : _("follows from "), sizeof(ids) - strlen(ids) - 1);
			strncat(ids, cause_name(f->blocked_by[i]), sizeof(ids) - strlen(ids) - 1);
		}
		tf_line(t, 2, "%s%s%s", tf_c(t, TF_DIM), ids, tf_c(t, TF_RESET));
		if (!full)
			return;
	}
	if (f->detail && (full || f->severity != SEV_INFO))
		tf_wrap(t, 2, 2, shown_text(f->detail, f->detail_local));
	if (full)
		print_evidence(t, f);
	if (full || f->severity != SEV_INFO)
		print_fix(t, f);
}

/* The verdict's word ("BROKEN": verdict_name in upper case) in the text reports' language. */
static const char *verdict_word(enum verdict v, const char *upper)
{
	static const char *const words[] = {
		[VERDICT_READY] = N_("READY"), [VERDICT_DEGRADED] = N_("DEGRADED"), [VERDICT_BROKEN] = N_("BROKEN"),
		[VERDICT_NO_GPU] = N_("NO-GPU"),
	};

	return (size_t)v < sizeof(words) / sizeof(words[0]) && strcmp(words[v], upper) == 0 ? i18n_text(words[v]) : upper;
}

/*
 * Verdict and root cause first, then the other findings, then the facts. Raw text (the caller escapes it);
 * a width of 20 or less means 80.
 */
void report_text_doctor(FILE *out, const struct facts *facts, const struct diagnosis *d, const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 20 ? o->width : 80 };
	const char *vcolor = d->verdict == VERDICT_READY ? TF_GREEN : d->verdict == VERDICT_DEGRADED ? TF_YELLOW : TF_RED;
	char verdict[16];
	size_t shown = 0;

	str_upper(verdict, sizeof(verdict), verdict_name(d->verdict));
	tf_wrapf(&t, 0, 2, "%sgpudoctor: %s%s%s — %s", tf_c(&t, TF_BOLD), tf_c(&t, vcolor), verdict_word(d->verdict, verdict),
		 tf_c(&t, TF_RESET), d->summary_local[0] ? d->summary_local : d->summary);
	if (d->root_cause) {
		fprintf(out, "\n%s%s%s\n", tf_c(&t, TF_BOLD), _("root cause"), tf_c(&t, TF_RESET));
		print_finding(&t, d->root_cause, true);
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		if (f == d->root_cause)
			continue;
		if (shown++ == 0)
			fprintf(out, "\n%s%s%s\n", tf_c(&t, TF_BOLD), d->root_cause ? _("other findings") : _("findings"),
				tf_c(&t, TF_RESET));
		print_finding(&t, f, o->verbose > 0 || (!d->root_cause && f->severity == SEV_WARNING));
	}
	fprintf(out, "\n%s%s%s %s%s%s\n", tf_c(&t, TF_BOLD), _("facts"), tf_c(&t, TF_RESET), tf_c(&t, TF_DIM),
		_("(gpudoctor info for all of them)"), tf_c(&t, TF_RESET));
	text_facts_summary(&t, facts, o->verbose);
}

/* The facts summary at detail 1 + o->verbose; raw text, escaped by the caller. */
void report_text_info(FILE *out, const struct facts *facts, const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 20 ? o->width : 80 };

	text_facts_summary(&t, facts, 1 + o->verbose);
}
