/*
 * cuda.c - which libcuda.so.1 symbols fill the structs of nvidia/cuda.h:
 * the versioned names (cuMemAlloc_v2, ...), and which ones a driver may
 * lack (then the program works without that call or says it is missing).
 */
#include "nvidia/cuda.h"

const struct dlib_symbol cuda_query_symbols[] = {
	DLIB_SYMBOL(struct cuda_query_fns, init, "cuInit", true),
	DLIB_SYMBOL(struct cuda_query_fns, driver_version, "cuDriverGetVersion", true),
	DLIB_SYMBOL(struct cuda_query_fns, count, "cuDeviceGetCount", true),
	DLIB_SYMBOL(struct cuda_query_fns, get, "cuDeviceGet", true),
	DLIB_SYMBOL(struct cuda_query_fns, name, "cuDeviceGetName", false),
	DLIB_SYMBOL(struct cuda_query_fns, attribute, "cuDeviceGetAttribute", false),
	DLIB_SYMBOL(struct cuda_query_fns, total_mem, "cuDeviceTotalMem_v2", false),
	DLIB_SYMBOL(struct cuda_query_fns, bus_id, "cuDeviceGetPCIBusId", false),
	DLIB_SYMBOL(struct cuda_query_fns, error_name, "cuGetErrorName", false),
};
const size_t cuda_query_nsymbols = sizeof(cuda_query_symbols) / sizeof(cuda_query_symbols[0]);

#define SYM(field, name, req) DLIB_SYMBOL(struct cuda_compute_fns, field, name, req)

const struct dlib_symbol cuda_compute_symbols[] = {
	SYM(error_string, "cuGetErrorString", false),
	SYM(ctx_retain, "cuDevicePrimaryCtxRetain", true),
	SYM(ctx_release, "cuDevicePrimaryCtxRelease_v2", false),
	SYM(ctx_set, "cuCtxSetCurrent", true),
	SYM(ctx_sync, "cuCtxSynchronize", true),
	SYM(mem_info, "cuMemGetInfo_v2", false),
	SYM(alloc, "cuMemAlloc_v2", true),
	SYM(free, "cuMemFree_v2", true),
	SYM(alloc_host, "cuMemAllocHost_v2", false),
	SYM(free_host, "cuMemFreeHost", false),
	SYM(htod, "cuMemcpyHtoD_v2", true),
	SYM(dtoh, "cuMemcpyDtoH_v2", true),
	SYM(dtod, "cuMemcpyDtoD_v2", true),
	SYM(memset32, "cuMemsetD32_v2", false),
	SYM(module_load, "cuModuleLoadDataEx", true),
	SYM(module_unload, "cuModuleUnload", false),
	SYM(get_function, "cuModuleGetFunction", true),
	SYM(launch, "cuLaunchKernel", true),
	SYM(event_create, "cuEventCreate", true),
	SYM(event_record, "cuEventRecord", true),
	SYM(event_sync, "cuEventSynchronize", true),
	/* exported as cuEventElapsedTime before CUDA 12.8: the helper falls back to that name */
	SYM(event_elapsed, "cuEventElapsedTime_v2", false),
	SYM(event_destroy, "cuEventDestroy_v2", false),
};
const size_t cuda_compute_nsymbols = sizeof(cuda_compute_symbols) / sizeof(cuda_compute_symbols[0]);
