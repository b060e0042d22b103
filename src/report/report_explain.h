/*
 * report_explain.h - renderers for `gpudoctor explain`.
 */
#ifndef GD_REPORT_REPORT_EXPLAIN_H
#define GD_REPORT_REPORT_EXPLAIN_H

#include "explain/explain.h"
#include "report/report.h"

#define EXPLAIN_SCHEMA "gpudoctor.explain/1"

void report_text_explain(FILE *out, const struct explain_report *r, const struct report_opts *o);
/* A new reference; NULL only when out of memory. */
json_t *report_explain_json(const struct explain_report *r);

#endif
