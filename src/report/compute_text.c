/*
 * compute_text.c - `gpudoctor test` and `gpudoctor bench` for people.
 */
#include "report/report_compute.h"

#include <string.h>

#include "report/textfmt.h"
#include "util/i18n.h"

static void gpu_heading(struct textfmt *t, const struct compute_view *v)
{
	const struct compute_gpu *g = v->gpu;

	tf_wrapf(t, 0, 2, "%sGPU %d%s  %s  (%s%s%s, sm_%d%d, %.0f GiB)", tf_c(t, TF_BOLD), g->ordinal, tf_c(t, TF_RESET),
		 g->name[0] ? g->name : _("unknown"), v->uuid[0] ? v->uuid : "", v->uuid[0] ? ", " : "",
		 g->bus_id[0] ? g->bus_id : _("bus id unknown"), g->cc_major, g->cc_minor, g->mem_total / 1073741824.0);
}

static void verdict_lines(struct textfmt *t, const struct compute_view *v)
{
	const struct compute_gpu *g = v->gpu;

	tf_wrapf(t, 2, 8, "%s%s%s  %s", tf_c(t, v->pass ? TF_GREEN : TF_RED), v->pass ? "PASS" : "FAIL", tf_c(t, TF_RESET),
		 v->verdict_local[0] ? v->verdict_local : v->verdict);
	if (g->jit_log[0]) {
		tf_line(t, 2, "%s", _("the driver's JIT log:"));
		tf_wrap(t, 4, 4, g->jit_log);
		tf_wrap(t, 2, 2, _("The kernels are PTX ISA 6.0 for sm_50, which every driver since CUDA 9.0 compiles: a "
				   "JIT failure means a broken or very old driver. `gpudoctor` checks it."));
	}
	if (v->ecc_before >= 0)
		tf_line(t, 2, _("uncorrectable ECC errors: %lld before, %lld after"), v->ecc_before,
			v->ecc_after >= 0 ? v->ecc_after : v->ecc_before);
}

/* Spaces that pad text to cols display columns: printf's widths count bytes, and a CJK character is 3 bytes, 2 columns. */
static int pad(const char *text, int cols)
{
	int w = tf_width(text);

	return w < cols ? cols - w : 0;
}

/* One measurement; what is a check name (N_-marked English, shown translated), padded by display columns. */
static void measure_line(struct textfmt *t, const char *what, const struct measure *m, const char *unit, double peak,
			 bool fake)
{
	char pct[48] = "";

	if (m->n == 0)
		return;
	what = i18n_text(what);
	if (fake) {
		tf_line(t, 2, "%s%*s %s", what, pad(what, 26), "", _("(fake driver: not a measurement)"));
		return;
	}
	if (peak > 0)
		snprintf(pct, sizeof(pct), _("%5.1f%% of %.6g"), 100.0 * m->median / peak, peak);
	tf_line(t, 2, "%s%*s %9.2f %-6s %9.2f-%-9.2f %s", what, pad(what, 26), "", m->median, unit, m->min, m->max, pct);
}

static void bench_lines(struct textfmt *t, const struct compute_report *r, const struct compute_view *v)
{
	static const char *const names[GEMM_KINDS] = { "FP32", "TF32", "FP16", "BF16" };
	const struct compute_gpu *g = v->gpu;
	const double gemm_peak[GEMM_KINDS] = { v->peaks.fp32, v->peaks.tf32, v->peaks.fp16, v->peaks.bf16 };
	bool fake = r->run->fake;

	if (!g->benched)
		return;
	/* the headings right-aligned over their columns, by display width (translated ones are CJK) */
	tf_line(t, 2, "%s%-26s %*s%s %-6s %*s%s %s%s", tf_c(t, TF_DIM), "", pad(_("median"), 9), "", _("median"), "",
		pad(_("min-max"), 19), "", _("min-max"), _("of peak"), tf_c(t, TF_RESET));
	measure_line(t, N_("host -> device, pinned"), &g->h2d_pinned, "GB/s", 0, fake);
	measure_line(t, N_("device -> host, pinned"), &g->d2h_pinned, "GB/s", 0, fake);
	measure_line(t, N_("host -> device, pageable"), &g->h2d_pageable, "GB/s", 0, fake);
	measure_line(t, N_("device -> host, pageable"), &g->d2h_pageable, "GB/s", 0, fake);
	measure_line(t, N_("device copy (read+write)"), &g->d2d, "GB/s", v->peaks.mem_bw, fake);
	measure_line(t, "FP32 FMA (PTX)", &g->fma, "TFLOPS", v->peaks.fp32, fake);
	for (int k = 0; k < GEMM_KINDS; k++) {
		char what[48];

		snprintf(what, sizeof(what), "GEMM %s %dx%d", names[k], g->gemm_size[k], g->gemm_size[k]);
		measure_line(t, what, &g->gemm[k], "TFLOPS", gemm_peak[k], fake);
		if (g->gemm_error[k][0])
			tf_line(t, 4, "GEMM %s: %s", names[k], g->gemm_error[k]);
	}
	if (g->seeds.n && !fake) {
		tf_wrapf(t, 2, 4, _("the guides' measurement (100 x 1024x1024 FP32, host clock, no warm-up): %.2f TFLOPS in "
			   "%.0f ms"), g->seeds.median, g->seeds_wall_ms);
		if (g->gemm[GEMM_FP32].n && g->seeds.median > 0)
			tf_wrapf(t, 4, 4, _("%.1fx below the properly timed FP32 GEMM: it times library start-up and kernel "
				   "loading, and a matrix too small to fill the GPU."), g->gemm[GEMM_FP32].median / g->seeds.median);
	}
	tf_wrapf(t, 2, 4, _("%speaks: %s%s%s%s"), tf_c(t, TF_DIM), v->peaks.computed ? "" : v->peaks.name,
		 v->peaks.computed ? "" : _(" datasheet, "), v->peaks.source ? v->peaks.source : _("unknown"), tf_c(t, TF_RESET));
}

