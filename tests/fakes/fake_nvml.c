/*
 * fake_nvml.c - a test-only libnvidia-ml.so.1 that answers from gpu.json
 * (docs/fake-gpu.md). Exports exactly the functions gpudoctor resolves,
 * with the types of src/nvidia/nvml.h.
 *
 * Devices are enumerated in gpu.json order; CUDA_VISIBLE_DEVICES is
 * ignored, as by the real NVML. A field missing on a device makes its
 * query return NVML_ERROR_NOT_SUPPORTED.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fake_gpu.h"
#include "nvidia/nvml.h"

/* Codes nvidia/nvml.h does not name (values from nvml.h). */
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_FOUND 6
#define NVML_VALUE_NOT_AVAILABLE_ULL (~0ULL)
#define NVML_NO_INSTANCE_ID 0xFFFFFFFFu	/* gpuInstanceId / computeInstanceId outside MIG */
#define NVML_CLOCK_COUNT 4	/* nvmlClockType_t: graphics 0, SM 1, memory 2, video 3 */
#define PCI_VENDOR_NVIDIA 0x10deu
#define MIB (1024ULL * 1024ULL)

/* A handle is a pointer to one of these; gpu indexes gpu.json's devices. */
struct nvmlDevice_st {
	int gpu;
	int mig;	/* -1: the GPU itself; else the MIG device's index */
};

static struct nvmlDevice_st gpu_handles[FAKE_MAX_DEVICES];
static struct nvmlDevice_st mig_handles[FAKE_MAX_DEVICES][FAKE_MAX_MIG];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;	/* nvmlInit_v2 minus nvmlShutdown, as NVML counts */

/* Time (docs/fake-gpu.md, "Time"): per process, under lock. */
static long long mem_calls[FAKE_MAX_DEVICES];	/* nvmlDeviceGetMemoryInfo calls on each GPU */
static unsigned char xid_done[FAKE_MAX_DEVICES][FAKE_MAX_XID];	/* delivered by nvmlEventSetWait_v2 */

#define FAKE_MAX_EVENT_SETS 8
/* An event set: which event types of which GPU it records, and from which sample. */
struct nvmlEventSet_st {
	int used;
	unsigned long long types[FAKE_MAX_DEVICES];
	long long since[FAKE_MAX_DEVICES];	/* the GPU's memory calls when it was registered */
};
static struct nvmlEventSet_st event_sets[FAKE_MAX_EVENT_SETS];

FAKE_API(nvmlInit_v2);
FAKE_API(nvmlShutdown);
FAKE_API(nvmlSystemGetDriverVersion);
FAKE_API(nvmlSystemGetCudaDriverVersion_v2);
FAKE_API(nvmlDeviceGetCount_v2);
FAKE_API(nvmlDeviceGetHandleByIndex_v2);
FAKE_API(nvmlDeviceGetName);
FAKE_API(nvmlDeviceGetUUID);
FAKE_API(nvmlDeviceGetPciInfo_v3);
FAKE_API(nvmlDeviceGetMemoryInfo);
FAKE_API(nvmlDeviceGetUtilizationRates);
FAKE_API(nvmlDeviceGetTemperature);
FAKE_API(nvmlDeviceGetPowerUsage);
FAKE_API(nvmlDeviceGetEnforcedPowerLimit);
FAKE_API(nvmlDeviceGetPersistenceMode);
FAKE_API(nvmlDeviceGetComputeMode);
FAKE_API(nvmlDeviceGetMigMode);
FAKE_API(nvmlDeviceGetMaxMigDeviceCount);
FAKE_API(nvmlDeviceGetMigDeviceHandleByIndex);
FAKE_API(nvmlDeviceGetTotalEccErrors);
FAKE_API(nvmlDeviceGetRetiredPagesPendingStatus);
FAKE_API(nvmlDeviceGetRemappedRows);
FAKE_API(nvmlDeviceGetComputeRunningProcesses_v3);
FAKE_API(nvmlDeviceGetCudaComputeCapability);
FAKE_API(nvmlDeviceGetFanSpeed);
FAKE_API(nvmlDeviceGetPerformanceState);
FAKE_API(nvmlDeviceGetTemperatureThreshold);
FAKE_API(nvmlDeviceGetCurrentClocksEventReasons);
FAKE_API(nvmlDeviceGetCurrentClocksThrottleReasons);
FAKE_API(nvmlDeviceGetRetiredPages);
FAKE_API(nvmlDeviceGetClockInfo);
FAKE_API(nvmlDeviceGetMaxClockInfo);
FAKE_API(nvmlDeviceGetCurrPcieLinkGeneration);
FAKE_API(nvmlDeviceGetCurrPcieLinkWidth);
FAKE_API(nvmlDeviceGetMaxPcieLinkGeneration);
FAKE_API(nvmlDeviceGetMaxPcieLinkWidth);
FAKE_API(nvmlDeviceGetPcieThroughput);
FAKE_API(nvmlEventSetCreate);
FAKE_API(nvmlDeviceRegisterEvents);
FAKE_API(nvmlEventSetWait_v2);
FAKE_API(nvmlEventSetFree);

