/*
 * cuda_fns.h - the CUDA driver's device-query entry points, resolved the
 * same way by the doctor's driver probe (cuda_query.c) and by the compute
 * helper of test and bench (src/compute/).
 */
#ifndef GD_PROBE_DRIVER_CUDA_FNS_H
#define GD_PROBE_DRIVER_CUDA_FNS_H

#include <stddef.h>

#include "probe/driver/cuda_api.h"
#include "util/dlib.h"

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

/* Symbol table for dlib_open() into a struct cuda_query_fns. */
extern const struct dlib_symbol cuda_query_symbols[];
extern const size_t cuda_query_nsymbols;

#endif
