/*
 * rules_env.c - environment variables that hide GPUs or slow CUDA down,
 * and the all-clear.
 */
#include <string.h>

#include "kb/kb.h"
#include "rules/rules.h"
#include "util/str.h"

static int visible_gpu_count(const struct facts *facts)
{
	int n = facts->pci.count;

	for (int i = 0; i < facts->kmod.node_count; i++) {
		const char *p = facts->kmod.nodes[i].path;

		if (str_starts_with(p, "/dev/nvidia") && str_is_digits(p + strlen("/dev/nvidia")) && n == 0)
			n = -1;	/* nodes but no PCI view (some containers): count unknown */
	}
	return n;
}

static void check_visible_devices(const struct facts *facts, struct findings *out)
{
	const struct env_facts *env = &facts->env;
	const char *value = facts_env(facts, "CUDA_VISIBLE_DEVICES");
	int ngpu = visible_gpu_count(facts);
	struct finding *f = NULL;

	if (!value)
		return;
	if (env->visible == VISIBLE_EMPTY || env->visible == VISIBLE_NONE || env->visible == VISIBLE_INVALID) {
		f = findings_add(out, CAUSE_ENV_VISIBLE_DEVICES, SEV_ERROR,
				 "CUDA_VISIBLE_DEVICES=\"%s\" hides every GPU", value);
		finding_detail(f, "CUDA reads CUDA_VISIBLE_DEVICES left to right and stops at the first entry that is "
			       "not a GPU index or UUID. %s, so CUDA sees no device: cuInit returns "
			       "CUDA_ERROR_NO_DEVICE (100) and torch.cuda.is_available() is False.",
			       env->visible == VISIBLE_EMPTY ? "It is set but empty" : "Its first entry is not a device");
	} else if (env->visible == VISIBLE_INDICES && ngpu > 0) {
		for (int i = 0; i < env->visible_index_count; i++) {
			if (env->visible_indices[i] < ngpu)
				continue;
			f = findings_add(out, CAUSE_ENV_VISIBLE_DEVICES, i == 0 ? SEV_ERROR : SEV_WARNING,
					 "CUDA_VISIBLE_DEVICES names GPU %d, but this machine has %d", env->visible_indices[i], ngpu);
			finding_detail(f, "Indices count from 0. CUDA stops at the first index that does not exist, so %s.",
				       i == 0 ? "no GPU is visible at all" : "the GPUs listed after it are dropped too");
			break;
		}
	}
	if (!f)
		return;
	finding_evidence(f, "CUDA_VISIBLE_DEVICES", "environment", "\"%s\"", value);
	finding_evidence(f, "NVIDIA GPUs", "/sys/bus/pci/devices", "%d", facts->pci.count);
	finding_fix(f, "unset CUDA_VISIBLE_DEVICES", "show all GPUs, or set it to valid indices (0 to %d) or UUIDs",
		    ngpu > 0 ? ngpu - 1 : 0);
	finding_fix(f, NULL, "look for where it is set: shell profiles, job scripts, the scheduler (Slurm sets it per job)");
}

struct debug_var {
	const char *name;
	const char *effect;
};

static const struct debug_var debug_effects[] = {
	{ "CUDA_LAUNCH_BLOCKING", "makes every kernel launch synchronous: correct, but much slower" },
	{ "CUDA_INJECTION64_PATH", "injects a profiling or tracing library into every CUDA program" },
	{ "CUDA_INJECTION32_PATH", "injects a profiling or tracing library into 32-bit CUDA programs" },
	{ "NSIGHT_CUDA_DEBUGGER", "runs programs under the Nsight debugger's instrumentation" },
	{ "CUDA_DEVICE_WAITS_ON_EXCEPTION", "makes a faulting kernel hang, waiting for a debugger" },
	{ "CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "writes a GPU core dump on every kernel exception" },
	{ "CUDA_PROFILE", "turns on the legacy command-line profiler" },
	{ "COMPUTE_PROFILE", "turns on the legacy command-line profiler" },
	{ "CUDA_MEMCHECK_PATCH_MODULE", "patches modules for compute-sanitizer" },
	{ "CUDA_FORCE_PTX_JIT", "ignores compiled GPU code and JIT-compiles PTX: slow start-up, and failures where no PTX ships" },
	{ "CUDA_DISABLE_PTX_JIT", "forbids JIT compilation: GPUs without matching compiled code fail" },
	{ "CUDA_CACHE_DISABLE", "disables the JIT cache, so PTX is recompiled at every start" },
	{ "PYTORCH_NO_CUDA_MEMORY_CACHING", "disables PyTorch's caching allocator: every allocation goes to the driver" },
	{ "TORCH_USE_CUDA_DSA", "enables device-side assertions, which slow kernels" },
};

static bool is_off(const char *v)
{
	return !v[0] || strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "False") == 0;
}

