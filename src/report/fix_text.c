/*
 * fix_text.c - `gpudoctor fix` for people: the problem, the plan as one
 * numbered path, what it was checked for, then the alternatives, each a
 * whole path instead of the plan, and what was not offered and why.
 */
#include <string.h>

#include "report/report_fix.h"
#include "report/textfmt.h"
#include "util/i18n.h"

static const char *check_mark(enum check_state st)
{
	return st == CHECK_PASS ? _("ok") : st == CHECK_FAIL ? _("FAIL") : _("not checked");
}

/* A file's lines, indented under the step. */
static void print_content(struct textfmt *t, const char *content)
{
	const char *line = content;

	while (*line) {
		size_t n = strcspn(line, "\n");

		fprintf(t->out, "%*s%s%.*s%s\n", 9, "", tf_c(t, TF_GREEN), (int)n, line, tf_c(t, TF_RESET));
		line += n;
		if (*line == '\n')
			line++;
	}
}

static void print_step(struct textfmt *t, int n, const struct plan_step *s)
{
	tf_wrapf(t, 2, 6, "%d. %s%s", n, plan_text(s->why, s->why_local), s->root ? _(" (as root)") : "");
	if (s->command[0])
		tf_line(t, 6, "%s$ %s%s", tf_c(t, TF_GREEN), s->command, tf_c(t, TF_RESET));
	if (s->file[0])
		tf_line(t, 6, _("in %s:"), s->file);
	if (s->content[0])
		print_content(t, s->content);
}

static void print_checks(struct textfmt *t, const struct plan_path *p)
{
	if (p->nchecks == 0)
		return;
	tf_line(t, 2, "%s%s%s", tf_c(t, TF_DIM), _("checks:"), tf_c(t, TF_RESET));
	for (int i = 0; i < p->nchecks; i++)
		tf_wrapf(t, 4, 6, "[%s] %s: %s", check_mark(p->checks[i].state), p->checks[i].what,
			 plan_text(p->checks[i].detail, p->checks[i].detail_local));
}

/* Whether the first n steps of a are those of b. */
static bool shares(const struct plan_path *a, const struct plan_path *b, int n)
{
	if (a->nsteps < n || b->nsteps < n)
		return false;
	for (int i = 0; i < n; i++)
		if (strcmp(a->steps[i].command, b->steps[i].command) != 0 || strcmp(a->steps[i].why, b->steps[i].why) != 0)
			return false;
	return true;
}

/* "2x A100 PCIe 80GB (8.0), RTX 4090 (8.9)": equal GPUs counted once. */
static void gpu_list(const struct plan_machine *m, char *out, size_t outsz)
{
	out[0] = '\0';
	for (int i = 0; i < m->nccs; i++) {
		int n = 0, seen = 0;

		for (int k = 0; k < m->nccs; k++) {
			bool same = strcmp(m->gpu_names[k], m->gpu_names[i]) == 0 && strcmp(m->ccs[k], m->ccs[i]) == 0;

			n += same;
			seen += same && k < i;
		}
		if (seen)
			continue;
		snprintf(out + strlen(out), outsz - strlen(out), "%s%.0d%s", out[0] ? ", " : "", n > 1 ? n : 0, n > 1 ? "x " : "");
		snprintf(out + strlen(out), outsz - strlen(out), _("%s (compute capability %s)"),
			 m->gpu_names[i][0] ? m->gpu_names[i] : "GPU", m->ccs[i]);
	}
}

/* Whether p has the same step (command and why): an alternative's closing checks are usually the plan's. */
static bool has_step(const struct plan_path *p, const struct plan_step *s)
{
	for (int i = 0; i < p->nsteps; i++)
		if (strcmp(p->steps[i].command, s->command) == 0 && strcmp(p->steps[i].why, s->why) == 0)
			return true;
	return false;
}

static void print_machine(struct textfmt *t, const struct fix_report *r)
{
	const struct plan_machine *m = &r->machine;
	char gpus[512], python[FACT_PATH + 64], driver[64], line[sizeof(gpus) + sizeof(python) + sizeof(driver) + 16];

	gpu_list(m, gpus, sizeof(gpus));
	snprintf(python, sizeof(python), "%s", _("no Python found"));
	if (m->env && m->env->kind == PY_SYSTEM)
		snprintf(python, sizeof(python), _("Python %s at %s (the system's)"), m->env->version, m->env->exe);
	else if (m->env)
		snprintf(python, sizeof(python), _("Python %s at %s"), m->env->version, m->env->exe);
	snprintf(driver, sizeof(driver), _("driver %s"), m->driver ? m->driver : _("none"));
	snprintf(line, sizeof(line), _("%s; %s; %s"), python, driver,
		 gpus[0] ? gpus : _("no GPU with a known compute capability"));
	tf_wrapf(t, 2, 4, "%s%s%s", tf_c(t, TF_DIM), line, tf_c(t, TF_RESET));
}

