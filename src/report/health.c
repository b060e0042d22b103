#include "report/report_health.h"

#include <string.h>

#include "report/report.h"
#include "version.h"
#include "util/str.h"

/* See report_health.h. */
void report_health_fit(char *s, size_t max)
{
	size_t n;

	if (strlen(s) <= max || max < 4)
		return;
	n = max - 3;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	memcpy(s + n, "...", 4);
}

/* See report_health.h. */
void report_health_line(char *out, size_t outsz, const struct node_health *h, const struct facts *facts)
{
	const char *driver = facts_driver_version(facts);

	switch (h->status) {
	case NODE_UNHEALTHY:
		str_printf(out, outsz, "unhealthy: %s: %s", cause_name(h->cause->cause),
			   h->cause->summary ? h->cause->summary : h->cause->title);
		break;
	case NODE_UNKNOWN:
		str_printf(out, outsz, "unknown: %s", h->reason);
		break;
	case NODE_HEALTHY:
		if (h->gpus > 0)
			str_printf(out, outsz, "healthy: %d GPU%s ready", h->gpus, h->gpus == 1 ? "" : "s");
		else
			str_copy(out, outsz, "healthy: no NVIDIA GPU, none expected");
		if (driver && driver[0])
			str_printf(out + strlen(out), outsz - strlen(out), " (driver %s)", driver);
		if (h->warning)
			str_printf(out + strlen(out), outsz - strlen(out), "; warning %s: %s", cause_name(h->warning->cause),
				   h->warning->title);
		break;
	}
}

/* See report_health.h. */
json_t *report_health_json(const struct node_health *h, const struct diagnosis *d, const char *message)
{
	json_t *findings = json_array();
	json_t *o;

	if (!findings)
		return NULL;
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		if (!node_health_counts(f) || f->severity == SEV_INFO)
			continue;
		json_array_append_new(findings, json_pack("{s:s, s:s, s:o}", "id", cause_name(f->cause), "severity",
							  severity_name(f->severity), "title", json_text(f->title)));
	}
	o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "schema", "gpudoctor.health/1", "version", gd_version,
		      "status", node_status_name(h->status), "message", json_text(message), "cause",
		      h->cause ? json_string(cause_name(h->cause->cause)) : json_null(), "gpus",
		      h->gpus >= 0 ? json_integer(h->gpus) : json_null(), "findings", findings);
	return o;
}
