/*
 * gpu_test.c - does this GPU compute correctly? Three checks, every output
 * element compared on the host:
 *
 *   pattern  a kernel writes a known function of each index into 64 MiB;
 *   copy     random data host -> device -> device -> host comes back equal;
 *   matmul   256 x 256 products of random matrices, repeated for the
 *            stability budget: each must equal the host's fused
 *            multiply-add sequence bit for bit, and every run the first.
 */
#include "compute/compute_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

#define PATTERN_WORDS (16u << 20)	/* 64 MiB */
#define COPY_BYTES (64u << 20)
#define GEMM_N 256
#define MAX_STABILITY_RUNS 500

/* Grid for a grid-stride kernel: enough blocks to fill every SM several times over. */
static unsigned blocks_for(const struct compute_gpu *g, unsigned long items, unsigned threads)
{
	unsigned long want = (items + threads - 1) / threads, fill = (unsigned long)(g->sm_count > 0 ? g->sm_count : 8) * 16;

	return (unsigned)(want < fill ? want : fill);
}

static bool check_pattern(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	unsigned n = PATTERN_WORDS, seed = 0x5eed1234u;
	unsigned *host = malloc((size_t)n * 4);
	CUdeviceptr out = 0;
	void *params[3] = { &out, &n, &seed };
	bool ok = false;

	if (!host)
		return compute_ok(s, N_("pattern kernel"), CUDA_ERROR_OUT_OF_MEMORY);
	compute_progress(s, "GPU %d: pattern kernel", g->ordinal);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&out, (size_t)n * 4)))
		goto done;
	compute_mark(s, "cuLaunchKernel");
	if (!compute_ok(s, N_("launching the pattern kernel"),
			s->cu.launch(s->pattern, blocks_for(g, n, 256), 1, 1, 256, 1, 1, 0, NULL, params, NULL)))
		goto done;
	compute_mark(s, "cuCtxSynchronize");
	if (!compute_ok(s, N_("running the pattern kernel"), s->cu.ctx_sync()))
		goto done;
	compute_mark(s, "cuMemcpyDtoH_v2");
	if (!compute_ok(s, N_("copying the pattern back"), s->cu.dtoh(host, out, (size_t)n * 4)))
		goto done;
	g->pattern_words = n;
	for (unsigned i = 0; i < n; i++) {
		if (host[i] == compute_pattern_word(i, seed))
			continue;
		if (g->pattern_mismatches++ == 0) {
			g->first_bad = i;
			g->got = host[i];
			g->want = compute_pattern_word(i, seed);
		}
	}
	ok = g->pattern_mismatches == 0;
done:
	if (out) {
		compute_mark(s, "cuMemFree_v2");
		s->cu.free(out);
	}
	free(host);
	return ok;
}

static bool check_copies(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	size_t words = COPY_BYTES / 4;
	unsigned *src = malloc(COPY_BYTES), *back = malloc(COPY_BYTES);
	struct rng rng = { 0x9e3779b97f4a7c15ULL ^ (unsigned)g->ordinal };
	CUdeviceptr a = 0, b = 0;
	bool ok = false;

	if (!src || !back) {
		compute_ok(s, N_("copy round trip"), CUDA_ERROR_OUT_OF_MEMORY);
		goto done;
	}
	compute_progress(s, "GPU %d: copy round trip", g->ordinal);
	for (size_t i = 0; i < words; i++) {
		float f = rng_float(&rng);

		memcpy(&src[i], &f, 4);
	}
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&a, COPY_BYTES)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&b, COPY_BYTES)))
		goto done;
	compute_mark(s, "cuMemcpyHtoD_v2");
	if (!compute_ok(s, N_("copying host to device"), s->cu.htod(a, src, COPY_BYTES)))
		goto done;
	compute_mark(s, "cuMemcpyDtoD_v2");
	if (!compute_ok(s, N_("copying device to device"), s->cu.dtod(b, a, COPY_BYTES)))
		goto done;
	compute_mark(s, "cuMemcpyDtoH_v2");
	if (!compute_ok(s, N_("copying device to host"), s->cu.dtoh(back, b, COPY_BYTES)))
		goto done;
	g->copy_words = words;
	for (size_t i = 0; i < words; i++)
		g->copy_mismatches += src[i] != back[i];
	ok = g->copy_mismatches == 0;
