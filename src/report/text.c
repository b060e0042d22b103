/*
 * text.c - the human report: verdict and root cause first, then the other
 * findings, then a compact summary of the facts. Fits 80 columns.
 */
#include <string.h>

#include "report/report.h"
#include "report/text_facts.h"
#include "report/textfmt.h"

static const char *severity_color(enum severity s)
{
	return s == SEV_ERROR ? TF_RED : s == SEV_WARNING ? TF_YELLOW : TF_CYAN;
}

static void print_evidence(struct textfmt *t, const struct finding *f)
{
	if (f->nevidence == 0)
		return;
	tf_line(t, 2, "%sevidence:%s", tf_c(t, TF_DIM), tf_c(t, TF_RESET));
	for (int i = 0; i < f->nevidence; i++) {
		const struct evidence *e = &f->evidence[i];

		tf_wrapf(t, 4, 6, "%s: %s%s%s%s", e->fact, e->value, e->source[0] ? " [" : "", e->source,
			 e->source[0] ? "]" : "");
	}
	if (f->evidence_dropped)
		tf_line(t, 4, "(%d more not shown)", f->evidence_dropped);
}

static void print_fix(struct textfmt *t, const struct finding *f)
{
	if (f->nfix == 0)
		return;
	report_fix_steps(t, f->fix, f->nfix, (const char *const *)f->alt_titles, f->nalt);
	if (f->fix_dropped)
		tf_line(t, 4, "(%d more steps not shown)", f->fix_dropped);
}

static void print_finding(struct textfmt *t, const struct finding *f, bool full)
{
	fprintf(t->out, "%s%-7s%s %s%s%s", tf_c(t, severity_color(f->severity)), severity_name(f->severity),
		tf_c(t, TF_RESET), tf_c(t, TF_BOLD), cause_name(f->cause), tf_c(t, TF_RESET));
	/* A long title goes on lines of its own rather than past the right margin. */
	if (8 + strlen(cause_name(f->cause)) + 2 + strlen(f->title) <= (size_t)t->width) {
		fprintf(t->out, "  %s\n", f->title);
	} else {
		fputc('\n', t->out);
		tf_wrap(t, 2, 2, f->title);
	}
	if (f->nblocked > 0) {
		char ids[128] = "";

		for (int i = 0; i < f->nblocked; i++) {
			strncat(ids, i ? ", " : "", sizeof(ids) - strlen(ids) - 1);
			strncat(ids, cause_name(f->blocked_by[i]), sizeof(ids) - strlen(ids) - 1);
		}
		tf_line(t, 2, "%sfollows from %s%s", tf_c(t, TF_DIM), ids, tf_c(t, TF_RESET));
		if (!full)
			return;
	}
	if (f->detail && (full || f->severity != SEV_INFO))
		tf_wrap(t, 2, 2, f->detail);
	if (full)
		print_evidence(t, f);
	if (full || f->severity != SEV_INFO)
		print_fix(t, f);
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
	tf_wrapf(&t, 0, 2, "%sgpudoctor: %s%s%s — %s", tf_c(&t, TF_BOLD), tf_c(&t, vcolor), verdict, tf_c(&t, TF_RESET),
		 d->summary);
	if (d->root_cause) {
		fprintf(out, "\n%sroot cause%s\n", tf_c(&t, TF_BOLD), tf_c(&t, TF_RESET));
		print_finding(&t, d->root_cause, true);
	}
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		if (f == d->root_cause)
			continue;
		if (shown++ == 0)
			fprintf(out, "\n%s%s%s\n", tf_c(&t, TF_BOLD), d->root_cause ? "other findings" : "findings",
				tf_c(&t, TF_RESET));
		print_finding(&t, f, o->verbose > 0 || (!d->root_cause && f->severity == SEV_WARNING));
	}
	fprintf(out, "\n%sfacts%s %s(gpudoctor info for all of them)%s\n", tf_c(&t, TF_BOLD), tf_c(&t, TF_RESET),
		tf_c(&t, TF_DIM), tf_c(&t, TF_RESET));
	text_facts_summary(&t, facts, o->verbose);
}

/* The facts summary at detail 1 + o->verbose; raw text, escaped by the caller. */
void report_text_info(FILE *out, const struct facts *facts, const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 20 ? o->width : 80 };

	text_facts_summary(&t, facts, 1 + o->verbose);
}
