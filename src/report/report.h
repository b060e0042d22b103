/*
 * report.h - renderers. They read facts and a diagnosis and only format:
 * no probing, no judging. Each writes to a FILE and leaves error checking
 * of the stream to the caller (src/cmd), which owns the exit status.
 */
#ifndef GD_REPORT_REPORT_H
#define GD_REPORT_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "probe/facts.h"
#include "rules/rules.h"

#define REPORT_SCHEMA "gpudoctor.report/1"

struct report_opts {
	bool color;
	int verbose;
	int width;	/* wrap column for text */
};

/* A JSON string for any bytes: invalid UTF-8 is replaced, never dropped. */
json_t *json_text(const char *s);

/* New references; NULL only when out of memory. */
json_t *report_facts_json(const struct facts *facts);
json_t *report_doctor_json(const struct facts *facts, const struct diagnosis *d);
/* One NVML device as the facts' runtime.nvml.devices[] show it (watch's gpus[] too). */
json_t *report_nvml_device_json(const struct nvml_device *d);

/* Write a JSON value, indented, with a trailing newline. */
int report_json_write(FILE *out, json_t *value);

void report_text_doctor(FILE *out, const struct facts *facts, const struct diagnosis *d, const struct report_opts *o);
void report_text_info(FILE *out, const struct facts *facts, const struct report_opts *o);
void report_markdown_doctor(FILE *out, const struct facts *facts, const struct diagnosis *d);
void report_markdown_info(FILE *out, const struct facts *facts);

#endif
