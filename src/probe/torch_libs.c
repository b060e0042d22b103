/*
 * torch_libs.c - what libtorch_cuda.so needs and what it was built for,
 * read from the file itself: the CUDA libraries in its DT_NEEDED and where
 * the loader would find each (RPATH, LD_LIBRARY_PATH, RUNPATH with $ORIGIN,
 * the cache), and the GPU architectures of its embedded fat binaries.
 * Only headers and tables are read: the library is hundreds of megabytes.
 */
#include <string.h>

#include "probe/probe_internal.h"
#include "util/elf.h"
#include "util/fatbin.h"
#include "util/str.h"

/*
 * Enough entries to see every architecture. Each translation unit is built
 * for the whole TORCH_CUDA_ARCH_LIST, so the list repeats in every
 * container, and the first thousand units show it; reading all of a real
 * libtorch_cuda.so (tens of thousands of entries, one read each) would cost
 * more than the rest of the diagnosis. A scan stopped here is "sampled", and
 * the rules then let the release's table overrule a missing architecture.
 */
#define FATBIN_SAMPLE_ENTRIES 8192

static bool is_cuda_library(const char *soname)
{
	static const char *const prefixes[] = {
		"libcudart", "libcudnn", "libcublas", "libnccl", "libnvrtc", "libcufft", "libcurand", "libcusparse",
		"libcusolver", "libnvJitLink", "libnvToolsExt", "libcupti", "libcufile", "libnvshmem",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (str_starts_with(soname, prefixes[i]))
			return true;
	return false;
}

/* ld.so's order: DT_RPATH (when there is no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, cache, defaults. */
static void resolve(const struct probe_ctx *ctx, const struct elf_dynamic *dyn, const char *origin, struct torch_lib *l)
{
	char runpath_copy[FACT_PATH] = "";

	if (!dyn->runpath[0] && dyn->rpath[0] &&
	    torch_rpath_find(ctx->fs, dyn->rpath, origin, l->soname, l->path, sizeof(l->path))) {
		str_copy(l->origin, sizeof(l->origin), "RPATH");
		return;
	}
	if (dyn->runpath[0])
		torch_rpath_find(ctx->fs, dyn->runpath, origin, l->soname, runpath_copy, sizeof(runpath_copy));
	torch_resolve_after_rpath(ctx, runpath_copy, l);
}

static void read_archs(struct facts *f, const struct probe_ctx *ctx, struct torch_install *t)
{
	struct fatbin_archs fa;
	struct error err;

	if (fatbin_scan(ctx->fs, t->libtorch_cuda, FATBIN_SAMPLE_ENTRIES, &fa, &err) < 0 || fa.nsass + fa.nptx == 0)
		return;
	t->archs_known = true;
	t->archs_truncated = fa.truncated;
	for (int i = 0; i < fa.nsass && t->nsass < MAX_TORCH_ARCHS; i++)
		t->sass[t->nsass++] = fa.sass[i];
	for (int i = 0; i < fa.nptx && t->nptx < MAX_TORCH_ARCHS; i++)
		t->ptx[t->nptx++] = fa.ptx[i];
	if (fa.archs_full || fa.nsass > MAX_TORCH_ARCHS || fa.nptx > MAX_TORCH_ARCHS)
		facts_dropped(f, "GPU architectures in libtorch_cuda.so", MAX_TORCH_ARCHS, -1);
}

/*
 * See probe_internal.h. Does nothing when t has no lib/libtorch_cuda.so; an unreadable ELF sets
 * t->elf_status to ERROR. Uses ctx->loader when set, and only RPATH and RUNPATH without it.
 */
void probe_torch_libs(struct facts *f, const struct probe_ctx *ctx, struct torch_install *t)
{
	struct elf_dynamic dyn;
	struct error err;
	char path[FACT_PATH], origin[FACT_PATH];

	if (path_join(path, sizeof(path), t->dir, "lib/libtorch_cuda.so") < 0 || !rootfs_exists(ctx->fs, path))
		return;
	str_copy(t->libtorch_cuda, sizeof(t->libtorch_cuda), path);
	if (elf_read_dynamic(ctx->fs, path, &dyn, &err) < 0) {
		/* Scenario stand-ins are empty files: nothing to read is not a finding. */
		fact_status_set(&t->elf_status, FACT_ERROR, "%s", err.msg);
		return;
	}
	t->elf_status.state = FACT_OK;
	path_dirname(path, origin, sizeof(origin));
	if (dyn.truncated)
		facts_dropped(f, "libraries libtorch_cuda.so needs", ELF_MAX_NEEDED, -1);
	for (int i = 0; i < dyn.nneeded; i++) {
		struct torch_lib *l;

		if (!is_cuda_library(dyn.needed[i]))
			continue;
		if ((l = torch_lib_add(f, t, dyn.needed[i])))
			resolve(ctx, &dyn, origin, l);
	}
	probe_torch_sublibs(f, ctx, t, &dyn, origin);
	read_archs(f, ctx, t);
}
