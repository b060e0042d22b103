/*
 * fix.c - `gpudoctor fix`: the diagnosis, then one checked plan from this
 * machine to a working PyTorch, with its alternatives; or that plan as a
 * bash script, and the environment rebuilt as requirements.txt,
 * environment.yml or a Dockerfile. It prints; it never runs anything.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/machine.h"
#include "cmd/options.h"
#include "fix/compose.h"
#include "report/report_fix.h"
#include "rules/rules.h"
#include "util/i18n.h"

static int write_report(FILE *out, const struct cmd_options *opts, const struct fix_report *r,
			const struct diagnosis *d, const struct facts *facts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	json_t *j;

	if (opts->fix_output == FIX_SCRIPT)
		return report_fix_script(out, r);
	if (opts->fix_output != FIX_REPORT) {
		struct fix_rebuild *rb = malloc(sizeof(*rb));
		int rc = -1;

		if (!rb)
			return -1;
		fix_rebuild(r, opts->fix_output == FIX_DOCKERFILE, rb);
		if (opts->fix_output == FIX_REQUIREMENTS)
			rc = report_fix_requirements(out, r, rb);
		else if (opts->fix_output == FIX_CONDA_ENV)
			rc = report_fix_conda_env(out, r, rb);
		else
			rc = report_fix_dockerfile(out, r, rb);
		free(rb);
		return rc;
	}
	if (opts->format == FORMAT_TEXT) {
		report_text_fix(out, r, &ro);
		return 0;
	}
	if (opts->format == FORMAT_MARKDOWN) {
		report_markdown_fix(out, r);
		return 0;
	}
	j = report_fix_json(r, d, facts);
	return cmd_write_json(out, j, 0) == 0 ? 0 : -1;
}

static int run_fix(const struct cmd_options *opts)
{
	struct fix_report *r = malloc(sizeof(*r));
	struct machine m;
	struct diagnosis d;
	struct cmd_out o;
	struct facts *facts;
	FILE *out;
	int status;

	if (!r)
		return EXIT_INTERNAL;
	if ((status = machine_open(&m, opts))) {
		free(r);
		return status;
	}
	facts = machine_probe(&m, opts);
	machine_close(&m);
	if (!facts || !(out = cmd_out_open(&o))) {
		facts_free(facts);
		free(r);
		return EXIT_INTERNAL;
	}
	rules_run(facts, &d);
	fix_compose(facts, &d, opts->fix_venv, r);
	/* 0: a plan, or nothing to fix; 1: no checked way for this machine (or a file form without one) */
	status = r->nothing_to_fix || r->plan.npaths > 0 ? EXIT_READY : EXIT_NOT_READY;
	if (write_report(out, opts, r, &d, facts) < 0)
		status = opts->fix_output == FIX_REPORT ? EXIT_INTERNAL : EXIT_NOT_READY;
	diagnosis_release(&d);
	facts_free(facts);
	free(r);
	return cmd_out_close(&o, opts, status);
}

static const struct cmd_option fix_only[] = {
	{ "script", 0, NULL, OPT_FIX_SCRIPT, N_("write the plan as a bash script (set -euo pipefail, each step commented, "
	  "ending with checks)") },
	{ "requirements", 0, NULL, OPT_FIX_REQUIREMENTS, N_("write requirements.txt for the plan's PyTorch, index line "
	  "included") },
	{ "conda-env", 0, NULL, OPT_FIX_CONDA_ENV, N_("write an environment.yml for a fresh conda environment") },
	{ "dockerfile", 0, NULL, OPT_FIX_DOCKERFILE, N_("write a Dockerfile on an nvidia/cuda image this driver runs, "
	  "with the docker run and compose lines") },
	{ "venv", 0, "DIR", OPT_FIX_VENV, N_("plan a fresh virtual environment at DIR instead of changing the diagnosed "
	  "one") },
};
static CMD_OPTION_GROUP(fix_options, fix_only);

static const struct cmd_option_group *const groups[] = {
	&cmd_machine_options, &cmd_probe_options, &fix_options, NULL,
};

const struct command cmd_fix = {
	.name = "fix",
	.run = run_fix,
	.summary = N_("print one checked plan from this machine to a working PyTorch"),
	.usage = "gpudoctor fix [options]",
	.description = "Diagnoses the machine like doctor, then prints the plan that fixes it: one ordered path of "
		       "steps, each a command and why, and separately the alternatives, each a whole path with its "
		       "trade-off. Every PyTorch install in a plan is checked against the built-in tables first: the "
		       "release has wheels for this Python, its kernels cover every GPU, the driver is new enough, "
		       "torchvision and torchaudio match. fix prints; it never runs anything.",
	.epilogue = "Exit status: 0 a plan was printed (or nothing needs fixing), 1 no checked plan\n"
		    "fits this machine, 2 usage error, 3 internal error.\n",
	.groups = groups,
	.markdown = true,
};
