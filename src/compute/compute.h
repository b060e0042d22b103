/*
 * compute.h - compute on the GPU through the CUDA driver API: prove it
 * computes correctly (gpudoctor test) and measure how fast (gpudoctor
 * bench).
 *
 * Everything runs in an isolated helper process (util/isolate.h) against a
 * deadline: the kernels are PTX text shipped in the binary and JIT-compiled
 * by the driver, so no toolkit is needed; GEMM goes through a cuBLAS found
 * on the machine, when there is one. Results are written into struct
 * compute_run, which lives in memory shared with the parent.
 */
#ifndef GD_COMPUTE_COMPUTE_H
#define GD_COMPUTE_COMPUTE_H

#include <stdbool.h>

#include "util/error.h"
#include "util/isolate.h"

#define COMPUTE_MAX_GPUS 16
#define COMPUTE_MAX_CUBLAS 8

/* Repeated timings of one quantity: GB/s or TFLOPS. n == 0: not measured. */
struct measure {
	double median, min, max;
	int n;
};

enum gemm_kind { GEMM_FP32, GEMM_TF32, GEMM_FP16, GEMM_BF16, GEMM_KINDS };

struct compute_gpu {
	int ordinal;			/* CUDA's device number (after CUDA_VISIBLE_DEVICES) */
	char name[96], bus_id[32];
	int cc_major, cc_minor, sm_count, clock_khz, mem_clock_khz, bus_width;
	unsigned long long mem_total;
	/* the first step that failed; "" when none did */
	char failed_step[64];
	int error;			/* its CUresult (or cuBLAS status, in gemm_error) */
	char error_name[48], error_text[160];
	char jit_log[1024];		/* the driver's JIT error log, when loading the PTX failed */
	/* test */
	bool tested;
	unsigned long pattern_words, pattern_mismatches;
	long first_bad;			/* index of the first wrong word, -1 none */
	unsigned got, want;
	unsigned long copy_words, copy_mismatches;
	int gemm_n, gemm_runs, gemm_wrong, gemm_unstable;	/* stability loop: runs unequal to the CPU / to run 1 */
	double test_ms;
	/* bench */
	bool benched;
	struct measure h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable, d2d;	/* GB/s; d2d counts read + write */
	struct measure fma;					/* FP32 TFLOPS */
	struct measure gemm[GEMM_KINDS];			/* TFLOPS */
	int gemm_size[GEMM_KINDS];
	char gemm_error[GEMM_KINDS][96];
	struct measure seeds;		/* --seeds-compat: the guides' 1024x1024x100 timing, TFLOPS */
	double seeds_wall_ms;
};

struct compute_run {
	/* what to do, set by the caller */
	char libcuda[4096];		/* what to dlopen: a soname, or a host path */
	char cublas[COMPUTE_MAX_CUBLAS][4096];	/* cuBLAS libraries to try, in order (host paths) */
	int ncublas;
	bool cublas_search;		/* also try the sonames on the loader's path (not under --root) */
	bool bench, seeds_compat;
	double stability_s;		/* time for the stability loop per GPU */
	int only_gpu;			/* -1: every GPU */
	double call_s;			/* deadline of one driver call: past it, the driver hangs */
	double total_s;			/* budget of the whole run: past it, the run is cut short */
	/* what happened, written by the helper */
	char last_call[64];
	char progress[128];
	bool fake;			/* gpudoctor's test double of the driver: numbers are not measurements */
	bool loaded;
	char load_error[256];
	int init;			/* cuInit's result */
	char init_name[48];
	int count;			/* devices CUDA sees */
	int ngpus;
	struct compute_gpu gpus[COMPUTE_MAX_GPUS];
	char cublas_used[512];		/* the cuBLAS library loaded, or why none */
};

/*
 * Run the test (and the benchmark, with run->bench) in an isolated helper,
 * each driver call bounded by run->call_s and the whole by run->total_s.
 * tick, when not NULL, is called about five times a second with run->progress.
 */
int compute_run(struct compute_run *run, void (*tick)(const char *progress), struct isolate_outcome *how,
		struct error *err);

/* The embedded kernels (build/gen/kernels_ptx.c, from src/compute/kernels.ptx). */
extern const char compute_kernels_ptx[];

/* Host references, exposed for the unit tests. */
unsigned compute_pattern_word(unsigned i, unsigned seed);
void compute_sgemm_reference(const float *a, const float *b, float *c, unsigned n);
unsigned short compute_float_to_half(float f);
unsigned short compute_float_to_bf16(float f);

#endif
