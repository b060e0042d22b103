/*
 * explain.c - `gpudoctor explain`: error text or whole logs in, ranked
 * causes out. Operands that name files (or "-") are read as logs; one that
 * looks like a file name but cannot be read is refused; any other operand is
 * the error text itself; none means standard input.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/machine.h"
#include "cmd/options.h"
#include "explain/join.h"
#include "explain/paste_merge.h"
#include "report/report_explain.h"
#include "rules/rules.h"
#include "util/i18n.h"

/*
 * What a file name looks like and error text rarely does: one word (no white space) that contains "/" or
 * ends in ".EXT", 1 to 4 letters or digits with at least one letter (train.log, out.txt, slurm-42.out).
 * "libcuda.so.1" or "CUDA_ERROR_NO_DEVICE" do not.
 */
static bool looks_like_path(const char *arg)
{
	const char *dot = strrchr(arg, '.');
	size_t ext;
	bool letter = false;

	if (!arg[0] || arg[strcspn(arg, " \t\r\n")])
		return false;
	if (strchr(arg, '/'))
		return true;
	if (!dot || dot == arg)
		return false;
	ext = strlen(dot + 1);
	for (const char *c = dot + 1; *c; c++) {
		if (!isalnum((unsigned char)*c))
			return false;
		letter |= isalpha((unsigned char)*c) != 0;
	}
	return ext >= 1 && ext <= 4 && letter;
}

/* An operand as read: error text (fd -1), standard input, or an opened file. */
#define OPERAND_TEXT (-1)

/*
 * Decide what arg is and open it when it is a file: "-" is standard input, an existing file (not a
 * directory) is read, a name that looks like a path but cannot be read is an error, anything else is
 * error text. --text makes every operand text. Returns OPERAND_TEXT, a descriptor, or -2 having printed
 * why (a usage error: nothing has been read yet).
 */
