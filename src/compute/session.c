/*
 * session.c - the helper process's main line: load the driver, then for
 * each GPU take its primary context, JIT-compile the kernels, test, and
 * (for bench) measure. A GPU that fails at some step keeps the step, the
 * error and the JIT log; the next GPU is still tried.
 */
#define _GNU_SOURCE	/* RTLD_DEFAULT */
#include "compute/compute_internal.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "util/dlib.h"
#include "util/str.h"

static int attr(struct session *s, int which)
{
	int v = -1;

	if (s->cu.q.attribute) {
		compute_mark(s, "cuDeviceGetAttribute");
		if (s->cu.q.attribute(&v, which, s->dev) != CUDA_SUCCESS)
			v = -1;
	}
	return v;
}

static void describe_gpu(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	size_t bytes = 0;

	if (s->cu.q.name) {
		compute_mark(s, "cuDeviceGetName");
		s->cu.q.name(g->name, (int)sizeof(g->name), s->dev);
	}
	if (s->cu.q.bus_id) {
		compute_mark(s, "cuDeviceGetPCIBusId");
		s->cu.q.bus_id(g->bus_id, (int)sizeof(g->bus_id), s->dev);
	}
	if (s->cu.q.total_mem) {
		compute_mark(s, "cuDeviceTotalMem_v2");
		if (s->cu.q.total_mem(&bytes, s->dev) == CUDA_SUCCESS)
			g->mem_total = bytes;
	}
	g->cc_major = attr(s, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	g->cc_minor = attr(s, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	g->sm_count = attr(s, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	g->clock_khz = attr(s, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
	g->mem_clock_khz = attr(s, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
	g->bus_width = attr(s, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
}

/* JIT-compile the PTX; a driver too old for it answers with a log that says so. */
static bool load_kernels(struct session *s)
{
	struct compute_gpu *g = s->gpu;
	CUjit_option opts[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *values[2] = { g->jit_log, (void *)(size_t)sizeof(g->jit_log) };

	compute_progress(s, "GPU %d: compiling the kernels", g->ordinal);
	compute_mark(s, "cuModuleLoadDataEx");
	if (!compute_ok(s, N_("JIT-compiling the kernels (PTX)"), s->cu.module_load(&s->module, compute_kernels_ptx, 2, opts, values)))
		return false;
	g->jit_log[0] = '\0';	/* success: whatever is there is not an error */
	compute_mark(s, "cuModuleGetFunction");
	return compute_ok(s, N_("finding the kernels"), s->cu.get_function(&s->pattern, s->module, "gd_pattern")) &&
	       compute_ok(s, N_("finding the kernels"), s->cu.get_function(&s->sgemm, s->module, "gd_sgemm")) &&
	       compute_ok(s, N_("finding the kernels"), s->cu.get_function(&s->fma, s->module, "gd_fma"));
}

static void run_gpu(struct session *s)
{
	CUcontext ctx = NULL;

	describe_gpu(s);
	compute_mark(s, "cuDevicePrimaryCtxRetain");
	if (!compute_ok(s, N_("creating a context"), s->cu.ctx_retain(&ctx, s->dev)))
		return;
	compute_mark(s, "cuCtxSetCurrent");
	if (compute_ok(s, N_("creating a context"), s->cu.ctx_set(ctx)) && load_kernels(s) && compute_test_gpu(s) &&
	    s->run->bench)
		compute_bench_gpu(s);
	if (s->module && s->cu.module_unload) {
		compute_mark(s, "cuModuleUnload");
		s->cu.module_unload(s->module);
		s->module = NULL;
	}
	if (s->cu.ctx_release) {
		compute_mark(s, "cuDevicePrimaryCtxRelease_v2");
		s->cu.ctx_release(s->dev);
	}
}

static void helper_main(void *shared, void *arg)
{
	struct compute_run *run = shared;
	struct session s;
	struct error err;
	char path[512], missing[256];
	void *handle = NULL;
	const char *name = NULL;
	int count = 0;

	(void)arg;
	memset(&s, 0, sizeof(s));
	s.run = run;
	compute_mark(&s, "dlopen");
	if (dlib_open(run->libcuda, cuda_query_symbols, cuda_query_nsymbols, &s.cu.q, &handle, path, sizeof(path),
		      missing, sizeof(missing), &err) < 0 ||
	    dlib_open(run->libcuda, cuda_compute_symbols, cuda_compute_nsymbols, &s.cu, &handle, path,
		      sizeof(path), missing, sizeof(missing), &err) < 0) {
		str_copy(run->load_error, sizeof(run->load_error), err.msg);
		compute_mark(&s, "");
		return;
	}
	run->loaded = true;
	/* The marker the test suite's fake driver exports: its timings are made up. */
	run->fake = dlsym(handle, "gpudoctor_fake_driver") != NULL;
	if (!s.cu.event_elapsed)
		s.cu.event_elapsed = (cuEventElapsedTime_fn)dlsym(handle, "cuEventElapsedTime");
	if (!s.cu.event_elapsed) {
		str_copy(run->load_error, sizeof(run->load_error), "the driver has no cuEventElapsedTime");
		compute_mark(&s, "");
		return;
	}
	compute_mark(&s, "cuInit");
	run->init = s.cu.q.init(0);
	if (s.cu.q.error_name && s.cu.q.error_name(run->init, &name) == CUDA_SUCCESS && name)
		str_copy(run->init_name, sizeof(run->init_name), name);
	if (run->init != CUDA_SUCCESS) {
		compute_mark(&s, "");
		return;
	}
	compute_mark(&s, "cuDeviceGetCount");
	if (s.cu.q.count(&count) != CUDA_SUCCESS)
		count = 0;
	run->count = count;
	if (run->bench)
		compute_load_cublas(&s);
	for (int i = 0; i < count && run->ngpus < COMPUTE_MAX_GPUS; i++) {
		if (run->only_gpu >= 0 && i != run->only_gpu)
			continue;
		s.gpu = &run->gpus[run->ngpus++];
		s.gpu->ordinal = i;
		s.gpu->first_bad = -1;
		compute_mark(&s, "cuDeviceGet");
		if (compute_ok(&s, N_("opening the device"), s.cu.q.get(&s.dev, i)))
			run_gpu(&s);
	}
	compute_mark(&s, "");
}

struct ticker {
	void (*tick)(const char *progress);
};

static void on_tick(const void *shared, void *arg)
{
	const struct compute_run *run = shared;
	const struct ticker *t = arg;
	char copy[sizeof(run->progress)];

	/* the helper may be writing it: copy what is there, bounded */
	memcpy(copy, (const char *)run->progress, sizeof(copy));
	copy[sizeof(copy) - 1] = '\0';
	t->tick(copy);
}

/*
 * See compute.h. Blocks until the helper is done or killed (up to run->total_s). run is copied into the
 * helper and back, so it holds the results afterwards; tick runs in this process. Returns 0 whenever the
 * helper started: read *how.
 */
int compute_run(struct compute_run *run, void (*tick)(const char *progress), struct isolate_outcome *how,
		struct error *err)
{
	struct ticker t = { tick };
	struct isolate_limits limits = { run->call_s, run->total_s };

	return isolate_run(run, sizeof(*run), helper_main, &t, &limits, tick ? on_tick : NULL, 200, how, err);
}
