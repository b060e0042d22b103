/*
 * fake_compute.c - the compute half of the test-only libcuda.so.1
 * (docs/fake-gpu.md, "Computing"): primary contexts, memory, PTX modules,
 * kernel launches and events, just enough for `gpudoctor test` and
 * `gpudoctor bench` to run, and to fail in every way they must handle, on
 * a machine without a GPU.
 *
 * Device memory is host memory. A launch runs the kernel on the CPU at
 * once, by name (the kernels of src/compute/kernels.ptx). Time is a fake
 * clock that each launch and copy moves forward by a fixed step. Faults
 * come from the device's "compute" object in gpu.json.
 *
 * Contexts, modules and events live in static arrays; allocations are
 * tracked in a list, freed with their context (as the driver frees a
 * context's memory) and, at the latest, when the library is unloaded.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_gpu.h"
#include "nvidia/cuda.h"

/* Codes and flags nvidia/cuda.h does not name (values from cuda.h). */
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_INVALID_HANDLE 400
#define CUDA_ERROR_NOT_SUPPORTED 801
#define CU_EVENT_DISABLE_TIMING 0x2
#define CU_EVENT_FLAGS 0x7		/* BLOCKING_SYNC | DISABLE_TIMING | INTERPROCESS */
#define CU_STREAM_PER_THREAD 0x2	/* the highest of the special stream handles */

#define MIB (1024ULL * 1024ULL)
#define DEFAULT_MEMORY_MIB 24576	/* memory_mib when gpu.json has none */
#define MAX_MODULES 16
#define MAX_FUNCTIONS 16		/* .entry points a module */
#define MAX_EVENTS 256
#define ALIGN 256			/* cuMemAlloc_v2's alignment; also the header's size */

FAKE_API(cuDevicePrimaryCtxRetain);
FAKE_API(cuDevicePrimaryCtxRelease_v2);
FAKE_API(cuCtxSetCurrent);
FAKE_API(cuCtxSynchronize);
FAKE_API(cuMemGetInfo_v2);
FAKE_API(cuMemAlloc_v2);
FAKE_API(cuMemFree_v2);
FAKE_API(cuMemAllocHost_v2);
FAKE_API(cuMemFreeHost);
FAKE_API(cuMemcpyHtoD_v2);
FAKE_API(cuMemcpyDtoH_v2);
FAKE_API(cuMemcpyDtoD_v2);
FAKE_API(cuMemsetD32_v2);
FAKE_API(cuModuleLoadDataEx);
FAKE_API(cuModuleUnload);
FAKE_API(cuModuleGetFunction);
FAKE_API(cuLaunchKernel);
FAKE_API(cuEventCreate);
FAKE_API(cuEventRecord);
FAKE_API(cuEventSynchronize);
FAKE_API(cuEventElapsedTime);
FAKE_EXPORT __typeof__(*(cuEventElapsedTime_fn)0) cuEventElapsedTime_v2;	/* the same type, CUDA >= 12.8 */
FAKE_API(cuEventDestroy_v2);

/* The header in front of every allocation (device or host memory). */
struct alloc {
	struct alloc *prev, *next;
	struct CUctx_st *ctx;		/* freed with it */
	size_t bytes;
	int host;			/* cuMemAllocHost_v2 */
};

_Static_assert(sizeof(struct alloc) <= ALIGN, "allocation header too big");

/* A device's primary context; the handle is its address. */
struct CUctx_st {
	int ord;			/* CUDA ordinal */
	int refs;			/* retains not yet released; 0: inactive */
	CUresult sticky;		/* a launch's error: every later call returns it */
	size_t allocated;		/* device memory allocated in it */
	/* the device's, kept when the context is destroyed: */
	double clock_ms;		/* the fake clock events read */
	unsigned long long sgemm_launches;	/* for compute.flaky_after */
};

struct CUfunc_st {
	struct CUmod_st *mod;
	char name[FAKE_NAME];
};

struct CUmod_st {
	int live;
	struct CUctx_st *ctx;
	int nfn;
	struct CUfunc_st fn[MAX_FUNCTIONS];
};

struct CUevent_st {
	int live;
	struct CUctx_st *ctx;
	unsigned flags;
	int recorded;
	double ms;			/* the clock when recorded */
};

