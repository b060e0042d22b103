/*
 * report_metrics.h - a watcher's sample and its diagnosis in the Prometheus
 * text exposition format 0.0.4, for `gpudoctor metrics` (docs/metrics.md
 * lists every metric). It only formats: the sample comes from
 * probe/live.h, the diagnosis from the rules.
 */
#ifndef GD_REPORT_REPORT_METRICS_H
#define GD_REPORT_REPORT_METRICS_H

#include <stdio.h>

#include "probe/facts.h"
#include "probe/live.h"
#include "rules/rules.h"

/* The Content-Type of the format, for an HTTP response. */
#define METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/*
 * Write the exposition of sample s (facts: the static probe's with s applied, live_apply) and its
 * diagnosis d to out: every family with # HELP and # TYPE, every GPU series labelled gpu, uuid,
 * pci_bus_id and name. A value the driver did not give is left out, never written as 0. scrape_s is
 * how long taking the sample and diagnosing it took.
 */
void report_metrics_prom(FILE *out, const struct facts *facts, const struct live_sample *s,
			 const struct diagnosis *d, double scrape_s);

/*
 * Write s as a label value's inside (without the quotes): backslash, double quote and newline escaped
 * as the format says (\\, \", \n); any other control character, which the format does not escape,
 * becomes '?' so that it reaches neither a scraper nor a terminal.
 */
void report_metrics_label_value(FILE *out, const char *s);

#endif
