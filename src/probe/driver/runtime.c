/*
 * runtime.c - call the NVIDIA driver, in a child process, against a deadline.
 *
 * A wedged GPU can make nvmlInit or cuInit block in the kernel for minutes,
 * and a broken driver library can crash its caller. So the calls run in a
 * forked helper that writes its findings into memory shared with us; we
 * wait at most the deadline, then kill it. Whatever it had learned, and the
 * name of the call it was in, survive the kill.
 */
#include <string.h>
#include <sys/stat.h>

#include "kb/kb.h"
#include "probe/driver/query.h"
#include "probe/probe.h"
#include "util/i18n.h"
#include "util/isolate.h"
#include "util/str.h"

/*
 * What to dlopen: live, the soname, as any program would; rooted, the host
 * path of the file the loader would choose inside the root. An empty file
 * in a root is a stand-in that only shows where a library is (a scenario
 * without a fake driver): nothing to call.
 */
static bool chosen_file(const struct rootfs *fs, const struct lib_choice *choice, const char *soname, char *out,
			size_t outsz)
{
	const struct lib_candidate *c = lib_choice_chosen(choice);
	struct stat st;

	if (!c)
		return false;
	if (fs->live)
		return str_copy(out, outsz, soname) == 0;
	if (rootfs_stat(fs, c->resolved, &st) < 0 || st.st_size == 0)
		return false;
	return rootfs_host_path(fs, c->resolved, true, out, outsz, NULL) == 0;
}

static bool library_file(const struct probe_ctx *ctx, const struct lib_choice *choice, const char *soname,
			 char *out, size_t outsz)
{
	return chosen_file(ctx->fs, choice, soname, out, outsz);
}

/* See probe.h. */
const char *probe_nvml_file(const struct facts *f, const struct rootfs *fs, bool load_root_libs, char *out,
			    size_t outsz)
{
	out[0] = '\0';
	if (!chosen_file(fs, &f->libs.nvml, "libnvidia-ml.so.1", out, outsz)) {
		out[0] = '\0';
		return "no NVIDIA management library (libnvidia-ml.so.1) to call";
	}
	if (!fs->live && !load_root_libs) {
		out[0] = '\0';
		return "the driver libraries under --root are not loaded (--load-root-libraries trusts the image "
		       "and calls them)";
	}
	return NULL;
}

/* The machine's name of what was loaded: live, where the loader found it; rooted, the file chosen in the root. */
static void name_loaded(struct rt_library *lib, const struct probe_ctx *ctx, const struct lib_choice *choice)
{
	const struct lib_candidate *c = lib_choice_chosen(choice);

	if (!lib->host_path[0])
		return;
	str_copy(lib->path, sizeof(lib->path), ctx->fs->live || !c ? lib->host_path : c->resolved);
}

struct libraries {
	const char *nvml, *cuda;	/* what to dlopen, "" for none */
};

/* In the helper: every call into the driver, each marked before it is made. */
static void run_child(void *shared, void *arg)
{
	struct runtime_facts *rt = shared;
	const struct libraries *libs = arg;

	if (libs->nvml[0])
		query_nvml(rt, libs->nvml);
	if (libs->cuda[0])
		query_cuda(rt, libs->cuda);
	query_mark(rt, "");
}

static void name_result(struct rt_library *lib, const char *api)
{
	struct kb_error codes[4];
	char num[16];
	int n;

	if (!lib->init_done)
		return;
	str_printf(num, sizeof(num), "%d", lib->init);
	n = kb_error_lookup(num, codes, 4);
	for (int i = 0; i < n; i++) {
		if (strcmp(codes[i].api, api) == 0) {
			str_copy(lib->init_name, sizeof(lib->init_name), codes[i].name);
			return;
		}
	}
	str_printf(lib->init_name, sizeof(lib->init_name), "%s %d", api, lib->init);
}