static pthread_mutex_t state = PTHREAD_MUTEX_INITIALIZER;	/* guards all below but current */
static struct CUctx_st ctxs[FAKE_MAX_DEVICES];	/* by CUDA ordinal */
static struct CUmod_st mods[MAX_MODULES];
static struct CUevent_st events[MAX_EVENTS];
static struct alloc *allocs;			/* every live allocation */
/*
 * cuCtxSetCurrent's context, per thread as in the driver. Initial-exec: in
 * the static TLS that glibc keeps for dlopen()ed libraries, so that no
 * thread allocates a TLS block for it (which would outlive dlclose).
 */
static _Thread_local struct CUctx_st *current __attribute__((tls_model("initial-exec")));

/* ---- helpers --------------------------------------------------------------- */

/*
 * Prologue of a call that needs a current context: gpu.json's hang/crash,
 * cuInit, the context. On CUDA_SUCCESS the state lock is held (end with
 * leave()) and *c is the context.
 */
static CUresult enter(const char *fn, struct CUctx_st **c)
{
	fake_enter(fn);
	if (!fake_cuda_inited())
		return CUDA_ERROR_NOT_INITIALIZED;
	pthread_mutex_lock(&state);
	if (!current || current->refs == 0) {
		pthread_mutex_unlock(&state);
		return CUDA_ERROR_INVALID_CONTEXT;
	}
	*c = current;
	return CUDA_SUCCESS;
}

static CUresult leave(CUresult r)
{
	pthread_mutex_unlock(&state);
	return r;
}

static const struct fake_compute *keys(const struct CUctx_st *c)
{
	return &fake_cuda_device(c->ord)->compute;
}

/* The fake clock moves on by compute.fake_ms (a launch, a copy). */
static void tick(struct CUctx_st *c)
{
	c->clock_ms += keys(c)->fake_ms;
}

static void *payload(struct alloc *a)
{
	return (char *)a + ALIGN;
}

static void *new_alloc(struct CUctx_st *c, size_t bytes, int host)
{
	struct alloc *a;

	if (bytes > SIZE_MAX - 2 * ALIGN)
		return NULL;
	a = aligned_alloc(ALIGN, ALIGN + (bytes + ALIGN - 1) / ALIGN * ALIGN);
	if (!a)
		return NULL;
	a->ctx = c;
	a->bytes = bytes;
	a->host = host;
	a->prev = NULL;
	a->next = allocs;
	if (allocs)
		allocs->prev = a;
	allocs = a;
	if (!host)
		c->allocated += bytes;
	return payload(a);
}

static void drop_alloc(struct alloc *a)
{
	if (a->prev)
		a->prev->next = a->next;
	else
		allocs = a->next;
	if (a->next)
		a->next->prev = a->prev;
	if (!a->host)
		a->ctx->allocated -= a->bytes;
	free(a);
}

/* The allocation that starts at p, NULL if none. */
static struct alloc *alloc_at(uintptr_t p, int host)
{
	for (struct alloc *a = allocs; a; a = a->next)
		if ((uintptr_t)payload(a) == p && a->host == host)
			return a;
	return NULL;
}

/* Does [p, p + bytes) lie inside one allocation (device or host memory)? */
static int inside(uintptr_t p, size_t bytes)
{
	for (struct alloc *a = allocs; a; a = a->next) {
		uintptr_t base = (uintptr_t)payload(a);

		if (p >= base && bytes <= a->bytes && p - base <= a->bytes - bytes)
			return 1;
	}
	return 0;
}

/* What the driver does when a primary context's last retain is released. */
static void destroy(struct CUctx_st *c)
{
	struct alloc *a, *next;

	for (a = allocs; a; a = next) {
		next = a->next;
		if (a->ctx == c)
			drop_alloc(a);
	}
	for (int i = 0; i < MAX_MODULES; i++)
		if (mods[i].ctx == c)
			mods[i].live = 0;
	for (int i = 0; i < MAX_EVENTS; i++)
		if (events[i].ctx == c)
			events[i].live = 0;
	c->sticky = CUDA_SUCCESS;
	c->allocated = 0;
}

/* Nothing of ours stays allocated once the library is unloaded (or the process ends). */
__attribute__((destructor)) static void unload(void)
{
	pthread_mutex_lock(&state);
	while (allocs)
		drop_alloc(allocs);
	pthread_mutex_unlock(&state);
}

