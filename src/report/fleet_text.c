/*
 * fleet_text.c - a fleet view as text (80 columns): the counts, the nodes not ready, root causes
 * across nodes, drift, unreadable inputs.
 */
#include <stdlib.h>

#include "report/report_fleet.h"
#include "report/textfmt.h"
#include "util/i18n.h"
#include "util/str.h"

/* The headline: how many nodes, by verdict. */
static void headline(struct textfmt *t, const struct fleet_view *v)
{
	struct strbuf sb = { 0 };
	const char *color = fleet_view_all_ready(v) ? TF_GREEN : TF_RED;

	/* English plural suffixes are arguments: zh_CN swallows them with %.0s */
	strbuf_addf(&sb, _("%sgpudoctor fleet:%s %s%zu node%s%s"), tf_c(t, TF_BOLD), tf_c(t, TF_RESET), tf_c(t, color),
		    v->readable, v->readable == 1 ? "" : "s", tf_c(t, TF_RESET));
	for (int i = 0; i < FLEET_UNREADABLE; i++)
		if (v->verdict[i].count || i == FLEET_READY)	/* ": 4 ready", then ", 3 broken" */
			strbuf_addf(&sb, i == 0 ? _(": %zu %s") : _(", %zu %s"), v->verdict[i].count,
				    i18n_text(fleet_verdict_name((enum fleet_verdict)i)));
	if (v->verdict[FLEET_UNREADABLE].count)
		strbuf_addf(&sb, _("; %zu input%s unreadable"), v->verdict[FLEET_UNREADABLE].count,
			    v->verdict[FLEET_UNREADABLE].count == 1 ? "" : "s");
	tf_wrap(t, 0, 2, sb.buf ? sb.buf : "");
	strbuf_release(&sb);
}

static void section(struct textfmt *t, const char *title)
{
	fprintf(t->out, "\n%s%s%s\n", tf_c(t, TF_BOLD), title, tf_c(t, TF_RESET));
}

static void not_ready(struct textfmt *t, const struct fleet_view *v, size_t shown)
{
	if (v->verdict[FLEET_DEGRADED].count + v->verdict[FLEET_BROKEN].count + v->verdict[FLEET_NO_GPU].count == 0)
		return;
	section(t, _("not ready"));
	for (int i = FLEET_DEGRADED; i < FLEET_UNREADABLE; i++) {
		struct strbuf sb = { 0 };
		const char *name = i18n_text(fleet_verdict_name((enum fleet_verdict)i));
		int w = tf_width(name);

		if (!v->verdict[i].count)
			continue;
		/* "%-9s" by display columns: a translated verdict is CJK */
		strbuf_addf(&sb, "%s%*s (%zu) ", name, w < 9 ? 9 - w : 0, "", v->verdict[i].count);
		report_fleet_names(&sb, v, &v->verdict[i], shown);
		tf_wrap(t, 2, 4, sb.buf);
		strbuf_release(&sb);
	}
}

static void causes(struct textfmt *t, const struct fleet_view *v, size_t shown)
{
	if (!v->ncauses)
		return;
	section(t, _("root causes"));
	for (size_t i = 0; i < v->ncauses; i++) {
		const struct fleet_group *g = &v->causes[i];
		struct strbuf sb = { 0 };

		tf_wrapf(t, 2, 4, _("%zu node%s: %s%s%s — %s"), g->count, g->count == 1 ? "" : "s", tf_c(t, TF_BOLD),
			 fleet_text(v->fleet, g->value), tf_c(t, TF_RESET), report_fleet_cause_title(v, g));
		report_fleet_names(&sb, v, g, shown);
		tf_wrap(t, 4, 4, sb.buf);
		strbuf_release(&sb);
	}
}

/* "driver 550.54.15 on 30 nodes; 535.104.05 on node17, node18": the most common value first. */
static void drift(struct textfmt *t, const struct fleet_view *v, size_t shown)
{
	bool any = false;

	section(t, _("drift"));
	for (int d = 0; d < FLEET_NTRAITS; d++) {
		struct strbuf sb = { 0 };

		if (v->drift[d].nvalues < 2)
			continue;
		any = true;
		strbuf_addf(&sb, "%s ", i18n_text(fleet_trait_label((enum fleet_trait)d)));
		for (size_t i = 0; i < v->drift[d].nvalues; i++) {
			const struct fleet_group *g = &v->drift[d].values[i];

			if (i)
				strbuf_add(&sb, _("; "));
			report_fleet_value(&sb, v, (enum fleet_trait)d, g->value);
			if (i == 0 || (shown && g->count > shown)) {
				strbuf_addf(&sb, _(" on %zu node%s"), g->count, g->count == 1 ? "" : "s");
				if (i > 0) {
					strbuf_add(&sb, _(" ("));
					report_fleet_names(&sb, v, g, shown);
					strbuf_add(&sb, _(")"));
				}
			} else {
				struct strbuf names = { 0 };

				report_fleet_names(&names, v, g, shown);
				strbuf_addf(&sb, _(" on %s"), names.buf ? names.buf : "");
				strbuf_release(&names);
			}
		}
		tf_wrap(t, 2, 4, sb.buf);
		strbuf_release(&sb);
	}
	if (!any)
		tf_wrap(t, 2, 4, v->readable ? _("none: every node has the same driver, CUDA toolkit, cuDNN, torch, GPU "
						 "count and GPU models") : _("none: no node to compare"));
}

static void unreadable(struct textfmt *t, const struct fleet_view *v, size_t shown)
{
	const struct fleet_group *g = &v->verdict[FLEET_UNREADABLE];
	size_t n = shown && g->count > shown ? shown : g->count;

	if (!g->count)
		return;
	section(t, i18n_text(fleet_verdict_name(FLEET_UNREADABLE)));
	for (size_t i = 0; i < n; i++) {
		const struct fleet_node *node = fleet_node(v->fleet, g->nodes[i]);

		/* why stays English: the parser's and the system's words (not JSON, a file error) */
		tf_wrapf(t, 2, 4, _("%s: %s"), fleet_text(v->fleet, node->source), fleet_text(v->fleet, node->why));
	}
	if (n < g->count)
		tf_wrapf(t, 2, 4, _("and %zu more (-v lists them all)"), g->count - n);
}

void report_fleet_text(FILE *out, const struct fleet_view *v, const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 0 ? o->width : 80 };
	size_t shown = o->verbose ? 0 : FLEET_NAMES_SHOWN;

	headline(&t, v);
	not_ready(&t, v, shown);
	causes(&t, v, shown);
	drift(&t, v, shown);
	unreadable(&t, v, shown);
}
