/*
 * fake_gpu.c - gpu.json reader shared by the fake libnvidia-ml.so.1 and
 * libcuda.so.1 (test-only; format in docs/fake-gpu.md).
 *
 * The file named by $GPUDOCTOR_FAKE_GPU is read once, on the first call
 * into the library, and copied into static structures; the JSON tree is
 * freed at once, so a fake that is dlclose()d leaves no heap behind (the
 * sanitizer build of gpudoctor would call that a leak). Mistakes in the
 * file are reported on stderr as "fake-gpu: ..." and the field is treated
 * as missing.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "fake_gpu.h"
#include "nvidia/cuda.h"
#include "nvidia/nvml.h"

#define DEFAULT_DRIVER "535.104.05"
/* compute.jit_log's default: what ptxas of CUDA 9 (PTX ISA 5.0) says of our PTX 6.0. */
#define DEFAULT_JIT_LOG \
	"ptxas application ptx input, line 10; fatal   : Unsupported .version 6.0; current version is '5.0'"
#define MIB (1024LL * 1024LL)

/* ---- result codes ------------------------------------------------------ */

struct code {
	const char *name;
	int value;
	const char *text;	/* nvmlErrorString; NULL for CUresult */
};

/* Every nvmlReturn_t of nvml.h (NVML_API_VERSION 13), as in data/error_codes.tsv. */
static const struct code nvml_codes[] = {
	{ "NVML_SUCCESS", 0, "Success" },
	{ "NVML_ERROR_UNINITIALIZED", 1, "Uninitialized" },
	{ "NVML_ERROR_INVALID_ARGUMENT", 2, "Invalid Argument" },
	{ "NVML_ERROR_NOT_SUPPORTED", 3, "Not Supported" },
	{ "NVML_ERROR_NO_PERMISSION", 4, "Insufficient Permissions" },
	{ "NVML_ERROR_ALREADY_INITIALIZED", 5, "Already Initialized" },
	{ "NVML_ERROR_NOT_FOUND", 6, "Not Found" },
	{ "NVML_ERROR_INSUFFICIENT_SIZE", 7, "Insufficient Size" },
	{ "NVML_ERROR_INSUFFICIENT_POWER", 8, "Insufficient External Power" },
	{ "NVML_ERROR_DRIVER_NOT_LOADED", 9, "Driver Not Loaded" },
	{ "NVML_ERROR_TIMEOUT", 10, "Timeout" },
	{ "NVML_ERROR_IRQ_ISSUE", 11, "Interrupt Request Issue" },
	{ "NVML_ERROR_LIBRARY_NOT_FOUND", 12, "NVML Shared Library Not Found" },
	{ "NVML_ERROR_FUNCTION_NOT_FOUND", 13, "Function Not Found" },
	{ "NVML_ERROR_CORRUPTED_INFOROM", 14, "Corrupted infoROM" },
	{ "NVML_ERROR_GPU_IS_LOST", 15, "GPU is lost" },
	{ "NVML_ERROR_RESET_REQUIRED", 16, "GPU requires restart" },
	{ "NVML_ERROR_OPERATING_SYSTEM", 17, "The operating system has blocked the request." },
	{ "NVML_ERROR_LIB_RM_VERSION_MISMATCH", 18, "RM has detected an NVML/RM version mismatch." },
	{ "NVML_ERROR_IN_USE", 19, "In use by another client" },
	{ "NVML_ERROR_MEMORY", 20, "Insufficient Memory" },
	{ "NVML_ERROR_NO_DATA", 21, "No data" },
	{ "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", 22,
	  "The requested vgpu operation is not available on target device, because ECC is enabled" },
	{ "NVML_ERROR_INSUFFICIENT_RESOURCES", 23, "Insufficient resources" },
	{ "NVML_ERROR_FREQ_NOT_SUPPORTED", 24, "Frequency not supported" },
	{ "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", 25, "Argument version mismatch" },
	{ "NVML_ERROR_DEPRECATED", 26, "Deprecated" },
	{ "NVML_ERROR_NOT_READY", 27, "Not Ready" },
	{ "NVML_ERROR_GPU_NOT_FOUND", 28, "GPU not found" },
	{ "NVML_ERROR_INVALID_STATE", 29, "Invalid state" },
	{ "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED", 30, "Reset type not supported" },
	{ "NVML_ERROR_UNKNOWN", 999, "Unknown Error" },
};