static struct CUmod_st *module_of(CUmodule m)
{
	for (int i = 0; i < MAX_MODULES; i++)
		if (m == &mods[i] && mods[i].live)
			return &mods[i];
	return NULL;
}

static struct CUfunc_st *function_of(CUfunction f)
{
	for (int i = 0; i < MAX_MODULES; i++)
		for (int j = 0; mods[i].live && j < mods[i].nfn; j++)
			if (f == &mods[i].fn[j])
				return &mods[i].fn[j];
	return NULL;
}

static struct CUevent_st *event_of(CUevent e)
{
	for (int i = 0; i < MAX_EVENTS; i++)
		if (e == &events[i] && events[i].live)
			return &events[i];
	return NULL;
}

/* The default stream and the special handles (CU_STREAM_LEGACY, CU_STREAM_PER_THREAD): no streams are created. */
static int stream_ok(CUstream s)
{
	return (uintptr_t)s <= CU_STREAM_PER_THREAD;
}

/* ---- contexts -------------------------------------------------------------- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct CUctx_st *c;

	fake_enter("cuDevicePrimaryCtxRetain");
	if (!fake_cuda_inited())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (!fake_cuda_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&state);
	c = &ctxs[dev];
	c->ord = dev;
	c->refs++;
	*pctx = c;
	pthread_mutex_unlock(&state);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CUresult r = CUDA_SUCCESS;

	fake_enter("cuDevicePrimaryCtxRelease_v2");
	if (!fake_cuda_inited())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!fake_cuda_device(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&state);
	if (ctxs[dev].refs == 0)
		r = CUDA_ERROR_INVALID_CONTEXT;
	else if (--ctxs[dev].refs == 0)
		destroy(&ctxs[dev]);
	pthread_mutex_unlock(&state);
	return r;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r = CUDA_ERROR_INVALID_CONTEXT;

	fake_enter("cuCtxSetCurrent");
	if (!fake_cuda_inited())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!ctx) {
		current = NULL;
		return CUDA_SUCCESS;
	}
	pthread_mutex_lock(&state);
	for (int i = 0; i < FAKE_MAX_DEVICES; i++) {
		if (ctx == &ctxs[i] && ctxs[i].refs > 0) {
			current = ctx;
			r = CUDA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&state);
	return r;
}

CUresult cuCtxSynchronize(void)
{
	struct CUctx_st *c;
	CUresult r = enter("cuCtxSynchronize", &c);

	return r ? r : leave(c->sticky);
}

/* ---- memory ---------------------------------------------------------------- */

static unsigned long long total_bytes(const struct fake_device *d)
{
	return (unsigned long long)(d->memory_mib >= 0 ? d->memory_mib : DEFAULT_MEMORY_MIB) * MIB;
}

/*
 * Memory other processes use: memory_used_mib, else the processes' sum (as NVML reports it).
 * The compute API has no samples: what NVML reports in sample 0.
 */
static unsigned long long used_bytes(const struct fake_device *d)
{
	unsigned long long mib = 0;

	if (fake_series_has(&d->memory_used_mib))
		return (unsigned long long)fake_series_int(&d->memory_used_mib, 0) * MIB;
	for (int i = 0; i < d->nprocs; i++) {
		long long used = fake_series_int(&d->procs[i].used_mib, 0);

		if (fake_proc_present(&d->procs[i], 0) && used > 0)
			mib += (unsigned long long)used;
	}
	return mib * MIB;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	const struct fake_device *d;
	unsigned long long t, taken;
	struct CUctx_st *c;
	CUresult r = enter("cuMemGetInfo_v2", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!free_bytes || !total)
		return leave(CUDA_ERROR_INVALID_VALUE);
	d = fake_cuda_device(c->ord);
	t = total_bytes(d);
	taken = used_bytes(d) + c->allocated;
	*total = (size_t)t;
	*free_bytes = (size_t)(taken < t ? t - taken : 0);
	return leave(CUDA_SUCCESS);
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
	const struct fake_device *d;
	long long limit;
	void *p;
	struct CUctx_st *c;
	CUresult r = enter("cuMemAlloc_v2", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!dptr || bytes == 0)
		return leave(CUDA_ERROR_INVALID_VALUE);
	d = fake_cuda_device(c->ord);
	limit = d->compute.alloc_limit_mib;
	if (bytes > total_bytes(d) || used_bytes(d) + c->allocated > total_bytes(d) - bytes)
		return leave(CUDA_ERROR_OUT_OF_MEMORY);
	if (limit >= 0 && c->allocated + bytes > (unsigned long long)limit * MIB)
		return leave(CUDA_ERROR_OUT_OF_MEMORY);
	p = new_alloc(c, bytes, 0);
	if (!p)
		return leave(CUDA_ERROR_OUT_OF_MEMORY);
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return leave(CUDA_SUCCESS);
}

