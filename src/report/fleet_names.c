/*
 * fleet_names.c - node lists and trait values as people read them, for the fleet's text and Markdown.
 */
#include "report/report_fleet.h"
#include "util/i18n.h"
#include "util/str.h"

void report_fleet_names(struct strbuf *sb, const struct fleet_view *v, const struct fleet_group *g, size_t shown)
{
	size_t n = shown && g->count > shown ? shown : g->count;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", fleet_text(v->fleet, fleet_node(v->fleet, g->nodes[i])->name));
	if (n < g->count)
		strbuf_addf(sb, _(" and %zu more"), g->count - n);
}

void report_fleet_value(struct strbuf *sb, const struct fleet_view *v, enum fleet_trait t, uint32_t value)
{
	const char *text = fleet_text(v->fleet, value);

	strbuf_add(sb, *text ? text : t == FLEET_GPU_COUNT ? _("unknown") : _("none"));
}

/* See report_fleet.h. */
const char *report_fleet_cause_title(const struct fleet_view *v, const struct fleet_group *g)
{
	const char *title = fleet_text(v->fleet, g->title), *local = i18n_text(title);
	enum cause_id id;

	if (!i18n_active() || local != title)
		return local;
	/* a summary formatted with its values has no msgid: the cause's own title does */
	if (cause_by_name(fleet_text(v->fleet, g->value), &id) && cause_get(id) && cause_get(id)->title)
		return i18n_text(cause_get(id)->title);
	return title;
}