/* nvidia/nvml.h has no typedef for it (gpudoctor does not call it); nvml.h's signature. */
FAKE_EXPORT const char *nvmlErrorString(nvmlReturn_t result);

static int initialized(void)
{
	int n;

	pthread_mutex_lock(&lock);
	n = init_count;
	pthread_mutex_unlock(&lock);
	return n > 0;
}

/* MIG devices that exist on GPU d (0 unless MIG mode is on). */
static int mig_count(const struct fake_device *d)
{
	return d->mig == 1 ? d->mig_instances : 0;
}

/*
 * Validate a handle passed back to us: one of gpu_handles[] for an existing
 * device, or of mig_handles[][] for an existing MIG device. NULL when not.
 */
static const struct fake_device *device_of(nvmlDevice_t h, int *mig)
{
	const struct fake_gpu *g = fake_gpu();

	if (!h)
		return NULL;
	for (int i = 0; i < g->ndev; i++) {
		if (h == &gpu_handles[i]) {
			*mig = -1;
			return &g->dev[i];
		}
		for (int j = 0; j < mig_count(&g->dev[i]); j++) {
			if (h == &mig_handles[i][j]) {
				*mig = j;
				return &g->dev[i];
			}
		}
	}
	return NULL;
}

/* A GPU's sample number: memory calls before the current one (under lock). */
static long long sample_of(int gpu)
{
	return mem_calls[gpu] > 0 ? mem_calls[gpu] - 1 : 0;
}

/*
 * Where device d stands in time for a call of fn: opens says the call is a
 * memory query of the GPU itself, which opens the next sample. Sets *k to the
 * sample the call belongs to, fires "hang_at" / "crash_at", and says
 * NVML_ERROR_GPU_IS_LOST from "lost_at" on.
 */
static nvmlReturn_t device_now(const char *fn, const struct fake_device *d, int opens, long long *k)
{
	int gpu = (int)(d - fake_gpu()->dev);

	pthread_mutex_lock(&lock);
	if (opens)
		mem_calls[gpu]++;
	*k = sample_of(gpu);
	pthread_mutex_unlock(&lock);
	fake_enter_at(fn, *k);
	if (d->lost_at >= 0 && *k >= d->lost_at)
		return NVML_ERROR_GPU_IS_LOST;
	return NVML_SUCCESS;
}

/*
 * Common prologue of the device queries: initialized, valid handle, the
 * device's sample k (opens: a memory query, which opens the next one on a GPU
 * handle), faults of that sample, lost device.
 */
#define DEVICE_AT(fn, h, d, mig, k, opens)                                              \
	do {                                                                            \
		nvmlReturn_t r_;                                                        \
		fake_enter(fn);                                                         \
		if (!initialized())                                                     \
			return NVML_ERROR_UNINITIALIZED;                                \
		(d) = device_of((h), &(mig));                                           \
		if (!(d))                                                               \
			return NVML_ERROR_INVALID_ARGUMENT;                             \
		r_ = device_now(fn, (d), (opens) && (mig) < 0, &(k));                   \
		if (r_ != NVML_SUCCESS)                                                 \
			return r_;                                                      \
	} while (0)
#define DEVICE(fn, h, d, mig, k) DEVICE_AT(fn, h, d, mig, k, 0)

/* Queries a MIG device does not answer here. */
#define GPU_ONLY(mig)                                  \
	do {                                           \
		if ((mig) >= 0)                        \
			return NVML_ERROR_NOT_SUPPORTED; \
	} while (0)

