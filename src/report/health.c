#include "report/report_health.h"

#include <string.h>

#include "report/report.h"
#include "report/textfmt.h"
#include "version.h"
#include "util/i18n.h"
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

/*
 * The line in English, or with local its prose in the text reports' language (a finding's *_local text, the
 * catalog's). Either way the status word, cause ids and the driver version stay as they are, ASCII and
 * first, so that a tool reading the line (NHC, a log filter) reads it the same in any language.
 */
static void health_line(char *out, size_t outsz, const struct node_health *h, const struct facts *facts, bool local)
{
	const char *driver = facts_driver_version(facts);
	const struct finding *c = h->cause, *w = h->warning;
	const char *text;

	switch (h->status) {
	case NODE_UNHEALTHY:
		text = local ? shown_text(c->summary ? c->summary : c->title, c->summary ? c->summary_local : c->title_local)
			     : c->summary ? c->summary : c->title;
		str_printf(out, outsz, "unhealthy: %s: %s", cause_name(c->cause), text);
		break;
	case NODE_UNKNOWN:
		str_printf(out, outsz, "unknown: %s", local && h->reason_local[0] ? h->reason_local : h->reason);
		break;
	case NODE_HEALTHY:
		/* the status word outside the msgids: no translation can touch it */
		str_copy(out, outsz, "healthy: ");
		/* the GPU count's English plural suffix is an argument: zh_CN swallows it with %.0s */
		if (h->gpus > 0)
			str_printf(out + strlen(out), outsz - strlen(out), local ? _("%d GPU%s ready") : "%d GPU%s ready",
				   h->gpus, h->gpus == 1 ? "" : "s");
		else
			str_copy(out + strlen(out), outsz - strlen(out), local ? _("no NVIDIA GPU, none expected")
										 : "no NVIDIA GPU, none expected");
		if (driver && driver[0])
			str_printf(out + strlen(out), outsz - strlen(out), local ? _(" (driver %s)") : " (driver %s)", driver);
		if (w)
			str_printf(out + strlen(out), outsz - strlen(out), local ? _("; warning %s: %s") : "; warning %s: %s",
				   cause_name(w->cause), local ? shown_text(w->title, w->title_local) : w->title);
		break;
	}
}

/* See report_health.h. */
void report_health_line(char *out, size_t outsz, const struct node_health *h, const struct facts *facts)
{
	health_line(out, outsz, h, facts, false);
}

/* See report_health.h. */
void report_health_line_local(char *out, size_t outsz, const struct node_health *h, const struct facts *facts)
{
	health_line(out, outsz, h, facts, true);
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
