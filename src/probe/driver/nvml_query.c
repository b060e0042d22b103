/*
 * nvml_query.c - NVML, field by field: a field the GPU does not support is
 * recorded as unknown and the next one is asked; only init failing stops.
 */
#include <stddef.h>
#include <string.h>

#include "util/dlib.h"
#include "nvidia/nvml.h"
#include "probe/driver/query.h"
#include "util/str.h"

_Static_assert(sizeof(((struct runtime_facts *)0)->last_call) == NVML_MARK_SIZE, "a mark fits last_call");

/* Call an optional function only if the driver has it; unknown stays -1. */
#define ASK(mark, fn, label, ...) \
	((fn) ? (isolate_mark(mark, NVML_MARK_SIZE, label), (fn)(__VA_ARGS__)) : NVML_ERROR_FUNCTION_NOT_FOUND)

static void query_mig(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	unsigned cur, pend, max;

	if (ASK(mark, n->mig_mode, "nvmlDeviceGetMigMode", dev, &cur, &pend) != NVML_SUCCESS)
		return;
	d->mig_current = (int)cur;
	d->mig_pending = (int)pend;
	if (!cur || ASK(mark, n->mig_max, "nvmlDeviceGetMaxMigDeviceCount", dev, &max) != NVML_SUCCESS)
		return;
	d->mig_instances = 0;
	for (unsigned i = 0; i < max && n->mig_handle; i++) {
		nvmlDevice_t mig;

		if (ASK(mark, n->mig_handle, "nvmlDeviceGetMigDeviceHandleByIndex", dev, i, &mig) == NVML_SUCCESS)
			d->mig_instances++;
	}
}

/* Retired pages by cause: the count alone (pageCount 0 asks NVML how many there are). */
static int retired_count(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, int cause)
{
	unsigned count = 0;
	nvmlReturn_t r = ASK(mark, n->retired_pages, "nvmlDeviceGetRetiredPages", dev, cause, &count, NULL);

	return r == NVML_SUCCESS || r == NVML_ERROR_INSUFFICIENT_SIZE ? (int)count : -1;
}

