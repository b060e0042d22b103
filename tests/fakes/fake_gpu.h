/*
 * fake_gpu.h - the machine the fake NVIDIA libraries pretend to be.
 *
 * Test-only. fake_gpu.c reads the gpu.json named by $GPUDOCTOR_FAKE_GPU
 * (once, on the first call into either fake) into the plain structures
 * below; fake_nvml.c and fake_cuda.c answer from them. Nothing here holds
 * heap memory after loading. Format: docs/fake-gpu.md.
 */
#ifndef GD_TESTS_FAKE_GPU_H
#define GD_TESTS_FAKE_GPU_H

#include <stddef.h>

#define FAKE_MAX_DEVICES 32
#define FAKE_MAX_PROCS 64
#define FAKE_MAX_MIG 7		/* nvmlDeviceGetMaxMigDeviceCount on a MIG-capable GPU */
#define FAKE_MAX_FAULTS 16	/* functions named by "hang" / "crash" */
#define FAKE_STR 128
#define FAKE_NAME 64		/* a function or kernel name */
#define FAKE_LOG 1024		/* compute.jit_log */
#define FAKE_SERIES_MAX 256	/* values in one array series */
#define FAKE_POOL 16384		/* values in all array series of the file together */
#define FAKE_MAX_XID 64		/* "xid" events a device */

/* Everything the fakes define but do not export. */
#define FAKE_HIDDEN __attribute__((visibility("hidden")))
#define FAKE_EXPORT __attribute__((visibility("default")))

/*
 * Declare an exported function with the function type behind its typedef
 * in src/probe/driver/{nvml,cuda}_api.h (nvmlInit_v2 -> nvmlInit_v2_fn):
 * a definition that drifts from the header is a "conflicting types" error.
 */
#define FAKE_API(name) FAKE_EXPORT __typeof__(*(name##_fn)0) name

/*
 * A value that may change from sample to sample (docs/fake-gpu.md, "Time"):
 * a constant, an array (the last value holds), or a linear ramp. Read it with
 * fake_series_int() / fake_series_real().
 */
enum fake_series_kind { FAKE_SERIES_MISSING, FAKE_SERIES_CONST, FAKE_SERIES_ARRAY, FAKE_SERIES_RAMP };

struct fake_series {
	enum fake_series_kind kind;
	int integral;			/* round to whole numbers (every field but power_w) */
	int n;				/* ARRAY: values; RAMP: samples from a to b (>= 1) */
	int off;			/* ARRAY: index of the first value in fake_gpu.pool */
	double a, b;			/* CONST: a; RAMP: from a to b */
};

/* -1 in an int/long long field below means "missing from gpu.json". */
struct fake_proc {
	unsigned pid;
	char name[FAKE_STR];		/* informational; NVML does not report it */
	struct fake_series used_mib;	/* missing: NVML_VALUE_NOT_AVAILABLE */
	long long from, until;		/* present in samples from <= k < until; -1: unbounded */
};

/* One "xid" entry: Xid xid becomes pending when the device reaches sample at. */
struct fake_xid {
	long long at;
	unsigned long long xid;
};

/*
 * The device's "compute" object: how the compute API (cuModuleLoadDataEx,
 * cuMemAlloc_v2, cuLaunchKernel, ...) behaves on it. All defaults when missing.
 */
struct fake_compute {
	int jit_error;			/* CUDA_SUCCESS: the JIT compiles ("jit": "ok") */
	char jit_log[FAKE_LOG];		/* the error log of a failed JIT */
	long long alloc_limit_mib;	/* -1: only memory_mib limits cuMemAlloc_v2 */
	int launch_error;		/* CUDA_SUCCESS: launches succeed */
	char launch_error_kernel[FAKE_NAME];	/* "": launch_error hits every kernel */
	char wrong_result[FAKE_NAME];	/* "": no kernel computes wrongly */
	long long flaky_after;		/* -1: gd_sgemm never degrades */
	double fake_ms;			/* what a launch or a copy adds to the fake clock */
};