/* The cleanup calls free even after a sticky error (and then return it). */
CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	struct alloc *a;
	struct CUctx_st *c;
	CUresult r = enter("cuMemFree_v2", &c);

	if (r)
		return r;
	if (dptr) {
		a = alloc_at((uintptr_t)dptr, 0);
		if (!a)
			return leave(c->sticky ? c->sticky : CUDA_ERROR_INVALID_VALUE);
		drop_alloc(a);
	}
	return leave(c->sticky);
}

CUresult cuMemAllocHost_v2(void **host, size_t bytes)
{
	void *p;
	struct CUctx_st *c;
	CUresult r = enter("cuMemAllocHost_v2", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!host || bytes == 0)
		return leave(CUDA_ERROR_INVALID_VALUE);
	p = new_alloc(c, bytes, 1);
	if (!p)
		return leave(CUDA_ERROR_OUT_OF_MEMORY);
	*host = p;
	return leave(CUDA_SUCCESS);
}

CUresult cuMemFreeHost(void *host)
{
	struct alloc *a;
	struct CUctx_st *c;
	CUresult r = enter("cuMemFreeHost", &c);

	if (r)
		return r;
	a = alloc_at((uintptr_t)host, 1);
	if (!a)
		return leave(c->sticky ? c->sticky : CUDA_ERROR_INVALID_VALUE);
	drop_alloc(a);
	return leave(c->sticky);
}

/* A copy: dst and src device addresses or host pointers; dev_dst/dev_src say which must lie in an allocation. */
static CUresult copy(const char *fn, uintptr_t dst, int dev_dst, uintptr_t src, int dev_src, size_t bytes)
{
	struct CUctx_st *c;
	CUresult r = enter(fn, &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (bytes == 0)
		return leave(CUDA_SUCCESS);
	if (!dst || !src || (dev_dst && !inside(dst, bytes)) || (dev_src && !inside(src, bytes)))
		return leave(CUDA_ERROR_INVALID_VALUE);
	memmove((void *)dst, (const void *)src, bytes);
	tick(c);
	return leave(CUDA_SUCCESS);
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
	return copy("cuMemcpyHtoD_v2", (uintptr_t)dst, 1, (uintptr_t)src, 0, bytes);
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
	return copy("cuMemcpyDtoH_v2", (uintptr_t)dst, 0, (uintptr_t)src, 1, bytes);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
	return copy("cuMemcpyDtoD_v2", (uintptr_t)dst, 1, (uintptr_t)src, 1, bytes);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, size_t count)
{
	uint32_t *w = (uint32_t *)(uintptr_t)dst;
	struct CUctx_st *c;
	CUresult r = enter("cuMemsetD32_v2", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (count == 0)
		return leave(CUDA_SUCCESS);
	if (dst % 4 || count > SIZE_MAX / 4 || !inside((uintptr_t)dst, count * 4))
		return leave(CUDA_ERROR_INVALID_VALUE);
	for (size_t i = 0; i < count; i++)
		w[i] = value;
	return leave(CUDA_SUCCESS);
}

/* ---- modules --------------------------------------------------------------- */

static int ident_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
	       ch == '$';
}

static int space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* The names after ".entry" in PTX text (comments skipped) into m->fn. */
static void find_entries(const char *ptx, struct CUmod_st *m)
{
	const char *p = ptx;

	m->nfn = 0;
	while (*p) {
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			p = end ? end + 2 : p + strlen(p);
		} else if (strncmp(p, ".entry", 6) == 0 && (p == ptx || space((unsigned char)p[-1])) &&
			   space((unsigned char)p[6])) {
			size_t len;

			p += 6;
			while (space((unsigned char)*p))
				p++;
			for (len = 0; ident_char((unsigned char)p[len]); len++)
				;
			if (len == 0 || len >= FAKE_NAME || m->nfn >= MAX_FUNCTIONS) {
				fake_warn("cuModuleLoadDataEx: .entry %.*s: name too long or over %d entries; ignored",
					  (int)(len > 80 ? 80 : len), p, MAX_FUNCTIONS);
			} else {
				memcpy(m->fn[m->nfn].name, p, len);
				m->fn[m->nfn].name[len] = '\0';
				m->fn[m->nfn].mod = m;
				m->nfn++;
			}
			p += len;
		} else {
			p++;
		}
	}
}