/*
 * Blocks for up to three times the deadline (ctx->timeout_s, 10 s by default) while the helper calls the
 * driver. Needs probe_libs done. Never loads anything with --static, nor an image's libraries under --root
 * without load_root_libs. A hang or crash is an ERROR status naming the call, never a crash of ours.
 */
void probe_runtime(struct facts *f, const struct probe_ctx *ctx)
{
	struct runtime_facts *rt = &f->runtime;
	char nvml[4096] = "", cuda[4096] = "";
	struct libraries libs = { nvml, cuda };
	struct isolate_outcome how;
	struct isolate_limits limits;
	struct error err;

	rt->timeout_s = ctx->timeout_s > 0 ? ctx->timeout_s : 10;
	library_file(ctx, &f->libs.nvml, "libnvidia-ml.so.1", nvml, sizeof(nvml));
	library_file(ctx, &f->libs.cuda, "libcuda.so.1", cuda, sizeof(cuda));
	if (ctx->static_only || (!nvml[0] && !cuda[0])) {
		fact_status_set(&rt->status, FACT_ABSENT, ctx->static_only ? N_("not called (--static)")
									       : N_("no driver library to call"));
		return;
	}
	/* Loading a library runs its code: an image's own libraries only when asked to trust it. */
	if (!ctx->fs->live && !ctx->load_root_libs) {
		fact_status_set(&rt->status, FACT_ABSENT, N_("not called: the driver libraries under --root are not "
			       "loaded (--load-root-libraries trusts the image and calls them)"));
		return;
	}
	/* one call may take the deadline; all of them together, a few times that */
	limits.call_s = rt->timeout_s;
	limits.total_s = rt->timeout_s * 3;
	if (isolate_run(rt, sizeof(*rt), run_child, &libs, &limits, NULL, 0, &how, &err) < 0) {
		fact_status_set(&rt->status, FACT_ERROR, "cannot start the driver helper: %s", err.msg);
		return;
	}
	rt->ran = true;
	rt->elapsed_ms = how.elapsed_ms;
	rt->helper_stuck = how.stuck;
	rt->helper_pid = how.pid;
	if ((how.hung || how.over_budget) && !rt->last_call[0]) {
		rt->status.state = FACT_OK;	/* it finished just as the deadline came */
	} else if (how.hung) {
		rt->hung = true;
		fact_status_set(&rt->status, FACT_ERROR, "%s did not return within %g s", rt->last_call, rt->timeout_s);
	} else if (how.over_budget) {
		rt->hung = true;
		fact_status_set(&rt->status, FACT_ERROR, "the driver calls did not finish within %g s (the last: %s)",
				limits.total_s, rt->last_call);
	} else if (how.crashed) {
		rt->crashed = true;
		rt->signal = how.signal;
		fact_status_set(&rt->status, FACT_ERROR, "%s crashed the helper (signal %d)", rt->last_call, rt->signal);
	} else {
		rt->status.state = FACT_OK;
	}
	name_loaded(&rt->nvml_lib, ctx, &f->libs.nvml);
	name_loaded(&rt->cuda_lib, ctx, &f->libs.cuda);
	name_result(&rt->nvml_lib, "nvmlReturn_t");
	name_result(&rt->cuda_lib, "CUresult");
	facts_dropped(f, "GPUs NVML lists", MAX_RT_DEVICES, rt->nvml_count > rt->nvml_ndev && rt->nvml_ndev == MAX_RT_DEVICES
			     ? rt->nvml_count - MAX_RT_DEVICES : 0);
	facts_dropped(f, "GPUs CUDA lists", MAX_RT_DEVICES, rt->cuda_count > MAX_RT_DEVICES ? rt->cuda_count - MAX_RT_DEVICES : 0);
	for (int i = 0; i < rt->nvml_ndev; i++)
		facts_dropped(f, "processes on a GPU", MAX_RT_PROCS, rt->nvml[i].procs_total);
}