/* Every CUresult of data/error_codes.tsv that has a value (CUDA 13.2 cuda.h). */
static const struct code cuda_codes[] = {
	{ "CUDA_SUCCESS", 0, NULL },
	{ "CUDA_ERROR_INVALID_VALUE", 1, NULL },
	{ "CUDA_ERROR_OUT_OF_MEMORY", 2, NULL },
	{ "CUDA_ERROR_NOT_INITIALIZED", 3, NULL },
	{ "CUDA_ERROR_DEINITIALIZED", 4, NULL },
	{ "CUDA_ERROR_PROFILER_DISABLED", 5, NULL },
	{ "CUDA_ERROR_PROFILER_NOT_INITIALIZED", 6, NULL },
	{ "CUDA_ERROR_PROFILER_ALREADY_STARTED", 7, NULL },
	{ "CUDA_ERROR_PROFILER_ALREADY_STOPPED", 8, NULL },
	{ "CUDA_ERROR_STUB_LIBRARY", 34, NULL },
	{ "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", 36, NULL },
	{ "CUDA_ERROR_DEVICE_UNAVAILABLE", 46, NULL },
	{ "CUDA_ERROR_NO_DEVICE", 100, NULL },
	{ "CUDA_ERROR_INVALID_DEVICE", 101, NULL },
	{ "CUDA_ERROR_DEVICE_NOT_LICENSED", 102, NULL },
	{ "CUDA_ERROR_INVALID_IMAGE", 200, NULL },
	{ "CUDA_ERROR_INVALID_CONTEXT", 201, NULL },
	{ "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", 202, NULL },
	{ "CUDA_ERROR_MAP_FAILED", 205, NULL },
	{ "CUDA_ERROR_UNMAP_FAILED", 206, NULL },
	{ "CUDA_ERROR_ARRAY_IS_MAPPED", 207, NULL },
	{ "CUDA_ERROR_ALREADY_MAPPED", 208, NULL },
	{ "CUDA_ERROR_NO_BINARY_FOR_GPU", 209, NULL },
	{ "CUDA_ERROR_ALREADY_ACQUIRED", 210, NULL },
	{ "CUDA_ERROR_NOT_MAPPED", 211, NULL },
	{ "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", 212, NULL },
	{ "CUDA_ERROR_NOT_MAPPED_AS_POINTER", 213, NULL },
	{ "CUDA_ERROR_ECC_UNCORRECTABLE", 214, NULL },
	{ "CUDA_ERROR_UNSUPPORTED_LIMIT", 215, NULL },
	{ "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", 216, NULL },
	{ "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", 217, NULL },
	{ "CUDA_ERROR_INVALID_PTX", 218, NULL },
	{ "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", 219, NULL },
	{ "CUDA_ERROR_NVLINK_UNCORRECTABLE", 220, NULL },
	{ "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", 221, NULL },
	{ "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 222, NULL },
	{ "CUDA_ERROR_JIT_COMPILATION_DISABLED", 223, NULL },
	{ "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", 224, NULL },
	{ "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", 225, NULL },
	{ "CUDA_ERROR_CONTAINED", 226, NULL },
	{ "CUDA_ERROR_INVALID_SOURCE", 300, NULL },
	{ "CUDA_ERROR_FILE_NOT_FOUND", 301, NULL },
	{ "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", 302, NULL },
	{ "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", 303, NULL },
	{ "CUDA_ERROR_OPERATING_SYSTEM", 304, NULL },
	{ "CUDA_ERROR_INVALID_HANDLE", 400, NULL },
	{ "CUDA_ERROR_ILLEGAL_STATE", 401, NULL },
	{ "CUDA_ERROR_LOSSY_QUERY", 402, NULL },
	{ "CUDA_ERROR_NOT_FOUND", 500, NULL },
	{ "CUDA_ERROR_NOT_READY", 600, NULL },
	{ "CUDA_ERROR_ILLEGAL_ADDRESS", 700, NULL },
	{ "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 701, NULL },
	{ "CUDA_ERROR_LAUNCH_TIMEOUT", 702, NULL },
	{ "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", 703, NULL },
	{ "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", 704, NULL },
	{ "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", 705, NULL },
	{ "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", 708, NULL },
	{ "CUDA_ERROR_CONTEXT_IS_DESTROYED", 709, NULL },
	{ "CUDA_ERROR_ASSERT", 710, NULL },
	{ "CUDA_ERROR_TOO_MANY_PEERS", 711, NULL },
	{ "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", 712, NULL },
	{ "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", 713, NULL },
	{ "CUDA_ERROR_HARDWARE_STACK_ERROR", 714, NULL },
	{ "CUDA_ERROR_ILLEGAL_INSTRUCTION", 715, NULL },
	{ "CUDA_ERROR_MISALIGNED_ADDRESS", 716, NULL },
	{ "CUDA_ERROR_INVALID_ADDRESS_SPACE", 717, NULL },
	{ "CUDA_ERROR_INVALID_PC", 718, NULL },
	{ "CUDA_ERROR_LAUNCH_FAILED", 719, NULL },
	{ "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", 720, NULL },
	{ "CUDA_ERROR_TENSOR_MEMORY_LEAK", 721, NULL },
	{ "CUDA_ERROR_NOT_PERMITTED", 800, NULL },
	{ "CUDA_ERROR_NOT_SUPPORTED", 801, NULL },
	{ "CUDA_ERROR_SYSTEM_NOT_READY", 802, NULL },
	{ "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", 803, NULL },
	{ "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", 804, NULL },
	{ "CUDA_ERROR_MPS_CONNECTION_FAILED", 805, NULL },
	{ "CUDA_ERROR_MPS_RPC_FAILURE", 806, NULL },
	{ "CUDA_ERROR_MPS_SERVER_NOT_READY", 807, NULL },
	{ "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", 808, NULL },
	{ "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", 809, NULL },
	{ "CUDA_ERROR_MPS_CLIENT_TERMINATED", 810, NULL },
	{ "CUDA_ERROR_CDP_NOT_SUPPORTED", 811, NULL },
	{ "CUDA_ERROR_CDP_VERSION_MISMATCH", 812, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", 900, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", 901, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_MERGE", 902, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", 903, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", 904, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", 905, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", 906, NULL },
	{ "CUDA_ERROR_CAPTURED_EVENT", 907, NULL },
	{ "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", 908, NULL },
	{ "CUDA_ERROR_TIMEOUT", 909, NULL },
	{ "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", 910, NULL },
	{ "CUDA_ERROR_EXTERNAL_DEVICE", 911, NULL },
	{ "CUDA_ERROR_INVALID_CLUSTER_SIZE", 912, NULL },
	{ "CUDA_ERROR_FUNCTION_NOT_LOADED", 913, NULL },
	{ "CUDA_ERROR_INVALID_RESOURCE_TYPE", 914, NULL },
	{ "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", 915, NULL },
	{ "CUDA_ERROR_KEY_ROTATION", 916, NULL },
	{ "CUDA_ERROR_STREAM_DETACHED", 917, NULL },
	{ "CUDA_ERROR_UNKNOWN", 999, NULL },
};

#define NCODES(t) (sizeof(t) / sizeof((t)[0]))

static const struct code *code_table(enum fake_api api, size_t *n)
{
	*n = api == FAKE_NVML ? NCODES(nvml_codes) : NCODES(cuda_codes);
	return api == FAKE_NVML ? nvml_codes : cuda_codes;
}

const char *fake_code_name(enum fake_api api, int code)
{
	size_t n;
	const struct code *t = code_table(api, &n);

	for (size_t i = 0; i < n; i++)
		if (t[i].value == code)
			return t[i].name;
	return NULL;
}

const char *fake_nvml_text(int code)
{
	for (size_t i = 0; i < NCODES(nvml_codes); i++)
		if (nvml_codes[i].value == code)
			return nvml_codes[i].text;
	return "Unknown Error";
}

/* ---- the functions "hang" and "crash" may name ------------------------- */

static const char *const fake_functions[] = {
	"nvmlInit_v2", "nvmlShutdown", "nvmlErrorString", "nvmlSystemGetDriverVersion",
	"nvmlSystemGetCudaDriverVersion_v2", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2",
	"nvmlDeviceGetName", "nvmlDeviceGetUUID", "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetMemoryInfo",
	"nvmlDeviceGetUtilizationRates", "nvmlDeviceGetTemperature", "nvmlDeviceGetPowerUsage",
	"nvmlDeviceGetEnforcedPowerLimit", "nvmlDeviceGetPersistenceMode", "nvmlDeviceGetComputeMode",
	"nvmlDeviceGetMigMode", "nvmlDeviceGetMaxMigDeviceCount", "nvmlDeviceGetMigDeviceHandleByIndex",
	"nvmlDeviceGetTotalEccErrors", "nvmlDeviceGetRetiredPagesPendingStatus", "nvmlDeviceGetRemappedRows",
	"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetCudaComputeCapability",
	"nvmlDeviceGetFanSpeed", "nvmlDeviceGetPerformanceState", "nvmlDeviceGetTemperatureThreshold",
	"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons",
	"nvmlDeviceGetRetiredPages", "nvmlDeviceGetClockInfo", "nvmlDeviceGetMaxClockInfo",
	"nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetCurrPcieLinkWidth",
	"nvmlDeviceGetMaxPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkWidth", "nvmlDeviceGetPcieThroughput",
	"nvmlEventSetCreate", "nvmlDeviceRegisterEvents", "nvmlEventSetWait_v2", "nvmlEventSetFree",
	"cuInit", "cuDriverGetVersion", "cuDeviceGetCount", "cuDeviceGet", "cuDeviceGetName",
	"cuDeviceGetAttribute", "cuDeviceTotalMem_v2", "cuDeviceGetPCIBusId", "cuGetErrorName",
	"cuGetErrorString", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2", "cuCtxSetCurrent",
	"cuCtxSynchronize", "cuMemGetInfo_v2", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemAllocHost_v2",
	"cuMemFreeHost", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpyDtoD_v2", "cuMemsetD32_v2",
	"cuModuleLoadDataEx", "cuModuleUnload", "cuModuleGetFunction", "cuLaunchKernel", "cuEventCreate",
	"cuEventRecord", "cuEventSynchronize", "cuEventElapsedTime", "cuEventElapsedTime_v2",
	"cuEventDestroy_v2",
};

/* The kernels the fake libcuda can run (src/compute/kernels.ptx). */
static const char *const fake_kernels[] = { "gd_pattern", "gd_sgemm", "gd_fma" };

/* ---- messages and small helpers ---------------------------------------- */

void fake_warn(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fake-gpu: %s\n", buf);
}

int fake_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (!dst || n >= len)
		return -1;
	memcpy(dst, src, n + 1);
	return 0;
}

/* ---- gpu.json ---------------------------------------------------------- */

static struct fake_gpu machine;
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;
static const char *json_path;	/* for messages */

/* "devices[1].memory_mib" style location of a key, for messages. */
static const char *where(char *buf, size_t len, const char *ctx, const char *key)
{
	snprintf(buf, len, "%s%s%s", ctx, ctx[0] ? "." : "", key);
	return buf;
}

#define BAD(ctx, key, what)                                                                   \
	do {                                                                                  \
		char w_[160];                                                                 \
		fake_warn("%s: %s: %s; treated as missing", json_path,                        \
			  where(w_, sizeof(w_), ctx, key), what);                             \
	} while (0)

/* Warn about keys of obj not in the NULL-terminated list (keys starting with "_" are comments). */
static void check_keys(json_t *obj, const char *ctx, const char *const *known)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const char *const *k = known;

		(void)v;
		if (key[0] == '_')
			continue;
		while (*k && strcmp(*k, key) != 0)
			k++;
		if (!*k)
			fake_warn("%s: %s%s%s: unknown key, ignored", json_path, ctx, ctx[0] ? "." : "", key);
	}
}

