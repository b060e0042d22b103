/*
 * fake_cuda.c - a test-only libcuda.so.1 that answers from gpu.json
 * (docs/fake-gpu.md). Exports exactly the functions gpudoctor resolves,
 * with the types of src/nvidia/cuda.h.
 *
 * cuInit decides, once, which devices CUDA sees: gpu.json's devices in
 * order (or in PCI bus order with CUDA_DEVICE_ORDER=PCI_BUS_ID), filtered
 * by CUDA_VISIBLE_DEVICES as the real driver does. Attribute queries on a
 * device whose field is missing return defaults (0), not errors.
 */
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fake_gpu.h"
#include "nvidia/cuda.h"

#define DEFAULT_NAME "NVIDIA Graphics Device"	/* what the driver calls a GPU it has no name for */
#define MIB (1024ULL * 1024ULL)

FAKE_API(cuInit);
FAKE_API(cuDriverGetVersion);
FAKE_API(cuDeviceGetCount);
FAKE_API(cuDeviceGet);
FAKE_API(cuDeviceGetName);
FAKE_API(cuDeviceGetAttribute);
FAKE_API(cuDeviceTotalMem_v2);
FAKE_API(cuDeviceGetPCIBusId);
FAKE_API(cuGetErrorName);
FAKE_API(cuGetErrorString);

/*
 * Not a function: its presence tells gpudoctor that this libcuda is the
 * test fake, so that no number it produces is presented as a measurement.
 */
FAKE_EXPORT int gpudoctor_fake_driver = 1;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int init_done;		/* cuInit has decided (the result sticks, as in the driver) */
static CUresult init_result;
static int nvisible;		/* CUDA ordinal -> index into gpu.json's devices */
static int visible[FAKE_MAX_DEVICES];

static int pci_cmp(const struct fake_device *a, const struct fake_device *b)
{
	if (a->has_pci != b->has_pci)
		return a->has_pci ? -1 : 1;	/* devices without a bus id go last */
	if (!a->has_pci)
		return 0;
	if (a->pci_domain != b->pci_domain)
		return a->pci_domain < b->pci_domain ? -1 : 1;
	if (a->pci_bus != b->pci_bus)
		return a->pci_bus < b->pci_bus ? -1 : 1;
	if (a->pci_dev != b->pci_dev)
		return a->pci_dev < b->pci_dev ? -1 : 1;
	return a->pci_fn < b->pci_fn ? -1 : a->pci_fn > b->pci_fn;
}

/* The enumeration order before CUDA_VISIBLE_DEVICES: order[i] = gpu.json index. */
static int device_order(const struct fake_gpu *g, int *order)
{
	const char *how = getenv("CUDA_DEVICE_ORDER");
	int n = g->ndev;

	for (int i = 0; i < n; i++)
		order[i] = i;
	if (how && strcmp(how, "PCI_BUS_ID") == 0) {
		for (int i = 1; i < n; i++) {	/* stable insertion sort */
			int v = order[i], j = i;

			for (; j > 0 && pci_cmp(&g->dev[order[j - 1]], &g->dev[v]) > 0; j--)
				order[j] = order[j - 1];
			order[j] = v;
		}
	}
	return n;
}

/* One CUDA_VISIBLE_DEVICES entry: position in order[], -2 to skip it, -1 if invalid. */
static int visible_entry(const struct fake_gpu *g, const int *order, int n, const char *tok)
{
	if (tok[0] && strspn(tok, "0123456789") == strlen(tok)) {
		unsigned long long v = strtoull(tok, NULL, 10);

		return strlen(tok) <= 18 && v < (unsigned long long)n ? (int)v : -1;
	}
	if (strncmp(tok, "MIG-", 4) == 0)
		return -2;	/* MIG devices are not modelled for CUDA: ignored */
	if (strncmp(tok, "GPU-", 4) == 0) {
		size_t len = strlen(tok);
		int found = -1;

		for (int i = 0; i < n; i++) {
			const char *uuid = g->dev[order[i]].uuid;

			if (uuid[0] && strncasecmp(uuid, tok, len) == 0) {
				if (found >= 0)
					return -1;	/* not a unique prefix */
				found = i;
			}
		}
		return found;
	}
	return -1;
}

