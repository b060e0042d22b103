/*
 * explain_json.c - `gpudoctor explain --json`: schema gpudoctor.explain/1
 * (docs/explain.md).
 */
#include "report/report_explain.h"

#include <stdlib.h>
#include <string.h>

#include "paste/paste.h"
#include "explain/paste_merge.h"

static const char *const from_names[] = { "signature", "facts", "both" };

/* What the paste showed: the doctor's facts JSON, and which sections were seen. */
static json_t *paste_json(const struct paste *p)
{
	json_t *seen = json_array(), *unseen = json_array(), *o;

	for (int s = 0; s < PASTE_NSECTIONS; s++)
		json_array_append_new(paste_saw(p, (enum paste_section)s) ? seen : unseen,
				      json_text(paste_section_name((enum paste_section)s)));
	o = json_pack("{s:o, s:o}", "seen", seen, "not_seen", unseen);
	json_object_set_new(o, "cuda_available", p->cuda_available < 0 ? json_null() : json_boolean(p->cuda_available));
	if (p->run_gpus >= 0)
		json_object_set_new(o, "run", json_pack("{s:o, s:b}", "line", json_text(p->run_line), "gpus", p->run_gpus == 1));
	return o;
}

/*
 * See report_explain.h: the caller owns the result. Input names are read from r, which borrows them from
 * the scanner: call before explain_close.
 */
json_t *report_explain_json(const struct explain_report *r)
{
	json_t *causes = json_array(), *inputs = json_array();

	for (int i = 0; i < r->ninputs; i++)
		json_array_append_new(inputs, json_text(r->inputs[i]));
	for (size_t i = 0; i < r->count; i++) {
		const struct explain_cause *c = &r->causes[i];
		json_t *lines = json_array(), *values = json_object(), *fix = json_array(), *o;

		for (int k = 0; k < c->nlines; k++)
			json_array_append_new(lines, json_pack("{s:o, s:I, s:o}", "input", json_text(r->inputs[c->lines[k].input]),
				"number", (json_int_t)c->lines[k].number, "text", json_text(c->lines[k].text)));
		for (int k = 0; k < c->nvalues; k++)
			json_object_set_new(values, c->values[k].name, json_text(c->values[k].value));
		json_t *alts = json_array();

		for (int k = 0; k < c->nfix; k++)
			json_array_append_new(fix, json_pack("{s:o, s:o, s:i}", "text", json_text(c->fix[k].text), "command",
				c->fix[k].command ? json_text(c->fix[k].command) : json_null(), "alternative", c->fix[k].alt));
		for (int k = 0; k < c->nalt; k++)
			json_array_append_new(alts, json_text(c->alt_titles[k]));
		o = json_pack("{s:s, s:f, s:o, s:o, s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:b}", "id", cause_name(c->cause), "confidence",
			c->confidence / 100.0, "title", json_text(c->title), "detail", json_text(c->detail ? c->detail : ""),
			"signature", c->signature, "source", c->source, "count", (json_int_t)c->count, "lines", lines,
			"extracted", values, "where", c->where[0] ? json_text(c->where) : json_null(), "fix", fix,
			"confirmed", c->confirmed);
		json_object_set_new(o, "alternatives", alts);
		{
			/* the differential: how this cause is told from the others offered for the same text */
			json_t *checks = json_array();

			for (int k = 0; k < c->nchecks; k++) {
				json_t *answers = json_array();
				const char *a = c->checks[k].answers;

				while (*a) {
					const char *sep = strstr(a, " || "), *arrow;
					size_t len = sep ? (size_t)(sep - a) : strlen(a);
					char *one = strndup(a, len);

					if (one && (arrow = strstr(one, " => ")))
						json_array_append_new(answers, json_pack("{s:s%, s:o}", "shows", one, (size_t)(arrow - one),
							"means", json_text(arrow + 4)));
					else if (one)
						json_array_append_new(answers, json_pack("{s:n, s:o}", "shows", "means", json_text(one)));
					free(one);
					a += len + (sep ? 4 : 0);
				}
				json_array_append_new(checks, json_pack("{s:s, s:s, s:o}", "command", c->checks[k].command, "for",
					c->checks[k].of, "answers", answers));
			}
			json_object_set_new(o, "distinguish", checks);
			json_object_set_new(o, "suggested", json_boolean(c->suggested));
			if (c->guessed)
				json_object_set_new(o, "guessed", json_true());
			json_object_set_new(o, "prior", c->prior > 0 ? json_real(c->prior / 100.0) : json_null());
		}
		if (c->doctor_note)
			json_object_set_new(o, "doctor", json_text(c->doctor_note));
		json_object_set_new(o, "from", json_string(from_names[c->from]));
		if (c->paste_evidence[0])
			json_object_set_new(o, "paste_evidence", json_text(c->paste_evidence));
		if (c->settled > 0)
			json_object_set_new(o, "settled_alternatives", json_integer(c->settled));
		{
			char missing[256];

			if (explain_paste_missing(r, c, false, missing, sizeof(missing)))
				json_object_set_new(o, "not_in_paste", json_text(missing));
		}
		json_array_append_new(causes, o);
	}
	{
		json_t *out = json_pack("{s:s, s:b, s:{s:I, s:I, s:o}, s:o}", "schema", EXPLAIN_SCHEMA, "recognised",
			explain_recognised(r), "scanned", "bytes", (json_int_t)r->bytes, "lines", (json_int_t)r->lines, "inputs", inputs,
			"causes", causes);

		/* the causes the differential offered that the paste's facts ruled out, each with the fact */
		if (out) {
			json_t *ruled = json_array();

			for (int i = 0; i < r->nruled_out; i++)
				json_array_append_new(ruled, json_pack("{s:s, s:o}", "id", cause_name(r->ruled_out[i].cause),
								       "by", json_text(r->ruled_out[i].by)));
			json_object_set_new(out, "ruled_out", ruled);
		}
		/* the facts the text showed; null when it showed none */
		if (out && r->paste && paste_saw_any(r->paste)) {
			json_object_set_new(out, "facts", report_facts_json(r->paste->facts));
			json_object_set_new(out, "paste", paste_json(r->paste));
		} else if (out) {
			json_object_set_new(out, "facts", json_null());
			json_object_set_new(out, "paste", json_null());
		}
		return out;
	}
}