static nvmlReturn_t copy_out(char *dst, unsigned int len, const char *src)
{
	if (!dst)
		return NVML_ERROR_INVALID_ARGUMENT;
	return fake_copy(dst, len, src) == 0 ? NVML_SUCCESS : NVML_ERROR_INSUFFICIENT_SIZE;
}

/* "Ng" of a MIG profile when n instances split the GPU evenly, and its 1/8 memory slices. */
static int mig_slices(int n, int *mem_eighths)
{
	int g = n > 0 ? FAKE_MAX_MIG / n : FAKE_MAX_MIG;

	*mem_eighths = g == 3 ? 4 : g == 7 ? 8 : g;
	return g;
}

nvmlReturn_t nvmlInit_v2(void)
{
	const struct fake_gpu *g;

	fake_enter("nvmlInit_v2");
	g = fake_gpu();
	if (!g->loaded)
		return NVML_ERROR_DRIVER_NOT_LOADED;
	if (g->nvml_init != NVML_SUCCESS)
		return g->nvml_init;
	pthread_mutex_lock(&lock);
	init_count++;
	pthread_mutex_unlock(&lock);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void)
{
	nvmlReturn_t r = NVML_SUCCESS;

	fake_enter("nvmlShutdown");
	pthread_mutex_lock(&lock);
	if (init_count > 0)
		init_count--;
	else
		r = NVML_ERROR_UNINITIALIZED;
	pthread_mutex_unlock(&lock);
	return r;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
	fake_enter("nvmlErrorString");
	return fake_nvml_text(result);
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
	fake_enter("nvmlSystemGetDriverVersion");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	return copy_out(version, length, fake_gpu()->driver_version);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion)
{
	fake_enter("nvmlSystemGetCudaDriverVersion_v2");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!cudaDriverVersion)
		return NVML_ERROR_INVALID_ARGUMENT;
	*cudaDriverVersion = fake_gpu()->cuda_version;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
	fake_enter("nvmlDeviceGetCount_v2");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = (unsigned)fake_gpu()->ndev;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
	fake_enter("nvmlDeviceGetHandleByIndex_v2");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!device || index >= (unsigned)fake_gpu()->ndev)
		return NVML_ERROR_INVALID_ARGUMENT;
	{
		const struct fake_device *d = &fake_gpu()->dev[index];
		long long k;

		pthread_mutex_lock(&lock);
		k = sample_of((int)index);
		pthread_mutex_unlock(&lock);
		if (d->lost_at >= 0 && k >= d->lost_at)
			return NVML_ERROR_GPU_IS_LOST;	/* still counted by nvmlDeviceGetCount_v2 */
	}
	gpu_handles[index].gpu = (int)index;
	gpu_handles[index].mig = -1;
	*device = &gpu_handles[index];
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
	const struct fake_device *d;
	char buf[FAKE_STR + 32];
	long long k;
	int mig, mem8;

	DEVICE("nvmlDeviceGetName", device, d, mig, k);
	if (!d->name[0])
		return NVML_ERROR_NOT_SUPPORTED;
	if (mig < 0)
		return copy_out(name, length, d->name);
	/* e.g. "NVIDIA A100-SXM4-40GB MIG 3g.20gb" */
	{
		int g = mig_slices(d->mig_instances, &mem8);
		long long gb = d->memory_mib > 0 ? d->memory_mib / 8 * mem8 / 1024 : 0;

		snprintf(buf, sizeof(buf), "%s MIG %dg.%lldgb", d->name, g, gb);
	}
	return copy_out(name, length, buf);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
{
	const struct fake_device *d;
	char buf[FAKE_STR + 8];
	size_t n;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetUUID", device, d, mig, k);
	if (!d->uuid[0])
		return NVML_ERROR_NOT_SUPPORTED;
	if (mig < 0)
		return copy_out(uuid, length, d->uuid);
	/* "MIG-" + the GPU's UUID body with its last two digits replaced by the MIG index. */
	snprintf(buf, sizeof(buf), "MIG-%s", strncmp(d->uuid, "GPU-", 4) == 0 ? d->uuid + 4 : d->uuid);
	n = strlen(buf);
	if (n >= 6) {
		buf[n - 2] = "0123456789abcdef"[(mig >> 4) & 15];
		buf[n - 1] = "0123456789abcdef"[mig & 15];
	}
	return copy_out(uuid, length, buf);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetPciInfo_v3", device, d, mig, k);
	if (!pci)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->has_pci)
		return NVML_ERROR_NOT_SUPPORTED;
	memset(pci, 0, sizeof(*pci));
	pci->domain = d->pci_domain;
	pci->bus = d->pci_bus;
	pci->device = d->pci_dev;
	pci->pciDeviceId = (unsigned)(d->pci_device_id > 0 ? d->pci_device_id : 0) << 16 | PCI_VENDOR_NVIDIA;
	pci->pciSubSystemId = 0;
	snprintf(pci->busId, sizeof(pci->busId), "%08X:%02X:%02X.%X", d->pci_domain, d->pci_bus, d->pci_dev,
		 d->pci_fn);
	snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%04X:%02X:%02X.%X", d->pci_domain & 0xffffu,
		 d->pci_bus, d->pci_dev, d->pci_fn);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
	const struct fake_device *d;
	unsigned long long total, used = 0;
	long long k;
	int mig, mem8;

	DEVICE_AT("nvmlDeviceGetMemoryInfo", device, d, mig, k, 1);
	if (!memory)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->memory_mib < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	total = (unsigned long long)d->memory_mib * MIB;
	if (mig >= 0) {
		mig_slices(d->mig_instances, &mem8);
		total = (unsigned long long)(d->memory_mib / 8 * mem8) * MIB;
	} else if (fake_series_has(&d->memory_used_mib)) {
		used = (unsigned long long)fake_series_int(&d->memory_used_mib, k) * MIB;
	} else {
		for (int i = 0; i < d->nprocs; i++) {	/* default: what the processes of this sample hold */
			long long p = fake_series_int(&d->procs[i].used_mib, k);

			if (fake_proc_present(&d->procs[i], k) && p > 0)
				used += (unsigned long long)p * MIB;
		}
	}
	if (used > total)
		used = total;
	memory->total = total;
	memory->used = used;
	memory->free = total - used;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetUtilizationRates", device, d, mig, k);
	GPU_ONLY(mig);
	if (!utilization)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!fake_series_has(&d->utilization))
		return NVML_ERROR_NOT_SUPPORTED;
	utilization->gpu = (unsigned)fake_series_int(&d->utilization, k);
	utilization->memory = 0;	/* mem_utilization missing */
	if (fake_series_has(&d->mem_utilization))
		utilization->memory = (unsigned)fake_series_int(&d->mem_utilization, k);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *temp)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetTemperature", device, d, mig, k);
	GPU_ONLY(mig);
	if (!temp || sensor != NVML_TEMPERATURE_GPU)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!fake_series_has(&d->temperature_c))
		return NVML_ERROR_NOT_SUPPORTED;
	*temp = (unsigned)fake_series_int(&d->temperature_c, k);
	return NVML_SUCCESS;
}

