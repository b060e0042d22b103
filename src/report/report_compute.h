/*
 * report_compute.h - renderers for `gpudoctor test` and `gpudoctor bench`.
 */
#ifndef GD_REPORT_REPORT_COMPUTE_H
#define GD_REPORT_REPORT_COMPUTE_H

#include "compute/judge.h"
#include "report/report.h"

#define TEST_SCHEMA "gpudoctor.test/1"
#define BENCH_SCHEMA "gpudoctor.bench/1"

void report_text_compute(FILE *out, const struct compute_report *r, bool bench, const struct report_opts *o);
/* A new reference; NULL only when out of memory. */
json_t *report_compute_json(const struct compute_report *r, bool bench);
/* No usable GPU: the doctor's root cause, in text or as the command's JSON. */
void report_compute_blocked(FILE *out, bool json, const char *command, const struct finding *cause,
			    const struct report_opts *o);

#endif
