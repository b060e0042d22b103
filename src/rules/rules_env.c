/*
 * rules_env.c - environment variables that hide GPUs or slow CUDA down,
 * and the all-clear.
 */
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "rules/rules.h"
#include "util/i18n.h"
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
			       env->visible == VISIBLE_EMPTY ? N_("It is set but empty") : N_("Its first entry is not a device"));
	} else if (env->visible == VISIBLE_INDICES && ngpu > 0) {
		for (int i = 0; i < env->visible_index_count; i++) {
			if (env->visible_indices[i] < ngpu)
				continue;
			f = findings_add(out, CAUSE_ENV_VISIBLE_DEVICES, i == 0 ? SEV_ERROR : SEV_WARNING,
					 "CUDA_VISIBLE_DEVICES names GPU %d, but %s has %d", env->visible_indices[i],
					 facts_machine(facts), ngpu);
			finding_detail(f, "Indices count from 0. CUDA stops at the first index that does not exist, so %s.",
				       i == 0 ? N_("no GPU is visible at all") : N_("the GPUs listed after it are dropped too"));
			break;
		}
	}
	if (!f)
		return;
	finding_evidence(f, "CUDA_VISIBLE_DEVICES", N_("environment"), "\"%s\"", value);
	finding_evidence(f, "NVIDIA GPUs", "/sys/bus/pci/devices", "%d", facts->pci.count);
	finding_fix(f, "unset CUDA_VISIBLE_DEVICES", "show all GPUs, or set it to valid indices (0 to %d) or UUIDs",
		    ngpu > 0 ? ngpu - 1 : 0);
	finding_fix(f, NULL, "look for where it is set: shell profiles, job scripts, the scheduler (Slurm sets it per job)");
}

/* The entries CUDA accepts before it stops (an index, a GPU- or MIG- UUID each). */
static int visible_entry_count(const char *value)
{
	char buf[1024], *next;
	int n = 0;

	str_copy(buf, sizeof(buf), value);
	for (char *tok = buf; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		str_trim(tok);
		if (!str_is_digits(tok) && !str_starts_with(tok, "GPU-") && !str_starts_with(tok, "MIG-"))
			break;
		n++;
	}
	return n;
}

/* The GPUs a container was given: its /dev/nvidiaN nodes (they keep the host's minor numbers). */
static int gpu_node_count(const struct facts *facts)
{
	int n = 0;

	for (int i = 0; i < facts->kmod.node_count; i++) {
		const struct devnode *d = &facts->kmod.nodes[i];

		if (d->present && str_starts_with(d->path, "/dev/nvidia") && str_is_digits(d->path + strlen("/dev/nvidia")) &&
		    d->path[strlen("/dev/nvidia")])
			n++;
	}
	return n;
}

/* Name the GPUs on the bus that CUDA does not list (only known when CUDA was asked). */
static void hidden_gpu_evidence(const struct facts *facts, struct finding *f)
{
	const struct runtime_facts *rt = &facts->runtime;

	for (int i = 0; i < facts->pci.count; i++) {
		const struct pci_gpu *g = &facts->pci.gpus[i];
		bool seen = false;

		if (!rt->cuda_lib.init_done || rt->cuda_lib.init != 0)
			finding_evidence(f, "GPU on the bus", g->sysfs_path, "%s %s", g->address, g->kb_name[0] ? g->kb_name : g->name);
		else {
			for (int k = 0; k < rt->cuda_ndev; k++)
				seen |= strcasecmp(rt->cuda[k].bus_id, g->address) == 0;
			finding_evidence(f, seen ? "GPU visible to CUDA" : "GPU hidden from CUDA", g->sysfs_path, "%s %s",
					 g->address, g->kb_name[0] ? g->kb_name : g->name);
		}
	}
}

/* Where the hiding variable came from, and how to change it there. */
static void visible_origin_fix(const struct facts *facts, struct finding *f)
{
	const struct env_facts *env = &facts->env;

	if (str_starts_with(env->visible_origin, "Slurm job")) {
		finding_evidence(f, "set by", env->visible_origin, "%s (Slurm sets CUDA_VISIBLE_DEVICES to the GPUs it "
				 "allocated)", env->visible_origin_detail);
		finding_fix(f, NULL, "to use more GPUs, ask Slurm for them: sbatch/srun --gpus=N (or --gres=gpu:N)");
	} else if (env->visible_origin[0]) {
		finding_evidence(f, "set by", env->visible_origin, "%s", env->visible_origin_detail);
		finding_fix(f, NULL, "to use every GPU, remove the line from %s and start a new login shell; meanwhile "
			    "`unset CUDA_VISIBLE_DEVICES`", env->visible_origin);
	} else {
		finding_fix(f, "unset CUDA_VISIBLE_DEVICES", "to use every GPU, unset it (and remove it from where it is set: "
			    "a shell profile, a job script, the launcher)");
	}
}