static nvmlReturn_t milliwatts(double watts, unsigned int *out)
{
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (watts < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*out = (unsigned)(watts * 1000 + 0.5);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetPowerUsage", device, d, mig, k);
	GPU_ONLY(mig);
	return milliwatts(fake_series_real(&d->power_w, k), power);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetEnforcedPowerLimit", device, d, mig, k);
	GPU_ONLY(mig);
	return milliwatts(d->power_limit_w, limit);
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, nvmlEnableState_t *mode)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetPersistenceMode", device, d, mig, k);
	GPU_ONLY(mig);
	if (!mode)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->persistence_mode < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*mode = d->persistence_mode;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, nvmlComputeMode_t *mode)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetComputeMode", device, d, mig, k);
	GPU_ONLY(mig);
	if (!mode)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->compute_mode < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*mode = d->compute_mode;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode, unsigned int *pendingMode)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetMigMode", device, d, mig, k);
	GPU_ONLY(mig);
	if (!currentMode || !pendingMode)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->mig < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*currentMode = (unsigned)d->mig;
	*pendingMode = (unsigned)d->mig_pending;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetMaxMigDeviceCount", device, d, mig, k);
	GPU_ONLY(mig);
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->mig < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*count = FAKE_MAX_MIG;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index, nvmlDevice_t *migDevice)
{
	const struct fake_device *d;
	long long k;
	int mig, gpu;

	DEVICE("nvmlDeviceGetMigDeviceHandleByIndex", device, d, mig, k);
	if (mig >= 0 || !migDevice)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->mig < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	if (index >= (unsigned)mig_count(d))
		return NVML_ERROR_NOT_FOUND;
	gpu = (int)(d - fake_gpu()->dev);
	mig_handles[gpu][index].gpu = gpu;
	mig_handles[gpu][index].mig = (int)index;
	*migDevice = &mig_handles[gpu][index];
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, int errorType, int counterType,
					 unsigned long long *eccCounts)
{
	const struct fake_device *d;
	long long v;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetTotalEccErrors", device, d, mig, k);
	GPU_ONLY(mig);
	if (!eccCounts || (errorType != 0 && errorType != 1) || (counterType != 0 && counterType != 1))
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!fake_series_has(&d->ecc_uncorrected) && !fake_series_has(&d->ecc_corrected))
		return NVML_ERROR_NOT_SUPPORTED;
	/* one given alone: the other counts 0 */
	v = errorType == NVML_MEMORY_ERROR_TYPE_UNCORRECTED ? fake_series_int(&d->ecc_uncorrected, k)
							    : fake_series_int(&d->ecc_corrected, k);
	*eccCounts = v > 0 ? (unsigned long long)v : 0;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, nvmlEnableState_t *isPending)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetRetiredPagesPendingStatus", device, d, mig, k);
	GPU_ONLY(mig);
	if (!isPending)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->retired_pages_pending < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*isPending = d->retired_pages_pending;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned int *corrRows, unsigned int *uncRows,
				       unsigned int *isPending, unsigned int *failureOccurred)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetRemappedRows", device, d, mig, k);
	GPU_ONLY(mig);
	if (!corrRows || !uncRows || !isPending || !failureOccurred)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->row_remap_failure < 0 && d->row_remap_pending < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*corrRows = 0;
	*uncRows = 0;
	*isPending = d->row_remap_pending == 1;
	*failureOccurred = d->row_remap_failure == 1;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount,
						     nvmlProcessInfo_t *infos)
{
	const struct fake_device *d;
	unsigned n;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetComputeRunningProcesses_v3", device, d, mig, k);
	GPU_ONLY(mig);
	if (!infoCount)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!d->has_processes)
		return NVML_ERROR_NOT_SUPPORTED;
	n = 0;
	for (int i = 0; i < d->nprocs; i++)
		n += (unsigned)fake_proc_present(&d->procs[i], k);
	if (*infoCount < n) {
		*infoCount = n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	if (n && !infos)
		return NVML_ERROR_INVALID_ARGUMENT;
	n = 0;
	for (int i = 0; i < d->nprocs; i++) {
		const struct fake_proc *p = &d->procs[i];
		long long used = fake_series_int(&p->used_mib, k);

		if (!fake_proc_present(p, k))
			continue;
		memset(&infos[n], 0, sizeof(infos[n]));
		infos[n].pid = p->pid;
		infos[n].usedGpuMemory = used >= 0 ? (unsigned long long)used * MIB : NVML_VALUE_NOT_AVAILABLE_ULL;
		infos[n].gpuInstanceId = NVML_NO_INSTANCE_ID;
		infos[n].computeInstanceId = NVML_NO_INSTANCE_ID;
		n++;
	}
	*infoCount = n;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetCudaComputeCapability", device, d, mig, k);
	if (!major || !minor)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d->cc_major < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*major = d->cc_major;
	*minor = d->cc_minor;
	return NVML_SUCCESS;
}