/*
 * The JIT's logs into the caller's buffers: CU_JIT_*_LOG_BUFFER gives the
 * buffer, CU_JIT_*_LOG_BUFFER_SIZE_BYTES its size (the value itself, cast
 * to void *); the size option's value becomes the length written (without
 * the terminating NUL), as the driver does.
 */
static void write_logs(unsigned n, const CUjit_option *opts, void **vals, const char *info, const char *error)
{
	static const struct {
		int buf, size;
	} logs[] = { { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES },
		     { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES } };

	for (int l = 0; l < 2; l++) {
		const char *text = l == 0 ? info : error;
		char *buf = NULL;
		int size_at = -1;

		for (unsigned i = 0; i < n; i++) {
			if (opts[i] == logs[l].buf)
				buf = vals[i];
			else if (opts[i] == logs[l].size)
				size_at = (int)i;
		}
		if (size_at < 0)
			continue;	/* no size: the driver writes nothing */
		size_t size = (size_t)(uintptr_t)vals[size_at], len = strlen(text);

		if (!buf || size == 0) {
			vals[size_at] = (void *)(uintptr_t)0;
			continue;
		}
		if (len > size - 1)
			len = size - 1;
		memcpy(buf, text, len);
		buf[len] = '\0';
		vals[size_at] = (void *)(uintptr_t)len;
	}
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int noptions, CUjit_option *options,
			    void **values)
{
	static struct CUmod_st parsed;	/* under the lock */
	const struct fake_compute *k;
	struct CUctx_st *c;
	CUresult r = enter("cuModuleLoadDataEx", &c);
	int slot = -1;

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!module || !image || (noptions && (!options || !values)))
		return leave(CUDA_ERROR_INVALID_VALUE);
	k = keys(c);
	if (k->jit_error) {
		write_logs(noptions, options, values, "", k->jit_log);
		return leave(k->jit_error);
	}
	find_entries(image, &parsed);
	if (parsed.nfn == 0) {
		write_logs(noptions, options, values, "",
			   "ptxas fatal   : no .entry in the PTX text (the fake libcuda loads PTX text only)");
		return leave(CUDA_ERROR_INVALID_PTX);
	}
	for (int i = 0; i < MAX_MODULES && slot < 0; i++)
		if (!mods[i].live)
			slot = i;
	if (slot < 0)
		return leave(CUDA_ERROR_OUT_OF_MEMORY);
	write_logs(noptions, options, values, "", "");
	mods[slot] = parsed;
	mods[slot].live = 1;
	mods[slot].ctx = c;
	for (int i = 0; i < mods[slot].nfn; i++)
		mods[slot].fn[i].mod = &mods[slot];
	*module = &mods[slot];
	return leave(CUDA_SUCCESS);
}

CUresult cuModuleUnload(CUmodule module)
{
	struct CUmod_st *m;
	struct CUctx_st *c;
	CUresult r = enter("cuModuleUnload", &c);

	if (r)
		return r;
	m = module_of(module);
	if (!m)
		return leave(c->sticky ? c->sticky : CUDA_ERROR_INVALID_HANDLE);
	m->live = 0;
	return leave(c->sticky);
}

CUresult cuModuleGetFunction(CUfunction *fn, CUmodule module, const char *name)
{
	struct CUmod_st *m;
	struct CUctx_st *c;
	CUresult r = enter("cuModuleGetFunction", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!fn || !name)
		return leave(CUDA_ERROR_INVALID_VALUE);
	m = module_of(module);
	if (!m)
		return leave(CUDA_ERROR_INVALID_HANDLE);
	for (int i = 0; i < m->nfn; i++) {
		if (strcmp(m->fn[i].name, name) == 0) {
			*fn = &m->fn[i];
			return leave(CUDA_SUCCESS);
		}
	}
	return leave(CUDA_ERROR_NOT_FOUND);
}