/* See report_fix.h. */
void report_text_fix(FILE *out, const struct fix_report *r, const struct report_opts *o)
{
	struct textfmt tf = { out, o->color, o->width }, *t = &tf;
	const struct plan *pl = &r->plan;

	if (r->nothing_to_fix) {
		fprintf(out, "%s\n", _("gpudoctor fix: nothing to fix: no error finding on this machine."));
		for (int i = 0; i < r->nalso; i++)
			tf_wrapf(t, 2, 4, _("warning %s: %s (`gpudoctor` shows its fix)"), cause_name(r->also[i]->cause),
				 finding_text(r->also[i]->title, r->also[i]->title_local));
		return;
	}
	{
		/* the root cause, or (only warnings) the first finding the plan addresses */
		const struct finding *lead = r->root ? r->root : r->naddressed ? r->addressed[0] : NULL;

		tf_wrapf(t, 0, 2, "%sgpudoctor fix:%s %s%s%s%s", tf_c(t, TF_BOLD), tf_c(t, TF_RESET),
			 lead ? finding_text(lead->title, lead->title_local) : _("a working PyTorch"), lead ? " [" : "", lead ? cause_name(lead->cause) : "",
			 lead ? "]" : "");
	}
	print_machine(t, r);
	if (pl->npaths == 0) {
		fputc('\n', out);
		tf_wrapf(t, 0, 2, _("No plan: %s."), pl->note[0] ? i18n_text(pl->note) :
			 _("the tables offer no way for this machine"));
	} else {
		const struct plan_path *p = &pl->paths[0];

		fputc('\n', out);
		tf_wrapf(t, 0, 6, "%s%s%s%s", tf_c(t, TF_BOLD), _("Plan: "), tf_c(t, TF_RESET), plan_text(p->title, p->title_local));
		tf_wrapf(t, 6, 6, "%s%s%s", tf_c(t, TF_DIM), plan_text(p->tradeoff, p->tradeoff_local), tf_c(t, TF_RESET));
		for (int i = 0; i < p->nsteps; i++)
			print_step(t, i + 1, &p->steps[i]);
		print_checks(t, p);
	}
	if (pl->npaths > 1) {
		fputc('\n', out);
		tf_wrapf(t, 0, 2, "%s%s%s%s", tf_c(t, TF_BOLD), _("Alternatives"), tf_c(t, TF_RESET),
			 _(", each instead of the plan:"));
		for (int a = 1; a < pl->npaths; a++) {
			const struct plan_path *p = &pl->paths[a];
			int from = r->nshared > 0 && shares(p, &pl->paths[0], r->nshared) ? r->nshared : 0;

			fputc('\n', out);
			tf_wrapf(t, 0, 5, "%s%c.%s %s", tf_c(t, TF_BOLD), 'A' + a - 1, tf_c(t, TF_RESET),
				 plan_text(p->title, p->title_local));
			tf_wrapf(t, 5, 5, "%s%s%s", tf_c(t, TF_DIM), plan_text(p->tradeoff, p->tradeoff_local), tf_c(t, TF_RESET));
			if (from == 1)
				tf_line(t, 2, "%s", _("step 1 as in the plan, then:"));
			else if (from)
				tf_line(t, 2, _("steps 1-%d as in the plan, then:"), from);
			for (int i = from; i < p->nsteps; i++) {
				if (p->steps[i].kind == STEP_VERIFY && has_step(&pl->paths[0], &p->steps[i])) {
					tf_line(t, 2, _("%d. the plan's checks"), i + 1);
					break;
				}
				print_step(t, i + 1, &p->steps[i]);
			}
			if (o->verbose)
				print_checks(t, p);
		}
	}
	if (pl->nrejected && (o->verbose || pl->npaths == 0)) {
		fputc('\n', out);
		tf_line(t, 0, "%s", _("Not offered (failed a check):"));
		for (int i = 0; i < pl->nrejected; i++) {
			const struct plan_rejected *rj = &pl->rejected[i];

			tf_wrapf(t, 2, 4, "- %s: %s", rj->title[0] ? plan_text(rj->title, rj->title_local) : rj->id,
				 plan_text(rj->failed, rj->failed_local));
		}
	}
	if (pl->nunknown) {
		fputc('\n', out);
		tf_line(t, 0, "%s", _("Newer releases not judged for lack of data:"));
		for (int i = 0; i < pl->nunknown; i++) {
			/* "2.13.0 cu129: no data on its architectures": the sentence after ": " is kb's, N_-marked */
			const char *colon = strstr(pl->unknown[i], ": ");

			if (colon)
				tf_wrapf(t, 2, 4, _("- %.*s: %s"), (int)(colon - pl->unknown[i]), pl->unknown[i],
					 i18n_text(colon + 2));
			else
				tf_wrapf(t, 2, 4, "- %s", pl->unknown[i]);
		}
	}
	if (r->nalso) {
		fputc('\n', out);
		tf_line(t, 0, "%s", _("Also (warnings the plan leaves; `gpudoctor` shows their fixes):"));
		for (int i = 0; i < r->nalso; i++)
			tf_wrapf(t, 2, 4, "- %s: %s", cause_name(r->also[i]->cause),
				 finding_text(r->also[i]->title, r->also[i]->title_local));
	}
	if (pl->npaths > 0) {
		fputc('\n', out);
		tf_wrapf(t, 0, 0, "%s%s%s", tf_c(t, TF_DIM), _("gpudoctor fix only prints: nothing was run. `gpudoctor fix "
			 "--script` writes the plan as a bash script."), tf_c(t, TF_RESET));
	}
}