/*
 * See report_compute.h. Writes raw text: escaping for the terminal is the caller's (cmd_out_close); stream
 * errors are left to the caller. r->run must still be valid.
 */
void report_text_compute(FILE *out, const struct compute_report *r, bool bench, const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 0 ? o->width : 80 };
	int failed = 0;

	for (int i = 0; i < r->n; i++)
		failed += !r->views[i].pass;
	if (r->failure[0])
		tf_wrapf(&t, 0, 2, _("gpudoctor %s: %sFAIL%s - %s"), bench ? "bench" : "test", tf_c(&t, TF_RED),
			 tf_c(&t, TF_RESET), r->failure_local[0] ? r->failure_local : r->failure);
	else
		/* The GPU count's English plural suffix is an argument: zh_CN swallows it with %.0s. */
		fprintf(out, _("gpudoctor %s: %s%s%s - %d of %d GPU%s %s\n"), bench ? "bench" : "test",
			tf_c(&t, r->pass ? TF_GREEN : TF_RED), r->pass ? "PASS" : "FAIL", tf_c(&t, TF_RESET), r->n - failed,
			r->n, r->n == 1 ? "" : "s", r->pass ? _("compute correctly") : _("compute correctly; see below"));
	if (r->run->fake)
		fprintf(out, _("%s(the CUDA driver is gpudoctor's test double: results exercise the plumbing only)%s\n"),
			tf_c(&t, TF_DIM), tf_c(&t, TF_RESET));
	for (int i = 0; i < r->n; i++) {
		fputc('\n', out);
		gpu_heading(&t, &r->views[i]);
		verdict_lines(&t, &r->views[i]);
		if (bench)
			bench_lines(&t, r, &r->views[i]);
	}
	fputc('\n', out);
	if (r->nxids) {
		fprintf(out, _("%sXid events during the run:%s\n"), tf_c(&t, TF_RED), tf_c(&t, TF_RESET));
		for (int i = 0; i < r->nxids; i++)
			tf_wrapf(&t, 2, 4, "%s", r->xids[i]);
		fputs(_("`gpudoctor explain` reads them.\n"), out);
	} else if (r->xid_note[0]) {
		tf_wrapf(&t, 0, 2, "%s%s%s", tf_c(&t, TF_DIM), _(r->xid_note), tf_c(&t, TF_RESET)); /* the fixed notes have msgids */
	} else {
		fprintf(out, _("%skernel log: no Xid events during the run%s\n"), tf_c(&t, TF_DIM), tf_c(&t, TF_RESET));
	}
	if (bench && r->run->cublas_used[0])
		tf_wrapf(&t, 0, 2, "%scuBLAS: %s%s", tf_c(&t, TF_DIM), r->run->cublas_used, tf_c(&t, TF_RESET));
	fprintf(out, _("%s%.1f s%s\n"), tf_c(&t, TF_DIM), r->how.elapsed_ms / 1000, tf_c(&t, TF_RESET));
}

/*
 * Writes either form itself (JSON written and freed here). Any command but "bench" gets the test schema;
 * cause is borrowed and only read.
 */
void report_compute_blocked(FILE *out, bool json, const char *command, const struct finding *cause,
			    const struct report_opts *o)
{
	struct textfmt t = { out, o->color, o->width > 0 ? o->width : 80 };

	if (json) {
		json_t *j = json_pack("{s:s, s:b, s:{s:s, s:o}, s:[]}", "schema",
				      strcmp(command, "bench") == 0 ? BENCH_SCHEMA : TEST_SCHEMA, "pass", 0, "blocked_by",
				      "id", cause_name(cause->cause), "title", json_text(cause->title), "gpus");

		if (j)
			report_json_write(out, j);
		json_decref(j);
		return;
	}
	tf_wrapf(&t, 0, 2, _("gpudoctor %s: no usable GPU - %s"), command, cause->title);
	tf_wrapf(&t, 2, 2, _("root cause %s; run `gpudoctor` for the evidence and the fix."), cause_name(cause->cause));
}
