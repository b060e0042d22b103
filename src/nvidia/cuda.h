/*
 * cuda.h - the part of the CUDA driver API (libcuda.so.1) we call, declared
 * by hand, and the tables that resolve it (nvidia/cuda.c): the device
 * queries the doctor's driver probe makes, and what computing needs for
 * test and bench. Checked against cuda.h of CUDA 13.0; the attribute
 * numbers and result codes below must match it exactly.
 */
#ifndef GD_NVIDIA_CUDA_H
#define GD_NVIDIA_CUDA_H

#include <stddef.h>

#include "util/dlib.h"

typedef int CUresult;	/* CUDA_SUCCESS = 0 */
typedef int CUdevice;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_ECC_UNCORRECTABLE = 214,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_OPERATING_SYSTEM = 304,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_LAUNCH_FAILED = 719,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUDA_ERROR_UNKNOWN = 999,
};

enum {
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,		/* kHz */
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
	CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,	/* kHz */
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,	/* bits */
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
	CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

typedef CUresult (*cuInit_fn)(unsigned int flags);
typedef CUresult (*cuDriverGetVersion_fn)(int *version);
typedef CUresult (*cuDeviceGetCount_fn)(int *count);
typedef CUresult (*cuDeviceGet_fn)(CUdevice *device, int ordinal);
typedef CUresult (*cuDeviceGetName_fn)(char *name, int len, CUdevice device);
typedef CUresult (*cuDeviceGetAttribute_fn)(int *value, int attribute, CUdevice device);
typedef CUresult (*cuDeviceTotalMem_v2_fn)(size_t *bytes, CUdevice device);
typedef CUresult (*cuDeviceGetPCIBusId_fn)(char *bus_id, int len, CUdevice device);
typedef CUresult (*cuGetErrorName_fn)(CUresult error, const char **name);
typedef CUresult (*cuGetErrorString_fn)(CUresult error, const char **text);

/*
 * Computing on the GPU (gpudoctor test and bench): the device's primary
 * context, memory, PTX modules JIT-compiled by the driver, launches, events.
 * Handles are opaque pointers; device addresses are integers.
 */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef int CUjit_option;

enum {
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

enum { CU_EVENT_DEFAULT = 0 };

typedef CUresult (*cuDevicePrimaryCtxRetain_fn)(CUcontext *ctx, CUdevice device);
typedef CUresult (*cuDevicePrimaryCtxRelease_v2_fn)(CUdevice device);
typedef CUresult (*cuCtxSetCurrent_fn)(CUcontext ctx);
typedef CUresult (*cuCtxSynchronize_fn)(void);
typedef CUresult (*cuMemGetInfo_v2_fn)(size_t *free_bytes, size_t *total_bytes);
typedef CUresult (*cuMemAlloc_v2_fn)(CUdeviceptr *dptr, size_t bytes);
typedef CUresult (*cuMemFree_v2_fn)(CUdeviceptr dptr);
typedef CUresult (*cuMemAllocHost_v2_fn)(void **host, size_t bytes);
typedef CUresult (*cuMemFreeHost_fn)(void *host);
typedef CUresult (*cuMemcpyHtoD_v2_fn)(CUdeviceptr dst, const void *src, size_t bytes);
typedef CUresult (*cuMemcpyDtoH_v2_fn)(void *dst, CUdeviceptr src, size_t bytes);
typedef CUresult (*cuMemcpyDtoD_v2_fn)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
typedef CUresult (*cuMemsetD32_v2_fn)(CUdeviceptr dst, unsigned int value, size_t count);
typedef CUresult (*cuModuleLoadDataEx_fn)(CUmodule *module, const void *image, unsigned int noptions,
					  CUjit_option *options, void **values);
typedef CUresult (*cuModuleUnload_fn)(CUmodule module);
typedef CUresult (*cuModuleGetFunction_fn)(CUfunction *fn, CUmodule module, const char *name);
typedef CUresult (*cuLaunchKernel_fn)(CUfunction fn, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
				      unsigned int block_x, unsigned int block_y, unsigned int block_z,
				      unsigned int shared_bytes, CUstream stream, void **params, void **extra);
typedef CUresult (*cuEventCreate_fn)(CUevent *event, unsigned int flags);
typedef CUresult (*cuEventRecord_fn)(CUevent event, CUstream stream);
typedef CUresult (*cuEventSynchronize_fn)(CUevent event);
/* exported as cuEventElapsedTime_v2 by drivers since CUDA 12.8, as cuEventElapsedTime before; same signature */
typedef CUresult (*cuEventElapsedTime_fn)(float *ms, CUevent start, CUevent end);
typedef CUresult (*cuEventDestroy_v2_fn)(CUevent event);

/* The device queries: the doctor's driver probe, and the first step of test and bench. */
struct cuda_query_fns {
	cuInit_fn init;
	cuDriverGetVersion_fn driver_version;
	cuDeviceGetCount_fn count;
	cuDeviceGet_fn get;
	cuDeviceGetName_fn name;
	cuDeviceGetAttribute_fn attribute;
	cuDeviceTotalMem_v2_fn total_mem;
	cuDeviceGetPCIBusId_fn bus_id;
	cuGetErrorName_fn error_name;
};

/* The queries, then what computing needs (test and bench). */
struct cuda_compute_fns {
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

/* For dlib_open() into a struct cuda_query_fns. */
extern const struct dlib_symbol cuda_query_symbols[];
extern const size_t cuda_query_nsymbols;
/* For dlib_open() into the same struct cuda_compute_fns after the queries (they fill .q). */
extern const struct dlib_symbol cuda_compute_symbols[];
extern const size_t cuda_compute_nsymbols;

#endif
