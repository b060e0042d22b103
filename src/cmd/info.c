/*
 * info.c - `gpudoctor info`: the facts only, no judgement.
 */
#include <stdio.h>

#include "cmd/machine.h"
#include "cmd/options.h"
#include "report/report.h"
#include "version.h"
#include "util/i18n.h"

static int run_info(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct machine m;
	struct cmd_out o;
	struct facts *facts;
	FILE *out;
	int status = machine_open(&m, opts);

	if (status)
		return status;
	facts = machine_probe(&m, opts);
	machine_close(&m);
	if (!facts)
		return EXIT_INTERNAL;
	if (!(out = cmd_out_open(&o))) {
		facts_free(facts);
		return EXIT_INTERNAL;
	}
	switch (opts->format) {
	case FORMAT_JSON:
		status = cmd_write_json(out, json_pack("{s:s, s:s, s:o}", "schema", "gpudoctor.info/1", "version", gd_version,
				      "facts", report_facts_json(facts)), status);
		break;
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

static const struct cmd_option_group *const groups[] = { &cmd_machine_options, &cmd_probe_options, NULL };

const struct command cmd_info = {
	.name = "info",
	.run = run_info,
	.summary = N_("print the facts gathered about this machine, without judging them"),
	.usage = "gpudoctor info [options]",
	.description = "Prints everything the probes found: system, GPUs, driver, libraries, toolkits, cuDNN, "
		       "Python and PyTorch, environment, container and WSL. --json gives the same \"facts\" object "
		       "as the doctor's report.",
	.epilogue = "Exit status: 0, or 2 usage error, 3 internal error.\n",
	.groups = groups,
	.markdown = true,
};