/*
 * Some GPUs on the bus are hidden on purpose: CUDA_VISIBLE_DEVICES lists fewer than there are, or a
 * container was given fewer (NVIDIA_VISIBLE_DEVICES). Not a fault, but "torch sees 1 GPU" on a 2-GPU
 * machine is a common question; say so, and who decided it.
 */
static void check_gpus_hidden(const struct facts *facts, struct findings *out)
{
	const struct env_facts *env = &facts->env;
	const struct runtime_facts *rt = &facts->runtime;
	const char *cvd = facts_env(facts, "CUDA_VISIBLE_DEVICES"), *nvd = facts_env(facts, "NVIDIA_VISIBLE_DEVICES");
	int total = facts->pci.count, shown;
	struct finding *f;

	if (total < 2)
		return;
	if (cvd) {
		if (env->visible != VISIBLE_INDICES && env->visible != VISIBLE_UUIDS && env->visible != VISIBLE_MIXED)
			return;	/* none shown (env.visible-devices) or MIG instances: not a subset of whole GPUs */
		for (int i = 0; i < env->visible_index_count; i++)
			if (env->visible_indices[i] >= total)
				return;	/* env.visible-devices judges it */
		shown = rt->cuda_lib.init_done && rt->cuda_lib.init == 0 ? rt->cuda_count : visible_entry_count(cvd);
		if (shown <= 0 || shown >= total)
			return;
		f = findings_add(out, CAUSE_ENV_GPUS_HIDDEN, SEV_INFO, "CUDA_VISIBLE_DEVICES shows %d of the %d GPUs",
				 shown, total);
		finding_unless(f, CAUSE_ENV_VISIBLE_DEVICES);
		finding_detail(f, "CUDA_VISIBLE_DEVICES=\"%s\" lets CUDA programs see %d GPU%s; the other%s on the bus "
			       "%s hidden from PyTorch (torch.cuda.device_count() is %d), and the visible ones are "
			       "renumbered from 0.", cvd, shown, shown == 1 ? "" : "s", total - shown == 1 ? "" : "s",
			       total - shown == 1 ? "is" : "are", shown);
		finding_evidence(f, "CUDA_VISIBLE_DEVICES", N_("environment"), "\"%s\"", cvd);
		hidden_gpu_evidence(facts, f);
		visible_origin_fix(facts, f);
		return;
	}
	/* In a container the runtime decides which GPUs exist at all. */
	if (!facts->container.in_container || !nvd || strcmp(nvd, "all") == 0)
		return;
	shown = gpu_node_count(facts);
	if (shown <= 0 || shown >= total)
		return;
	f = findings_add(out, CAUSE_ENV_GPUS_HIDDEN, SEV_INFO, "this container was given %d of the %d GPUs", shown, total);
	finding_detail(f, "The container runtime gave this container the GPUs NVIDIA_VISIBLE_DEVICES names (%s): "
		       "%d device node%s under /dev, while the host's %d GPUs all show on the PCI bus. The others "
		       "cannot be used from inside.", nvd, shown, shown == 1 ? "" : "s", total);
	finding_evidence(f, "NVIDIA_VISIBLE_DEVICES", N_("environment"), "\"%s\"", nvd);
	finding_evidence(f, "container", N_("container markers"), "%s (%s)", facts->container.runtime, facts->container.evidence);
	finding_evidence(f, "GPU device nodes", "/dev", "%d", shown);
	finding_evidence(f, "NVIDIA GPUs on the PCI bus", "/sys/bus/pci/devices", "%d", total);
	if (strcmp(facts->container.runtime, "kubernetes") == 0)
		finding_fix(f, NULL, "to use more GPUs, raise the pod's resources.limits nvidia.com/gpu");
	else
		finding_fix(f, "docker run --gpus all IMAGE", "to use every GPU, start the container with all of them");
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
		finding_evidence(f, debug_effects[i].name, N_("environment"), "\"%s\": %s", v, debug_effects[i].effect);
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
	{ CAUSE_ENV_GPUS_HIDDEN, check_gpus_hidden },
	{ CAUSE_ENV_DEBUG_VARS, check_debug_vars },
};

const struct rule_family rules_env = { "env", env_rules, sizeof(env_rules) / sizeof(env_rules[0]) };

/* gpu.ready runs last: it looks at what every other family found. */
static const struct rule summary_rules[] = {
	{ CAUSE_GPU_READY, check_ready },
};

const struct rule_family rules_summary = { "summary", summary_rules, 1 };
