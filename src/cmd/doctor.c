/*
 * doctor.c - `gpudoctor doctor`: facts, rules, the root cause first.
 */
#include <stdio.h>

#include "cmd/machine.h"
#include "cmd/options.h"
#include "explain/join.h"
#include "report/report.h"
#include "rules/rules.h"
#include "util/i18n.h"

static int run_doctor(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct machine m;
	struct diagnosis d;
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
	rules_run(facts, &d);
	explain_annotate_findings(&d);
	if (d.root_cause)
		status = EXIT_NOT_READY;
	else if (opts->fail_on_warning && d.verdict == VERDICT_DEGRADED)
		status = EXIT_NOT_READY;
	else
		status = EXIT_READY;
	switch (opts->format) {
	case FORMAT_JSON:
		status = cmd_write_json(out, report_doctor_json(facts, &d), status);
		break;
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

static const struct cmd_option doctor_only[] = {
	{ "fail-on", 0, "LEVEL", OPT_FAIL_ON, N_("error (default) or warning: which findings make the exit status 1") },
};
static CMD_OPTION_GROUP(doctor_options, doctor_only);

static const struct cmd_option_group *const groups[] = {
	&cmd_machine_options, &cmd_probe_options, &doctor_options, NULL,
};

const struct command cmd_doctor = {
	.name = "doctor",
	.run = run_doctor,
	.summary = N_("diagnose the GPU stack and print the root cause first (default)"),
	.usage = "gpudoctor [doctor] [options]",
	.description = "Walks the chain PCI device -> kernel driver -> driver libraries -> CUDA -> toolkits -> cuDNN "
		       "-> Python and PyTorch -> environment -> container/WSL and prints the root cause first, with "
		       "the evidence it read and the commands that fix it.",
	.epilogue = "Exit status: 0 ready (or degraded), 1 not ready (an error finding; with\n"
		    "--fail-on warning also a warning), 2 usage error, 3 internal error.\n",
	.groups = groups,
	.markdown = true,
};
