/*
 * explain.c - `gpudoctor explain`: error text or whole logs in, ranked
 * causes out. Operands that name readable files (or "-") are read as logs;
 * any other operand is the error text itself; none means standard input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/machine.h"
#include "cmd/options.h"
#include "explain/join.h"
#include "explain/paste_merge.h"
#include "report/report_explain.h"
#include "rules/rules.h"

static bool names_file(const char *arg)
{
	struct stat st;

	return strcmp(arg, "-") == 0 || (stat(arg, &st) == 0 && !S_ISDIR(st.st_mode));
}

static int feed_all(struct explain_scanner *s, const struct cmd_options *opts, int tee_fd)
{
	struct error err;
	int status = EXIT_READY;

	if (opts->nargs == 0) {
		if (isatty(STDIN_FILENO))
			fprintf(stderr, "gpudoctor explain: reading the error text from standard input (end with Ctrl-D)\n");
		if (explain_feed_fd(s, STDIN_FILENO, "stdin", tee_fd, &err) < 0) {
			cmd_error("gpudoctor explain: %s", err.msg);
			status = EXIT_INTERNAL;
		}
		return status;
	}
	for (int i = 0; i < opts->nargs; i++) {
		const char *arg = opts->args[i];
		int fd;

		if (!names_file(arg)) {
			if (explain_feed_text(s, arg, strlen(arg), "argument", &err) < 0) {
				cmd_error("gpudoctor explain: %s", err.msg);
				status = EXIT_INTERNAL;
			}
			continue;
		}
		fd = strcmp(arg, "-") == 0 ? STDIN_FILENO : open(arg, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			cmd_error("gpudoctor explain: %s: %s", arg, strerror(errno));
			status = EXIT_INTERNAL;
			continue;
		}
		if (explain_feed_fd(s, fd, strcmp(arg, "-") == 0 ? "stdin" : arg, tee_fd, &err) < 0) {
			cmd_error("gpudoctor explain: %s", err.msg);
			status = EXIT_INTERNAL;
		}
		if (fd != STDIN_FILENO)
			close(fd);
	}
	return status;
}

/* --with-doctor: diagnose this machine and join its findings to the causes. */
static void join_doctor(const struct cmd_options *opts, struct explain_report *r)
{
	struct diagnosis d;
	struct machine m;
	struct facts *facts;

	if (machine_open(&m, opts) != 0)
		return;
	facts = machine_probe(&m, opts);
	machine_close(&m);
	if (!facts)
		return;
	rules_run(facts, &d);
	explain_join_doctor(r, &d);
	diagnosis_release(&d);
	facts_free(facts);
}

static int run_explain(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct explain_report report;
	struct error err;
	struct explain_scanner *s = explain_open(&err);
	struct cmd_out o;
	int status;
	FILE *out;

	if (!s) {
		cmd_error("gpudoctor explain: %s", err.msg);
		return EXIT_INTERNAL;
	}
	status = feed_all(s, opts, opts->tee ? STDOUT_FILENO : -1);
	if (explain_rank(s, &report) < 0) {
		fprintf(stderr, "gpudoctor explain: out of memory\n");
		explain_close(s);
		return EXIT_INTERNAL;
	}
	/* what a pasted report (collect_env, nvidia-smi, pip list, ...) shows, through the doctor's rules */
	if (explain_merge_paste(s, &report) < 0)
		fprintf(stderr, "gpudoctor explain: out of memory reading the paste's facts\n");
	if (opts->with_doctor)
		join_doctor(opts, &report);
	if (!(out = cmd_out_open(&o))) {
		explain_report_release(&report);
		explain_close(s);
		return EXIT_INTERNAL;
	}
	/* The diagnosis goes after the passed-through log, on standard output too: a pipeline's last words. */
	if (opts->format == FORMAT_JSON) {
		json_t *j = report_explain_json(&report);

		if (j)
			report_json_write(out, j);
		json_decref(j);
	} else {
		if (opts->tee)
			fputs("\n", out);
		report_text_explain(out, &report, &ro);
	}
	if (status == EXIT_READY && report.count == 0)
		status = EXIT_NOT_READY;
	explain_report_release(&report);
	explain_close(s);
	return cmd_out_close(&o, opts, status);
}

static const struct cmd_option explain_only[] = {
	{ "tee", 0, NULL, OPT_TEE, "pass the input through to standard output unchanged, then append the diagnosis: "
	  "python train.py 2>&1 | gpudoctor explain --tee" },
	{ "with-doctor", 0, NULL, OPT_WITH_DOCTOR, "also diagnose this machine and join the two (a cause the doctor "
	  "confirms leads, with the doctor's exact fix); the options below apply to that diagnosis" },
};
static CMD_OPTION_GROUP(explain_options, explain_only);

static const struct cmd_option_group *const groups[] = {
	&explain_options, &cmd_machine_options, &cmd_probe_options, NULL,
};

const struct command cmd_explain = {
	.name = "explain",
	.run = run_explain,
	.summary = "read error text or a whole log and name the cause and the fix",
	.usage = "gpudoctor explain [\"ERROR TEXT\" | FILE... | -] [options]",
	.description = "Reads error messages or whole training logs (operands that name files are read, other "
		       "operands are the text itself, no operand reads standard input) in one streaming pass and "
		       "ranks the causes by causality, each with the lines that matched, why it happens and the fix.",
	.epilogue = "Exit status: 0 a cause was recognised, 1 nothing was, 2 usage error, 3 an input\n"
		    "could not be read.\n",
	.groups = groups,
	.operands = true,
};
