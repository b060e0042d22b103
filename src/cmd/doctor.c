/*
 * doctor.c - `gpudoctor doctor`: facts, rules, the root cause first.
 */
#include <stdio.h>

#include "cmd/diagnose.h"
#include "explain/join.h"
#include "report/report.h"

int cmd_doctor(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct diagnosis d;
	struct cmd_out o;
	int status = EXIT_READY;
	struct facts *facts = diagnose_collect(opts, &status);
	FILE *out;

	if (!facts)
		return status;
	if (!(out = cmd_out_open(&o))) {
		facts_free(facts);
		return EXIT_INTERNAL;
	}
	rules_run(facts, &d);
	explain_annotate_findings(&d);
	if (d.root_cause)
		status = EXIT_NOT_READY;
	else if (opts->fail_on_warning && d.verdict == VERDICT_DEGRADED)
		status = EXIT_NOT_READY;
	else
		status = EXIT_READY;
	switch (opts->format) {
	case FORMAT_JSON: {
		json_t *j = report_doctor_json(facts, &d);

		if (!j) {
			fprintf(stderr, "gpudoctor: cannot build the JSON report\n");
			status = EXIT_INTERNAL;
		} else {
			report_json_write(out, j);
		}
		json_decref(j);
		break;
	}
	case FORMAT_MARKDOWN:
		report_markdown_doctor(out, facts, &d);
		break;
	case FORMAT_TEXT:
		report_text_doctor(out, facts, &d, &ro);
		break;
	}
	diagnosis_release(&d);
	facts_free(facts);
	return cmd_out_close(&o, opts, status);
}