/*
 * CUDA_VISIBLE_DEVICES: a comma list read left to right; each entry an
 * index, a GPU-UUID prefix (unique) or a MIG- UUID (skipped here). The
 * first invalid or repeated entry ends the list ("-1", "" show nothing).
 * Spaces around an entry are ignored.
 */
static void choose_visible(const struct fake_gpu *g)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	int order[FAKE_MAX_DEVICES], n = device_order(g, order);
	char buf[4096], *p, *next;

	nvisible = 0;
	if (!cvd) {
		for (int i = 0; i < n; i++)
			visible[nvisible++] = order[i];
		return;
	}
	if (fake_copy(buf, sizeof(buf), cvd) < 0) {
		fake_warn("CUDA_VISIBLE_DEVICES is over %zu bytes; no devices", sizeof(buf) - 1);
		return;
	}
	for (p = buf; p; p = next) {
		char *tok = p, *end;
		int pos, dup = 0;

		next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = '\0';
		pos = visible_entry(g, order, n, tok);
		if (pos == -2)
			continue;
		if (pos < 0)
			break;
		for (int i = 0; i < nvisible; i++)
			dup |= visible[i] == order[pos];
		if (dup)
			break;
		visible[nvisible++] = order[pos];
	}
}

static int inited(void)
{
	int ok;

	pthread_mutex_lock(&lock);
	ok = init_done && init_result == CUDA_SUCCESS;
	pthread_mutex_unlock(&lock);
	return ok;
}

/* The device behind a CUDA ordinal, NULL if there is none. */
static const struct fake_device *device_of(CUdevice dev)
{
	return dev >= 0 && dev < nvisible ? &fake_gpu()->dev[visible[dev]] : NULL;
}

int fake_cuda_inited(void)
{
	return inited();
}

const struct fake_device *fake_cuda_device(int ordinal)
{
	return device_of(ordinal);
}

/* Common prologue: initialized, valid device. */
#define DEVICE(fn, dev, d)                           \
	do {                                         \
		fake_enter(fn);                      \
		if (!inited())                       \
			return CUDA_ERROR_NOT_INITIALIZED; \
		(d) = device_of(dev);                \
		if (!(d))                            \
			return CUDA_ERROR_INVALID_DEVICE; \
	} while (0)

