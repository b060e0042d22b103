/*
 * fleet_markdown.c - a fleet view as Markdown, to paste into a ticket: counts, then tables of the
 * nodes not ready, root causes, drift and unreadable inputs.
 */
#include "report/report_fleet.h"
#include "util/i18n.h"
#include "util/str.h"

/* Table cells cannot hold '|' or newlines. */
static void cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

static void names_cell(FILE *out, const struct fleet_view *v, const struct fleet_group *g, size_t shown)
{
	struct strbuf sb = { 0 };

	report_fleet_names(&sb, v, g, shown);
	cell(out, sb.buf ? sb.buf : "");
	strbuf_release(&sb);
}

static void verdicts(FILE *out, const struct fleet_view *v, size_t shown)
{
	fprintf(out, "%s", _("## Verdicts\n\n| verdict | nodes | which |\n|---|---:|---|\n"));
	for (int i = 0; i < FLEET_NVERDICTS; i++) {
		fprintf(out, "| %s | %zu | ", i18n_text(fleet_verdict_name((enum fleet_verdict)i)), v->verdict[i].count);
		if (i != FLEET_READY)
			names_cell(out, v, &v->verdict[i], shown);
		fprintf(out, " |\n");
	}
}

static void causes(FILE *out, const struct fleet_view *v, size_t shown)
{
	if (!v->ncauses)
		return;
	fprintf(out, "%s", _("\n## Root causes\n\n| nodes | cause | what | which |\n|---:|---|---|---|\n"));
	for (size_t i = 0; i < v->ncauses; i++) {
		const struct fleet_group *g = &v->causes[i];

		fprintf(out, "| %zu | `", g->count);
		cell(out, fleet_text(v->fleet, g->value));
		fprintf(out, "` | ");
		cell(out, report_fleet_cause_title(v, g));
		fprintf(out, " | ");
		names_cell(out, v, g, shown);
		fprintf(out, " |\n");
	}
}

static void drift(FILE *out, const struct fleet_view *v, size_t shown)
{
	bool any = false;

	fprintf(out, "%s", _("\n## Drift\n\n"));
	for (int d = 0; d < FLEET_NTRAITS; d++) {
		if (v->drift[d].nvalues < 2)
			continue;
		if (!any)
			fprintf(out, "%s", _("| what | value | nodes | which |\n|---|---|---:|---|\n"));
		any = true;
		for (size_t i = 0; i < v->drift[d].nvalues; i++) {
			const struct fleet_group *g = &v->drift[d].values[i];
			struct strbuf sb = { 0 };

			report_fleet_value(&sb, v, (enum fleet_trait)d, g->value);
			fprintf(out, "| %s | ", i18n_text(fleet_trait_label((enum fleet_trait)d)));
			cell(out, sb.buf ? sb.buf : "");
			fprintf(out, " | %zu | ", g->count);
			if (i > 0)	/* the most common value's nodes are the rest */
				names_cell(out, v, g, shown);
			fprintf(out, " |\n");
			strbuf_release(&sb);
		}
	}
	if (!any)
		fprintf(out, "%s", _("None: the nodes agree on driver, CUDA toolkit, cuDNN, torch, GPU count and GPU models.\n"));
}

static void unreadable(FILE *out, const struct fleet_view *v, size_t shown)
{
	const struct fleet_group *g = &v->verdict[FLEET_UNREADABLE];
	size_t n = shown && g->count > shown ? shown : g->count;

	if (!g->count)
		return;
	fprintf(out, "%s", _("\n## Unreadable\n\n| input | why |\n|---|---|\n"));
	for (size_t i = 0; i < n; i++) {
		const struct fleet_node *node = fleet_node(v->fleet, g->nodes[i]);

		fprintf(out, "| ");
		cell(out, fleet_text(v->fleet, node->source));
		fprintf(out, " | ");
		cell(out, fleet_text(v->fleet, node->why));
		fprintf(out, " |\n");
	}
	if (n < g->count)
		fprintf(out, _("\nAnd %zu more.\n"), g->count - n);
}

void report_fleet_markdown(FILE *out, const struct fleet_view *v, int verbose)
{
	size_t shown = verbose ? 0 : FLEET_NAMES_SHOWN;

	fprintf(out, _("# gpudoctor fleet: %zu of %zu nodes ready\n\n"), v->verdict[FLEET_READY].count, v->readable);
	verdicts(out, v, shown);
	causes(out, v, shown);
	drift(out, v, shown);
	unreadable(out, v, shown);
}
