/*
 * gpu_bench.c - how fast is this GPU? Each figure is timed with CUDA events
 * around the work on the default stream, after a warm-up, REPS times; the
 * median is the figure and min/max its spread. Data is random, never
 * zeros (zeros make some hardware paths cheaper than real data).
 *
 *   host <-> device  256 MiB, pinned (cuMemAllocHost) and pageable (malloc)
 *   device -> device up to 1 GiB, counted as bytes read + bytes written
 *   FP32 FMA         gd_fma: 8 independent chains a thread, every SM full
 *   GEMM             cuBLAS GemmEx, FP32 / TF32 / FP16 / BF16, n up to 8192
 */
#include "compute/compute_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "util/str.h"

#define REPS 9
#define H2D_BYTES (256ull << 20)
#define D2D_BYTES (1ull << 30)

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void summarise(struct measure *m, double *v, int n)
{
	if (n <= 0)
		return;
	qsort(v, (size_t)n, sizeof(*v), compare_double);
	m->n = n;
	m->min = v[0];
	m->max = v[n - 1];
	m->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static size_t free_memory(struct session *s)
{
	size_t free_b = 0, total = 0;

	if (s->cu.mem_info) {
		compute_mark(s, "cuMemGetInfo_v2");
		if (s->cu.mem_info(&free_b, &total) == CUDA_SUCCESS)
			return free_b;
	}
	return (size_t)(s->gpu->mem_total / 2);
}

/* What one timed repetition does; returns the work's size (bytes or flops), 0 on failure. */
typedef double (*work_fn)(struct session *s, void *ctx);

/* Warm up once, then time REPS repetitions; rate = size / seconds / scale. */
static bool time_reps(struct session *s, const char *step, work_fn work, void *ctx, double scale, struct measure *out)
{
	CUevent start = NULL, end = NULL;
	double rates[REPS];
	int n = 0;
	bool ok = false;

	compute_mark(s, "cuEventCreate");
	if (!compute_ok(s, step, s->cu.event_create(&start, CU_EVENT_DEFAULT)) ||
	    !compute_ok(s, step, s->cu.event_create(&end, CU_EVENT_DEFAULT)))
		goto done;
	if (work(s, ctx) <= 0)
		goto done;
	for (int r = 0; r < REPS; r++) {
		double size, ms;

		compute_mark(s, "cuEventRecord");
		if (!compute_ok(s, step, s->cu.event_record(start, NULL)))
			goto done;
		size = work(s, ctx);
		compute_mark(s, "cuEventRecord");
		if (size <= 0 || !compute_ok(s, step, s->cu.event_record(end, NULL)))
			goto done;
		ms = compute_elapsed(s, start, end);
		if (ms < 0)
			goto done;
		if (ms > 0)
			rates[n++] = size / (ms / 1000.0) / scale;
	}
	summarise(out, rates, n);
	ok = true;
done:
	compute_mark(s, "cuEventDestroy_v2");
	if (start && s->cu.event_destroy)
		s->cu.event_destroy(start);
	if (end && s->cu.event_destroy)
		s->cu.event_destroy(end);
	return ok;
}

struct copy {
	int kind;		/* 0 HtoD, 1 DtoH, 2 DtoD */
	void *host;
	CUdeviceptr a, b;
	size_t bytes;
};

static double do_copy(struct session *s, void *ctx)
{
	struct copy *c = ctx;
	CUresult r;

	if (c->kind == 0) {
		compute_mark(s, "cuMemcpyHtoD_v2");
		r = s->cu.htod(c->a, c->host, c->bytes);
	} else if (c->kind == 1) {
		compute_mark(s, "cuMemcpyDtoH_v2");
		r = s->cu.dtoh(c->host, c->a, c->bytes);
	} else {
		compute_mark(s, "cuMemcpyDtoD_v2");
		r = s->cu.dtod(c->b, c->a, c->bytes);
	}
	if (!compute_ok(s, N_("copy bandwidth"), r))
		return 0;
	return c->kind == 2 ? 2.0 * (double)c->bytes : (double)c->bytes;	/* device copies read and write */
}

static void fill_random(void *p, size_t bytes, unsigned long long seed)
{
	struct rng rng = { seed };
	float *f = p;

	for (size_t i = 0; i < bytes / 4; i++)
		f[i] = rng_float(&rng);
}

static bool bench_copies(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	size_t bytes = H2D_BYTES, room = free_memory(s);
	void *pinned = NULL, *pageable = NULL;
	struct copy c = { 0 };
	bool ok = false;

	while (bytes > (1u << 20) && bytes * 3 > room)
		bytes /= 2;
	compute_progress(s, "GPU %d: host <-> device bandwidth", g->ordinal);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&c.a, bytes)))
		goto done;
	c.bytes = bytes;
	if (!(pageable = malloc(bytes)))
		goto done;
	fill_random(pageable, bytes, 11);
	if (s->cu.alloc_host) {
		compute_mark(s, "cuMemAllocHost_v2");
		if (s->cu.alloc_host(&pinned, bytes) != CUDA_SUCCESS)
			pinned = NULL;	/* pageable figures still stand */
		else
			memcpy(pinned, pageable, bytes);
	}
	c.host = pageable;
	c.kind = 0;
	if (!time_reps(s, N_("copy bandwidth"), do_copy, &c, 1e9, &g->h2d_pageable))
		goto done;
	c.kind = 1;
	if (!time_reps(s, N_("copy bandwidth"), do_copy, &c, 1e9, &g->d2h_pageable))
		goto done;
	if (pinned) {
		c.host = pinned;
		c.kind = 0;
		if (!time_reps(s, N_("copy bandwidth"), do_copy, &c, 1e9, &g->h2d_pinned))
			goto done;
		c.kind = 1;
		if (!time_reps(s, N_("copy bandwidth"), do_copy, &c, 1e9, &g->d2h_pinned))
			goto done;
	}
	/* device to device: as large as fits, two buffers */
	compute_mark(s, "cuMemFree_v2");
	s->cu.free(c.a);
	c.a = 0;
	bytes = D2D_BYTES;
	room = free_memory(s);
	while (bytes > (1u << 20) && bytes * 3 > room)
		bytes /= 2;
	compute_progress(s, "GPU %d: device -> device bandwidth", g->ordinal);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&c.a, bytes)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&c.b, bytes)))
		goto done;
	c.bytes = bytes;
	c.kind = 2;
	compute_mark(s, "cuMemsetD32_v2");
	if (s->cu.memset32 && !compute_ok(s, N_("copy bandwidth"), s->cu.memset32(c.a, 0x3f3504f3u, bytes / 4)))
		goto done;
	ok = time_reps(s, N_("copy bandwidth"), do_copy, &c, 1e9, &g->d2d);
