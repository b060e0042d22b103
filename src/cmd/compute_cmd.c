#include "cmd/compute_cmd.h"
#include "util/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/machine.h"
#include "compute/judge.h"
#include "compute/kmsg.h"
#include "compute/prepare.h"
#include "report/report_compute.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"
#include "util/termsafe.h"

static const struct cmd_option compute_only[] = {
	{ "duration", 0, "SECONDS", OPT_DURATION, N_("how long the matrix products run on each GPU (default 2)") },
	{ "max-time", 0, "SECONDS", OPT_MAX_TIME, N_("the whole run's budget (default 300 for test, 600 for "
	  "bench); past it the run is cut short and reported as over budget, not as a hang") },
};
CMD_OPTION_GROUP(cmd_compute_options, compute_only);

/* A root cause below the CUDA layer (or CUDA itself failing) means there is nothing to compute on. */
static const struct finding *blocking_cause(const struct diagnosis *d)
{
	const struct finding *rc = d->root_cause;

	return rc && rc->stage <= STAGE_CUDA ? rc : NULL;
}

static bool show_progress;

static void print_progress(const char *progress)
{
	char *safe;
	size_t len;

	/* the progress names GPUs as the driver does: escaped like any report text */
	if (show_progress && progress[0] && termsafe_escape(progress, strlen(progress), false, &safe, &len) == 0) {
		fprintf(stderr, "\r\033[K%s", safe);
		free(safe);
	}
}

static int report(const struct cmd_options *opts, const struct compute_report *r, bool bench)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct cmd_out o;
	FILE *out = cmd_out_open(&o);

	if (out && opts->format == FORMAT_JSON) {
		json_t *j = report_compute_json(r, bench);

		if (j)
			report_json_write(out, j);
		json_decref(j);
	} else if (out) {
		report_text_compute(out, r, bench, &ro);
	}
	return cmd_out_close(&o, opts, r->pass ? EXIT_READY : EXIT_NOT_READY);
}

/* Run and judge; the machine and its facts before are the caller's. */
static int compute_and_report(const struct cmd_options *opts, struct machine *m, const struct facts *before,
			      bool bench)
{
	static struct compute_run run;	/* large: off the stack */
	static struct compute_report result;
	struct compute_request req = { bench, opts->seeds_compat, opts->duration_s, opts->timeout_s, opts->max_time_s };
	struct kmsg_watch watch = { -1 };
	struct isolate_outcome how;
	char xid_note[160] = "";
	struct facts *after;
	struct error err;
	int status;

	if (compute_prepare(&run, &m->fs, before, &req, &err) < 0) {
		cmd_error(_("gpudoctor %s: %s"), bench ? "bench" : "test", error_message(&err));
		return EXIT_NOT_READY;
	}
	if (!m->fs.live)
		str_copy(xid_note, sizeof(xid_note), N_("the kernel log was not watched (--root)")); /* JSON English, text translated */
	else
		kmsg_watch_start(&watch, xid_note, sizeof(xid_note));
	show_progress = opts->format != FORMAT_JSON && isatty(STDERR_FILENO);
	if (compute_run(&run, print_progress, &how, &err) < 0) {
		cmd_error(_("gpudoctor %s: %s"), bench ? "bench" : "test", error_message(&err));
		kmsg_watch_finish(&watch, NULL, 0);
		return EXIT_INTERNAL;
	}
	if (show_progress)
		fprintf(stderr, "\r\033[K");
	/* the counters and the kernel log after the run, against before */
	after = machine_probe(m, opts);
	compute_judge(&run, &how, before, after, &result);
	result.nxids = kmsg_watch_finish(&watch, result.xids, 8);
	str_copy(result.xid_note, sizeof(result.xid_note), xid_note);
	if (result.nxids > 0)
		result.pass = false;
	status = report(opts, &result, bench);
	facts_free(after);
	return status;
}

/*
 * See compute_cmd.h. Returns the exit status and prints everything itself: the report, or the blocking
 * root cause. Blocks for the whole run (up to --max-time, plus two probes). Not reentrant: the run and its
 * result live in static storage.
 */
int cmd_compute(const struct cmd_options *opts, bool bench)
{
	const char *name = bench ? "bench" : "test";
	const struct finding *blocker;
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct diagnosis d;
	struct machine m;
	struct facts *before;
	int status = machine_open(&m, opts);

	if (status)
		return status;
	if (!(before = machine_probe(&m, opts))) {
		machine_close(&m);
		return EXIT_INTERNAL;
	}
	rules_run(before, &d);
	if ((blocker = blocking_cause(&d))) {
		/* nothing to compute on: say why, at once */
		struct cmd_out o;
		FILE *out = cmd_out_open(&o);

		if (out)
			report_compute_blocked(out, opts->format == FORMAT_JSON, name, blocker, &ro);
		status = cmd_out_close(&o, opts, EXIT_NOT_READY);
	} else if (!m.fs.live && !opts->load_root_libraries) {
		cmd_error(_("gpudoctor %s: computing under --root runs the image's driver libraries; "
			    "--load-root-libraries says you trust them"), name);
		status = EXIT_USAGE;
	} else {
		status = compute_and_report(opts, &m, before, bench);
	}
	diagnosis_release(&d);
	facts_free(before);
	machine_close(&m);
	return status;
}