/* ---- kernels --------------------------------------------------------------- */

/* One launch: its geometry, arguments and output (for compute.wrong_result). */
struct launch {
	const char *name;
	unsigned long long threads_x, threads_y;	/* grid_x * block_x, grid_y * block_y */
	void **params;
	void *out;			/* the output: 32-bit words */
	unsigned long long nout;	/* how many there are (0: none written) */
	unsigned long long bad;		/* compute.wrong_result flips this one */
};

/* The i-th kernel argument (params[i] points at its value). */
static int arg(const struct launch *l, int i, void *value, size_t size)
{
	if (!l->params[i])
		return -1;
	memcpy(value, l->params[i], size);
	return 0;
}

/* Is a kernel's buffer [p, p + count 32-bit words) allocated? If not, the GPU would fault. */
static int buffer_ok(const struct launch *l, const char *what, CUdeviceptr p, unsigned long long count)
{
	if (count <= SIZE_MAX / 4 && p && inside((uintptr_t)p, (size_t)count * 4))
		return 1;
	fake_warn("cuLaunchKernel: %s: %s = 0x%llx, %llu words: not inside an allocation; "
		  "CUDA_ERROR_ILLEGAL_ADDRESS", l->name, what, (unsigned long long)p, count);
	return 0;
}

/* gd_pattern(u64 out, u32 n, u32 seed): out[i] = ((i ^ seed) * 0x9E3779B1) + (i >> 3), every i < n. */
static CUresult run_pattern(struct launch *l)
{
	CUdeviceptr out;
	uint32_t n, seed, *w;

	if (arg(l, 0, &out, sizeof(out)) || arg(l, 1, &n, sizeof(n)) || arg(l, 2, &seed, sizeof(seed)))
		return CUDA_ERROR_INVALID_VALUE;
	if (n == 0)
		return CUDA_SUCCESS;
	if (!buffer_ok(l, "out", out, n))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	w = (uint32_t *)(uintptr_t)out;
	for (uint32_t i = 0; i < n; i++)	/* a grid-stride loop: every i, whatever the grid */
		w[i] = ((i ^ seed) * 0x9E3779B1u) + (i >> 3);
	l->out = w;
	l->nout = n;
	l->bad = n / 2;
	return CUDA_SUCCESS;
}

/*
 * C = A * B, n x n row-major, for the rows and columns the grid covers:
 * each element sums k = 0 .. n-1 in order with fmaf, as the kernel's
 * fma.rn.f32 chain does, so the result is bit-exact. Row by row, so that
 * B is read in order.
 */
static inline __attribute__((always_inline)) void sgemm_rows(const float *a, const float *b, float *c, uint32_t n,
							     uint32_t rows, uint32_t cols, float *acc)
{
	for (uint32_t row = 0; row < rows; row++) {
		const float *arow = a + (size_t)row * n;

		for (uint32_t j = 0; j < cols; j++)
			acc[j] = 0.0f;
		for (uint32_t k = 0; k < n; k++) {
			const float x = arow[k], *brow = b + (size_t)k * n;

			for (uint32_t j = 0; j < cols; j++)
				acc[j] = fmaf(x, brow[j], acc[j]);
		}
		memcpy(c + (size_t)row * n, acc, (size_t)cols * sizeof(float));
	}
}

/*
 * On x86-64 CPUs with FMA, a copy that uses the instruction: 5 times as
 * fast as calling fmaf, with the same bits (a GEMM of 1024 takes 0.35 s).
 */
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void sgemm_fma(const float *a, const float *b, float *c, uint32_t n,
						     uint32_t rows, uint32_t cols, float *acc)
{
	sgemm_rows(a, b, c, n, rows, cols, acc);
}
#endif

static void sgemm(const float *a, const float *b, float *c, uint32_t n, uint32_t rows, uint32_t cols, float *acc)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("fma")) {
		sgemm_fma(a, b, c, n, rows, cols, acc);
		return;
	}
#endif
	sgemm_rows(a, b, c, n, rows, cols, acc);
}

