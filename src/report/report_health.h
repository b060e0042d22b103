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
 * (0000:86:00.0) needs a reset", "unknown: ...". At most max bytes (plus the terminator; 0: outsz - 1),
 * cut with "..." at a character boundary. Raw text: the caller escapes it for a terminal.
 */
void report_health_line(char *out, size_t outsz, size_t max, const struct node_health *h, const struct facts *facts);
/* The JSON object; NULL when out of memory. The caller owns it. */
json_t *report_health_json(const struct node_health *h, const struct diagnosis *d, const struct facts *facts);

#endif
