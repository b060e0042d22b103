/*
 * fix_markdown.c - `gpudoctor fix --format markdown`: the plan and its
 * alternatives for a bug report or a wiki page. Raw Markdown; the caller
 * escapes it for a terminal.
 */
#include <string.h>

#include "report/report_fix.h"
#include "util/i18n.h"

static void md_steps(FILE *out, const struct plan_path *p)
{
	for (int i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];

		fprintf(out, "%d. %s%s\n", i + 1, plan_text(s->why, s->why_local), s->root ? _(" (as root)") : "");
		if (s->command[0])
			fprintf(out, "   ```sh\n   %s\n   ```\n", s->command);
		if (s->content[0]) {
			const char *line = s->content;

			fprintf(out, "   In `%s`:\n   ```toml\n", s->file);
			while (*line) {
				size_t n = strcspn(line, "\n");

				fprintf(out, "%s%.*s\n", n ? "   " : "", (int)n, line);
				line += n + (line[n] == '\n');
			}
			fprintf(out, "   ```\n");
		}
	}
}

/* See report_fix.h. */
void report_markdown_fix(FILE *out, const struct fix_report *r)
{
	const struct plan *pl = &r->plan;
	const struct finding *lead = r->root ? r->root : r->naddressed ? r->addressed[0] : NULL;

	if (r->nothing_to_fix) {
		fprintf(out, "## gpudoctor fix\n\nNothing to fix: no error finding on this machine.\n");
		return;
	}
	fprintf(out, "## gpudoctor fix: %s%s%s%s\n\n", lead ? finding_text(lead->title, lead->title_local) : _("a working PyTorch"), lead ? " (`" : "",
		lead ? cause_name(lead->cause) : "", lead ? "`)" : "");
	if (pl->npaths == 0) {
		fprintf(out, _("No plan: %s."), pl->note[0] ? i18n_text(pl->note) : _("the tables offer no way for this machine"));
		fputc('\n', out);
		return;
	}
	fprintf(out, "### %s%s\n\n%s\n\n", _("Plan: "), plan_text(pl->paths[0].title, pl->paths[0].title_local),
		plan_text(pl->paths[0].tradeoff, pl->paths[0].tradeoff_local));
	md_steps(out, &pl->paths[0]);
	if (pl->paths[0].nchecks) {
		fprintf(out, "\nChecks:\n\n| check | state | detail |\n|---|---|---|\n");
		for (int i = 0; i < pl->paths[0].nchecks; i++)
			fprintf(out, "| %s | %s | %s |\n", pl->paths[0].checks[i].what,
				plan_check_state_name(pl->paths[0].checks[i].state),
				plan_text(pl->paths[0].checks[i].detail, pl->paths[0].checks[i].detail_local));
	}
	if (pl->npaths > 1)
		fprintf(out, "\n### Alternatives (each instead of the plan)\n");
	for (int a = 1; a < pl->npaths; a++) {
		fprintf(out, "\n#### %c. %s\n\n%s\n\n", 'A' + a - 1, plan_text(pl->paths[a].title, pl->paths[a].title_local),
			plan_text(pl->paths[a].tradeoff, pl->paths[a].tradeoff_local));
		md_steps(out, &pl->paths[a]);
	}
	fprintf(out, "\n_gpudoctor fix only prints: nothing was run._\n");
}