struct fake_device {
	char name[FAKE_STR];		/* "" when missing */
	char uuid[FAKE_STR];		/* "" when missing */
	int has_pci;
	unsigned pci_domain, pci_bus, pci_dev, pci_fn;
	long long pci_device_id;	/* e.g. 0x2204 */
	int cc_major, cc_minor;		/* both -1 when missing */
	long long memory_mib;
	struct fake_series memory_used_mib;
	long long sm_count, clock_mhz, mem_clock_mhz, bus_width;
	struct fake_series temperature_c, utilization, mem_utilization;
	struct fake_series power_w;
	double power_limit_w;		/* < 0 when missing */
	int persistence_mode;		/* -1, 0, 1 */
	int compute_mode;		/* -1 or an NVML_COMPUTEMODE_* value */
	int mig, mig_pending;		/* -1, 0, 1; mig_pending defaults to mig */
	int mig_instances;		/* 0..FAKE_MAX_MIG, counts only when mig is 1 */
	struct fake_series ecc_uncorrected, ecc_corrected;
	int retired_pages_pending;	/* -1, 0, 1 */
	int row_remap_failure, row_remap_pending;	/* -1, 0, 1 */
	struct fake_series fan_percent, pstate;
	long long temperature_slowdown_c;
	struct fake_series clocks_event_reasons;	/* the nvmlClocksEventReason* bits named in the list(s) */
	struct fake_series clock_sm, clock_mem;		/* "clocks": {"sm", "mem"} (MHz) */
	long long clock_sm_max, clock_mem_max;		/* "clocks": {"sm_max", "mem_max"} */
	struct fake_series pcie_gen, pcie_width, pcie_tx_kbps, pcie_rx_kbps;	/* "pcie" */
	long long pcie_gen_max, pcie_width_max;
	long long lost_at;		/* -1, or the first sample in which every call says GPU_IS_LOST */
	int nxid;
	struct fake_xid xid[FAKE_MAX_XID];	/* sorted by at (stable) */
	long long retired_sbe, retired_dbe;	/* "retired_pages": {"single_bit": N, "double_bit": N} */
	int has_processes;
	int nprocs;
	struct fake_proc procs[FAKE_MAX_PROCS];
	struct fake_compute compute;
};

struct fake_gpu {
	int loaded;			/* 0: no variable or unreadable file: no GPU */
	char driver_version[FAKE_STR];
	int cuda_version;
	int nvml_init;			/* nvmlReturn_t for nvmlInit_v2 */
	int cu_init;			/* CUresult for cuInit */
	int nhang, ncrash;
	char hang[FAKE_MAX_FAULTS][FAKE_NAME];
	char crash[FAKE_MAX_FAULTS][FAKE_NAME];
	int nslow;			/* "slow": functions that take this long each call */
	char slow[FAKE_MAX_FAULTS][FAKE_NAME];
	int slow_ms[FAKE_MAX_FAULTS];
	int nhang_at, ncrash_at;	/* "hang_at" / "crash_at": {FN: first sample} */
	char hang_at[FAKE_MAX_FAULTS][FAKE_NAME];
	char crash_at[FAKE_MAX_FAULTS][FAKE_NAME];
	long long hang_at_k[FAKE_MAX_FAULTS], crash_at_k[FAKE_MAX_FAULTS];
	int npool;			/* values used in pool */
	double pool[FAKE_POOL];		/* the values of every array series */
	int ndev;
	struct fake_device dev[FAKE_MAX_DEVICES];
};

enum fake_api { FAKE_NVML, FAKE_CUDA };

/* The machine (loaded on first use; never NULL). */
FAKE_HIDDEN const struct fake_gpu *fake_gpu(void);

/*
 * Call first thing in every exported function: loads gpu.json if needed,
 * then never returns if gpu.json says "hang": FN, dies of SIGSEGV if it
 * says "crash": FN, and sleeps first if it says "slow": {FN: MS}.
 */
FAKE_HIDDEN void fake_enter(const char *fn);

/*
 * Call after fake_enter() in a device query, with the device's sample number
 * k: never returns if "hang_at" names fn with a sample <= k, dies of SIGSEGV
 * if "crash_at" does.
 */
FAKE_HIDDEN void fake_enter_at(const char *fn, long long k);

/* Whether s was given at all. */
FAKE_HIDDEN int fake_series_has(const struct fake_series *s);

/* s at sample k (k < 0 counts as 0), rounded when integral; -1 when missing. */
FAKE_HIDDEN long long fake_series_int(const struct fake_series *s, long long k);
FAKE_HIDDEN double fake_series_real(const struct fake_series *s, long long k);

/* Is process p running in sample k? */
FAKE_HIDDEN int fake_proc_present(const struct fake_proc *p, long long k);

/* Name of a result code, NULL if the table has none. */
FAKE_HIDDEN const char *fake_code_name(enum fake_api api, int code);

/* nvmlErrorString's text for an nvmlReturn_t ("Unknown Error" if none). */
FAKE_HIDDEN const char *fake_nvml_text(int code);

/* Print "fake-gpu: ..." on stderr. */
FAKE_HIDDEN void fake_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy src into dst[len]: 0 when it fits, -1 (dst untouched) when it does not. */
FAKE_HIDDEN int fake_copy(char *dst, size_t len, const char *src);

/* fake_cuda.c, for fake_compute.c: has cuInit succeeded? */
FAKE_HIDDEN int fake_cuda_inited(void);

/* fake_cuda.c, for fake_compute.c: the device behind a CUDA ordinal, NULL if none. */
FAKE_HIDDEN const struct fake_device *fake_cuda_device(int ordinal);

#endif
