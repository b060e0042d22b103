#include "probe/probe.h"

#include "probe/loader.h"
#include "util/str.h"

void probe_all(struct facts *f, struct probe_ctx *ctx)
{
	struct loader loader;

	f->live = ctx->fs.live;
	str_copy(f->root, sizeof(f->root), ctx->fs.live ? "/" : ctx->fs.dir);
	probe_env(f, ctx);
	probe_system(f, ctx);
	loader_init(&loader, &ctx->fs, facts_env(f, "LD_LIBRARY_PATH"), facts_env(f, "LD_PRELOAD"),
		    f->system.arch);
	ctx->loader = &loader;
	probe_container(f, ctx);
	probe_pci(f, ctx);
	probe_kmod(f, ctx);
	probe_devnodes(f, ctx);
	probe_libs(f, ctx);
	probe_toolkits(f, ctx);
	probe_cudnn(f, ctx);
	probe_python(f, ctx);
	ctx->loader = NULL;
	probe_runtime(f, ctx);
	probe_torch_deep(f, ctx);
	loader_release(&loader);
}
