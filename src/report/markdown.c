/*
 * markdown.c - a report ready to paste into a bug report or issue.
 */
#include <string.h>

#include "report/report.h"
#include "report/text_facts.h"
#include "report/textfmt.h"
#include "util/i18n.h"
#include "version.h"

/* Table cells cannot hold '|' or newlines. */
static void cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

static void facts_block(FILE *out, const struct facts *facts, int detail)
{
	struct textfmt t = { out, false, 100 };

	fprintf(out, "```text\n");
	text_facts_summary(&t, facts, detail);
	fprintf(out, "```\n");
}

static void finding_section(FILE *out, const struct finding *f)
{
	fprintf(out, "\n#### `%s` (%s): %s\n\n", cause_name(f->cause), severity_name(f->severity), shown_text(f->title, f->title_local));
	if (f->nblocked)
		fprintf(out, _("_Follows from `%s`._\n\n"), cause_name(f->blocked_by[0]));
	if (f->detail)
		fprintf(out, "%s\n", shown_text(f->detail, f->detail_local));
	if (f->nevidence) {
		fprintf(out, "\n%s\n", _("Evidence:"));
		for (int i = 0; i < f->nevidence; i++)
			fprintf(out, "- %s: %s%s%s%s\n", i18n_text(f->evidence[i].fact),
				shown_text(f->evidence[i].value, f->evidence[i].value_local),
				f->evidence[i].source[0] ? " (`" : "", i18n_text(f->evidence[i].source),
				f->evidence[i].source[0] ? "`)" : "");
		if (f->evidence_dropped)
			fprintf(out, _("- (%d more not shown)\n"), f->evidence_dropped);
	}
	if (f->nfix) {
		for (int alt = 0; alt <= f->nalt; alt++) {
			int n = 0;

			if (alt == 0)
				fprintf(out, "\n%s\n", _("Fix:"));
			else
				fprintf(out, _("\nOr instead, %s:\n"), shown_text(f->alt_titles[alt - 1], f->alt_titles_local[alt - 1]));
			for (int i = 0; i < f->nfix; i++) {
				if (f->fix[i].alt != alt)
					continue;
				fprintf(out, "%d. %s\n", ++n, shown_text(f->fix[i].text, f->fix[i].text_local));
				if (f->fix[i].command)
					fprintf(out, "   ```sh\n   %s\n   ```\n", f->fix[i].command);
			}
		}
		if (f->fix_dropped)
			fprintf(out, _("\n(%d more steps not shown)\n"), f->fix_dropped);
	}
}

/*
 * Writes raw Markdown (the caller escapes it for the terminal): a findings table, a section per non-info
 * finding (or for a lone one), then the facts. Only '|' and newlines are escaped inside table cells.
 */
void report_markdown_doctor(FILE *out, const struct facts *facts, const struct diagnosis *d)
{
	fprintf(out, _("## gpudoctor report\n\n**Verdict:** %s"), verdict_name(d->verdict));
	if (d->root_cause)
		fprintf(out, _(" (root cause `%s`)"), cause_name(d->root_cause->cause));
	fprintf(out, ": %s\n", d->summary_local[0] ? d->summary_local : d->summary);
	if (d->findings.count) {
		fprintf(out, "%s", _("\n| severity | id | finding |\n|---|---|---|\n"));
		for (size_t i = 0; i < d->findings.count; i++) {
			const struct finding *f = &d->findings.items[i];

			fprintf(out, "| %s | `%s` | ", severity_name(f->severity), cause_name(f->cause));
			cell(out, shown_text(f->title, f->title_local));
			fprintf(out, " |\n");
		}
		for (size_t i = 0; i < d->findings.count; i++)
			if (d->findings.items[i].severity != SEV_INFO || d->findings.count == 1)
				finding_section(out, &d->findings.items[i]);
	}
	fprintf(out, "%s", _("\n### Facts\n\n"));
	facts_block(out, facts, 1);
	fprintf(out, "\n_gpudoctor %s_\n", gd_version);
}

/* The facts at full detail, as Markdown; raw text, escaped by the caller for the terminal. */
void report_markdown_info(FILE *out, const struct facts *facts)
{
	fprintf(out, "## gpudoctor info\n\n");
	facts_block(out, facts, 2);
	fprintf(out, "\n_gpudoctor %s_\n", gd_version);
}
