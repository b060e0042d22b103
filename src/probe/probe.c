#include "probe/probe.h"

#include "probe/loader.h"
#include "util/str.h"

/* The section read while the rootfs refused a file is incomplete: UNKNOWN and denied. */
static void mark_denied(struct fact_status *section, const struct rootfs *fs)
{
	fact_status_set(section, FACT_UNKNOWN, "cannot read %s: permission denied", rootfs_denied_last(fs));
	section->denied = true;
}

/*
 * Run one probe; when the rootfs was refused files meanwhile, its section
 * is incomplete, so that no rule reads "not found" into what could not be
 * read.
 */
static void run_probe(void (*probe)(struct facts *, const struct probe_ctx *), struct facts *f,
		      const struct probe_ctx *ctx, struct fact_status *section)
{
	unsigned mark = rootfs_denied_count(ctx->fs);

	probe(f, ctx);
	if (section && rootfs_denied_count(ctx->fs) > mark)
		mark_denied(section, ctx->fs);
}

static void probe_libraries(struct facts *f, const struct probe_ctx *ctx)
{
	unsigned mark = rootfs_denied_count(ctx->fs);

	probe_libs(f, ctx);
	/* both libraries come from the same search */
	if (rootfs_denied_count(ctx->fs) > mark) {
		mark_denied(&f->libs.cuda.status, ctx->fs);
		f->libs.nvml.status = f->libs.cuda.status;
	}
}

/*
 * Runs the static probes through run_probe, then probe_runtime and probe_torch_deep, which may call the
 * driver or run Python unless ctx says not to, and so block up to their deadlines. ctx->loader is set only
 * while the static probes run (NULL after). The rootfs's refusal log is copied into f at the end.
 */
void probe_all(struct facts *f, struct probe_ctx *ctx)
{
	struct loader loader;

	f->live = ctx->fs->live;
	str_copy(f->root, sizeof(f->root), ctx->fs->live ? "/" : ctx->fs->dir);
	run_probe(probe_env, f, ctx, NULL);
	run_probe(probe_system, f, ctx, NULL);
	run_probe(probe_env_origin, f, ctx, NULL);
	loader_init(&loader, ctx->fs, facts_env(f, "LD_LIBRARY_PATH"), facts_env(f, "LD_PRELOAD"),
		    f->system.arch);
	ctx->loader = &loader;
	run_probe(probe_container, f, ctx, NULL);
	run_probe(probe_pci, f, ctx, &f->pci.status);
	run_probe(probe_container_host, f, ctx, &f->container_host.status);
	run_probe(probe_kmod, f, ctx, &f->kmod.status);
	run_probe(probe_devnodes, f, ctx, &f->kmod.status);
	run_probe(probe_kernlog, f, ctx, NULL);	/* its refusals are its own status */
	run_probe(probe_gres, f, ctx, &f->gres.status);
	probe_libraries(f, ctx);
	run_probe(probe_toolkits, f, ctx, &f->toolkits.status);
	run_probe(probe_cudnn, f, ctx, &f->cudnn.status);
	run_probe(probe_python, f, ctx, &f->python.status);
	ctx->loader = NULL;
	probe_runtime(f, ctx);
	probe_gpu_processes(f, ctx);
	probe_torch_deep(f, ctx);
	loader_release(&loader);
	f->unreadable_count = (int)rootfs_denied_count(ctx->fs);
	for (unsigned i = 0; i < rootfs_denied_kept(ctx->fs) && i < sizeof(f->unreadable) / sizeof(f->unreadable[0]); i++)
		str_copy(f->unreadable[i], sizeof(f->unreadable[0]), rootfs_denied_path(ctx->fs, i));
	f->unreadable_kept = (int)rootfs_denied_kept(ctx->fs);
}
