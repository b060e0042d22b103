/*
 * compute_internal.h - shared by the files of src/compute/ only: the driver
 * and cuBLAS entry points, and one GPU's session in the helper process.
 */
#ifndef GD_COMPUTE_COMPUTE_INTERNAL_H
#define GD_COMPUTE_COMPUTE_INTERNAL_H

#include "compute/compute.h"
#include "nvidia/cublas.h"
#include "nvidia/cuda.h"
#include "util/i18n.h"	/* step names are N_()-marked: the judge translates them for the text report */

struct session {
	struct compute_run *run;
	struct cuda_compute_fns cu;
	struct cublas_fns blas;
	bool have_blas;
	struct compute_gpu *gpu;
	CUdevice dev;
	CUmodule module;
	CUfunction pattern, sgemm, fma;
};

/* Name the call about to be made, for the parent, should it hang. */
void compute_mark(struct session *s, const char *call);
/* Whether r is success; otherwise record it as the GPU's failure at step (the first one stays). */
bool compute_ok(struct session *s, const char *step, CUresult r);
void compute_progress(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Milliseconds between two events recorded around work on the default stream; < 0 on failure. */
double compute_elapsed(struct session *s, CUevent start, CUevent end);

/* The steps: each returns false when the GPU failed (and recorded why). */
bool compute_test_gpu(struct session *s);
bool compute_bench_gpu(struct session *s);
/* Load the first cuBLAS of run->cublas that opens; records the outcome in run->cublas_used. */
void compute_load_cublas(struct session *s);

/* A deterministic pseudo-random stream (xorshift64*): data is random, never zeros, and reproducible. */
struct rng {
	unsigned long long state;
};
float rng_float(struct rng *r);	/* uniform in [-1, 1) */

#endif
