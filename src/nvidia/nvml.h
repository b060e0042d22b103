/*
 * nvml.h - the part of NVIDIA's NVML we call, declared by hand, and the
 * table that resolves it from libnvidia-ml.so.1 (nvidia/nvml.c).
 *
 * Checked against nvml.h with NVML_API_VERSION 13 (as shipped in
 * NVIDIA/go-nvml); names, values and layouts below must match it exactly.
 * We never include NVIDIA's header: building needs no NVIDIA SDK, and the
 * library itself is only ever dlopen()ed as libnvidia-ml.so.1.
 */
#ifndef GD_NVIDIA_NVML_H
#define GD_NVIDIA_NVML_H

#include <stddef.h>

#include "util/dlib.h"

typedef int nvmlReturn_t;			/* NVML_SUCCESS = 0 */
typedef struct nvmlDevice_st *nvmlDevice_t;	/* opaque */
typedef int nvmlEnableState_t;			/* 0 disabled, 1 enabled */
typedef int nvmlComputeMode_t;

enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
	NVML_ERROR_DRIVER_NOT_LOADED = 9,
	NVML_ERROR_TIMEOUT = 10,
	NVML_ERROR_LIBRARY_NOT_FOUND = 12,
	NVML_ERROR_FUNCTION_NOT_FOUND = 13,
	NVML_ERROR_GPU_IS_LOST = 15,
	NVML_ERROR_RESET_REQUIRED = 16,
	NVML_ERROR_OPERATING_SYSTEM = 17,
	NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
	NVML_ERROR_UNKNOWN = 999,
};

enum {
	NVML_COMPUTEMODE_DEFAULT = 0,
	NVML_COMPUTEMODE_EXCLUSIVE_THREAD = 1,
	NVML_COMPUTEMODE_PROHIBITED = 2,
	NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3,
};

#define NVML_TEMPERATURE_GPU 0
#define NVML_TEMPERATURE_THRESHOLD_SLOWDOWN 1	/* nvmlTemperatureThresholds_t */
#define NVML_PSTATE_UNKNOWN 32
#define NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS 0
#define NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR 1
#define NVML_MEMORY_ERROR_TYPE_CORRECTED 0
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
#define NVML_VOLATILE_ECC 0
#define NVML_CLOCK_SM 1				/* nvmlClockType_t */
#define NVML_CLOCK_MEM 2
#define NVML_PCIE_UTIL_TX_BYTES 0		/* nvmlPcieUtilCounter_t: KB/s */
#define NVML_PCIE_UTIL_RX_BYTES 1
#define NVML_EVENT_TYPE_XID_CRITICAL_ERROR 0x8ULL	/* nvmlEventTypeXidCriticalError */
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80