done:
	compute_mark(s, "cuMemFree_v2");
	if (a)
		s->cu.free(a);
	if (b)
		s->cu.free(b);
	free(src);
	free(back);
	return ok;
}

static bool check_matmul(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	unsigned n = GEMM_N;
	size_t bytes = (size_t)n * n * 4;
	float *a = malloc(bytes), *b = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes), *first = malloc(bytes);
	struct rng rng = { 0x2545F4914F6CDD1DULL + (unsigned)g->ordinal };
	CUdeviceptr da = 0, db = 0, dc = 0;
	void *params[4] = { &da, &db, &dc, &n };
	double stop;
	bool ok = false;

	if (!a || !b || !want || !got || !first) {
		compute_ok(s, N_("matrix products"), CUDA_ERROR_OUT_OF_MEMORY);
		goto done;
	}
	for (size_t i = 0; i < (size_t)n * n; i++) {
		a[i] = rng_float(&rng);
		b[i] = rng_float(&rng);
	}
	compute_progress(s, "GPU %d: host reference for the matrix products", g->ordinal);
	compute_sgemm_reference(a, b, want, n);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&da, bytes)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&db, bytes)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&dc, bytes)))
		goto done;
	compute_mark(s, "cuMemcpyHtoD_v2");
	if (!compute_ok(s, N_("copying the matrices"), s->cu.htod(da, a, bytes)) ||
	    !compute_ok(s, N_("copying the matrices"), s->cu.htod(db, b, bytes)))
		goto done;
	g->gemm_n = (int)n;
	stop = clock_ms() + 1000 * (s->run->stability_s > 0 ? s->run->stability_s : 2.0);
	/* at least three runs; then until the time budget is spent */
	while (g->gemm_runs < 3 || (clock_ms() < stop && g->gemm_runs < MAX_STABILITY_RUNS)) {
		compute_progress(s, "GPU %d: matrix product %d (stability)", g->ordinal, g->gemm_runs + 1);
		compute_mark(s, "cuMemsetD32_v2");
		if (s->cu.memset32 && !compute_ok(s, N_("clearing the product"), s->cu.memset32(dc, 0x7fc00000u, (size_t)n * n)))
			goto done;
		compute_mark(s, "cuLaunchKernel");
		if (!compute_ok(s, N_("launching the matrix product"),
				s->cu.launch(s->sgemm, (n + 15) / 16, (n + 15) / 16, 1, 16, 16, 1, 0, NULL, params, NULL)))
			goto done;
		compute_mark(s, "cuCtxSynchronize");
		if (!compute_ok(s, N_("running the matrix product"), s->cu.ctx_sync()))
			goto done;
		compute_mark(s, "cuMemcpyDtoH_v2");
		if (!compute_ok(s, N_("copying the product back"), s->cu.dtoh(got, dc, bytes)))
			goto done;
		if (memcmp(got, want, bytes) != 0)
			g->gemm_wrong++;
		if (g->gemm_runs == 0)
			memcpy(first, got, bytes);
		else if (memcmp(got, first, bytes) != 0)
			g->gemm_unstable++;
		g->gemm_runs++;
	}
	ok = g->gemm_wrong == 0 && g->gemm_unstable == 0;
done:
	compute_mark(s, "cuMemFree_v2");
	if (da)
		s->cu.free(da);
	if (db)
		s->cu.free(db);
	if (dc)
		s->cu.free(dc);
	free(a);
	free(b);
	free(want);
	free(got);
	free(first);
	return ok;
}

/*
 * In the helper, with the context current and the kernels loaded. Wrong data does not stop the next check;
 * a failed call does. False on either; host and device memory are freed before it returns.
 */
bool compute_test_gpu(struct session *s)
{
	double start = clock_ms();
	bool ok;

	s->gpu->tested = true;
	/* wrong data does not stop the other checks; a failed call leaves the context unusable, so it does */
	ok = check_pattern(s);
	if (!s->gpu->failed_step[0])
		ok = check_copies(s) && ok;
	if (!s->gpu->failed_step[0])
		ok = check_matmul(s) && ok;
	s->gpu->test_ms = clock_ms() - start;
	return ok;
}
