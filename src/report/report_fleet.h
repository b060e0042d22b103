/*
 * report_fleet.h - a fleet view (fleet/fleet.h) as text, Markdown or JSON.
 */
#ifndef GD_REPORT_REPORT_FLEET_H
#define GD_REPORT_REPORT_FLEET_H

#include <jansson.h>
#include <stdio.h>

#include "fleet/fleet.h"
#include "report/report.h"

/* How many node names a list in text or Markdown shows before "and N more" (all with -v). */
#define FLEET_NAMES_SHOWN 8

/* Text for a terminal, at o->width columns. */
void report_fleet_text(FILE *out, const struct fleet_view *v, const struct report_opts *o);
/* Markdown: a summary line, then tables. verbose lists every node. */
void report_fleet_markdown(FILE *out, const struct fleet_view *v, int verbose);
/* The gpudoctor.fleet/1 document (docs/report-schema.md); NULL when out of memory. Caller owns it. */
json_t *report_fleet_json(const struct fleet_view *v);

/*
 * The names of g's nodes joined with ", ": at most shown (0: all), then " and N more". Into sb, which
 * the caller owns. (Shared by the text and Markdown renderers.)
 */
struct strbuf;
void report_fleet_names(struct strbuf *sb, const struct fleet_view *v, const struct fleet_group *g, size_t shown);
/* A trait's value as a person reads it: the text, or "none" (a GPU count: "unknown") for none. Into sb. */
void report_fleet_value(struct strbuf *sb, const struct fleet_view *v, enum fleet_trait t, uint32_t value);
/*
 * A root cause group's title in the text reports' language: the first node's verdict.summary (English,
 * from its JSON report) when no translation is active or the catalog has it, else the title of the cause
 * id's table row (data/causes.tsv), translated. Static or owned by v.
 */
const char *report_fleet_cause_title(const struct fleet_view *v, const struct fleet_group *g);

#endif
