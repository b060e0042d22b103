/*
 * torch_lib_search.c - where the dynamic loader finds one of torch's CUDA
 * libraries: the DT_RPATH/DT_RUNPATH directories of the library that asks
 * (with $ORIGIN), then LD_PRELOAD and LD_LIBRARY_PATH, the cache and the
 * default directories. Shared by the libraries libtorch_cuda.so needs
 * (torch_libs.c) and those they load themselves (torch_sublibs.c).
 */
#include <string.h>

#include "probe/loader.h"
#include "probe/probe_internal.h"
#include "util/str.h"

/* See probe_internal.h. NULL (and the drop recorded) when t's list is full. */
struct torch_lib *torch_lib_add(struct facts *f, struct torch_install *t, const char *soname)
{
	struct torch_lib *l;

	if (t->nlibs >= MAX_TORCH_LIBS) {
		facts_dropped(f, "CUDA libraries of libtorch_cuda.so", MAX_TORCH_LIBS, 1);
		return NULL;
	}
	l = &t->libs[t->nlibs++];
	memset(l, 0, sizeof(*l));
	str_copy(l->soname, sizeof(l->soname), soname);
	return l;
}

/* See probe_internal.h. "$ORIGIN/../../nvidia/cublas/lib" -> the directory, $ORIGIN being the library's. */
bool torch_rpath_find(const struct rootfs *fs, const char *list, const char *origin, const char *soname, char *out,
		      size_t outsz)
{
	char buf[1024], *save = NULL;

	str_copy(buf, sizeof(buf), list);
	for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char dir[FACT_PATH], path[FACT_PATH], real[FACT_PATH];

		if (str_starts_with(d, "$ORIGIN"))
			str_printf(dir, sizeof(dir), "%s%s", origin, d + 7);
		else if (str_starts_with(d, "${ORIGIN}"))
			str_printf(dir, sizeof(dir), "%s%s", origin, d + 9);
		else
			str_copy(dir, sizeof(dir), d);
		if (dir[0] != '/' || path_join(path, sizeof(path), dir, soname) < 0 || !rootfs_exists(fs, path))
			continue;
		/* Normalise the ".." of $ORIGIN-relative entries for the report. */
		if (rootfs_resolve(fs, path, true, real, sizeof(real), NULL) == 0)
			str_copy(out, outsz, real);
		else
			str_copy(out, outsz, path);
		return true;
	}
	return false;
}

/* See probe_internal.h. */
void torch_resolve_after_rpath(const struct probe_ctx *ctx, const char *runpath_copy, struct torch_lib *l)
{
	const struct loader *ld = ctx->loader;
	struct lib_candidate cands[8];
	int n;

	/* only the first candidates can win: the rest need not be counted */
	n = ld ? loader_find(ld, l->soname, cands, 8, NULL) : 0;
	for (int i = 0; i < n; i++) {
		if (cands[i].in_cache_dir_only)
			continue;
		if (cands[i].origin == LIB_FROM_LD_LIBRARY_PATH || cands[i].origin == LIB_FROM_PRELOAD) {
			str_copy(l->path, sizeof(l->path), cands[i].resolved);
			str_copy(l->origin, sizeof(l->origin), lib_origin_name(cands[i].origin));
			if (runpath_copy[0] && strcmp(runpath_copy, cands[i].resolved) != 0) {
				l->shadows_runpath = true;
				str_copy(l->runpath_copy, sizeof(l->runpath_copy), runpath_copy);
			}
			return;
		}
		if (runpath_copy[0])
			break;
		str_copy(l->path, sizeof(l->path), cands[i].resolved);
		str_copy(l->origin, sizeof(l->origin), lib_origin_name(cands[i].origin));
		return;
	}
	if (runpath_copy[0]) {
		str_copy(l->path, sizeof(l->path), runpath_copy);
		str_copy(l->origin, sizeof(l->origin), "RUNPATH");
	}
}
