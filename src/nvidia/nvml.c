/*
 * nvml.c - which NVML symbols fill struct nvml_fns: the versioned names
 * (nvmlInit_v2, ...), and which ones a driver may lack.
 */
#include "nvidia/nvml.h"

const struct dlib_symbol nvml_symbols[] = {
	DLIB_SYMBOL(struct nvml_fns, init, "nvmlInit_v2", true),
	DLIB_SYMBOL(struct nvml_fns, shutdown, "nvmlShutdown", true),
	DLIB_SYMBOL(struct nvml_fns, driver_version, "nvmlSystemGetDriverVersion", false),
	DLIB_SYMBOL(struct nvml_fns, cuda_version, "nvmlSystemGetCudaDriverVersion_v2", false),
	DLIB_SYMBOL(struct nvml_fns, count, "nvmlDeviceGetCount_v2", true),
	DLIB_SYMBOL(struct nvml_fns, handle, "nvmlDeviceGetHandleByIndex_v2", true),
	DLIB_SYMBOL(struct nvml_fns, name, "nvmlDeviceGetName", false),
	DLIB_SYMBOL(struct nvml_fns, uuid, "nvmlDeviceGetUUID", false),
	DLIB_SYMBOL(struct nvml_fns, pci, "nvmlDeviceGetPciInfo_v3", false),
	DLIB_SYMBOL(struct nvml_fns, memory, "nvmlDeviceGetMemoryInfo", false),
	DLIB_SYMBOL(struct nvml_fns, utilization, "nvmlDeviceGetUtilizationRates", false),
	DLIB_SYMBOL(struct nvml_fns, temperature, "nvmlDeviceGetTemperature", false),
	DLIB_SYMBOL(struct nvml_fns, power, "nvmlDeviceGetPowerUsage", false),
	DLIB_SYMBOL(struct nvml_fns, power_limit, "nvmlDeviceGetEnforcedPowerLimit", false),
	DLIB_SYMBOL(struct nvml_fns, persistence, "nvmlDeviceGetPersistenceMode", false),
	DLIB_SYMBOL(struct nvml_fns, compute_mode, "nvmlDeviceGetComputeMode", false),
	DLIB_SYMBOL(struct nvml_fns, mig_mode, "nvmlDeviceGetMigMode", false),
	DLIB_SYMBOL(struct nvml_fns, mig_max, "nvmlDeviceGetMaxMigDeviceCount", false),
	DLIB_SYMBOL(struct nvml_fns, mig_handle, "nvmlDeviceGetMigDeviceHandleByIndex", false),
	DLIB_SYMBOL(struct nvml_fns, ecc, "nvmlDeviceGetTotalEccErrors", false),
	DLIB_SYMBOL(struct nvml_fns, retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus", false),
	DLIB_SYMBOL(struct nvml_fns, remapped, "nvmlDeviceGetRemappedRows", false),
	DLIB_SYMBOL(struct nvml_fns, processes, "nvmlDeviceGetComputeRunningProcesses_v3", false),
	DLIB_SYMBOL(struct nvml_fns, cc, "nvmlDeviceGetCudaComputeCapability", false),
	DLIB_SYMBOL(struct nvml_fns, fan, "nvmlDeviceGetFanSpeed", false),
	DLIB_SYMBOL(struct nvml_fns, pstate, "nvmlDeviceGetPerformanceState", false),
	DLIB_SYMBOL(struct nvml_fns, temp_threshold, "nvmlDeviceGetTemperatureThreshold", false),
	DLIB_SYMBOL(struct nvml_fns, clock_events, "nvmlDeviceGetCurrentClocksEventReasons", false),
	DLIB_SYMBOL(struct nvml_fns, clock_throttle, "nvmlDeviceGetCurrentClocksThrottleReasons", false),
	DLIB_SYMBOL(struct nvml_fns, retired_pages, "nvmlDeviceGetRetiredPages", false),
	DLIB_SYMBOL(struct nvml_fns, clock, "nvmlDeviceGetClockInfo", false),
	DLIB_SYMBOL(struct nvml_fns, clock_max, "nvmlDeviceGetMaxClockInfo", false),
	DLIB_SYMBOL(struct nvml_fns, link_gen, "nvmlDeviceGetCurrPcieLinkGeneration", false),
	DLIB_SYMBOL(struct nvml_fns, link_width, "nvmlDeviceGetCurrPcieLinkWidth", false),
	DLIB_SYMBOL(struct nvml_fns, link_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration", false),
	DLIB_SYMBOL(struct nvml_fns, link_width_max, "nvmlDeviceGetMaxPcieLinkWidth", false),
	DLIB_SYMBOL(struct nvml_fns, pcie_throughput, "nvmlDeviceGetPcieThroughput", false),
	DLIB_SYMBOL(struct nvml_fns, event_set_create, "nvmlEventSetCreate", false),
	DLIB_SYMBOL(struct nvml_fns, register_events, "nvmlDeviceRegisterEvents", false),
	DLIB_SYMBOL(struct nvml_fns, event_wait, "nvmlEventSetWait_v2", false),
	DLIB_SYMBOL(struct nvml_fns, event_set_free, "nvmlEventSetFree", false),
};

const size_t nvml_nsymbols = sizeof(nvml_symbols) / sizeof(nvml_symbols[0]);
