/*
 * compute_json.c - `gpudoctor test --json` (gpudoctor.test/1) and `gpudoctor
 * bench --json` (gpudoctor.bench/1); docs/test-bench.md describes both.
 */
#include "report/report_compute.h"

static json_t *measure_json(const struct measure *m, const char *unit, double peak, bool fake)
{
	json_t *o;

	if (m->n == 0 || fake)
		return json_null();	/* a fake's numbers are never presented as measurements */
	o = json_pack("{s:f, s:f, s:f, s:i, s:s}", "median", m->median, "min", m->min, "max", m->max, "samples", m->n,
		      "unit", unit);
	if (o && peak > 0) {
		json_object_set_new(o, "peak", json_real(peak));
		json_object_set_new(o, "percent_of_peak", json_real(100.0 * m->median / peak));
	}
	return o;
}

static json_t *bench_json(const struct compute_report *r, const struct compute_view *v)
{
	static const char *const names[GEMM_KINDS] = { "fp32", "tf32", "fp16", "bf16" };
	const struct compute_gpu *g = v->gpu;
	const double peaks[GEMM_KINDS] = { v->peaks.fp32, v->peaks.tf32, v->peaks.fp16, v->peaks.bf16 };
	bool fake = r->run->fake;
	json_t *gemm = json_object(), *o;

	for (int k = 0; k < GEMM_KINDS; k++) {
		json_t *m = measure_json(&g->gemm[k], "TFLOPS", peaks[k], fake);

		if (json_is_object(m))
			json_object_set_new(m, "n", json_integer(g->gemm_size[k]));
		if (g->gemm_error[k][0])
			json_decref(m), m = json_pack("{s:s}", "error", g->gemm_error[k]);
		json_object_set_new(gemm, names[k], m);
	}
	o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "h2d_pinned", measure_json(&g->h2d_pinned, "GB/s", 0, fake),
		      "d2h_pinned", measure_json(&g->d2h_pinned, "GB/s", 0, fake), "h2d_pageable",
		      measure_json(&g->h2d_pageable, "GB/s", 0, fake), "d2h_pageable",
		      measure_json(&g->d2h_pageable, "GB/s", 0, fake), "d2d_copy",
		      measure_json(&g->d2d, "GB/s", v->peaks.mem_bw, fake), "fp32_fma",
		      measure_json(&g->fma, "TFLOPS", v->peaks.fp32, fake), "gemm", gemm);
	json_object_set_new(o, "peaks", json_pack("{s:f, s:f, s:f, s:f, s:f, s:b, s:o}", "fp32_tflops", v->peaks.fp32,
		"tf32_tflops", v->peaks.tf32, "fp16_tflops", v->peaks.fp16, "bf16_tflops", v->peaks.bf16, "mem_bw_gbs",
		v->peaks.mem_bw, "computed", v->peaks.computed, "source", json_text(v->peaks.source)));
	if (g->seeds.n)
		json_object_set_new(o, "seeds_compat", fake ? json_null() : json_pack("{s:f, s:f}", "tflops", g->seeds.median,
			"wall_ms", g->seeds_wall_ms));
	return o;
}

/*
 * See report_compute.h: the caller owns (json_decref) the result. r->run must still be valid; a fake
 * driver's timings come out as null, never as measurements.
 */
json_t *report_compute_json(const struct compute_report *r, bool bench)
{
	json_t *gpus = json_array(), *xids = json_array(), *o;

	for (int i = 0; i < r->n; i++) {
		const struct compute_view *v = &r->views[i];
		const struct compute_gpu *g = v->gpu;
		char cc[16];
		json_t *gj;

		snprintf(cc, sizeof(cc), "%d.%d", g->cc_major, g->cc_minor);
		gj = json_pack("{s:i, s:o, s:o, s:o, s:s, s:b, s:o, s:o, s:o, s:o}", "index", g->ordinal, "name",
			json_text(g->name), "uuid", v->uuid[0] ? json_text(v->uuid) : json_null(), "bus_id",
			json_text(g->bus_id), "compute_capability", cc, "pass", v->pass, "verdict", json_text(v->verdict),
			"failed_step", g->failed_step[0] ? json_text(g->failed_step) : json_null(), "error",
			g->failed_step[0] ? json_pack("{s:i, s:o, s:o}", "code", g->error, "name", json_text(g->error_name),
						      "text", json_text(g->error_text)) : json_null(),
			"jit_log", g->jit_log[0] ? json_text(g->jit_log) : json_null());
		json_object_set_new(gj, "test", g->tested ? json_pack("{s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:f}",
			"pattern_words", (json_int_t)g->pattern_words, "pattern_mismatches", (json_int_t)g->pattern_mismatches,
			"copy_words", (json_int_t)g->copy_words, "copy_mismatches", (json_int_t)g->copy_mismatches,
			"matmul_n", g->gemm_n, "matmul_runs", g->gemm_runs, "matmul_wrong", g->gemm_wrong,
			"matmul_unstable", g->gemm_unstable, "ms", g->test_ms) : json_null());
		json_object_set_new(gj, "ecc_uncorrected", v->ecc_before >= 0 ? json_pack("{s:I, s:I}", "before",
			(json_int_t)v->ecc_before, "after", (json_int_t)(v->ecc_after >= 0 ? v->ecc_after : v->ecc_before)) :
			json_null());
		if (bench)
			json_object_set_new(gj, "bench", g->benched ? bench_json(r, v) : json_null());
		json_array_append_new(gpus, gj);
	}
	for (int i = 0; i < r->nxids; i++)
		json_array_append_new(xids, json_text(r->xids[i]));
	o = json_pack("{s:s, s:b, s:b, s:o, s:o, s:o, s:o, s:f}", "schema", bench ? BENCH_SCHEMA : TEST_SCHEMA, "pass",
		      r->pass, "fake_driver", r->run->fake, "failure", r->failure[0] ? json_text(r->failure) : json_null(),
		      "gpus", gpus, "xid_events", xids, "xid_note", r->xid_note[0] ? json_text(r->xid_note) : json_null(),
		      "elapsed_ms", r->how.elapsed_ms);
	if (bench)
		json_object_set_new(o, "cublas", json_text(r->run->cublas_used));
	return o;
}