typedef struct nvmlPciInfo_st {
	char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId;	/* device id << 16 | vendor id */
	unsigned int pciSubSystemId;
	char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfo_t;

typedef struct nvmlMemory_st {
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
} nvmlMemory_t;

typedef struct nvmlUtilization_st {
	unsigned int gpu;
	unsigned int memory;
} nvmlUtilization_t;

/* nvmlProcessInfo_t is the v2 layout, used by ..._v3 of the process query. */
typedef struct nvmlProcessInfo_st {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef struct nvmlEventSet_st *nvmlEventSet_t;	/* opaque */

typedef struct nvmlEventData_st {
	nvmlDevice_t device;
	unsigned long long eventType;
	unsigned long long eventData;	/* the Xid for nvmlEventTypeXidCriticalError (999: unknown Xid) */
	unsigned int gpuInstanceId;
	unsigned int computeInstanceId;
} nvmlEventData_t;

/* The functions we resolve, by their exported (versioned) names. */
typedef nvmlReturn_t (*nvmlInit_v2_fn)(void);
typedef nvmlReturn_t (*nvmlShutdown_fn)(void);
typedef nvmlReturn_t (*nvmlSystemGetDriverVersion_fn)(char *version, unsigned int length);
typedef nvmlReturn_t (*nvmlSystemGetCudaDriverVersion_v2_fn)(int *cudaDriverVersion);
typedef nvmlReturn_t (*nvmlDeviceGetCount_v2_fn)(unsigned int *count);
typedef nvmlReturn_t (*nvmlDeviceGetHandleByIndex_v2_fn)(unsigned int index, nvmlDevice_t *device);
typedef nvmlReturn_t (*nvmlDeviceGetName_fn)(nvmlDevice_t device, char *name, unsigned int length);
typedef nvmlReturn_t (*nvmlDeviceGetUUID_fn)(nvmlDevice_t device, char *uuid, unsigned int length);
typedef nvmlReturn_t (*nvmlDeviceGetPciInfo_v3_fn)(nvmlDevice_t device, nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t device, nvmlMemory_t *memory);
typedef nvmlReturn_t (*nvmlDeviceGetUtilizationRates_fn)(nvmlDevice_t device, nvmlUtilization_t *utilization);
typedef nvmlReturn_t (*nvmlDeviceGetTemperature_fn)(nvmlDevice_t device, int sensor, unsigned int *temp);
typedef nvmlReturn_t (*nvmlDeviceGetPowerUsage_fn)(nvmlDevice_t device, unsigned int *milliwatts);
typedef nvmlReturn_t (*nvmlDeviceGetEnforcedPowerLimit_fn)(nvmlDevice_t device, unsigned int *milliwatts);
typedef nvmlReturn_t (*nvmlDeviceGetPersistenceMode_fn)(nvmlDevice_t device, nvmlEnableState_t *mode);
typedef nvmlReturn_t (*nvmlDeviceGetComputeMode_fn)(nvmlDevice_t device, nvmlComputeMode_t *mode);
typedef nvmlReturn_t (*nvmlDeviceGetMigMode_fn)(nvmlDevice_t device, unsigned int *current, unsigned int *pending);
typedef nvmlReturn_t (*nvmlDeviceGetMaxMigDeviceCount_fn)(nvmlDevice_t device, unsigned int *count);
typedef nvmlReturn_t (*nvmlDeviceGetMigDeviceHandleByIndex_fn)(nvmlDevice_t device, unsigned int index,
								nvmlDevice_t *mig);
typedef nvmlReturn_t (*nvmlDeviceGetTotalEccErrors_fn)(nvmlDevice_t device, int error_type, int counter_type,
							unsigned long long *count);
typedef nvmlReturn_t (*nvmlDeviceGetRetiredPagesPendingStatus_fn)(nvmlDevice_t device, nvmlEnableState_t *pending);
typedef nvmlReturn_t (*nvmlDeviceGetRemappedRows_fn)(nvmlDevice_t device, unsigned int *corr, unsigned int *unc,
						      unsigned int *pending, unsigned int *failure);
typedef nvmlReturn_t (*nvmlDeviceGetComputeRunningProcesses_v3_fn)(nvmlDevice_t device, unsigned int *count,
								    nvmlProcessInfo_t *infos);
typedef nvmlReturn_t (*nvmlDeviceGetCudaComputeCapability_fn)(nvmlDevice_t device, int *major, int *minor);
typedef nvmlReturn_t (*nvmlDeviceGetFanSpeed_fn)(nvmlDevice_t device, unsigned int *speed);
typedef nvmlReturn_t (*nvmlDeviceGetPerformanceState_fn)(nvmlDevice_t device, int *pstate);	/* nvmlPstates_t */
typedef nvmlReturn_t (*nvmlDeviceGetTemperatureThreshold_fn)(nvmlDevice_t device, int threshold, unsigned int *temp);
/* The clocks event (formerly "throttle") reasons bitmask; the older name is the same call. */
typedef nvmlReturn_t (*nvmlDeviceGetCurrentClocksEventReasons_fn)(nvmlDevice_t device, unsigned long long *reasons);
typedef nvmlReturn_t (*nvmlDeviceGetCurrentClocksThrottleReasons_fn)(nvmlDevice_t device, unsigned long long *reasons);
/* pageCount 0 and addresses NULL asks for the count alone. */
typedef nvmlReturn_t (*nvmlDeviceGetRetiredPages_fn)(nvmlDevice_t device, int cause, unsigned int *pageCount,
						      unsigned long long *addresses);
typedef nvmlReturn_t (*nvmlDeviceGetClockInfo_fn)(nvmlDevice_t device, int type, unsigned int *mhz);
typedef nvmlReturn_t (*nvmlDeviceGetMaxClockInfo_fn)(nvmlDevice_t device, int type, unsigned int *mhz);
typedef nvmlReturn_t (*nvmlDeviceGetCurrPcieLinkGeneration_fn)(nvmlDevice_t device, unsigned int *gen);
typedef nvmlReturn_t (*nvmlDeviceGetCurrPcieLinkWidth_fn)(nvmlDevice_t device, unsigned int *width);
typedef nvmlReturn_t (*nvmlDeviceGetMaxPcieLinkGeneration_fn)(nvmlDevice_t device, unsigned int *gen);
typedef nvmlReturn_t (*nvmlDeviceGetMaxPcieLinkWidth_fn)(nvmlDevice_t device, unsigned int *width);
/* counter: NVML_PCIE_UTIL_*; value in KB/s over NVML's last 20 ms window */
typedef nvmlReturn_t (*nvmlDeviceGetPcieThroughput_fn)(nvmlDevice_t device, int counter, unsigned int *kbps);
/* Xid events: a set, the devices registered on it, and a wait with a timeout (0: only what is queued). */
typedef nvmlReturn_t (*nvmlEventSetCreate_fn)(nvmlEventSet_t *set);
typedef nvmlReturn_t (*nvmlDeviceRegisterEvents_fn)(nvmlDevice_t device, unsigned long long types, nvmlEventSet_t set);
typedef nvmlReturn_t (*nvmlEventSetWait_v2_fn)(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms);
typedef nvmlReturn_t (*nvmlEventSetFree_fn)(nvmlEventSet_t set);

/* The entry points, resolved by dlib_open() from nvml_symbols. */
struct nvml_fns {
	nvmlInit_v2_fn init;
	nvmlShutdown_fn shutdown;
	nvmlSystemGetDriverVersion_fn driver_version;
	nvmlSystemGetCudaDriverVersion_v2_fn cuda_version;
	nvmlDeviceGetCount_v2_fn count;
	nvmlDeviceGetHandleByIndex_v2_fn handle;
	nvmlDeviceGetName_fn name;
	nvmlDeviceGetUUID_fn uuid;
	nvmlDeviceGetPciInfo_v3_fn pci;
	nvmlDeviceGetMemoryInfo_fn memory;
	nvmlDeviceGetUtilizationRates_fn utilization;
	nvmlDeviceGetTemperature_fn temperature;
	nvmlDeviceGetPowerUsage_fn power;
	nvmlDeviceGetEnforcedPowerLimit_fn power_limit;
	nvmlDeviceGetPersistenceMode_fn persistence;
	nvmlDeviceGetComputeMode_fn compute_mode;
	nvmlDeviceGetMigMode_fn mig_mode;
	nvmlDeviceGetMaxMigDeviceCount_fn mig_max;
	nvmlDeviceGetMigDeviceHandleByIndex_fn mig_handle;
	nvmlDeviceGetTotalEccErrors_fn ecc;
	nvmlDeviceGetRetiredPagesPendingStatus_fn retired_pending;
	nvmlDeviceGetRemappedRows_fn remapped;
	nvmlDeviceGetComputeRunningProcesses_v3_fn processes;
	nvmlDeviceGetCudaComputeCapability_fn cc;
	nvmlDeviceGetFanSpeed_fn fan;
	nvmlDeviceGetPerformanceState_fn pstate;
	nvmlDeviceGetTemperatureThreshold_fn temp_threshold;
	nvmlDeviceGetCurrentClocksEventReasons_fn clock_events;
	nvmlDeviceGetCurrentClocksThrottleReasons_fn clock_throttle;	/* the same, under the name older drivers export */
	nvmlDeviceGetRetiredPages_fn retired_pages;
	nvmlDeviceGetClockInfo_fn clock;
	nvmlDeviceGetMaxClockInfo_fn clock_max;
	nvmlDeviceGetCurrPcieLinkGeneration_fn link_gen;
	nvmlDeviceGetCurrPcieLinkWidth_fn link_width;
	nvmlDeviceGetMaxPcieLinkGeneration_fn link_gen_max;
	nvmlDeviceGetMaxPcieLinkWidth_fn link_width_max;
	nvmlDeviceGetPcieThroughput_fn pcie_throughput;
	nvmlEventSetCreate_fn event_set_create;
	nvmlDeviceRegisterEvents_fn register_events;
	nvmlEventSetWait_v2_fn event_wait;
	nvmlEventSetFree_fn event_set_free;
};

extern const struct dlib_symbol nvml_symbols[];
extern const size_t nvml_nsymbols;

#endif