done:
	compute_mark(s, "cuMemFree_v2");
	if (c.a)
		s->cu.free(c.a);
	if (c.b)
		s->cu.free(c.b);
	if (pinned && s->cu.free_host)
		s->cu.free_host(pinned);
	free(pageable);
	return ok;
}

struct fma {
	CUdeviceptr out;
	unsigned blocks, threads, iters;
};

static double do_fma(struct session *s, void *ctx)
{
	struct fma *f = ctx;
	void *params[2] = { &f->out, &f->iters };

	compute_mark(s, "cuLaunchKernel");
	if (!compute_ok(s, N_("FP32 throughput"), s->cu.launch(s->fma, f->blocks, 1, 1, f->threads, 1, 1, 0, NULL, params, NULL)))
		return 0;
	return 64.0 * f->iters * f->blocks * f->threads;
}

static bool bench_fma(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	/* 32,768 trips: 2 M flops a thread, tens of milliseconds on any GPU, so launch cost is noise */
	struct fma f = { 0, (unsigned)(g->sm_count > 0 ? g->sm_count : 16) * 8, 256, 32768 };
	bool ok;

	compute_progress(s, "GPU %d: FP32 throughput", g->ordinal);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&f.out, (size_t)f.blocks * f.threads * 4)))
		return false;
	ok = time_reps(s, N_("FP32 throughput"), do_fma, &f, 1e12, &g->fma);
	compute_mark(s, "cuMemFree_v2");
	s->cu.free(f.out);
	return ok;
}