static void check_debug_vars(const struct facts *facts, struct findings *out)
{
	struct finding *f = NULL;
	struct strbuf unset = { 0 };

	for (size_t i = 0; i < sizeof(debug_effects) / sizeof(debug_effects[0]); i++) {
		const char *v = facts_env(facts, debug_effects[i].name);

		if (!v || is_off(v))
			continue;
		if (!f) {
			f = findings_add(out, CAUSE_ENV_DEBUG_VARS, SEV_WARNING,
					 "debugging or profiling variables are set");
			finding_detail(f, "These variables are meant for one debugging session. Left in a shell profile or "
				       "a container image, they slow down or change every CUDA program.");
			strbuf_add(&unset, "unset");
		}
		finding_evidence(f, debug_effects[i].name, "environment", "\"%s\": %s", v, debug_effects[i].effect);
		strbuf_addf(&unset, " %s", debug_effects[i].name);
	}
	if (f)
		finding_fix(f, unset.buf, "unset them, and remove them from where they were set");
	strbuf_release(&unset);
}

static void check_ready(const struct facts *facts, struct findings *out)
{
	const char *drv = facts_driver_version(facts);
	const struct lib_candidate *cuda = lib_choice_chosen(&facts->libs.cuda);
	struct kb_answer max;
	struct finding *f;
	int n = facts->pci.count;

	if (facts_any_denied(facts))
		return;	/* not "ready" on facts we could not all read */
	if (!cuda || (n == 0 && !(facts->container.wsl && facts->container.dev_dxg) && !facts_devnode(facts, "/dev/nvidiactl")))
		return;
	/* Count what CUDA can use when it was asked, else what the bus shows. */
	if (facts->runtime.cuda_lib.init_done && facts->runtime.cuda_lib.init == 0)
		n = facts->runtime.cuda_count;
	if (n > 0)
		f = findings_add(out, CAUSE_GPU_READY, SEV_INFO, "%d NVIDIA GPU%s ready (driver %s)", n,
				 n == 1 ? "" : "s", drv ? drv : "unknown");
	else
		f = findings_add(out, CAUSE_GPU_READY, SEV_INFO, "NVIDIA GPU ready through %s (driver %s)",
				 facts->container.wsl ? "WSL" : "the container runtime", drv ? drv : "unknown");
	finding_unless_errors(f);	/* not "ready" beside an error, whatever family found it */
	if (facts->container.wsl && facts->runtime.cuda_lib.init_done && facts->runtime.cuda_lib.init == 0)
		finding_detail(f, "WSL's driver libraries load, and CUDA initialised and sees %d device%s through /dev/dxg.",
			       facts->runtime.cuda_count, facts->runtime.cuda_count == 1 ? "" : "s");
	else if (facts->runtime.cuda_lib.init_done && facts->runtime.cuda_lib.init == 0)
		finding_detail(f, "The GPU is on the bus, the driver is loaded, its device nodes are usable, libcuda.so.1 "
			       "matches it, and CUDA initialised and sees %d device%s (driver API %d.%d).",
			       facts->runtime.cuda_count, facts->runtime.cuda_count == 1 ? "" : "s",
			       facts->runtime.cuda_driver_version / 1000, (facts->runtime.cuda_driver_version % 1000) / 10);
	else {
		bool have_max = drv && kb_cuda_max_for_driver(drv, &max) == 0;

		finding_detail(f, "The static checks pass: the GPU is on the bus, the driver is loaded, its device nodes "
			       "are usable and libcuda.so.1 matches it.%s%s%s", have_max ? " The driver runs CUDA up to " : "",
			       have_max ? max.value : "", facts->runtime.ran ? "" : " The driver itself was not called.");
	}
	finding_evidence(f, "libcuda.so.1", lib_origin_name(cuda->origin), "%s", cuda->resolved);
}

static const struct rule env_rules[] = {
	{ CAUSE_ENV_VISIBLE_DEVICES, check_visible_devices },
	{ CAUSE_ENV_DEBUG_VARS, check_debug_vars },
};

const struct rule_family rules_env = { "env", env_rules, sizeof(env_rules) / sizeof(env_rules[0]) };

/* gpu.ready runs last: it looks at what every other family found. */
static const struct rule summary_rules[] = {
	{ CAUSE_GPU_READY, check_ready },
};

const struct rule_family rules_summary = { "summary", summary_rules, 1 };