/* gd_sgemm(u64 A, u64 B, u64 C, u32 n) */
static CUresult run_sgemm(struct launch *l)
{
	CUdeviceptr a, b, c;
	uint32_t n, rows, cols;
	unsigned long long nn;
	float *acc;

	if (arg(l, 0, &a, sizeof(a)) || arg(l, 1, &b, sizeof(b)) || arg(l, 2, &c, sizeof(c)) ||
	    arg(l, 3, &n, sizeof(n)))
		return CUDA_ERROR_INVALID_VALUE;
	if (n == 0)
		return CUDA_SUCCESS;
	nn = (unsigned long long)n * n;
	if (!buffer_ok(l, "A", a, nn) || !buffer_ok(l, "B", b, nn) || !buffer_ok(l, "C", c, nn))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	cols = l->threads_x < n ? (uint32_t)l->threads_x : n;
	rows = l->threads_y < n ? (uint32_t)l->threads_y : n;
	acc = malloc((size_t)n * sizeof(float));
	if (!acc)
		return CUDA_ERROR_OUT_OF_MEMORY;	/* of the host; no kernel can say so */
	sgemm((const float *)(uintptr_t)a, (const float *)(uintptr_t)b, (float *)(uintptr_t)c, n, rows, cols, acc);
	free(acc);
	l->out = (void *)(uintptr_t)c;
	l->nout = nn;
	l->bad = n / 2;	/* C[0][n/2] */
	return CUDA_SUCCESS;
}

/* gd_fma(u64 out, u32 iters): out[t] = t for every thread t of the x dimension (the value is not checked). */
static CUresult run_fma(struct launch *l)
{
	CUdeviceptr out;
	uint32_t iters;
	float *f;

	if (arg(l, 0, &out, sizeof(out)) || arg(l, 1, &iters, sizeof(iters)))
		return CUDA_ERROR_INVALID_VALUE;
	if (!buffer_ok(l, "out", out, l->threads_x))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	f = (float *)(uintptr_t)out;
	for (unsigned long long t = 0; t < l->threads_x; t++)
		f[t] = (float)t;
	l->out = (void *)(uintptr_t)out;
	l->nout = l->threads_x;
	l->bad = l->threads_x / 2;
	return CUDA_SUCCESS;
}

static const struct {
	const char *name;
	CUresult (*run)(struct launch *);
} kernels[] = {
	{ "gd_pattern", run_pattern },
	{ "gd_sgemm", run_sgemm },
	{ "gd_fma", run_fma },
};

/* compute.wrong_result: one element's lowest bit (an ulp of a float). */
static void flip_lowest_bit(void *word)
{
	uint32_t w;

	memcpy(&w, word, 4);
	w ^= 1u;
	memcpy(word, &w, 4);
}

/* compute.flaky_after: gd_sgemm's C[0], one ulp off. */
static void one_ulp_off(void *word)
{
	float x;

	memcpy(&x, word, 4);
	x = nextafterf(x, x == INFINITY ? 0.0f : INFINITY);
	memcpy(word, &x, 4);
}

CUresult cuLaunchKernel(CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
			unsigned int by, unsigned int bz, unsigned int shared_bytes, CUstream stream, void **params,
			void **extra)
{
	const struct fake_compute *k;
	struct CUfunc_st *f;
	struct launch l;
	size_t i = 0;
	struct CUctx_st *c;
	CUresult r = enter("cuLaunchKernel", &c);

	(void)shared_bytes;
	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	f = function_of(fn);
	if (!f || f->mod->ctx != c || !stream_ok(stream))
		return leave(CUDA_ERROR_INVALID_HANDLE);
	/* the limits of every GPU since compute capability 3.0 */
	if (!gx || !gy || !gz || !bx || !by || !bz || gx > 0x7fffffffu || gy > 65535 || gz > 65535 || bx > 1024 ||
	    by > 1024 || bz > 64 || (unsigned long long)bx * by * bz > 1024)
		return leave(CUDA_ERROR_INVALID_VALUE);
	if (!params || extra) {
		fake_warn("cuLaunchKernel: %s: pass the arguments in kernelParams (extra is not modelled)", f->name);
		return leave(CUDA_ERROR_INVALID_VALUE);
	}
	while (i < sizeof(kernels) / sizeof(kernels[0]) && strcmp(kernels[i].name, f->name) != 0)
		i++;
	if (i == sizeof(kernels) / sizeof(kernels[0])) {
		fake_warn("cuLaunchKernel: %s: the fake runs gd_pattern, gd_sgemm and gd_fma only", f->name);
		return leave(CUDA_ERROR_NOT_SUPPORTED);
	}
	k = keys(c);
	if (k->launch_error && (!k->launch_error_kernel[0] || strcmp(k->launch_error_kernel, f->name) == 0)) {
		c->sticky = k->launch_error;
		return leave(c->sticky);
	}
	memset(&l, 0, sizeof(l));
	l.name = f->name;
	l.threads_x = (unsigned long long)gx * bx;
	l.threads_y = (unsigned long long)gy * by;
	l.params = params;
	r = kernels[i].run(&l);
	if (r == CUDA_ERROR_ILLEGAL_ADDRESS)
		c->sticky = r;
	if (r)
		return leave(r);
	if (l.nout && strcmp(k->wrong_result, f->name) == 0)
		flip_lowest_bit((char *)l.out + l.bad * 4);
	if (strcmp(f->name, "gd_sgemm") == 0) {
		c->sgemm_launches++;
		if (l.nout && k->flaky_after >= 0 && c->sgemm_launches > (unsigned long long)k->flaky_after)
			one_ulp_off(l.out);
	}
	tick(c);
	return leave(CUDA_SUCCESS);
}