static int get_bool(json_t *obj, const char *ctx, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return -1;
	if (!json_is_boolean(v)) {
		BAD(ctx, key, "not true/false");
		return -1;
	}
	return json_is_true(v);
}

/* An integral number within [min, max]; -1 when missing or bad. */
static long long get_int(json_t *obj, const char *ctx, const char *key, long long min, long long max)
{
	json_t *v = json_object_get(obj, key);
	long long n;

	if (!v)
		return -1;
	if (json_is_integer(v)) {
		n = json_integer_value(v);
	} else if (json_is_real(v) && json_real_value(v) == (double)(long long)json_real_value(v)) {
		n = (long long)json_real_value(v);
	} else {
		BAD(ctx, key, "not an integer");
		return -1;
	}
	if (n < min || n > max) {
		char what[96];

		snprintf(what, sizeof(what), "%lld is out of range %lld..%lld", n, min, max);
		BAD(ctx, key, what);
		return -1;
	}
	return n;
}

static double get_real(json_t *obj, const char *ctx, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return -1;
	if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 4e6) {
		BAD(ctx, key, "not a number in 0..4000000");
		return -1;
	}
	return json_number_value(v);
}

/* One number of a series, integral when asked: 0, -1 (not such a number), -2 (out of [min, max]). */
static int series_number(json_t *v, int integral, double min, double max, double *out)
{
	double x;

	if (!json_is_number(v))
		return -1;
	x = json_number_value(v);
	if (integral && x != (double)(long long)x)
		return -1;
	if (x < min || x > max)
		return -2;
	*out = x;
	return 0;
}

/* Report a bad value of a series: what series_number() said (err), or the shape. */
static void bad_series(const char *ctx, const char *key, int err, int integral, double min, double max)
{
	char what[160];

	if (err == -2)
		snprintf(what, sizeof(what), "a value is out of range %.0f..%.0f", min, max);
	else
		snprintf(what, sizeof(what), "not %s (nor a list of 1 to %d of them, nor a ramp {\"from\": A, "
			 "\"to\": B, \"samples\": N >= 1})", integral ? "an integer" : "a number", FAKE_SERIES_MAX);
	BAD(ctx, key, what);
}

/*
 * A series (docs/fake-gpu.md, "Time"): a number, a list of 1 to
 * FAKE_SERIES_MAX numbers, or {"from": A, "to": B, "samples": N}. Missing
 * or bad (reported): FAKE_SERIES_MISSING.
 */
static void get_series(json_t *obj, const char *ctx, const char *key, int integral, double min, double max,
		       struct fake_series *s)
{
	static const char *const ramp_keys[] = { "from", "to", "samples", NULL };
	json_t *v = json_object_get(obj, key), *e;
	size_t i;
	int err = -1;

