/*
 * gpu.c - `gpudoctor test` and `gpudoctor bench`: compute on each GPU
 * through the driver, in an isolated helper with a deadline, and judge it.
 *
 * Both first read the machine as the doctor does: without a usable GPU they
 * stop at once with the doctor's root cause. Around the run they read the
 * GPUs' ECC counters (NVML) and watch the kernel log for Xid events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/diagnose.h"
#include "compute/judge.h"
#include "probe/kmsg.h"
#include "report/report_compute.h"
#include "util/str.h"
#include "util/termsafe.h"

/* The deadline of one driver call, and the whole run's budget, unless told otherwise. */
#define CALL_DEADLINE_S 10
#define TEST_BUDGET_S 300
#define BENCH_BUDGET_S 600

/* A root cause below the CUDA layer (or CUDA itself failing) means there is nothing to compute on. */
static const struct finding *blocking_cause(const struct diagnosis *d)
{
	const struct finding *rc = d->root_cause;

	return rc && rc->stage <= STAGE_CUDA ? rc : NULL;
}

/* What to dlopen: the soname live, the file inside the root otherwise (as the doctor's helper does). */
static void driver_file(const struct cmd_options *opts, const struct facts *f, char *out, size_t outsz)
{
	if (!opts->root)
		str_copy(out, outsz, "libcuda.so.1");
	else
		str_printf(out, outsz, "%s%s", opts->root, f->runtime.cuda_lib.path);
}

/* cuBLAS candidates: the active toolkit's, torch's wheel copy, then the soname search in the helper. */
static void cublas_candidates(const struct cmd_options *opts, const struct facts *f, struct compute_run *run)
{
	const char *root = opts->root ? opts->root : "";

	if (f->toolkits.active >= 0) {
		const struct toolkit *t = &f->toolkits.items[f->toolkits.active];
		int major = atoi(t->version);

		if (major > 0 && run->ncublas < COMPUTE_MAX_CUBLAS)
			str_printf(run->cublas[run->ncublas++], sizeof(run->cublas[0]), "%s%s/lib64/libcublas.so.%d", root,
				   t->real_path, major);
	}
	for (int i = 0; i < f->python.ntorch; i++) {
		const struct torch_install *t = &f->python.torches[i];

		for (int k = 0; k < t->nlibs && run->ncublas < COMPUTE_MAX_CUBLAS; k++)
			if (str_starts_with(t->libs[k].soname, "libcublas.so.") && t->libs[k].path[0])
				str_printf(run->cublas[run->ncublas++], sizeof(run->cublas[0]), "%s%s", root, t->libs[k].path);
	}
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

static int run_compute(const struct cmd_options *opts, bool bench)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	static struct compute_run run;	/* large: off the stack */
	static struct compute_report report;
	struct isolate_outcome how;
	struct kmsg_watch watch = { -1 };
	char xid_note[160] = "";
	struct diagnosis d;
	struct error err;
	struct cmd_out o;
	FILE *out;
	struct facts *before, *after = NULL;
	const struct finding *blocker;
	int status = EXIT_READY;
	const char *cmd = bench ? "bench" : "test";

	if (!(before = diagnose_collect(opts, &status)))
		return status;
	rules_run(before, &d);
	if ((blocker = blocking_cause(&d))) {
		/* nothing to compute on: say why, at once */
		if ((out = cmd_out_open(&o)))
			report_compute_blocked(out, opts->format == FORMAT_JSON, cmd, blocker, &ro);
		diagnosis_release(&d);
		facts_free(before);
		return cmd_out_close(&o, opts, EXIT_NOT_READY);
	}
	if (opts->root && !opts->load_root_libraries) {
		fprintf(stderr, "gpudoctor %s: computing under --root runs the image's driver libraries; "
			"--load-root-libraries says you trust them\n", cmd);
		diagnosis_release(&d);
		facts_free(before);
		return EXIT_USAGE;
	}
	memset(&run, 0, sizeof(run));
	driver_file(opts, before, run.libcuda, sizeof(run.libcuda));
	run.bench = bench;
	run.seeds_compat = opts->seeds_compat;
	run.stability_s = opts->duration_s > 0 ? opts->duration_s : 2.0;
	run.cublas_search = !opts->root;	/* under --root, nothing outside it is loaded */
	run.only_gpu = -1;
	if (bench)
		cublas_candidates(opts, before, &run);
	if (opts->root)
		str_copy(xid_note, sizeof(xid_note), "the kernel log was not watched (--root)");
	else
		kmsg_watch_start(&watch, xid_note, sizeof(xid_note));
	show_progress = opts->format != FORMAT_JSON && isatty(STDERR_FILENO);
	run.call_s = opts->timeout_s > 0 ? opts->timeout_s : CALL_DEADLINE_S;
	run.total_s = opts->max_time_s > 0 ? opts->max_time_s : bench ? BENCH_BUDGET_S : TEST_BUDGET_S;
	if (compute_run(&run, print_progress, &how, &err) < 0) {
		cmd_error("gpudoctor %s: %s", cmd, err.msg);
		diagnosis_release(&d);
		facts_free(before);
		return EXIT_INTERNAL;
	}
	if (show_progress)
		fprintf(stderr, "\r\033[K");
	/* the counters and the kernel log after the run, against before */
	after = diagnose_collect(opts, &status);
	compute_judge(&run, &how, before, after, &report);
	report.nxids = kmsg_watch_finish(&watch, report.xids, 8);
	str_copy(report.xid_note, sizeof(report.xid_note), xid_note);
	if (report.nxids > 0)
		report.pass = false;
	if ((out = cmd_out_open(&o))) {
		if (opts->format == FORMAT_JSON) {
			json_t *j = report_compute_json(&report, bench);

			if (j)
				report_json_write(out, j);
			json_decref(j);
		} else {
			report_text_compute(out, &report, bench, &ro);
		}
	}
	diagnosis_release(&d);
	facts_free(before);
	facts_free(after);
	return cmd_out_close(&o, opts, report.pass ? EXIT_READY : EXIT_NOT_READY);
}

int cmd_test(const struct cmd_options *opts)
{
	return run_compute(opts, false);
}

int cmd_bench(const struct cmd_options *opts)
{
	return run_compute(opts, true);
}
