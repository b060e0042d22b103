/*
 * explain_text.c - `gpudoctor explain` for people: the top cause with the
 * lines that matched, why it happens and the fix; the other candidates
 * below, one line each.
 */
#include "report/report_explain.h"

#include <stdlib.h>
#include <string.h>

#include "paste/paste.h"
#include "explain/paste_merge.h"
#include "report/textfmt.h"
#include "util/dwidth.h"
#include "util/i18n.h"

/* A short block: what the paste showed, for the reader to check against the machine. */
static void print_paste(struct textfmt *t, const struct explain_report *r)
{
	const struct paste *p = r->paste;
	const struct facts *f;
	char buf[512] = "";
	size_t used = 0;
	const char *sep = _(", ");

	if (!p || !paste_saw_any(p))
		return;
	f = p->facts;
	if (paste_saw(p, PASTE_TORCH) && f->python.ntorch > 0)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "torch %s (CUDA %s)", f->python.torches[0].version,
					 f->python.torches[0].cuda[0] ? f->python.torches[0].cuda : _("none"));
	if (paste_saw(p, PASTE_DRIVER) && used < sizeof(buf)) {
		char drv[64];

		snprintf(drv, sizeof(drv), _("driver %s"), facts_driver_version(f));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? sep : "", drv);
	}
	if (paste_saw(p, PASTE_GPU) && f->pci.count > 0 && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? sep : "", f->pci.gpus[0].name);
	if (paste_saw(p, PASTE_TOOLKIT) && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%snvcc %s", used ? sep : "",
					 f->toolkits.items[0].version);
	if (paste_saw(p, PASTE_OS) && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? sep : "",
					 f->system.os_pretty[0] ? f->system.os_pretty : f->system.kernel_release);
	if (f->container.wsl && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%sWSL %d", used ? sep : "", f->container.wsl_version);
	if (f->container.in_container && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? sep : "", _("in a container"));
	if (p->cuda_available >= 0 && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%sCUDA available %s", used ? sep : "",
					 p->cuda_available ? "True" : "False");
	if (p->run_gpus >= 0 && used < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? sep : "",
			 p->run_gpus ? _("started with a GPU flag") : _("started without --gpus"));
	if (buf[0])
		/* zh_CN: no space after the full-width colon of its label */
		tf_wrapf(t, 0, 2, _("%s%s%s %s"), tf_c(t, TF_BOLD), _("from the paste:"), tf_c(t, TF_RESET), buf);
}

/* A matched line under its label ("line 8:", "FILE:8:"), broken at its spaces past the width, never inside a word. */
static void print_line(struct textfmt *t, const struct explain_report *r, const struct explain_line *l)
{
	char label[320], *text;
	int n = r->ninputs > 1 ? snprintf(label, sizeof(label), "%s:%lu:", r->inputs[l->input], l->number)
			       : snprintf(label, sizeof(label), _("line %lu:"), l->number);
	size_t size;

	if (n < 0)
		return;
	size = strlen(label) + strlen(l->text) + 32;
	if (!(text = malloc(size))) {	/* out of memory: the line as it is */
		tf_line(t, 4, "%s %s", label, l->text);
		return;
	}
	snprintf(text, size, "    %s%s%s %s", tf_c(t, TF_DIM), label, tf_c(t, TF_RESET), l->text);
	tf_reflow(t, text, 4 + dw_width(label, strlen(label)) + 1, 8);
	free(text);
}