	memset(s, 0, sizeof(*s));
	s->integral = integral;
	if (!v)
		return;
	if (json_is_number(v)) {
		err = series_number(v, integral, min, max, &s->a);
		if (err == 0)
			s->kind = FAKE_SERIES_CONST;
	} else if (json_is_array(v)) {
		size_t n = json_array_size(v);

		if (n > FAKE_SERIES_MAX) {
			BAD(ctx, key, "a list of more than 256 values");
			return;
		}
		if (n >= 1 && machine.npool + (int)n > FAKE_POOL) {
			BAD(ctx, key, "more list values in the file than the fake keeps (16384)");
			return;
		}
		err = n >= 1 ? 0 : -1;
		json_array_foreach(v, i, e) {
			if (err == 0)
				err = series_number(e, integral, min, max, &machine.pool[machine.npool + (int)i]);
		}
		if (err == 0) {
			s->off = machine.npool;
			s->n = (int)n;
			machine.npool += (int)n;
			s->kind = FAKE_SERIES_ARRAY;
		}
	} else if (json_is_object(v)) {
		json_t *from = json_object_get(v, "from"), *to = json_object_get(v, "to");
		json_t *samples = json_object_get(v, "samples");
		char rctx[96];

		snprintf(rctx, sizeof(rctx), "%s%s%s", ctx, ctx[0] ? "." : "", key);
		check_keys(v, rctx, ramp_keys);
		if (from && to && samples && json_is_integer(samples) && json_integer_value(samples) >= 1 &&
		    json_integer_value(samples) <= INT_MAX) {
			err = series_number(from, integral, min, max, &s->a);
			if (err == 0)
				err = series_number(to, integral, min, max, &s->b);
		}
		if (err == 0) {
			s->n = (int)json_integer_value(samples);
			s->kind = FAKE_SERIES_RAMP;
		}
	}
	if (err != 0)
		bad_series(ctx, key, err, integral, min, max);
}

int fake_series_has(const struct fake_series *s)
{
	return s->kind != FAKE_SERIES_MISSING;
}

double fake_series_real(const struct fake_series *s, long long k)
{
	double x;

	if (k < 0)
		k = 0;
	switch (s->kind) {
	case FAKE_SERIES_CONST:
		x = s->a;
		break;
	case FAKE_SERIES_ARRAY:
		x = fake_gpu()->pool[s->off + (k < s->n ? k : s->n - 1)];
		break;
	case FAKE_SERIES_RAMP:
		x = s->n <= 1 || k >= s->n - 1 ? s->b : s->a + (s->b - s->a) * (double)k / (double)(s->n - 1);
		break;
	default:
		return -1;
	}
	return s->integral ? (double)(long long)(x + 0.5) : x;	/* values are >= 0 */
}

long long fake_series_int(const struct fake_series *s, long long k)
{
	return s->kind == FAKE_SERIES_MISSING ? -1 : (long long)fake_series_real(s, k);
}

int fake_proc_present(const struct fake_proc *p, long long k)
{
	return (p->from < 0 || p->from <= k) && (p->until < 0 || k < p->until);
}

/* A string that fits buf; 0 when copied, -1 when missing or bad (buf untouched). */
static int get_str(json_t *obj, const char *ctx, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return -1;
	if (!json_is_string(v)) {
		BAD(ctx, key, "not a string");
		return -1;
	}
	if (fake_copy(buf, len, json_string_value(v)) < 0) {
		BAD(ctx, key, "too long");
		return -1;
	}
	return 0;
}

/* A result code by name ("NVML_ERROR_...") or number; def when missing. */
static int get_code(json_t *obj, const char *ctx, const char *key, enum fake_api api, int def)
{
	char w[160];
	json_t *v = json_object_get(obj, key);
	int unknown = api == FAKE_NVML ? NVML_ERROR_UNKNOWN : CUDA_ERROR_UNKNOWN;
	const char *name;
	size_t n;
	const struct code *t = code_table(api, &n);

	if (!v)
		return def;
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= INT_MAX)
		return (int)json_integer_value(v);
	if (!json_is_string(v)) {
		fake_warn("%s: %s: want a result name; using %s", json_path, where(w, sizeof(w), ctx, key),
			  api == FAKE_NVML ? "NVML_ERROR_UNKNOWN" : "CUDA_ERROR_UNKNOWN");
		return unknown;
	}
	name = json_string_value(v);
	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return t[i].value;
	fake_warn("%s: %s: unknown %s name \"%s\"; using %s", json_path, where(w, sizeof(w), ctx, key),
		  api == FAKE_NVML ? "nvmlReturn_t" : "CUresult", name,
		  api == FAKE_NVML ? "NVML_ERROR_UNKNOWN" : "CUDA_ERROR_UNKNOWN");
	return unknown;
}

/* "hang" / "crash": a function name or a list of them. */
static int get_faults(json_t *obj, const char *key, char out[][FAKE_NAME])
{
	json_t *v = json_object_get(obj, key), *one;
	json_t *list;
	size_t i;
	int n = 0;

	if (!v)
		return 0;
	if (json_is_string(v)) {
		list = json_array();
		json_array_append(list, v);
	} else if (json_is_array(v)) {
		list = json_incref(v);
	} else {
		BAD("", key, "want a function name or a list of them");
		return 0;
	}
	json_array_foreach(list, i, one) {
		const char *fn = json_is_string(one) ? json_string_value(one) : NULL;
		size_t k = 0;

		if (!fn || n >= FAKE_MAX_FAULTS || fake_copy(out[n], FAKE_NAME, fn) < 0) {
			BAD("", key, "bad entry (not a string, too long, or too many)");
			continue;
		}
		while (k < NCODES(fake_functions) && strcmp(fake_functions[k], fn) != 0)
			k++;
		if (k == NCODES(fake_functions))
			fake_warn("%s: %s: \"%s\" is not a function of the fakes; it never fires", json_path, key,
				  fn);
		n++;
	}
	json_decref(list);
	return n;
}

/* "slow": {"cuCtxSynchronize": 300, ...}: milliseconds each call of that function takes. */
static int get_slow(json_t *obj, char names[][FAKE_NAME], int ms[])
{
	json_t *v = json_object_get(obj, "slow"), *one;
	const char *fn;
	int n = 0;

	if (!v)
		return 0;
	if (!json_is_object(v)) {
		BAD("", "slow", "want an object of function names and milliseconds");
		return 0;
	}
	json_object_foreach(v, fn, one) {
		if (n >= FAKE_MAX_FAULTS || !json_is_integer(one) || json_integer_value(one) < 0 ||
		    json_integer_value(one) > 600000 || fake_copy(names[n], FAKE_NAME, fn) < 0) {
			BAD("", "slow", "bad entry (want milliseconds from 0 to 600000, at most 16 functions)");
			continue;
		}
		ms[n++] = (int)json_integer_value(one);
	}
	return n;
}