/* A field that is one number, or NOT_SUPPORTED when gpu.json leaves it out. */
static nvmlReturn_t unsigned_field(long long v, unsigned int *out)
{
	if (!out)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (v < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*out = (unsigned)v;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t device, unsigned int *speed)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetFanSpeed", device, d, mig, k);
	GPU_ONLY(mig);
	return unsigned_field(fake_series_int(&d->fan_percent, k), speed);
}

nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t device, int *pstate)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetPerformanceState", device, d, mig, k);
	GPU_ONLY(mig);
	if (!pstate)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!fake_series_has(&d->pstate))
		return NVML_ERROR_NOT_SUPPORTED;
	*pstate = (int)fake_series_int(&d->pstate, k);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t device, int threshold, unsigned int *temp)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetTemperatureThreshold", device, d, mig, k);
	GPU_ONLY(mig);
	if (threshold != NVML_TEMPERATURE_THRESHOLD_SLOWDOWN)
		return temp ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
	return unsigned_field(d->temperature_slowdown_c, temp);
}

static nvmlReturn_t clock_reasons(const char *fn, nvmlDevice_t device, unsigned long long *reasons)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE(fn, device, d, mig, k);
	GPU_ONLY(mig);
	if (!reasons)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!fake_series_has(&d->clocks_event_reasons))
		return NVML_ERROR_NOT_SUPPORTED;
	*reasons = (unsigned long long)fake_series_int(&d->clocks_event_reasons, k);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long *reasons)
{
	return clock_reasons("nvmlDeviceGetCurrentClocksEventReasons", device, reasons);
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long *reasons)
{
	return clock_reasons("nvmlDeviceGetCurrentClocksThrottleReasons", device, reasons);
}