static void print_cause(struct textfmt *t, const struct explain_report *r, const struct explain_cause *c)
{
	tf_wrapf(t, 0, 2, "%s%s%s: %s", tf_c(t, TF_BOLD), cause_name(c->cause), tf_c(t, TF_RESET), shown_text(c->title, c->title_local));
	tf_line(t, 2, _("%sconfidence %d%%%s%s"), tf_c(t, TF_DIM), c->confidence,
		c->confirmed ? _(", confirmed on this machine") : "", tf_c(t, TF_RESET));
	tf_line(t, 2, _("%s %lu line%s:"), c->from == EXPLAIN_FROM_FACTS ? _("read from") : _("matched"), c->count,
		c->count == 1 ? "" : "s");
	for (int i = 0; i < c->nlines; i++) {
		if (i == EXPLAIN_MAX_LINES - 1 && c->count > (unsigned long)EXPLAIN_MAX_LINES)
			tf_line(t, 4, "%s...%s", tf_c(t, TF_DIM), tf_c(t, TF_RESET));
		print_line(t, r, &c->lines[i]);
	}
	if (c->where[0])
		tf_wrapf(t, 2, 4, _("raised from: %s"), c->where);
	if (c->nvalues > 0) {
		char values[EXPLAIN_MAX_VALUES * 160] = "";
		size_t used = 0;

		for (int i = 0; i < c->nvalues && used < sizeof(values); i++)
			used += (size_t)snprintf(values + used, sizeof(values) - used, "%s%s=%s", i ? ", " : "",
						 c->values[i].name, c->values[i].value);
		tf_wrapf(t, 2, 4, _("values: %s"), values);
	}
	if (c->detail && c->detail[0])
		tf_wrap(t, 2, 2, shown_text(c->detail, c->detail_local));
	if (c->doctor_note)
		tf_wrapf(t, 2, 4, _("this machine: %s"), c->doctor_note_local ? c->doctor_note_local : c->doctor_note);
	if (c->paste_evidence[0] && c->from == EXPLAIN_FROM_BOTH)
		tf_wrapf(t, 2, 4, _("from the paste: %s"),
			 c->paste_evidence_local[0] ? c->paste_evidence_local : c->paste_evidence);
	if (c->settled > 0)
		tf_wrapf(t, 2, 4, _("the paste settles it: %d other usual cause%s of what was seen left out"), c->settled,
			 c->settled == 1 ? "" : "s");
	{
		char missing[256];

		if (explain_paste_missing(r, c, true, missing, sizeof(missing)))
			tf_wrapf(t, 2, 4, _("not in the paste: %s (the output of `python -m torch.utils.collect_env` settles it)"),
				 missing);
	}
	if (c->nchecks > 0) {
		tf_line(t, 2, "%s", c->suggested ? _("tell it apart:") : _("confirm it, and rule out the alternatives:"));
		for (int i = 0; i < c->nchecks; i++) {
			const char *a = c->checks[i].answers;

			tf_line(t, 4, "$ %s", c->checks[i].command);
			while (*a) {
				const char *sep = strstr(a, " || ");
				int len = sep ? (int)(sep - a) : (int)strlen(a);
				char one[512];

				/* each answer is a message of its own (tools/data2pot.awk's lists) */
				snprintf(one, sizeof(one), "%.*s", len, a);
				tf_wrapf(t, 6, 8, "- %s", i18n_text(one));
				a += len + (sep ? 4 : 0);
			}
		}
	}
	if (c->nfix > 0)
		report_fix_steps(t, c->fix, c->nfix, (const char *const *)c->alt_titles,
				 (const char *const *)c->alt_titles_local, c->nalt);
	tf_wrapf(t, 2, 4, _("%ssource: %s%s"), tf_c(t, TF_DIM), c->source, tf_c(t, TF_RESET));
}

/* "most likely X — also possible: Y (check: ...), Z (check: ...)": the causes the differential offers beside the top one. */
static void print_differential(struct textfmt *t, const struct explain_report *r)
{
	char line[2048];
	size_t used = 0;
	int shown = 0;

	for (size_t i = 1; i < r->count && shown < 4; i++) {
		const struct explain_cause *c = &r->causes[i];

		if (c->nchecks == 0 || used >= sizeof(line))
			continue;
		used += (size_t)snprintf(line + used, sizeof(line) - used, _("%s%s (%d%%; check: %s)"), shown ? ", " : "",
					 cause_name(c->cause), c->confidence, c->checks[0].command);
		shown++;
	}
	if (shown == 0)
		return;
	tf_wrapf(t, 0, 4, _("most likely %s \xe2\x80\x94 also possible: %s"), cause_name(r->causes[0].cause), line);
	fputc('\n', t->out);
}

