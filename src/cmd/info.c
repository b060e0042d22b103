/*
 * info.c - `gpudoctor info`: the facts only, no judgement.
 */
#include <stdio.h>

#include "cmd/diagnose.h"
#include "report/report.h"

int cmd_info(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	int status = EXIT_READY;
	struct facts *facts = diagnose_collect(opts, &status);
	struct cmd_out o;
	FILE *out;

	if (!facts)
		return status;
	if (!(out = cmd_out_open(&o))) {
		facts_free(facts);
		return EXIT_INTERNAL;
	}
	switch (opts->format) {
	case FORMAT_JSON: {
		json_t *j = json_pack("{s:s, s:s, s:o}", "schema", "gpudoctor.info/1", "version", GD_VERSION,
				      "facts", report_facts_json(facts));

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
		report_markdown_info(out, facts);
		break;
	case FORMAT_TEXT:
		report_text_info(out, facts, &ro);
		break;
	}
	facts_free(facts);
	return cmd_out_close(&o, opts, status);
}