CUresult cuInit(unsigned int flags)
{
	const struct fake_gpu *g;
	CUresult r;

	fake_enter("cuInit");
	if (flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	g = fake_gpu();
	pthread_mutex_lock(&lock);
	if (!init_done) {
		if (!g->loaded) {
			init_result = CUDA_ERROR_NO_DEVICE;
		} else if (g->cu_init != CUDA_SUCCESS) {
			init_result = g->cu_init;
		} else {
			choose_visible(g);
			init_result = nvisible > 0 ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
		}
		init_done = 1;
	}
	r = init_result;
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult cuDriverGetVersion(int *version)
{
	fake_enter("cuDriverGetVersion");
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	*version = fake_gpu()->cuda_version;	/* no cuInit needed, as in the driver */
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	fake_enter("cuDeviceGetCount");
	if (!inited())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = nvisible;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	fake_enter("cuDeviceGet");
	if (!inited())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (ordinal < 0 || ordinal >= nvisible)
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	const struct fake_device *d;

	DEVICE("cuDeviceGetName", dev, d);
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "%s", d->name[0] ? d->name : DEFAULT_NAME);	/* truncates, like the driver */
	return CUDA_SUCCESS;
}

static int clamp_int(long long v, long long scale)
{
	if (v < 0)
		return 0;
	return v > INT_MAX / scale ? INT_MAX : (int)(v * scale);
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice dev)
{
	const struct fake_device *d;

	DEVICE("cuDeviceGetAttribute", dev, d);
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attribute) {
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
		*value = clamp_int(d->clock_mhz, 1000);
		break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		*value = clamp_int(d->sm_count, 1);
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
		*value = d->has_pci ? (int)d->pci_bus : 0;
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
		*value = d->has_pci ? (int)d->pci_dev : 0;
		break;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
		*value = clamp_int(d->mem_clock_mhz, 1000);
		break;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
		*value = clamp_int(d->bus_width, 1);
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
		*value = d->has_pci ? (int)(d->pci_domain & INT_MAX) : 0;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		*value = d->cc_major < 0 ? 0 : d->cc_major;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
		*value = d->cc_minor < 0 ? 0 : d->cc_minor;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;	/* not modelled */
	}
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	const struct fake_device *d;

	DEVICE("cuDeviceTotalMem_v2", dev, d);
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	*bytes = d->memory_mib > 0 ? (size_t)d->memory_mib * MIB : 0;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
	const struct fake_device *d;

	DEVICE("cuDeviceGetPCIBusId", dev, d);
	if (!pciBusId || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (d->has_pci)
		snprintf(pciBusId, (size_t)len, "%04X:%02X:%02X.%X", d->pci_domain & 0xffffu, d->pci_bus, d->pci_dev,
			 d->pci_fn);
	else
		snprintf(pciBusId, (size_t)len, "0000:00:00.0");
	return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	fake_enter("cuGetErrorName");
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = fake_code_name(FAKE_CUDA, error);	/* no cuInit needed, as in the driver */
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* cuGetErrorString's texts, as the driver words them; a code not listed here gets its name. */
static const struct {
	int code;
	const char *text;
} error_texts[] = {
	{ 0, "no error" },
	{ 1, "invalid argument" },
	{ 2, "out of memory" },
	{ 3, "initialization error" },
	{ 4, "driver shutting down" },
	{ 34, "CUDA driver is a stub library" },
	{ 46, "CUDA-capable device(s) is/are busy or unavailable" },
	{ 100, "no CUDA-capable device is detected" },
	{ 101, "invalid device ordinal" },
	{ 200, "device kernel image is invalid" },
	{ 201, "invalid device context" },
	{ 209, "no kernel image is available for execution on the device" },
	{ 214, "uncorrectable ECC error encountered" },
	{ 218, "a PTX JIT compilation failed" },
	{ 221, "PTX JIT compiler library not found" },
	{ 222, "the provided PTX was compiled with an unsupported toolchain." },
	{ 223, "PTX JIT compilation was disabled" },
	{ 301, "file not found" },
	{ 304, "OS call failed or operation not supported on this OS" },
	{ 400, "invalid resource handle" },
	{ 500, "named symbol not found" },
	{ 600, "device not ready" },
	{ 700, "an illegal memory access was encountered" },
	{ 701, "too many resources requested for launch" },
	{ 702, "the launch timed out and was terminated" },
	{ 709, "context is destroyed" },
	{ 710, "device-side assert triggered" },
	{ 714, "hardware stack error" },
	{ 715, "an illegal instruction was encountered" },
	{ 716, "misaligned address" },
	{ 718, "invalid program counter" },
	{ 719, "unspecified launch failure" },
	{ 800, "operation not permitted" },
	{ 801, "operation not supported" },
	{ 802, "system not yet initialized" },
	{ 803, "system has unsupported display driver / cuda driver combination" },
	{ 804, "forward compatibility was attempted on non supported HW" },
	{ 999, "unknown error" },
};

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	fake_enter("cuGetErrorString");
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = fake_code_name(FAKE_CUDA, error);	/* no cuInit needed, as in the driver */
	if (!*pStr)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(error_texts) / sizeof(error_texts[0]); i++)
		if (error_texts[i].code == error)
			*pStr = error_texts[i].text;
	return CUDA_SUCCESS;
}