/* "ruled out by the paste: torch.cpu-only (line 3 shows torch 2.1.0+cu121, ...)": what the paste's facts removed. */
static void print_ruled_out(struct textfmt *t, const struct explain_report *r)
{
	for (int i = 0; i < r->nruled_out;) {
		const struct explain_ruled_out *o = &r->ruled_out[i];
		char ids[512];
		size_t used = 0;

		/* the causes one fact rules out, on one line */
		for (; i < r->nruled_out && strcmp(r->ruled_out[i].by, o->by) == 0; i++)
			used += (size_t)snprintf(ids + used, used < sizeof(ids) ? sizeof(ids) - used : 0, "%s%s",
						 used ? _(", ") : "", cause_name(r->ruled_out[i].cause));
		tf_wrapf(t, 0, 4, _("ruled out by the paste: %s (%s)"), ids, o->by_local[0] ? o->by_local : o->by);
	}
	if (r->nruled_out > 0)
		fputc('\n', t->out);
}

/*
 * Writes raw text, escaped later by the caller (cmd_out_close). Reads input names that r borrows from the
 * scanner: call before explain_close. Stream errors are the caller's.
 */
void report_text_explain(FILE *out, const struct explain_report *r, const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 0 ? o->width : 80 };

	if (r->count == 0) {
		fprintf(out, _("gpudoctor explain: no known GPU error in %llu line%s (%llu bytes)\n"), r->lines,
			r->lines == 1 ? "" : "s", r->bytes);
		fprintf(out, "%s", _("Run `gpudoctor` to check this machine's GPU stack.\n"));
		return;
	}
	if (explain_recognised(r))
		fprintf(out, _("gpudoctor explain: %s%s%s\n\n"), tf_c(&t, TF_BOLD), cause_name(r->causes[0].cause), tf_c(&t, TF_RESET));
	else {	/* only guesses from what the text speaks of */
		fprintf(out, _("gpudoctor explain: no known GPU error in %llu line%s (%llu bytes)\n"), r->lines,
			r->lines == 1 ? "" : "s", r->bytes);
		tf_wrapf(&t, 0, 4, _("a guess from what the text speaks of: %s%s%s"), tf_c(&t, TF_BOLD),
			 cause_name(r->causes[0].cause), tf_c(&t, TF_RESET));
		fputc('\n', out);
	}
	print_differential(&t, r);
	print_ruled_out(&t, r);
	fprintf(out, "%s%s%s\n", tf_c(&t, TF_BOLD), r->causes[0].guessed ? _("a guess") : _("most likely cause"),
		tf_c(&t, TF_RESET));
	print_cause(&t, r, &r->causes[0]);
	if (r->count > 1) {
		fprintf(out, "\n%s%s%s\n", tf_c(&t, TF_BOLD), _("other candidates"), tf_c(&t, TF_RESET));
		for (size_t i = 1; i < r->count; i++) {
			const struct explain_cause *c = &r->causes[i];

			if (o->verbose) {
				print_cause(&t, r, c);
				fputc('\n', out);
				continue;
			}
			tf_wrapf(&t, 0, 4, _("%s: %s %s(%d%%, line %lu)%s"), cause_name(c->cause), shown_text(c->title, c->title_local), tf_c(&t, TF_DIM), c->confidence,
				 c->nlines ? c->lines[0].number : 0, tf_c(&t, TF_RESET));
		}
		if (!o->verbose)
			fprintf(out, "%s%s%s\n", tf_c(&t, TF_DIM), _("(-v shows each candidate in full)"), tf_c(&t, TF_RESET));
	}
	if (r->paste && paste_saw_any(r->paste))
		fputc('\n', out);
	print_paste(&t, r);
	fprintf(out, _("\n%sscanned %llu line%s, %llu bytes%s\n"), tf_c(&t, TF_DIM), r->lines, r->lines == 1 ? "" : "s",
		r->bytes, tf_c(&t, TF_RESET));
}