static int open_operand(const char *arg, bool text)
{
	struct stat st;
	int fd, e;

	if (text)
		return OPERAND_TEXT;
	if (strcmp(arg, "-") == 0)
		return STDIN_FILENO;
	if (stat(arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if ((fd = open(arg, O_RDONLY | O_CLOEXEC)) >= 0)
			return fd;
		e = errno;
	} else if (!looks_like_path(arg)) {
		return OPERAND_TEXT;
	} else {
		e = errno ? errno : EISDIR;
		if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
			e = EISDIR;
	}
	cmd_error(_("gpudoctor explain: cannot read '%s': %s"), arg, strerror(e));
	fputs(_("to explain the words themselves, add --text\n"), stderr);
	return -2;
}

/* Opens every operand first, so that a file that cannot be read stops the run before any output. */
static int feed_all(struct explain_scanner *s, const struct cmd_options *opts, int tee_fd)
{
	struct error err;
	int status = EXIT_READY, *fds;

	if (opts->nargs == 0) {
		if (isatty(STDIN_FILENO))
			fprintf(stderr, "gpudoctor explain: reading the error text from standard input (end with Ctrl-D)\n");
		if (explain_feed_fd(s, STDIN_FILENO, "stdin", tee_fd, &err) < 0) {
			cmd_error(_("gpudoctor explain: %s"), error_message(&err));
			status = EXIT_INTERNAL;
		}
		return status;
	}
	if (!(fds = calloc((size_t)opts->nargs, sizeof(*fds)))) {
		fprintf(stderr, "gpudoctor explain: out of memory\n");
		return EXIT_INTERNAL;
	}
	for (int i = 0; i < opts->nargs; i++) {
		if ((fds[i] = open_operand(opts->args[i], opts->text)) == -2) {
			status = EXIT_USAGE;
			break;
		}
	}
	for (int i = 0; i < opts->nargs; i++) {
		const char *arg = opts->args[i];

		if (status == EXIT_USAGE) {
			if (fds[i] > STDIN_FILENO)
				close(fds[i]);
			continue;
		}
		if (fds[i] == OPERAND_TEXT) {
			if (explain_feed_text(s, arg, strlen(arg), "argument", &err) < 0) {
				cmd_error(_("gpudoctor explain: %s"), error_message(&err));
				status = EXIT_INTERNAL;
			}
			continue;
		}
		if (explain_feed_fd(s, fds[i], fds[i] == STDIN_FILENO ? "stdin" : arg, tee_fd, &err) < 0) {
			cmd_error(_("gpudoctor explain: %s"), error_message(&err));
			status = EXIT_INTERNAL;
		}
		if (fds[i] != STDIN_FILENO)
			close(fds[i]);
	}
	free(fds);
	return status;
}

/* --with-doctor: diagnose the machine m (open, closed here) and join its findings to the causes. */
static void join_doctor(struct machine *m, const struct cmd_options *opts, struct explain_report *r)
{
	struct diagnosis d;
	struct facts *facts;

	facts = machine_probe(m, opts);
	machine_close(m);
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
	struct machine m;
	int status;
	FILE *out;

	if (!s) {
		cmd_error(_("gpudoctor explain: %s"), error_message(&err));
		return EXIT_INTERNAL;
	}
	/* the machine first: a bad --root or --python is a usage error before any input is read */
	if (opts->with_doctor && (status = machine_open(&m, opts)) != 0) {
		explain_close(s);
		return status;
	}
	status = feed_all(s, opts, opts->tee ? STDOUT_FILENO : -1);
	if (status == EXIT_USAGE) {
		if (opts->with_doctor)
			machine_close(&m);
		explain_close(s);
		return status;
	}
	if (explain_rank(s, &report) < 0) {
		fprintf(stderr, "gpudoctor explain: out of memory\n");
		explain_close(s);
		return EXIT_INTERNAL;
	}
	/* what a pasted report (collect_env, nvidia-smi, pip list, ...) shows, through the doctor's rules */
	if (explain_merge_paste(s, &report) < 0)
		fprintf(stderr, "gpudoctor explain: out of memory reading the paste's facts\n");
	if (opts->with_doctor)
		join_doctor(&m, opts, &report);
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
	if (status == EXIT_READY && !explain_recognised(&report))
		status = EXIT_NOT_READY;
	explain_report_release(&report);
	explain_close(s);
	return cmd_out_close(&o, opts, status);
}

static const struct cmd_option explain_only[] = {
	{ "tee", 0, NULL, OPT_TEE, N_("pass the input through to standard output unchanged, then append the diagnosis: "
	  "python train.py 2>&1 | gpudoctor explain --tee") },
	{ "text", 0, NULL, OPT_TEXT, N_("read every operand as error text, never as a file name (\"-\" too)") },
	{ "with-doctor", 0, NULL, OPT_WITH_DOCTOR, N_("also diagnose this machine and join the two (a cause the doctor "
	  "confirms leads, with the doctor's exact fix); the options below apply to that diagnosis") },
};
static CMD_OPTION_GROUP(explain_options, explain_only);

static const struct cmd_option_group *const groups[] = {
	&explain_options, &cmd_machine_options, &cmd_probe_options, NULL,
};

const struct command cmd_explain = {
	.name = "explain",
	.run = run_explain,
	.summary = N_("read error text or a whole log and name the cause and the fix"),
	.usage = "gpudoctor explain [\"ERROR TEXT\" | FILE... | -] [options]",
	.description = N_("Reads error messages or whole training logs in one streaming pass and ranks the causes by "
		       "causality, each with the lines that matched, why it happens and the fix.\n\n"
		       "An operand that names an existing file is read as a log, \"-\" and no operand read "
		       "standard input, any other operand is the error text itself. One word that looks like a "
		       "file name (it contains \"/\" or ends in an extension such as .log, .txt or .out) but "
		       "cannot be read is an error, not text; --text reads every operand as text."),
	.epilogue = N_("Exit status: 0 a cause was recognised, 1 nothing was, 2 usage error or a FILE\n"
		    "that cannot be opened, 3 an input could not be read to its end.\n"),
	.groups = groups,
	.operands = true,
};
