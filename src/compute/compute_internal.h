/*
 * compute_internal.h - shared by the files of src/compute/ only: the driver
 * and cuBLAS entry points, and one GPU's session in the helper process.
 */
#ifndef GD_COMPUTE_COMPUTE_INTERNAL_H
#define GD_COMPUTE_COMPUTE_INTERNAL_H

#include "compute/compute.h"
#include "probe/driver/cuda_fns.h"

/* The query entry points (shared with the doctor's probe), then what computing needs. */
struct cu {
	struct cuda_query_fns q;
	cuGetErrorString_fn error_string;
	cuDevicePrimaryCtxRetain_fn ctx_retain;
	cuDevicePrimaryCtxRelease_v2_fn ctx_release;
	cuCtxSetCurrent_fn ctx_set;
	cuCtxSynchronize_fn ctx_sync;
	cuMemGetInfo_v2_fn mem_info;
	cuMemAlloc_v2_fn alloc;
	cuMemFree_v2_fn free;
	cuMemAllocHost_v2_fn alloc_host;
	cuMemFreeHost_fn free_host;
	cuMemcpyHtoD_v2_fn htod;
	cuMemcpyDtoH_v2_fn dtoh;
	cuMemcpyDtoD_v2_fn dtod;
	cuMemsetD32_v2_fn memset32;
	cuModuleLoadDataEx_fn module_load;
	cuModuleUnload_fn module_unload;
	cuModuleGetFunction_fn get_function;
	cuLaunchKernel_fn launch;
	cuEventCreate_fn event_create;
	cuEventRecord_fn event_record;
	cuEventSynchronize_fn event_sync;
	cuEventElapsedTime_fn event_elapsed;
	cuEventDestroy_v2_fn event_destroy;
};

/* cuBLAS, as far as GEMM needs it (cublas_api.h of CUDA 13.0). */
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;	/* CUBLAS_STATUS_SUCCESS = 0 */
enum { CUBLAS_OP_N = 0, CUBLAS_GEMM_DEFAULT = -1, CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_TF32 = 77 };
enum { CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
typedef cublasStatus_t (*cublasCreate_v2_fn)(cublasHandle_t *handle);
typedef cublasStatus_t (*cublasDestroy_v2_fn)(cublasHandle_t handle);
typedef cublasStatus_t (*cublasGemmEx_fn)(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
					  const void *alpha, const void *a, int atype, int lda, const void *b, int btype,
					  int ldb, const void *beta, void *c, int ctype, int ldc, int compute, int algo);

struct cublas {
	cublasCreate_v2_fn create;
	cublasDestroy_v2_fn destroy;
	cublasGemmEx_fn gemm_ex;
};

struct session {
	struct compute_run *run;
	struct cu cu;
	struct cublas blas;
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