static void query_health(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	unsigned long long ecc;
	nvmlEnableState_t pending;
	unsigned corr, unc, rpend, fail;

	if (ASK(mark, n->ecc, "nvmlDeviceGetTotalEccErrors", dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
		NVML_VOLATILE_ECC, &ecc) == NVML_SUCCESS)
		d->ecc_uncorrected = (long long)ecc;
	if (ASK(mark, n->retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus", dev, &pending) == NVML_SUCCESS)
		d->retired_pending = pending != 0;
	if (ASK(mark, n->remapped, "nvmlDeviceGetRemappedRows", dev, &corr, &unc, &rpend, &fail) == NVML_SUCCESS) {
		d->remap_pending = rpend != 0;
		d->remap_failure = fail != 0;
	}
	d->retired_sbe = retired_count(mark, n, dev, NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS);
	d->retired_dbe = retired_count(mark, n, dev, NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR);
}

/* What holds the clocks down, how hot it may run, how hard its fan works. */
static void query_thermal(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	unsigned long long reasons;
	unsigned v;
	int pstate;

	if (ASK(mark, n->clock_events, "nvmlDeviceGetCurrentClocksEventReasons", dev, &reasons) == NVML_SUCCESS ||
	    (!n->clock_events &&
	     ASK(mark, n->clock_throttle, "nvmlDeviceGetCurrentClocksThrottleReasons", dev, &reasons) == NVML_SUCCESS))
		d->clock_events = (long long)(reasons & 0x7fffffffffffffffULL);
	if (ASK(mark, n->temp_threshold, "nvmlDeviceGetTemperatureThreshold", dev, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN,
		&v) == NVML_SUCCESS)
		d->temp_slowdown_c = (int)v;
	if (ASK(mark, n->fan, "nvmlDeviceGetFanSpeed", dev, &v) == NVML_SUCCESS)
		d->fan_percent = (int)v;
	if (ASK(mark, n->pstate, "nvmlDeviceGetPerformanceState", dev, &pstate) == NVML_SUCCESS && pstate >= 0 &&
	    pstate < NVML_PSTATE_UNKNOWN)
		d->pstate = pstate;
}

static void query_processes(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	nvmlProcessInfo_t infos[MAX_RT_PROCS];
	unsigned count = MAX_RT_PROCS;
	nvmlReturn_t r = ASK(mark, n->processes, "nvmlDeviceGetComputeRunningProcesses_v3", dev, &count, infos);

	if (r == NVML_ERROR_INSUFFICIENT_SIZE && count > MAX_RT_PROCS)
		d->procs_total = (int)count;	/* too many to list: say how many */
	if (r != NVML_SUCCESS || count > MAX_RT_PROCS)
		return;
	d->nprocs = (int)count;
	for (unsigned i = 0; i < count; i++) {
		d->procs[i].pid = infos[i].pid;
		/* NVML_VALUE_NOT_AVAILABLE (all ones) means unknown, e.g. without permission. */
		d->procs[i].used_mib = infos[i].usedGpuMemory == ~0ULL ? -1 : (long long)(infos[i].usedGpuMemory >> 20);
	}
}

/* Clocks now and at most; the PCIe link now, at most, and what crosses it. */
static void query_clocks_link(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	unsigned v;

	if (ASK(mark, n->clock, "nvmlDeviceGetClockInfo", dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS)
		d->sm_clock_mhz = (int)v;
	if (ASK(mark, n->clock, "nvmlDeviceGetClockInfo", dev, NVML_CLOCK_MEM, &v) == NVML_SUCCESS)
		d->mem_clock_mhz = (int)v;
	if (ASK(mark, n->link_gen, "nvmlDeviceGetCurrPcieLinkGeneration", dev, &v) == NVML_SUCCESS)
		d->link_gen = (int)v;
	if (ASK(mark, n->link_width, "nvmlDeviceGetCurrPcieLinkWidth", dev, &v) == NVML_SUCCESS)
		d->link_width = (int)v;
	if (ASK(mark, n->pcie_throughput, "nvmlDeviceGetPcieThroughput", dev, NVML_PCIE_UTIL_TX_BYTES, &v) == NVML_SUCCESS)
		d->pcie_tx_kbps = v;
	if (ASK(mark, n->pcie_throughput, "nvmlDeviceGetPcieThroughput", dev, NVML_PCIE_UTIL_RX_BYTES, &v) == NVML_SUCCESS)
		d->pcie_rx_kbps = v;
}

/* See query.h. */
void nvml_device_identity(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	nvmlPciInfo_t pci;
	unsigned v;
	int major, minor;

	ASK(mark, n->name, "nvmlDeviceGetName", dev, d->name, sizeof(d->name));
	ASK(mark, n->uuid, "nvmlDeviceGetUUID", dev, d->uuid, sizeof(d->uuid));
	if (ASK(mark, n->pci, "nvmlDeviceGetPciInfo_v3", dev, &pci) == NVML_SUCCESS) {
		pci.busId[sizeof(pci.busId) - 1] = '\0';
		str_copy(d->bus_id, sizeof(d->bus_id), pci.busId);
		d->pci_device_id = pci.pciDeviceId >> 16;
	}
	if (ASK(mark, n->cc, "nvmlDeviceGetCudaComputeCapability", dev, &major, &minor) == NVML_SUCCESS) {
		d->cc_major = major;
		d->cc_minor = minor;
	}
	if (ASK(mark, n->clock_max, "nvmlDeviceGetMaxClockInfo", dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS)
		d->sm_clock_max_mhz = (int)v;
	if (ASK(mark, n->clock_max, "nvmlDeviceGetMaxClockInfo", dev, NVML_CLOCK_MEM, &v) == NVML_SUCCESS)
		d->mem_clock_max_mhz = (int)v;
	if (ASK(mark, n->link_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration", dev, &v) == NVML_SUCCESS)
		d->link_gen_max = (int)v;
	if (ASK(mark, n->link_width_max, "nvmlDeviceGetMaxPcieLinkWidth", dev, &v) == NVML_SUCCESS)
		d->link_width_max = (int)v;
}

/* See query.h. */
void nvml_device_live(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d)
{
	nvmlMemory_t mem;
	nvmlUtilization_t util;
	unsigned long long ecc;
	unsigned v;
	nvmlEnableState_t on;
	nvmlComputeMode_t mode;
	nvmlReturn_t r = ASK(mark, n->memory, "nvmlDeviceGetMemoryInfo", dev, &mem);

	if (r == NVML_ERROR_GPU_IS_LOST) {
		d->lost = true;	/* every other call would answer the same */
		return;
	}
	if (r == NVML_SUCCESS) {
		d->mem_total_mib = (long long)(mem.total >> 20);
		d->mem_used_mib = (long long)(mem.used >> 20);
	}
	if (ASK(mark, n->utilization, "nvmlDeviceGetUtilizationRates", dev, &util) == NVML_SUCCESS) {
		d->utilization = (int)util.gpu;
		d->mem_utilization = (int)util.memory;
	}
	if (ASK(mark, n->temperature, "nvmlDeviceGetTemperature", dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS)
		d->temperature_c = (int)v;
	if (ASK(mark, n->power, "nvmlDeviceGetPowerUsage", dev, &v) == NVML_SUCCESS)
		d->power_w = v / 1000.0;
	if (ASK(mark, n->power_limit, "nvmlDeviceGetEnforcedPowerLimit", dev, &v) == NVML_SUCCESS)
		d->power_limit_w = v / 1000.0;
	if (ASK(mark, n->persistence, "nvmlDeviceGetPersistenceMode", dev, &on) == NVML_SUCCESS)
		d->persistence = on != 0;
	if (ASK(mark, n->compute_mode, "nvmlDeviceGetComputeMode", dev, &mode) == NVML_SUCCESS)
		d->compute_mode = mode;
	if (ASK(mark, n->ecc, "nvmlDeviceGetTotalEccErrors", dev, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC,
		&ecc) == NVML_SUCCESS)
		d->ecc_corrected = (long long)ecc;
	query_mig(mark, n, dev, d);
	query_health(mark, n, dev, d);
	query_thermal(mark, n, dev, d);
	query_clocks_link(mark, n, dev, d);
	query_processes(mark, n, dev, d);
}

/*
 * In the helper child only (see query.h): may hang or crash, which the parent handles. A missing optional
 * function leaves its field -1; only init and the device count stop the walk. The library stays loaded.
 */
void query_nvml(struct runtime_facts *rt, const char *file)
{
	struct rt_library *lib = &rt->nvml_lib;
	struct nvml_fns n;
	struct error err;
	void *handle;
	unsigned count;
	int cuda;

	lib->attempted = true;
	query_mark(rt, "dlopen libnvidia-ml.so.1");
	if (dlib_open(file, nvml_symbols, nvml_nsymbols, &n, &handle, lib->host_path,
		      sizeof(lib->host_path), lib->missing, sizeof(lib->missing), &err) < 0) {
		str_copy(lib->load_error, sizeof(lib->load_error), err.msg);
		return;
	}
	lib->loaded = true;
	query_mark(rt, "nvmlInit_v2");
	lib->init = n.init();
	lib->init_done = true;
	if (lib->init != NVML_SUCCESS)
		return;
	ASK(rt->last_call, n.driver_version, "nvmlSystemGetDriverVersion", rt->nvml_driver_version,
	    (unsigned)sizeof(rt->nvml_driver_version));
	if (ASK(rt->last_call, n.cuda_version, "nvmlSystemGetCudaDriverVersion_v2", &cuda) == NVML_SUCCESS)
		rt->nvml_cuda_version = cuda;
	query_mark(rt, "nvmlDeviceGetCount_v2");
	if (n.count(&count) != NVML_SUCCESS)
		return;
	rt->nvml_count = (int)count;
	for (unsigned i = 0; i < count && rt->nvml_ndev < MAX_RT_DEVICES; i++) {
		nvmlDevice_t dev;
		struct nvml_device *d = &rt->nvml[rt->nvml_ndev];
		nvmlReturn_t r;

		query_mark(rt, "nvmlDeviceGetHandleByIndex_v2");
		r = n.handle(i, &dev);
		if (r == NVML_ERROR_GPU_IS_LOST)
			rt->nvml_lost++;	/* still counted: the rules match it to the bus by elimination */
		if (r != NVML_SUCCESS)
			continue;
		nvml_device_unknown(d);
		nvml_device_identity(rt->last_call, &n, dev, d);
		nvml_device_live(rt->last_call, &n, dev, d);
		rt->nvml_ndev++;
	}
	query_mark(rt, "nvmlShutdown");
	n.shutdown();
}
