/*
 * report_health.h - `gpudoctor health`'s answer: one short line for a
 * scheduler's log (and node-problem-detector's 80-character message), or a
 * JSON object (schema gpudoctor.health/1, docs/report-schema.md).
 */
#ifndef GD_REPORT_HEALTH_H
#define GD_REPORT_HEALTH_H

#include <jansson.h>
#include <stddef.h>

#include "probe/facts.h"
#include "rules/node_health.h"

/*
 * "healthy: 8 GPUs ready (driver 535.129.03)", "unhealthy: gpu.hardware-fault: 7 of 8 GPUs ready; GPU 5
 * (0000:86:00.0) needs a reset", "unknown: ...", cut to outsz - 1 bytes. Raw text: the caller escapes it
 * for a terminal.
 */
void report_health_line(char *out, size_t outsz, const struct node_health *h, const struct facts *facts);
/*
 * The same line with its prose in the text reports' language (--lang, the environment), for a person at a
 * terminal: "healthy: 8 块显卡就绪（驱动 535.129.03）". The status word and ids stay English. JSON, --npd and
 * --slurm keep report_health_line's English one: a scheduler stores and shows it to every admin.
 */
void report_health_line_local(char *out, size_t outsz, const struct node_health *h, const struct facts *facts);
/* Cut line to at most max bytes, ending in "..." when cut, never inside a UTF-8 character. */
void report_health_fit(char *line, size_t max);
/* The JSON object with message as its message (the line, and what the command did); NULL when out of memory. */
json_t *report_health_json(const struct node_health *h, const struct diagnosis *d, const char *message);

#endif