/* The count protocol only: addresses are never filled (every page is at address 0). */
nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t device, int cause, unsigned int *pageCount,
				       unsigned long long *addresses)
{
	const struct fake_device *d;
	long long n;
	unsigned have;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetRetiredPages", device, d, mig, k);
	GPU_ONLY(mig);
	if (!pageCount || cause < 0 || cause > 1 || (*pageCount > 0 && !addresses))
		return NVML_ERROR_INVALID_ARGUMENT;
	n = cause == NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR ? d->retired_dbe : d->retired_sbe;
	if (n < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	have = *pageCount;
	*pageCount = (unsigned)n;
	if (have < (unsigned)n)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	for (unsigned i = 0; i < (unsigned)n; i++)
		addresses[i] = 0;
	return NVML_SUCCESS;
}

/* NVML_CLOCK_SM / NVML_CLOCK_MEM; the other domains of nvmlClockType_t (graphics, video) are not modelled. */
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int *clock)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetClockInfo", device, d, mig, k);
	GPU_ONLY(mig);
	if (!clock || type < 0 || type >= NVML_CLOCK_COUNT)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (type == NVML_CLOCK_SM)
		return unsigned_field(fake_series_int(&d->clock_sm, k), clock);
	if (type == NVML_CLOCK_MEM)
		return unsigned_field(fake_series_int(&d->clock_mem, k), clock);
	return NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned int *clock)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetMaxClockInfo", device, d, mig, k);
	GPU_ONLY(mig);
	if (!clock || type < 0 || type >= NVML_CLOCK_COUNT)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (type == NVML_CLOCK_SM)
		return unsigned_field(d->clock_sm_max, clock);
	if (type == NVML_CLOCK_MEM)
		return unsigned_field(d->clock_mem_max, clock);
	return NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *currLinkGen)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetCurrPcieLinkGeneration", device, d, mig, k);
	GPU_ONLY(mig);
	return unsigned_field(fake_series_int(&d->pcie_gen, k), currLinkGen);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *currLinkWidth)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetCurrPcieLinkWidth", device, d, mig, k);
	GPU_ONLY(mig);
	return unsigned_field(fake_series_int(&d->pcie_width, k), currLinkWidth);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *maxLinkGen)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetMaxPcieLinkGeneration", device, d, mig, k);
	GPU_ONLY(mig);
	return unsigned_field(d->pcie_gen_max, maxLinkGen);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *maxLinkWidth)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetMaxPcieLinkWidth", device, d, mig, k);
	GPU_ONLY(mig);
	return unsigned_field(d->pcie_width_max, maxLinkWidth);
}

nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device, int counter, unsigned int *value)
{
	const struct fake_device *d;
	long long k;
	int mig;

	DEVICE("nvmlDeviceGetPcieThroughput", device, d, mig, k);
	GPU_ONLY(mig);
	if (!value || (counter != NVML_PCIE_UTIL_TX_BYTES && counter != NVML_PCIE_UTIL_RX_BYTES))
		return NVML_ERROR_INVALID_ARGUMENT;
	return unsigned_field(counter == NVML_PCIE_UTIL_TX_BYTES ? fake_series_int(&d->pcie_tx_kbps, k)
								 : fake_series_int(&d->pcie_rx_kbps, k), value);
}

/* ---- Xid events ---------------------------------------------------------- */

