/*
 * cublas.h - the part of cuBLAS the GEMM benchmark calls, declared by hand
 * (cublas_api.h and library_types.h of CUDA 13.0), and the table that
 * resolves it from libcublas.so.N (nvidia/cublas.c).
 */
#ifndef GD_NVIDIA_CUBLAS_H
#define GD_NVIDIA_CUBLAS_H

#include <stddef.h>

#include "util/dlib.h"

typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;	/* CUBLAS_STATUS_SUCCESS = 0 */
enum { CUBLAS_OP_N = 0, CUBLAS_GEMM_DEFAULT = -1, CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_TF32 = 77 };
enum { CUDA_R_32F = 0, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
typedef cublasStatus_t (*cublasCreate_v2_fn)(cublasHandle_t *handle);
typedef cublasStatus_t (*cublasDestroy_v2_fn)(cublasHandle_t handle);
typedef cublasStatus_t (*cublasGemmEx_fn)(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
					  const void *alpha, const void *a, int atype, int lda, const void *b, int btype,
					  int ldb, const void *beta, void *c, int ctype, int ldc, int compute, int algo);

struct cublas_fns {
	cublasCreate_v2_fn create;
	cublasDestroy_v2_fn destroy;
	cublasGemmEx_fn gemm_ex;
};

extern const struct dlib_symbol cublas_symbols[];
extern const size_t cublas_nsymbols;

#endif