/* ---- events ---------------------------------------------------------------- */

CUresult cuEventCreate(CUevent *event, unsigned int flags)
{
	struct CUctx_st *c;
	CUresult r = enter("cuEventCreate", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!event || (flags & ~(unsigned)CU_EVENT_FLAGS))
		return leave(CUDA_ERROR_INVALID_VALUE);
	for (int i = 0; i < MAX_EVENTS; i++) {
		if (!events[i].live) {
			memset(&events[i], 0, sizeof(events[i]));
			events[i].live = 1;
			events[i].ctx = c;
			events[i].flags = flags;
			*event = &events[i];
			return leave(CUDA_SUCCESS);
		}
	}
	return leave(CUDA_ERROR_OUT_OF_MEMORY);
}

CUresult cuEventRecord(CUevent event, CUstream stream)
{
	struct CUevent_st *e;
	struct CUctx_st *c;
	CUresult r = enter("cuEventRecord", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	e = event_of(event);
	if (!e || e->ctx != c || !stream_ok(stream))
		return leave(CUDA_ERROR_INVALID_HANDLE);
	e->recorded = 1;
	e->ms = c->clock_ms;
	return leave(CUDA_SUCCESS);
}

CUresult cuEventSynchronize(CUevent event)
{
	struct CUctx_st *c;
	CUresult r = enter("cuEventSynchronize", &c);

	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	return leave(event_of(event) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE);
}

/* cuEventElapsedTime and cuEventElapsedTime_v2: either name in gpu.json's hang/crash fires on both. */
static CUresult elapsed(float *ms, CUevent start, CUevent end)
{
	struct CUevent_st *s, *e;
	struct CUctx_st *c;
	CUresult r;

	fake_enter("cuEventElapsedTime");
	r = enter("cuEventElapsedTime_v2", &c);
	if (r)
		return r;
	if (c->sticky)
		return leave(c->sticky);
	if (!ms)
		return leave(CUDA_ERROR_INVALID_VALUE);
	s = event_of(start);
	e = event_of(end);
	/* never recorded, or created with CU_EVENT_DISABLE_TIMING: CUDA_ERROR_INVALID_HANDLE, as documented */
	if (!s || !e || !s->recorded || !e->recorded || ((s->flags | e->flags) & CU_EVENT_DISABLE_TIMING))
		return leave(CUDA_ERROR_INVALID_HANDLE);
	*ms = (float)(e->ms - s->ms);
	return leave(CUDA_SUCCESS);
}

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
	return elapsed(ms, start, end);
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
	return elapsed(ms, start, end);
}

CUresult cuEventDestroy_v2(CUevent event)
{
	struct CUevent_st *e;
	struct CUctx_st *c;
	CUresult r = enter("cuEventDestroy_v2", &c);

	if (r)
		return r;
	e = event_of(event);
	if (!e)
		return leave(c->sticky ? c->sticky : CUDA_ERROR_INVALID_HANDLE);
	e->live = 0;
	return leave(c->sticky);
}
