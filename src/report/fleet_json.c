/*
 * fleet_json.c - a fleet view as the gpudoctor.fleet/1 document (docs/report-schema.md).
 */
#include <stdlib.h>

#include "report/report_fleet.h"
#include "version.h"

static json_t *text_or_null(const struct fleet_view *v, uint32_t id)
{
	return id ? json_text(fleet_text(v->fleet, id)) : json_null();
}

/* A GPU count as a number; every other trait as text. */
static json_t *trait_json(const struct fleet_view *v, int t, uint32_t id)
{
	if (t == FLEET_GPU_COUNT && id)
		return json_integer(strtoll(fleet_text(v->fleet, id), NULL, 10));
	return text_or_null(v, id);
}

static json_t *names(const struct fleet_view *v, const struct fleet_group *g)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < g->count; i++)
		json_array_append_new(a, json_text(fleet_text(v->fleet, fleet_node(v->fleet, g->nodes[i])->name)));
	return a;
}

/* nodes[]: every input, in the view's order (that of the verdict groups, one after the other). */
static json_t *nodes(const struct fleet_view *v)
{
	json_t *a = json_array();

	for (int k = 0; a && k < FLEET_NVERDICTS; k++) {
		for (size_t i = 0; i < v->verdict[k].count; i++) {
			const struct fleet_node *n = fleet_node(v->fleet, v->verdict[k].nodes[i]);
			json_t *o = json_pack("{s:o, s:o, s:s, s:o}", "name", json_text(fleet_text(v->fleet, n->name)),
					      "input", json_text(fleet_text(v->fleet, n->source)),
					      "verdict", fleet_verdict_name(n->verdict),
					      "root_cause", text_or_null(v, n->root_cause));

			if (!o)
				continue;
			if (n->verdict == FLEET_UNREADABLE)
				json_object_set_new(o, "why", json_text(fleet_text(v->fleet, n->why)));
			else
				for (int t = 0; t < FLEET_NTRAITS; t++)
					json_object_set_new(o, fleet_trait_key((enum fleet_trait)t), trait_json(v, t, n->trait[t]));
			json_array_append_new(a, o);
		}
	}
	return a;
}

static json_t *causes(const struct fleet_view *v)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < v->ncauses; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:I, s:o}", "id", text_or_null(v, v->causes[i].value),
						   "title", json_text(fleet_text(v->fleet, v->causes[i].title)),
						   "count", (json_int_t)v->causes[i].count, "nodes", names(v, &v->causes[i])));
	return a;
}

static json_t *drift(const struct fleet_view *v)
{
	json_t *o = json_object();

	for (int t = 0; o && t < FLEET_NTRAITS; t++) {
		json_t *values = json_array();

		for (size_t i = 0; values && i < v->drift[t].nvalues; i++) {
			const struct fleet_group *g = &v->drift[t].values[i];

			json_array_append_new(values, json_pack("{s:o, s:I, s:o}", "value", trait_json(v, t, g->value),
								"count", (json_int_t)g->count, "nodes", names(v, g)));
		}
		json_object_set_new(o, fleet_trait_key((enum fleet_trait)t), values);
	}
	return o;
}

static json_t *unreadable(const struct fleet_view *v)
{
	const struct fleet_group *g = &v->verdict[FLEET_UNREADABLE];
	json_t *a = json_array();

	for (size_t i = 0; a && i < g->count; i++) {
		const struct fleet_node *n = fleet_node(v->fleet, g->nodes[i]);

		json_array_append_new(a, json_pack("{s:o, s:o}", "input", json_text(fleet_text(v->fleet, n->source)),
						   "why", json_text(fleet_text(v->fleet, n->why))));
	}
	return a;
}

json_t *report_fleet_json(const struct fleet_view *v)
{
	json_t *counts = json_object(), *verdicts = json_object();

	for (int k = 0; counts && verdicts && k < FLEET_NVERDICTS; k++) {
		json_object_set_new(counts, fleet_verdict_name((enum fleet_verdict)k), json_integer((json_int_t)v->verdict[k].count));
		if (k != FLEET_UNREADABLE)
			json_object_set_new(verdicts, fleet_verdict_name((enum fleet_verdict)k), names(v, &v->verdict[k]));
	}
	return json_pack("{s:s, s:s, s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "schema", FLEET_SCHEMA, "version", gd_version,
			 "all_ready", fleet_view_all_ready(v), "nodes_read", (json_int_t)v->readable, "counts", counts,
			 "verdicts", verdicts, "causes", causes(v), "drift", drift(v), "unreadable", unreadable(v),
			 "nodes", nodes(v));
}
