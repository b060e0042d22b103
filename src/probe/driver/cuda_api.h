/*
 * cuda_api.h - the part of the CUDA driver API (libcuda.so.1) we call,
 * declared by hand. Checked against cuda.h of CUDA 13.0; the attribute
 * numbers and result codes below must match it exactly.
 */
#ifndef GD_PROBE_DRIVER_CUDA_API_H
#define GD_PROBE_DRIVER_CUDA_API_H

#include <stddef.h>

typedef int CUresult;	/* CUDA_SUCCESS = 0 */
typedef int CUdevice;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
	CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_OPERATING_SYSTEM = 304,
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

#endif
