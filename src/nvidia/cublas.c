/*
 * cublas.c - which libcublas symbols fill struct cublas_fns; all three are
 * needed for GEMM.
 */
#include "nvidia/cublas.h"

const struct dlib_symbol cublas_symbols[] = {
	DLIB_SYMBOL(struct cublas_fns, create, "cublasCreate_v2", true),
	DLIB_SYMBOL(struct cublas_fns, destroy, "cublasDestroy_v2", true),
	DLIB_SYMBOL(struct cublas_fns, gemm_ex, "cublasGemmEx", true),
};
const size_t cublas_nsymbols = sizeof(cublas_symbols) / sizeof(cublas_symbols[0]);
