/*
 * json_report.c - the doctor's JSON report (schema gpudoctor.report/1,
 * docs/report-schema.md).
 */
#include "report/report.h"
#include "version.h"

static json_t *finding_json(const struct finding *f)
{
	json_t *ev = json_array(), *fix = json_array(), *blocked = json_array();

	for (int i = 0; i < f->nevidence; i++)
		json_array_append_new(ev, json_pack("{s:o, s:o, s:o}", "fact", json_text(f->evidence[i].fact),
						    "value", json_text(f->evidence[i].value),
						    "source", json_text(f->evidence[i].source)));
	json_t *alts = json_array();

	for (int i = 0; i < f->nfix; i++)
		json_array_append_new(fix, json_pack("{s:o, s:o, s:i}", "text", json_text(f->fix[i].text), "command",
						     f->fix[i].command ? json_text(f->fix[i].command) : json_null(),
						     "alternative", f->fix[i].alt));
	for (int i = 0; i < f->nalt; i++)
		json_array_append_new(alts, json_text(f->alt_titles[i]));
	for (int i = 0; i < f->nblocked; i++)
		json_array_append_new(blocked, json_string(cause_name(f->blocked_by[i])));
	json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "id", cause_name(f->cause),
			      "severity", severity_name(f->severity), "stage", stage_name(f->stage),
			      "title", json_text(f->title), "detail", json_text(f->detail ? f->detail : ""),
			      "evidence", ev, "fix", fix, "alternatives", alts, "blocked_by", blocked);

	/* present only when a bound left something out */
	if (o && f->evidence_dropped)
		json_object_set_new(o, "evidence_dropped", json_integer(f->evidence_dropped));
	if (o && f->fix_dropped)
		json_object_set_new(o, "fix_dropped", json_integer(f->fix_dropped));
	return o;
}

/* See report.h: the caller owns the result; facts and d are only read, and the facts are embedded whole. */
json_t *report_doctor_json(const struct facts *facts, const struct diagnosis *d)
{
	json_t *findings = json_array();

	for (size_t i = 0; i < d->findings.count; i++)
		json_array_append_new(findings, finding_json(&d->findings.items[i]));
	return json_pack("{s:s, s:s, s:{s:s, s:o, s:o}, s:o, s:o}", "schema", REPORT_SCHEMA, "version", gd_version,
			 "verdict", "status", verdict_name(d->verdict),
			 "root_cause", d->root_cause ? json_string(cause_name(d->root_cause->cause)) : json_null(),
			 "summary", json_text(d->summary), "findings", findings, "facts", report_facts_json(facts));
}

/*
 * Does not take value: the caller still json_decrefs it. -1 for NULL or a failed write; stdio's error
 * flag is left for the caller to check as well.
 */
int report_json_write(FILE *out, json_t *value)
{
	if (!value || json_dumpf(value, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}
