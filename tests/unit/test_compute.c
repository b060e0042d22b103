/*
 * Unit tests for src/compute/ without a GPU: the host references the
 * kernels are checked against, the FP16/BF16 conversions, the peaks, and
 * the verdicts a run's results turn into.
 */
#include "testutil.h"

#include "compute/compute.h"
#include "compute/judge.h"
#include "probe/facts.h"
#include "util/str.h"

static void test_pattern_words(void **state)
{
	(void)state;
	/* (i ^ seed) * 0x9E3779B1 + (i >> 3), in 32 bits */
	assert_int_equal(compute_pattern_word(0, 0), 0);
	assert_int_equal(compute_pattern_word(1, 0), 0x9E3779B1u);
	assert_int_equal(compute_pattern_word(8, 0), (8u * 0x9E3779B1u) + 1);
	assert_int_equal(compute_pattern_word(5, 5), 0);
	assert_true(compute_pattern_word(2, 1) != compute_pattern_word(3, 1));
}

static void test_sgemm_reference(void **state)
{
	const float a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 };
	float c[4];

	(void)state;
	compute_sgemm_reference(a, b, c, 2);
	assert_true(c[0] == 19 && c[1] == 22 && c[2] == 43 && c[3] == 50);
}

static void test_half_and_bf16(void **state)
{
	(void)state;
	assert_int_equal(compute_float_to_half(1.0f), 0x3C00);
	assert_int_equal(compute_float_to_half(-2.0f), 0xC000);
	assert_int_equal(compute_float_to_half(0.1f), 0x2E66);
	assert_int_equal(compute_float_to_half(65504.0f), 0x7BFF);
	assert_int_equal(compute_float_to_half(1e6f), 0x7C00);		/* overflow: infinity */
	assert_int_equal(compute_float_to_half(5.9604645e-8f), 0x0001);	/* the smallest subnormal */
	assert_int_equal(compute_float_to_half(1e-9f), 0x0000);
	assert_int_equal(compute_float_to_half(0.0f), 0x0000);
	assert_int_equal(compute_float_to_bf16(1.0f), 0x3F80);
	assert_int_equal(compute_float_to_bf16(0.1f), 0x3DCD);		/* 0x3DCCCCCD rounds up */
	assert_int_equal(compute_float_to_bf16(-1.5f), 0xBFC0);
}

/* A GPU the datasheet table does not list: the peak comes from its clocks. */
static void test_computed_peak(void **state)
{
	struct compute_gpu g = { 0 };
	struct gpu_peaks p;

	(void)state;
	g.cc_major = 8;
	g.cc_minor = 6;
	g.sm_count = 82;
	g.clock_khz = 1695000;
	g.mem_clock_khz = 9751000;
	g.bus_width = 384;
	str_copy(g.bus_id, sizeof(g.bus_id), "0000:01:00.0");
	compute_peaks(&g, NULL, &p);
	assert_true(p.computed);
	/* 82 SMs x 128 FP32/clock (8.6) x 2 x 1.695 GHz = 35.58 TFLOPS */
	assert_true(p.fp32 > 35.57 && p.fp32 < 35.59);
	/* 9751 MHz x 2 x 48 bytes = 936.1 GB/s */
	assert_true(p.mem_bw > 936.0 && p.mem_bw < 936.2);
	g.cc_major = 3;	/* not in the table: unknown, not guessed */
	g.cc_minor = 5;
	compute_peaks(&g, NULL, &p);
	assert_true(p.fp32 == 0);
}

static struct compute_run *one_gpu_run(void)
{
	static struct compute_run run;

	memset(&run, 0, sizeof(run));
	run.loaded = true;
	run.count = run.ngpus = 1;
	run.gpus[0].ordinal = 0;
	run.gpus[0].first_bad = -1;
	str_copy(run.gpus[0].name, sizeof(run.gpus[0].name), "NVIDIA A100-SXM4-80GB");
	str_copy(run.gpus[0].bus_id, sizeof(run.gpus[0].bus_id), "00000000:07:00.0");
	run.gpus[0].tested = true;
	run.gpus[0].pattern_words = run.gpus[0].copy_words = 16u << 20;
	run.gpus[0].gemm_n = 256;
	run.gpus[0].gemm_runs = 40;
	return &run;
}

static void test_verdicts(void **state)
{
	struct compute_run *run = one_gpu_run();
	struct isolate_outcome how = { 0 };
	static struct compute_report r;
	struct facts *f = facts_new();

	(void)state;
	assert_non_null(f);
	f->runtime.nvml_ndev = 1;
	str_copy(f->runtime.nvml[0].bus_id, sizeof(f->runtime.nvml[0].bus_id), "00000000:07:00.0");
	str_copy(f->runtime.nvml[0].uuid, sizeof(f->runtime.nvml[0].uuid), "GPU-1234");
	f->runtime.nvml[0].ecc_uncorrected = 0;
	f->runtime.nvml[0].remap_pending = 0;

	compute_judge(run, &how, f, f, &r);
	assert_true(r.pass);
	assert_string_equal(r.views[0].uuid, "GPU-1234");
	assert_non_null(strstr(r.views[0].verdict, "computes correctly"));

	/* one wrong word */
	run->gpus[0].pattern_mismatches = 1;
	run->gpus[0].first_bad = 4096;
	run->gpus[0].got = 0xdeadbeef;
	run->gpus[0].want = 0xdeadbeee;
	compute_judge(run, &how, f, f, &r);
	assert_false(r.pass);
	assert_non_null(strstr(r.views[0].verdict, "index 4096: 0xdeadbeef, expected 0xdeadbeee"));
	run->gpus[0].pattern_mismatches = 0;

	/* a GPU that drifts under load */
	run->gpus[0].gemm_unstable = 3;
	compute_judge(run, &how, f, f, &r);
	assert_false(r.pass);
	assert_non_null(strstr(r.views[0].verdict, "3 from the first run"));
	run->gpus[0].gemm_unstable = 0;

	/* ECC errors rose during the run */
	{
		struct facts *after = facts_new();

		memcpy(after, f, sizeof(*after));
		after->runtime.nvml[0].ecc_uncorrected = 2;
		compute_judge(run, &how, f, after, &r);
		assert_false(r.pass);
		assert_non_null(strstr(r.views[0].verdict, "from 0 to 2"));
		facts_free(after);
	}

	/* the JIT refused the kernels */
	str_copy(run->gpus[0].failed_step, sizeof(run->gpus[0].failed_step), "JIT-compiling the kernels (PTX)");
	str_copy(run->gpus[0].error_name, sizeof(run->gpus[0].error_name), "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
	compute_judge(run, &how, f, f, &r);
	assert_false(r.pass);
	assert_non_null(strstr(r.views[0].verdict, "JIT-compiling the kernels (PTX) failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION"));
	run->gpus[0].failed_step[0] = '\0';

	/* the helper hung in a call */
	how.hung = true;
	how.elapsed_ms = 120000;
	str_copy(run->last_call, sizeof(run->last_call), "cuCtxSynchronize");
	compute_judge(run, &how, f, f, &r);
	assert_false(r.pass);
	assert_non_null(strstr(r.failure, "cuCtxSynchronize did not return"));
	assert_string_equal(r.views[0].verdict, "not finished: the helper stopped");
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_words),
		cmocka_unit_test(test_sgemm_reference),
		cmocka_unit_test(test_half_and_bf16),
		cmocka_unit_test(test_computed_peak),
		cmocka_unit_test(test_verdicts),
	};

	return cmocka_run_group_tests_name("compute", tests, NULL, NULL);
}