struct gemm {
	cublasHandle_t handle;
	int kind, n, type, compute;
	CUdeviceptr a, b, c;
	int status;
};

static double do_gemm(struct session *s, void *ctx)
{
	struct gemm *m = ctx;
	float one = 1.0f, zero = 0.0f;

	compute_mark(s, "cublasGemmEx");
	m->status = s->blas.gemm_ex(m->handle, CUBLAS_OP_N, CUBLAS_OP_N, m->n, m->n, m->n, &one, (void *)(size_t)m->a,
				    m->type, m->n, (void *)(size_t)m->b, m->type, m->n, &zero, (void *)(size_t)m->c,
				    m->type, m->n, m->compute, CUBLAS_GEMM_DEFAULT);
	return m->status == 0 ? 2.0 * m->n * (double)m->n * m->n : 0;
}

static bool upload_matrix(struct session *s, CUdeviceptr dst, int n, int type, unsigned long long seed)
{
	size_t count = (size_t)n * n, elem = type == CUDA_R_32F ? 4 : 2;
	unsigned char *host = malloc(count * elem);
	struct rng rng = { seed };
	bool ok;

	if (!host)
		return false;
	for (size_t i = 0; i < count; i++) {
		float f = rng_float(&rng);

		if (type == CUDA_R_32F) {
			memcpy(host + i * 4, &f, 4);
		} else {
			unsigned short h = type == CUDA_R_16F ? compute_float_to_half(f) : compute_float_to_bf16(f);

			memcpy(host + i * 2, &h, 2);
		}
	}
	compute_mark(s, "cuMemcpyHtoD_v2");
	ok = compute_ok(s, N_("GEMM"), s->cu.htod(dst, host, count * elem));
	free(host);
	return ok;
}

static void bench_gemm_kind(struct session *s, struct gemm *m, int kind)
{
	static const struct {
		int type, compute;
		const char *name;
	} kinds[GEMM_KINDS] = {
		{ CUDA_R_32F, CUBLAS_COMPUTE_32F, "FP32" },
		{ CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, "TF32" },
		{ CUDA_R_16F, CUBLAS_COMPUTE_32F, "FP16" },
		{ CUDA_R_16BF, CUBLAS_COMPUTE_32F, "BF16" },
	};
	struct compute_gpu *g = s->gpu;
	int n = 8192;
	size_t elem = kinds[kind].type == CUDA_R_32F ? 4 : 2, room = free_memory(s);

	while (n > 1024 && 3 * (size_t)n * n * elem > room * 3 / 4)
		n /= 2;
	m->kind = kind;
	m->n = n;
	m->type = kinds[kind].type;
	m->compute = kinds[kind].compute;
	g->gemm_size[kind] = n;
	compute_progress(s, "GPU %d: GEMM %s %dx%d", g->ordinal, kinds[kind].name, n, n);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&m->a, (size_t)n * n * elem)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&m->b, (size_t)n * n * elem)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&m->c, (size_t)n * n * elem)))
		goto done;
	if (!upload_matrix(s, m->a, n, m->type, 21 + (unsigned)kind) || !upload_matrix(s, m->b, n, m->type, 42 + (unsigned)kind))
		goto done;
	if (!time_reps(s, N_("GEMM"), do_gemm, m, 1e12, &g->gemm[kind]) && m->status != 0)
		str_printf(g->gemm_error[kind], sizeof(g->gemm_error[kind]), "cublasGemmEx returned status %d", m->status);