/* "hang_at" / "crash_at": {"nvmlDeviceGetUtilizationRates": 3, ...}: from which sample a call fires. */
static int get_faults_at(json_t *obj, const char *key, char names[][FAKE_NAME], long long at[])
{
	json_t *v = json_object_get(obj, key), *one;
	const char *fn;
	int n = 0;

	if (!v)
		return 0;
	if (!json_is_object(v)) {
		BAD("", key, "want an object of function names and sample numbers");
		return 0;
	}
	json_object_foreach(v, fn, one) {
		size_t k = 0;

		if (n >= FAKE_MAX_FAULTS || !json_is_integer(one) || json_integer_value(one) < 0 ||
		    fake_copy(names[n], FAKE_NAME, fn) < 0) {
			BAD("", key, "bad entry (want a sample number >= 0, at most 16 functions)");
			continue;
		}
		while (k < NCODES(fake_functions) && strcmp(fake_functions[k], fn) != 0)
			k++;
		if (k == NCODES(fake_functions) || strncmp(fn, "nvmlDevice", 10) != 0 ||
		    strcmp(fn, "nvmlDeviceGetCount_v2") == 0 || strcmp(fn, "nvmlDeviceGetHandleByIndex_v2") == 0)
			fake_warn("%s: %s: \"%s\" is not a device query of the fakes; it never fires", json_path,
				  key, fn);
		at[n++] = json_integer_value(one);
	}
	return n;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* Parse the hex number at *s up to a char in stop (or end): value, advance; -1 on error. */
static long long hex_field(const char **s, int maxdigits)
{
	long long v = 0;
	int n = 0;

	while (isxdigit((unsigned char)**s) && n < maxdigits) {
		v = v * 16 + hexval((unsigned char)**s);
		(*s)++;
		n++;
	}
	return n ? v : -1;
}

/* "00000000:01:00.0", "0000:01:00.0" or "01:00.0". */
static int parse_bus_id(const char *s, struct fake_device *d)
{
	const char *p = s;
	long long a, b, c, f, dom = 0;
	int colons = 0;

	for (const char *q = s; *q; q++)
		colons += *q == ':';
	if (colons == 2) {
		dom = hex_field(&p, 8);
		if (dom < 0 || *p++ != ':')
			return -1;
	} else if (colons != 1) {
		return -1;
	}
	a = hex_field(&p, 2);
	if (a < 0 || *p++ != ':')
		return -1;
	b = hex_field(&p, 2);
	if (b < 0 || b > 0x1f || *p++ != '.')
		return -1;
	c = hex_field(&p, 1);
	if (c < 0 || c > 7 || *p)
		return -1;
	f = c;
	d->has_pci = 1;
	d->pci_domain = (unsigned)dom;
	d->pci_bus = (unsigned)a;
	d->pci_dev = (unsigned)b;
	d->pci_fn = (unsigned)f;
	return 0;
}

/* A kernel name for key, or "" (missing or bad); known kernels only, else a warning. */
static void get_kernel(json_t *obj, const char *ctx, const char *key, char *buf)
{
	size_t k = 0;

	buf[0] = '\0';
	if (get_str(obj, ctx, key, buf, FAKE_NAME) < 0)
		return;
	while (k < NCODES(fake_kernels) && strcmp(fake_kernels[k], buf) != 0)
		k++;
	if (k == NCODES(fake_kernels)) {
		char w[160];

		fake_warn("%s: %s: \"%s\" is not a kernel the fake runs (gd_pattern, gd_sgemm, gd_fma); it never "
			  "fires", json_path, where(w, sizeof(w), ctx, key), buf);
	}
}

/* A device's "compute" object (o NULL: the defaults). */
static void load_compute(json_t *o, const char *devctx, struct fake_compute *c)
{
	static const char *const known[] = {
		"jit", "jit_error", "jit_log", "alloc_limit_mib", "launch_error", "launch_error_kernel",
		"wrong_result", "flaky_after", "fake_ms", NULL,
	};
	char ctx[48], buf[FAKE_STR];
	double ms;

	memset(c, 0, sizeof(*c));
	strcpy(c->jit_log, DEFAULT_JIT_LOG);
	c->alloc_limit_mib = c->flaky_after = -1;
	c->fake_ms = 1.0;
	if (!o)
		return;
	snprintf(ctx, sizeof(ctx), "%s.compute", devctx);
	if (!json_is_object(o)) {
		fake_warn("%s: %s: not an object; ignored", json_path, ctx);
		return;
	}
	check_keys(o, ctx, known);
	if (get_str(o, ctx, "jit", buf, sizeof(buf)) == 0) {
		if (strcmp(buf, "error") == 0)
			c->jit_error = get_code(o, ctx, "jit_error", FAKE_CUDA, CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
		else if (strcmp(buf, "ok") != 0)
			BAD(ctx, "jit", "want \"ok\" or \"error\"");
	}
	if (get_str(o, ctx, "jit_log", c->jit_log, sizeof(c->jit_log)) < 0)
		strcpy(c->jit_log, DEFAULT_JIT_LOG);
	c->alloc_limit_mib = get_int(o, ctx, "alloc_limit_mib", 0, 1LL << 30);
	c->launch_error = get_code(o, ctx, "launch_error", FAKE_CUDA, CUDA_SUCCESS);
	get_kernel(o, ctx, "launch_error_kernel", c->launch_error_kernel);
	if (c->launch_error_kernel[0] && c->launch_error == CUDA_SUCCESS)
		fake_warn("%s: %s.launch_error_kernel: no launch_error to restrict; ignored", json_path, ctx);
	get_kernel(o, ctx, "wrong_result", c->wrong_result);
	c->flaky_after = get_int(o, ctx, "flaky_after", 0, INT_MAX);
	ms = get_real(o, ctx, "fake_ms");
	if (ms >= 0)
		c->fake_ms = ms;
}

/* The bits of a list of nvml.h's nvmlClocksEventReason* names, lower-cased; unknown names reported and skipped. */
static long long reason_bits(json_t *list, const char *ctx)
{
	static const char *const bits[] = {
		"gpu_idle", "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
		"sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown", "display_clock_setting",
	};
	long long mask = 0;
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		size_t b;

		for (b = 0; b < sizeof(bits) / sizeof(bits[0]); b++)
			if (json_is_string(e) && strcmp(json_string_value(e), bits[b]) == 0)
				break;
		if (b == sizeof(bits) / sizeof(bits[0]))
			BAD(ctx, "clocks_event_reasons", "unknown reason (want e.g. sw_thermal_slowdown)");
		else
			mask |= 1LL << b;
	}
	return mask;
}

/*
 * "clocks_event_reasons": ["sw_thermal_slowdown", ...] (constant), or a list
 * of such lists, one a sample (the last one holds).
 */
static void load_clock_events(json_t *o, const char *ctx, struct fake_device *d)
{
	json_t *v = json_object_get(o, "clocks_event_reasons"), *e;
	struct fake_series *s = &d->clocks_event_reasons;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	s->integral = 1;
	if (!v)
		return;
	if (!json_is_array(v)) {
		BAD(ctx, "clocks_event_reasons", "want a list of reason names, or a list of such lists");
		return;
	}
	n = json_array_size(v);
	if (n == 0 || !json_is_array(json_array_get(v, 0))) {
		s->kind = FAKE_SERIES_CONST;
		s->a = (double)reason_bits(v, ctx);
		return;
	}
	if (n > FAKE_SERIES_MAX || machine.npool + (int)n > FAKE_POOL) {
		BAD(ctx, "clocks_event_reasons", "too many lists (at most 256, and 16384 array values a file)");
		return;
	}
	json_array_foreach(v, i, e) {
		if (!json_is_array(e)) {
			BAD(ctx, "clocks_event_reasons", "a list of lists must hold only lists");
			return;
		}
		machine.pool[machine.npool + (int)i] = (double)reason_bits(e, ctx);
	}
	s->kind = FAKE_SERIES_ARRAY;
	s->off = machine.npool;
	s->n = (int)n;
	machine.npool += (int)n;
}

/*
 * "clocks": {"sm", "mem", "sm_max", "mem_max"} and
 * "pcie": {"gen", "width", "gen_max", "width_max", "tx_kbps", "rx_kbps"}.
 */
static void load_clocks_pcie(json_t *o, const char *ctx, struct fake_device *d)
{
	static const char *const cknown[] = { "sm", "mem", "sm_max", "mem_max", NULL };
	static const char *const pknown[] = { "gen", "width", "gen_max", "width_max", "tx_kbps", "rx_kbps", NULL };
	json_t *v = json_object_get(o, "clocks");
	char sub[64];

	if (v && !json_is_object(v)) {
		BAD(ctx, "clocks", "want {\"sm\": MHz, \"mem\": MHz, \"sm_max\": MHz, \"mem_max\": MHz}");
	} else if (v) {
		snprintf(sub, sizeof(sub), "%s.clocks", ctx);
		check_keys(v, sub, cknown);
		get_series(v, sub, "sm", 1, 0, 100000, &d->clock_sm);
		get_series(v, sub, "mem", 1, 0, 100000, &d->clock_mem);
		d->clock_sm_max = get_int(v, sub, "sm_max", 0, 100000);
		d->clock_mem_max = get_int(v, sub, "mem_max", 0, 100000);
	}
	v = json_object_get(o, "pcie");
	if (v && !json_is_object(v)) {
		BAD(ctx, "pcie", "want {\"gen\": N, \"width\": N, \"gen_max\": N, \"width_max\": N, ...}");
	} else if (v) {
		snprintf(sub, sizeof(sub), "%s.pcie", ctx);
		check_keys(v, sub, pknown);
		get_series(v, sub, "gen", 1, 1, 32, &d->pcie_gen);
		get_series(v, sub, "width", 1, 1, 64, &d->pcie_width);
		d->pcie_gen_max = get_int(v, sub, "gen_max", 1, 32);
		d->pcie_width_max = get_int(v, sub, "width_max", 1, 64);
		get_series(v, sub, "tx_kbps", 1, 0, UINT_MAX, &d->pcie_tx_kbps);
		get_series(v, sub, "rx_kbps", 1, 0, UINT_MAX, &d->pcie_rx_kbps);
	}
}

/* "xid": [{"at": K, "xid": N}, ...], kept sorted by at (ties in file order). */
static void load_xid(json_t *o, const char *ctx, struct fake_device *d)
{
	static const char *const known[] = { "at", "xid", NULL };
	json_t *v = json_object_get(o, "xid"), *e;
	size_t i;

	if (!v)
		return;
	if (!json_is_array(v)) {
		BAD(ctx, "xid", "want a list of {\"at\": SAMPLE, \"xid\": N}");
		return;
	}
	json_array_foreach(v, i, e) {
		char ectx[64];
		long long at, xid;
		int j;

		snprintf(ectx, sizeof(ectx), "%s.xid[%zu]", ctx, i);
		if (d->nxid >= FAKE_MAX_XID) {
			fake_warn("%s: %s: more than %d events; the rest ignored", json_path, ectx, FAKE_MAX_XID);
			break;
		}
		if (!json_is_object(e)) {
			fake_warn("%s: %s: not an object; ignored", json_path, ectx);
			continue;
		}
		check_keys(e, ectx, known);
		at = get_int(e, ectx, "at", 0, INT_MAX);
		xid = get_int(e, ectx, "xid", 0, UINT_MAX);
		if (at < 0 || xid < 0) {
			fake_warn("%s: %s: want \"at\" and \"xid\"; ignored", json_path, ectx);
			continue;
		}
		for (j = d->nxid; j > 0 && d->xid[j - 1].at > at; j--)
			d->xid[j] = d->xid[j - 1];
		d->xid[j].at = at;
		d->xid[j].xid = (unsigned long long)xid;
		d->nxid++;
	}
}

static void load_device(json_t *o, int idx, struct fake_device *d)
{
	static const char *const known[] = {
		"name", "uuid", "pci_bus_id", "pci_device_id", "cc", "memory_mib", "memory_used_mib",
		"sm_count", "clock_mhz", "mem_clock_mhz", "bus_width", "temperature_c", "power_w",
		"power_limit_w", "utilization", "persistence_mode", "compute_mode", "mig", "mig_pending",
		"mig_instances", "ecc_uncorrected", "retired_pages_pending", "row_remap_failure",
		"row_remap_pending", "processes", "compute", "fan_percent", "pstate", "temperature_slowdown_c",
		"clocks_event_reasons", "retired_pages", "mem_utilization", "ecc_corrected", "clocks", "pcie",
		"lost_at", "xid", NULL,
	};
	char ctx[32], buf[FAKE_STR];
	json_t *v;

	snprintf(ctx, sizeof(ctx), "devices[%d]", idx);
	memset(d, 0, sizeof(*d));
	if (!json_is_object(o)) {
		fake_warn("%s: %s: not an object; a device with no fields", json_path, ctx);
		o = NULL;
	}
	/* memset left every series FAKE_SERIES_MISSING */
	d->pci_device_id = d->memory_mib = -1;
	d->sm_count = d->clock_mhz = d->mem_clock_mhz = d->bus_width = -1;
	d->cc_major = d->cc_minor = -1;
	d->power_limit_w = -1;
	d->persistence_mode = d->compute_mode = d->mig = d->mig_pending = -1;
	d->retired_pages_pending = d->row_remap_failure = d->row_remap_pending = -1;
	d->temperature_slowdown_c = -1;
	d->retired_sbe = d->retired_dbe = -1;
	d->clock_sm_max = d->clock_mem_max = d->pcie_gen_max = d->pcie_width_max = -1;
	d->lost_at = -1;
	load_compute(NULL, ctx, &d->compute);
	if (!o)
		return;
	check_keys(o, ctx, known);

	get_str(o, ctx, "name", d->name, sizeof(d->name));
	get_str(o, ctx, "uuid", d->uuid, sizeof(d->uuid));
	if (get_str(o, ctx, "pci_bus_id", buf, sizeof(buf)) == 0 && parse_bus_id(buf, d) < 0)
		BAD(ctx, "pci_bus_id", "want \"0000:01:00.0\" (domain optional, hex)");
	v = json_object_get(o, "pci_device_id");
	if (v && json_is_string(v)) {
		const char *s = json_string_value(v), *p;
		long long id;

		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		p = s;
		id = hex_field(&p, 4);
		if (id < 0 || *p)
			BAD(ctx, "pci_device_id", "want 4 hex digits, e.g. \"2204\"");
		else
			d->pci_device_id = id;
	} else if (v) {
		d->pci_device_id = get_int(o, ctx, "pci_device_id", 0, 0xffff);
	}
	v = json_object_get(o, "cc");
	if (v && json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		long maj, min;

		errno = 0;
		maj = isdigit((unsigned char)s[0]) ? strtol(s, &end, 10) : -1;
		if (maj >= 0 && *end == '.' && isdigit((unsigned char)end[1])) {
			min = strtol(end + 1, &end, 10);
			if (!*end && !errno && maj < 100 && min < 100) {
				d->cc_major = (int)maj;
				d->cc_minor = (int)min;
			}
		}
		if (d->cc_major < 0)
			BAD(ctx, "cc", "want \"MAJOR.MINOR\", e.g. \"8.6\"");
	} else if (v && json_is_number(v) && json_number_value(v) >= 0 && json_number_value(v) < 100) {
		double x = json_number_value(v);

		d->cc_major = (int)x;
		d->cc_minor = (int)((x - d->cc_major) * 10 + 0.5);
	} else if (v) {
		BAD(ctx, "cc", "want \"MAJOR.MINOR\", e.g. \"8.6\"");
	}
	d->memory_mib = get_int(o, ctx, "memory_mib", 0, 1LL << 30);
	get_series(o, ctx, "memory_used_mib", 1, 0, 1 << 30, &d->memory_used_mib);
	d->sm_count = get_int(o, ctx, "sm_count", 0, INT_MAX);
	d->clock_mhz = get_int(o, ctx, "clock_mhz", 0, INT_MAX / 1000);
	d->mem_clock_mhz = get_int(o, ctx, "mem_clock_mhz", 0, INT_MAX / 1000);
	d->bus_width = get_int(o, ctx, "bus_width", 0, INT_MAX);
	get_series(o, ctx, "temperature_c", 1, 0, 1000, &d->temperature_c);
	get_series(o, ctx, "utilization", 1, 0, 100, &d->utilization);
	get_series(o, ctx, "mem_utilization", 1, 0, 100, &d->mem_utilization);
	get_series(o, ctx, "power_w", 0, 0, 4e6, &d->power_w);
	d->power_limit_w = get_real(o, ctx, "power_limit_w");
	d->persistence_mode = get_bool(o, ctx, "persistence_mode");
	if (get_str(o, ctx, "compute_mode", buf, sizeof(buf)) == 0) {
		if (strcmp(buf, "default") == 0)
			d->compute_mode = NVML_COMPUTEMODE_DEFAULT;
		else if (strcmp(buf, "exclusive_thread") == 0)
			d->compute_mode = NVML_COMPUTEMODE_EXCLUSIVE_THREAD;
		else if (strcmp(buf, "prohibited") == 0)
			d->compute_mode = NVML_COMPUTEMODE_PROHIBITED;
		else if (strcmp(buf, "exclusive_process") == 0)
			d->compute_mode = NVML_COMPUTEMODE_EXCLUSIVE_PROCESS;
		else
			BAD(ctx, "compute_mode", "want default, exclusive_process, prohibited or exclusive_thread");
	}
	d->mig = get_bool(o, ctx, "mig");
	d->mig_pending = get_bool(o, ctx, "mig_pending");
	if (d->mig_pending < 0)
		d->mig_pending = d->mig;
	else if (d->mig < 0)
		d->mig = 0;	/* a pending change implies a MIG-capable GPU */
	d->mig_instances = 0;
	if (json_object_get(o, "mig_instances")) {
		long long n = get_int(o, ctx, "mig_instances", 0, FAKE_MAX_MIG);

		d->mig_instances = n < 0 ? 0 : (int)n;
	}
	get_series(o, ctx, "ecc_uncorrected", 1, 0, 1e15, &d->ecc_uncorrected);
	get_series(o, ctx, "ecc_corrected", 1, 0, 1e15, &d->ecc_corrected);
	d->retired_pages_pending = get_bool(o, ctx, "retired_pages_pending");
	d->row_remap_failure = get_bool(o, ctx, "row_remap_failure");
	d->row_remap_pending = get_bool(o, ctx, "row_remap_pending");
	get_series(o, ctx, "fan_percent", 1, 0, 100, &d->fan_percent);
	get_series(o, ctx, "pstate", 1, 0, 15, &d->pstate);
	d->temperature_slowdown_c = get_int(o, ctx, "temperature_slowdown_c", 0, 1000);
	load_clock_events(o, ctx, d);
	load_clocks_pcie(o, ctx, d);
	d->lost_at = get_int(o, ctx, "lost_at", 0, INT_MAX);
	load_xid(o, ctx, d);
	v = json_object_get(o, "retired_pages");
	if (v && json_is_object(v)) {
		d->retired_sbe = get_int(v, ctx, "single_bit", 0, INT_MAX);
		d->retired_dbe = get_int(v, ctx, "double_bit", 0, INT_MAX);
	} else if (v) {
		BAD(ctx, "retired_pages", "want {\"single_bit\": N, \"double_bit\": N}");
	}

	v = json_object_get(o, "processes");
	if (v && !json_is_array(v)) {
		BAD(ctx, "processes", "not a list");
	} else if (v) {
		static const char *const pknown[] = { "pid", "name", "used_mib", "from", "until", NULL };
		json_t *p;
		size_t i;

		d->has_processes = 1;
		json_array_foreach(v, i, p) {
			struct fake_proc *fp = &d->procs[d->nprocs];
			char pctx[96];
			long long pid;

			snprintf(pctx, sizeof(pctx), "%s.processes[%zu]", ctx, i);
			if (d->nprocs >= FAKE_MAX_PROCS) {
				fake_warn("%s: %s: more than %d processes; the rest ignored", json_path, pctx,
					  FAKE_MAX_PROCS);
				break;
			}
			if (!json_is_object(p)) {
				fake_warn("%s: %s: not an object; ignored", json_path, pctx);
				continue;
			}
			check_keys(p, pctx, pknown);
			pid = get_int(p, pctx, "pid", 0, UINT_MAX);
			fp->pid = pid < 0 ? 0 : (unsigned)pid;
			fp->name[0] = '\0';
			get_str(p, pctx, "name", fp->name, sizeof(fp->name));
			get_series(p, pctx, "used_mib", 1, 0, 1 << 30, &fp->used_mib);
			fp->from = get_int(p, pctx, "from", 0, INT_MAX);
			fp->until = get_int(p, pctx, "until", 0, INT_MAX);
			d->nprocs++;
		}
	}
	load_compute(json_object_get(o, "compute"), ctx, &d->compute);
}

/* cuDriverGetVersion of a driver branch: the newest CUDA it supports. */
static int cuda_for_driver(const char *version)
{
	static const struct { int branch, cuda; } table[] = {
		{ 384, 9000 }, { 390, 9010 }, { 396, 9020 }, { 410, 10000 }, { 418, 10010 },
		{ 440, 10020 }, { 450, 11000 }, { 455, 11010 }, { 460, 11020 }, { 465, 11030 },
		{ 470, 11040 }, { 495, 11050 }, { 510, 11060 }, { 515, 11070 }, { 520, 11080 },
		{ 525, 12000 }, { 530, 12010 }, { 535, 12020 }, { 545, 12030 }, { 550, 12040 },
		{ 555, 12050 }, { 560, 12060 }, { 565, 12070 }, { 570, 12080 }, { 575, 12090 },
		{ 580, 13000 }, { 590, 13010 }, { 595, 13020 },
	};
	long major = isdigit((unsigned char)version[0]) ? strtol(version, NULL, 10) : 0;
	int cuda = 8000;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (major >= table[i].branch)
			cuda = table[i].cuda;
	return cuda;
}

static void load(void)
{
	static const char *const known[] = {
		"driver_version", "cuda_version", "nvml_init", "cu_init", "install", "hang", "crash", "slow",
		"hang_at", "crash_at", "devices", NULL,
	};
	struct fake_gpu *g = &machine;
	json_error_t err;
	json_t *root, *devs, *v;
	long long cv;

	memset(g, 0, sizeof(*g));
	strcpy(g->driver_version, DEFAULT_DRIVER);
	g->cuda_version = cuda_for_driver(DEFAULT_DRIVER);
	g->nvml_init = NVML_ERROR_DRIVER_NOT_LOADED;
	g->cu_init = CUDA_ERROR_NO_DEVICE;

	json_path = getenv("GPUDOCTOR_FAKE_GPU");
	if (!json_path || !json_path[0])
		return;	/* no GPU, silently: the libraries are there, the driver is not */
	root = json_load_file(json_path, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		fake_warn("%s: %s (line %d); behaving as a machine without a GPU", json_path, err.text, err.line);
		return;
	}
	if (!json_is_object(root)) {
		fake_warn("%s: not a JSON object; behaving as a machine without a GPU", json_path);
		json_decref(root);
		return;
	}
	g->loaded = 1;
	check_keys(root, "", known);
	if (get_str(root, "", "driver_version", g->driver_version, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE) < 0)
		strcpy(g->driver_version, DEFAULT_DRIVER);
	g->cuda_version = cuda_for_driver(g->driver_version);
	cv = get_int(root, "", "cuda_version", 0, INT_MAX);
	if (cv >= 0)
		g->cuda_version = (int)cv;
	g->nvml_init = get_code(root, "", "nvml_init", FAKE_NVML, NVML_SUCCESS);
	g->cu_init = get_code(root, "", "cu_init", FAKE_CUDA, CUDA_SUCCESS);
	v = json_object_get(root, "install");
	if (v && !json_is_array(v))
		BAD("", "install", "not a list (only tests/run-scenarios reads it)");
	g->nhang = get_faults(root, "hang", g->hang);
	g->ncrash = get_faults(root, "crash", g->crash);
	g->nslow = get_slow(root, g->slow, g->slow_ms);
	g->nhang_at = get_faults_at(root, "hang_at", g->hang_at, g->hang_at_k);
	g->ncrash_at = get_faults_at(root, "crash_at", g->crash_at, g->crash_at_k);

	devs = json_object_get(root, "devices");
	if (devs && !json_is_array(devs)) {
		BAD("", "devices", "not a list");
	} else if (devs) {
		size_t i;

		json_array_foreach(devs, i, v) {
			if (g->ndev >= FAKE_MAX_DEVICES) {
				fake_warn("%s: more than %d devices; the rest ignored", json_path, FAKE_MAX_DEVICES);
				break;
			}
			load_device(v, (int)i, &g->dev[g->ndev++]);
		}
	}
	json_decref(root);
}

const struct fake_gpu *fake_gpu(void)
{
	pthread_once(&machine_once, load);
	return &machine;
}

/* ---- hang / crash ------------------------------------------------------ */

static void crash_now(const char *fn)
{
	struct sigaction sa;
	sigset_t set;

	fake_warn("%s: crashing with SIGSEGV, as gpu.json says", fn);
	/*
	 * Die of the signal even where a handler is installed: AddressSanitizer's
	 * would turn the crash into "exit 1" in gpudoctor's sanitizer build.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGSEGV);
	abort();	/* not reached */
}

static void hang_now(const char *fn)
{
	fake_warn("%s: hanging, as gpu.json says", fn);
	for (;;)
		sleep(1);	/* any signal with a default action still ends us */
}

void fake_enter(const char *fn)
{
	const struct fake_gpu *g = fake_gpu();

	for (int i = 0; i < g->ncrash; i++)
		if (strcmp(g->crash[i], fn) == 0)
			crash_now(fn);
	for (int i = 0; i < g->nhang; i++)
		if (strcmp(g->hang[i], fn) == 0)
			hang_now(fn);
	for (int i = 0; i < g->nslow; i++)
		if (strcmp(g->slow[i], fn) == 0)
			nanosleep(&(struct timespec){ g->slow_ms[i] / 1000, (long)(g->slow_ms[i] % 1000) * 1000000 }, NULL);
}

void fake_enter_at(const char *fn, long long k)
{
	const struct fake_gpu *g = fake_gpu();

	for (int i = 0; i < g->ncrash_at; i++)
		if (k >= g->crash_at_k[i] && strcmp(g->crash_at[i], fn) == 0)
			crash_now(fn);
	for (int i = 0; i < g->nhang_at; i++)
		if (k >= g->hang_at_k[i] && strcmp(g->hang_at[i], fn) == 0)
			hang_now(fn);
}
