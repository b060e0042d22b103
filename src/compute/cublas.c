/*
 * cublas.c - load a cuBLAS for the GEMM benchmark: the candidates the caller
 * found (the active toolkit, torch's nvidia-cublas wheel, the system's), in
 * order, then - on the live machine only - the plain sonames. The first that
 * opens with GemmEx wins.
 */
#include "compute/compute_internal.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "util/dlib.h"
#include "util/str.h"

/*
 * libcublas.so.N needs libcublasLt.so.N, which the loader looks for on its
 * own path, not beside it: load the copy beside it first, so a toolkit or
 * wheel that is not on that path still works.
 */
static void preload_lt(const char *file)
{
	const char *slash = strrchr(file, '/'), *ver = strstr(file, "libcublas.so.");
	char lt[600];

	if (!slash || !ver || ver != slash + 1)
		return;
	str_printf(lt, sizeof(lt), "%.*s/libcublasLt.so.%s", (int)(slash - file), file, ver + strlen("libcublas.so."));
	dlopen(lt, RTLD_NOW | RTLD_GLOBAL);
}

/*
 * In the helper. Never fails: without a usable cuBLAS, run->cublas_used says why and s->have_blas stays
 * false. Every library tried, the preloaded libcublasLt included, stays loaded.
 */
void compute_load_cublas(struct session *s)
{
	static const char *const sonames[] = { "libcublas.so.13", "libcublas.so.12", "libcublas.so.11" };
	struct compute_run *run = s->run;
	char path[512], missing[64], why[256] = "";
	struct error err;
	void *handle;

	int tries = run->ncublas + (run->cublas_search ? 3 : 0);

	for (int i = 0; i < tries; i++) {
		const char *file = i < run->ncublas ? run->cublas[i] : sonames[i - run->ncublas];

		compute_mark(s, "dlopen");
		preload_lt(file);
		if (dlib_open(file, cublas_symbols, cublas_nsymbols, &s->blas, &handle, path, sizeof(path), missing, sizeof(missing),
			      &err) == 0) {
			s->have_blas = true;
			str_copy(run->cublas_used, sizeof(run->cublas_used), path);
			return;
		}
		if (!why[0])
			str_copy(why, sizeof(why), err.msg);
	}
	str_printf(run->cublas_used, sizeof(run->cublas_used), "none: no cuBLAS found (%s)", why[0] ? why : "nothing to try");
}
