/*
 * torch_sublibs.c - the libraries that torch's CUDA libraries load
 * themselves: cuDNN's sub-libraries (dlopen'ed by name), cuBLASLt,
 * nvJitLink, NVRTC's builtins (data/cuda_sublibs.tsv).
 *
 * The loader searches for these from the parent library, not from
 * libtorch_cuda.so (glibc elf/dl-load.c, _dl_map_object, the same for
 * dlopen and DT_NEEDED): the DT_RPATH of the parent and then of the objects
 * that loaded it, only when the parent has no DT_RUNPATH; LD_LIBRARY_PATH;
 * the parent's DT_RUNPATH; the cache; the default directories. torch's
 * wheels carry DT_RPATH, so libtorch_cuda.so finds libcudnn.so.8 in the
 * nvidia-cudnn wheel whatever LD_LIBRARY_PATH says; but libcudnn.so.8 has
 * DT_RUNPATH $ORIGIN, so its own dlopen of libcudnn_cnn_infer.so.8 takes
 * LD_LIBRARY_PATH first, and a directory there with another cuDNN 8 build
 * mixes two releases in one process.
 */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "probe/probe_internal.h"
#include "util/elf.h"
#include "util/str.h"

#define MAX_CHILDREN 16

/* A library of that soname is already in t->libs: the process has it loaded, and a later load reuses it. */
static bool already_listed(const struct torch_install *t, const char *soname)
{
	for (int i = 0; i < t->nlibs; i++)
		if (strcmp(t->libs[i].soname, soname) == 0)
			return true;
	return false;
}

/* The first file in dir (sorted by name) whose name starts with prefix: NVRTC's builtins of its own version. */
static bool sibling_with_prefix(const struct rootfs *fs, const char *dir, const char *prefix, char *out, size_t outsz)
{
	DIR *d = rootfs_opendir(fs, dir);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (!str_starts_with(de->d_name, prefix) || strlen(de->d_name) >= outsz)
			continue;
		if (!found || strcmp(de->d_name, out) < 0)
			str_copy(out, outsz, de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/* The soname a row names for this parent: fixed, else by prefix from its DT_NEEDED or its directory. */
static bool child_soname(const struct rootfs *fs, const struct kb_sublib *row, const struct elf_dynamic *pdyn,
			 const char *pdir, char *out, size_t outsz)
{
	size_t n = strlen(row->child);
	char prefix[64];

	if (n == 0 || row->child[n - 1] != '*')
		return str_copy(out, outsz, row->child) == 0;
	if (n - 1 >= sizeof(prefix))
		return false;
	memcpy(prefix, row->child, n - 1);
	prefix[n - 1] = '\0';
	if (row->dlopen)
		return sibling_with_prefix(fs, pdir, prefix, out, outsz);
	for (int i = 0; pdyn && i < pdyn->nneeded; i++)
		if (str_starts_with(pdyn->needed[i], prefix))
			return str_copy(out, outsz, pdyn->needed[i]) == 0;
	return false;	/* an unreadable parent: which major it links is not guessed */
}

/*
 * Search for l->soname from a parent in pdir with that rpath and runpath; torch/origin are libtorch_cuda.so's,
 * which loaded the parent (its DT_RPATH is inherited when the parent has no DT_RUNPATH).
 */
static void resolve_from_parent(const struct probe_ctx *ctx, const char *rpath, const char *runpath, const char *pdir,
				const struct elf_dynamic *torch, const char *origin, struct torch_lib *l)
{
	char runpath_copy[FACT_PATH] = "";

	if (!runpath[0]) {
		if (rpath[0] && torch_rpath_find(ctx->fs, rpath, pdir, l->soname, l->path, sizeof(l->path))) {
			str_copy(l->origin, sizeof(l->origin), "RPATH");
			return;
		}
		if (!torch->runpath[0] && torch->rpath[0] &&
		    torch_rpath_find(ctx->fs, torch->rpath, origin, l->soname, l->path, sizeof(l->path))) {
			str_copy(l->origin, sizeof(l->origin), "loader's RPATH");
			return;
		}
	} else {
		torch_rpath_find(ctx->fs, runpath, pdir, l->soname, runpath_copy, sizeof(runpath_copy));
	}
	torch_resolve_after_rpath(ctx, runpath_copy, l);
}

static void add_children(struct facts *f, const struct probe_ctx *ctx, struct torch_install *t, int parent,
			 const struct elf_dynamic *torch, const char *origin)
{
	struct kb_sublib rows[MAX_CHILDREN];
	struct elf_dynamic *pdyn;
	struct error err;
	char pdir[FACT_PATH], parent_soname[64];
	const char *rpath = "", *runpath;
	int n = kb_cuda_sublibs(t->libs[parent].soname, rows, MAX_CHILDREN);

	if (n == 0 || !(pdyn = malloc(sizeof(*pdyn))))
		return;
	str_copy(parent_soname, sizeof(parent_soname), t->libs[parent].soname);
	path_dirname(t->libs[parent].path, pdir, sizeof(pdir));
	if (elf_read_dynamic(ctx->fs, t->libs[parent].path, pdyn, &err) == 0) {
		rpath = pdyn->runpath[0] ? "" : pdyn->rpath;	/* ld.so ignores DT_RPATH beside DT_RUNPATH */
		runpath = pdyn->runpath;
	} else {
		free(pdyn);
		pdyn = NULL;	/* a stand-in or unreadable file: the RUNPATH NVIDIA ships it with */
		runpath = rows[0].runpath;
	}
	for (int r = 0; r < n; r++) {
		struct torch_lib *l;
		char soname[64];

		if (!child_soname(ctx->fs, &rows[r], pdyn, pdir, soname, sizeof(soname)) || already_listed(t, soname))
			continue;
		if (!(l = torch_lib_add(f, t, soname)))
			continue;
		str_copy(l->loaded_by, sizeof(l->loaded_by), parent_soname);
		l->dlopen = rows[r].dlopen;
		resolve_from_parent(ctx, rpath, runpath, pdir, torch, origin, l);
	}
	free(pdyn);
}

/* See probe_internal.h. Only the libraries libtorch_cuda.so itself needs are parents: one level, bounded. */
void probe_torch_sublibs(struct facts *f, const struct probe_ctx *ctx, struct torch_install *t,
			 const struct elf_dynamic *torch, const char *origin)
{
	int ntop = t->nlibs;

	for (int i = 0; i < ntop; i++)
		if (t->libs[i].path[0])
			add_children(f, ctx, t, i, torch, origin);
}