/* A set from nvmlEventSetCreate that is not freed; NULL when not. */
static struct nvmlEventSet_st *event_set(nvmlEventSet_t set)
{
	for (int i = 0; i < FAKE_MAX_EVENT_SETS; i++)
		if (set == &event_sets[i] && event_sets[i].used)
			return set;
	return NULL;
}

nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set)
{
	nvmlReturn_t r = NVML_ERROR_UNKNOWN;	/* all FAKE_MAX_EVENT_SETS in use */

	fake_enter("nvmlEventSetCreate");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!set)
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < FAKE_MAX_EVENT_SETS; i++) {
		if (!event_sets[i].used) {
			memset(&event_sets[i], 0, sizeof(event_sets[i]));
			event_sets[i].used = 1;
			*set = &event_sets[i];
			r = NVML_SUCCESS;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return r;
}

/* nvml.h's nvmlEventTypeAll: every type may be registered; only the Xid is ever delivered. */
#define NVML_EVENT_TYPE_ALL 0xff9fULL

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes, nvmlEventSet_t set)
{
	const struct fake_device *d;
	struct nvmlEventSet_st *es;
	long long k;
	int mig, gpu;

	DEVICE("nvmlDeviceRegisterEvents", device, d, mig, k);
	if (mig >= 0)
		return NVML_ERROR_NOT_SUPPORTED;	/* nvml.h: no per-instance events */
	if (!eventTypes || (eventTypes & ~NVML_EVENT_TYPE_ALL))
		return NVML_ERROR_INVALID_ARGUMENT;
	gpu = (int)(d - fake_gpu()->dev);
	pthread_mutex_lock(&lock);
	es = event_set(set);
	if (es) {
		if (!es->types[gpu])
			es->since[gpu] = mem_calls[gpu];	/* the next sample on: later events only */
		es->types[gpu] |= eventTypes;
	}
	pthread_mutex_unlock(&lock);
	return es ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

/*
 * Never sleeps: the fake has no clock. An Xid "at" K happens at the memory
 * call that opens sample K (K = 0: at the start); a set records those that
 * happen after the device was registered on it (nvml.h: "All events that
 * occurred before this call are not recorded"). Delivers the first recorded
 * event, in (sample, device, file) order, that has happened and was not
 * delivered before in this process; else NVML_ERROR_TIMEOUT at once.
 */
nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms)
{
	const struct fake_gpu *g;
	struct nvmlEventSet_st *es;
	int best_gpu = -1, best_ev = -1;

	(void)timeoutms;
	fake_enter("nvmlEventSetWait_v2");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!data)
		return NVML_ERROR_INVALID_ARGUMENT;
	g = fake_gpu();
	pthread_mutex_lock(&lock);
	es = event_set(set);
	for (int i = 0; es && i < g->ndev; i++) {
		long long k = sample_of(i);

		if (!(es->types[i] & NVML_EVENT_TYPE_XID_CRITICAL_ERROR))
			continue;
		for (int j = 0; j < g->dev[i].nxid; j++) {
			const struct fake_xid *x = &g->dev[i].xid[j];

			if (xid_done[i][j] || x->at < es->since[i])
				continue;
			if (x->at <= k && (best_gpu < 0 || x->at < g->dev[best_gpu].xid[best_ev].at)) {
				best_gpu = i;
				best_ev = j;
			}
			break;	/* sorted by at: the first not delivered decides for this device */
		}
	}
	if (best_gpu >= 0)
		xid_done[best_gpu][best_ev] = 1;
	pthread_mutex_unlock(&lock);
	if (!es)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (best_gpu < 0)
		return NVML_ERROR_TIMEOUT;
	gpu_handles[best_gpu].gpu = best_gpu;
	gpu_handles[best_gpu].mig = -1;
	data->device = &gpu_handles[best_gpu];
	data->eventType = NVML_EVENT_TYPE_XID_CRITICAL_ERROR;
	data->eventData = g->dev[best_gpu].xid[best_ev].xid;
	data->gpuInstanceId = NVML_NO_INSTANCE_ID;
	data->computeInstanceId = NVML_NO_INSTANCE_ID;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
{
	struct nvmlEventSet_st *es;

	fake_enter("nvmlEventSetFree");
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	pthread_mutex_lock(&lock);
	es = event_set(set);
	if (es)
		es->used = 0;
	pthread_mutex_unlock(&lock);
	return es ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}