done:
	compute_mark(s, "cuMemFree_v2");
	if (m->a)
		s->cu.free(m->a);
	if (m->b)
		s->cu.free(m->b);
	if (m->c)
		s->cu.free(m->c);
	m->a = m->b = m->c = 0;
}

/*
 * The guides' benchmark as they wrote it: 100 products of 1024 x 1024, timed
 * on the host clock from before the first call (so library start-up and
 * the first kernel load count) to one synchronize at the end, no warm-up.
 */
static void bench_seeds(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	struct gemm m = { 0 };
	double t0, t1;

	m.n = 1024;
	m.type = CUDA_R_32F;
	m.compute = CUBLAS_COMPUTE_32F;
	compute_progress(s, "GPU %d: the guides' 1024x1024x100 measurement", g->ordinal);
	compute_mark(s, "cuMemAlloc_v2");
	if (!compute_ok(s, N_("allocating device memory"), s->cu.alloc(&m.a, 1024u * 1024 * 4)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&m.b, 1024u * 1024 * 4)) ||
	    !compute_ok(s, N_("allocating device memory"), s->cu.alloc(&m.c, 1024u * 1024 * 4)) ||
	    !upload_matrix(s, m.a, 1024, CUDA_R_32F, 5) || !upload_matrix(s, m.b, 1024, CUDA_R_32F, 6))
		goto done;
	t0 = clock_ms();
	compute_mark(s, "cublasCreate_v2");
	if (s->blas.create(&m.handle) != 0)
		goto done;
	for (int i = 0; i < 100; i++)
		if (do_gemm(s, &m) <= 0)
			goto done;
	compute_mark(s, "cuCtxSynchronize");
	if (!compute_ok(s, N_("GEMM"), s->cu.ctx_sync()))
		goto done;
	t1 = clock_ms();
	g->seeds_wall_ms = t1 - t0;
	g->seeds.median = g->seeds.min = g->seeds.max = 100 * 2.0 * 1024 * 1024 * 1024 / ((t1 - t0) / 1000) / 1e12;
	g->seeds.n = 1;
done:
	if (m.handle) {
		compute_mark(s, "cublasDestroy_v2");
		s->blas.destroy(m.handle);
	}
	compute_mark(s, "cuMemFree_v2");
	if (m.a)
		s->cu.free(m.a);
	if (m.b)
		s->cu.free(m.b);
	if (m.c)
		s->cu.free(m.c);
}

/*
 * In the helper, after compute_test_gpu, with the context current. False only when a driver call failed
 * (recorded on the GPU); without cuBLAS, or when cublasCreate fails, GEMM is skipped and the result is true.
 */
bool compute_bench_gpu(struct session *s)
{
	struct gemm m = { 0 };

	s->gpu->benched = true;
	if (!bench_copies(s) || !bench_fma(s))
		return false;
	if (!s->have_blas)
		return true;
	if (s->run->seeds_compat)
		bench_seeds(s);	/* first: the guides' number includes cuBLAS start-up */
	compute_mark(s, "cublasCreate_v2");
	if (s->blas.create(&m.handle) != 0) {
		str_copy(s->gpu->gemm_error[0], sizeof(s->gpu->gemm_error[0]), "cublasCreate failed");
		return true;
	}
	for (int k = 0; k < GEMM_KINDS && !s->gpu->failed_step[0]; k++) {
		/* TF32 needs Ampere (8.0) or newer, BF16 too; FP16 tensor cores Volta (7.0) */
		if ((k == GEMM_TF32 || k == GEMM_BF16) && s->gpu->cc_major < 8)
			continue;
		bench_gemm_kind(s, &m, k);
	}
	compute_mark(s, "cublasDestroy_v2");
	s->blas.destroy(m.handle);
	return !s->gpu->failed_step[0];
}
