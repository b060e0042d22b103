/*
 * fleet.c - `gpudoctor fleet`: many machines' doctor reports merged into one view.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/fleet_inputs.h"
#include "cmd/options.h"
#include "fleet/fleet.h"
#include "report/report_fleet.h"
#include "util/i18n.h"

/* Read every operand (none: standard input) into f; a status, EXIT_READY when all went in. */
static int read_inputs(const struct cmd_options *opts, struct fleet *f)
{
	struct fleet_inputs in = { 0 };
	struct error err;
	int stdin_used = 0, rc = 0;

	for (int i = 0; i < opts->nargs; i++)
		if (strcmp(opts->args[i], "-") == 0 && stdin_used++) {
			cmd_error(_("gpudoctor fleet: '-' (standard input) given twice"));
			fputs(_("try 'gpudoctor fleet --help'\n"), stderr);
			return EXIT_USAGE;
		}
	if (opts->nargs == 0 && isatty(STDIN_FILENO)) {
		cmd_error(_("gpudoctor fleet: no reports: name files or directories, or pipe them in"));
		fputs(_("try 'gpudoctor fleet --help'\n"), stderr);
		return EXIT_USAGE;
	}
	if (opts->nargs == 0)
		rc = fleet_inputs_add_stream(&in, f, stdin, "stdin", &err);
	for (int i = 0; rc == 0 && i < opts->nargs; i++)
		rc = strcmp(opts->args[i], "-") == 0 ? fleet_inputs_add_stream(&in, f, stdin, "stdin", &err)
						      : fleet_inputs_add_path(&in, f, opts->args[i], &err);
	fleet_inputs_release(&in);
	if (rc < 0) {
		cmd_error("gpudoctor fleet: %s", err.msg);
		return EXIT_INTERNAL;
	}
	return EXIT_READY;
}

static int run_fleet(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct fleet *f = fleet_new();
	struct fleet_view v;
	struct error err;
	struct cmd_out o;
	FILE *out;
	int status;

	if (!f) {
		cmd_error("gpudoctor fleet: out of memory");
		return EXIT_INTERNAL;
	}
	if ((status = read_inputs(opts, f)) != EXIT_READY || fleet_view_build(&v, f, &err) < 0) {
		if (status == EXIT_READY) {
			cmd_error("gpudoctor fleet: %s", err.msg);
			status = EXIT_INTERNAL;
		}
		fleet_free(f);
		return status;
	}
	status = fleet_view_all_ready(&v) ? EXIT_READY : EXIT_NOT_READY;
	if (!(out = cmd_out_open(&o))) {
		fleet_view_release(&v);
		fleet_free(f);
		return EXIT_INTERNAL;
	}
	switch (opts->format) {
	case FORMAT_JSON:
		status = cmd_write_json(out, report_fleet_json(&v), status);
		break;
	case FORMAT_MARKDOWN:
		report_fleet_markdown(out, &v, opts->verbose);
		break;
	case FORMAT_TEXT:
		report_fleet_text(out, &v, &ro);
		break;
	}
	fleet_view_release(&v);
	fleet_free(f);
	return cmd_out_close(&o, opts, status);
}

static const struct cmd_option_group *const groups[] = { NULL };

const struct command cmd_fleet = {
	.name = "fleet",
	.run = run_fleet,
	.summary = N_("merge many machines' --json reports: verdicts, shared causes, drift"),
	.usage = "gpudoctor fleet [REPORT.json... | DIR... | -] [options]",
	.description = "Reads the reports of `gpudoctor --json` from many machines (files; every *.json in a "
		       "directory; or, with - or no operand, standard input, one report after another as `srun "
		       "gpudoctor --json` prints them) and merges them into one view: the nodes by verdict, each "
		       "root cause with the nodes it stops, and drift: the driver, CUDA toolkit, cuDNN and torch "
		       "versions, GPU counts and GPU models the nodes do not share. Each report is read and reduced "
		       "on its own; an input that is no report is listed as unreadable and the rest still merged. "
		       "Nodes are named by their hostname, else by their file. Lists show 8 names; -v shows all.",
	.epilogue = "Exit status: 0 every node is ready, 1 a node is not ready or an input is\n"
		    "unreadable (or there was none), 2 usage error, 3 internal error.\n",
	.groups = groups,
	.operands = true,
	.markdown = true,
};
