/*
 * rules_libs.c - the user-space driver libraries: present, real (not the
 * toolkit's stub), the same version as the kernel module, not shadowed.
 */
#include <string.h>

#include "rules/rules.h"
#include "util/i18n.h"
#include "util/path.h"
#include "util/str.h"

static bool gpu_expected(const struct facts *facts)
{
	const struct devnode *ctl = facts_devnode(facts, "/dev/nvidiactl");

	return facts->pci.count > 0 || (ctl && ctl->present) || (facts->container.wsl && facts->container.dev_dxg);
}

static void add_candidates(struct finding *f, const struct lib_choice *choice)
{
	for (int i = 0; i < choice->count; i++) {
		const struct lib_candidate *c = &choice->candidates[i];

		finding_evidence(f, c->soname, lib_origin_name(c->origin), "%s%s%s%s%s", c->path,
				 strcmp(c->path, c->resolved) ? " -> " : "", strcmp(c->path, c->resolved) ? c->resolved : "",
				 i == choice->chosen ? " (loaded)" : "", c->in_cache_dir_only ? " (not in ld.so.cache)" : "");
	}
}

static bool is_compat(const struct lib_candidate *c)
{
	return strstr(c->resolved, "/compat/") != NULL;
}

static void check_stub(const struct facts *facts, struct findings *out)
{
	const struct lib_candidate *c = lib_choice_chosen(&facts->libs.cuda);
	struct finding *f;
	char dir[FACT_PATH];

	if (!c || !c->is_stub)
		return;
	f = findings_add(out, CAUSE_CUDA_STUB_LIBRARY, SEV_ERROR,
			 "libcuda.so.1 resolves to the CUDA toolkit's stub library");
	finding_detail(f, "The toolkit ships stubs/libcuda.so so that programs can be linked on machines without a "
		       "driver; it contains no driver. A program that loads it gets CUDA_ERROR_STUB_LIBRARY (34): "
		       "\"CUDA driver is a stub library\". The stub directory is on the loader's path through %s.",
		       lib_origin_name(c->origin));
	add_candidates(f, &facts->libs.cuda);
	path_dirname(c->path, dir, sizeof(dir));
	if (c->origin == LIB_FROM_LD_LIBRARY_PATH)
		finding_fix(f, NULL, "remove %s from LD_LIBRARY_PATH (check ~/.bashrc, the Dockerfile's ENV, module files)", dir);
	else if (c->origin == LIB_FROM_PRELOAD)
		finding_fix(f, NULL, "remove %s from LD_PRELOAD", c->path);
	else {
		finding_fix(f, NULL, "remove the /etc/ld.so.conf.d entry that lists %s", dir);
		finding_fix(f, "sudo ldconfig", "rebuild the loader cache");
	}
}

static void check_missing(const struct facts *facts, struct findings *out)
{
	const struct libs_facts *libs = &facts->libs;
	const struct lib_candidate *cuda = lib_choice_chosen(&libs->cuda);
	const char *caps = facts_env(facts, "NVIDIA_DRIVER_CAPABILITIES");
	struct finding *f;

	if (fact_denied(&libs->cuda.status))
		return;	/* not found where we could not look */
	if (!gpu_expected(facts))
		return;
	if (cuda) {
		if (lib_choice_chosen(&libs->nvml))
			return;
		f = findings_add(out, CAUSE_CUDA_LIB_MISSING, SEV_WARNING, "libnvidia-ml.so.1 is missing");
		finding_detail(f, "libcuda.so.1 is there, but NVML (libnvidia-ml.so.1) is not: nvidia-smi, monitoring "
			       "and PyTorch's memory queries fail. %s", facts->container.in_container ?
			       N_("In a container, NVIDIA_DRIVER_CAPABILITIES must include 'utility'.") :
			       N_("The driver's utility package is not installed."));
		add_candidates(f, &libs->nvml);
		if (facts->container.in_container)
			finding_fix(f, NULL, "start the container with -e NVIDIA_DRIVER_CAPABILITIES=compute,utility");
		return;
	}
	f = findings_add(out, CAUSE_CUDA_LIB_MISSING, SEV_ERROR,
			 "the CUDA driver library libcuda.so.1 cannot be found");
	add_candidates(f, &libs->cuda);
	if (libs->cuda.count > 0) {
		finding_detail(f, "libcuda.so.1 exists on disk but not in /etc/ld.so.cache, so the dynamic loader does "
			       "not find it. The cache was not rebuilt after the driver's libraries were installed.");
		finding_fix(f, "sudo ldconfig", "rebuild the loader cache");
	} else if (facts->container.in_container && !facts_devnode(facts, "/dev/nvidiactl")) {
		finding_detail(f, "No GPU was given to this container, so neither its devices nor the driver's "
			       "libraries were injected.");
		finding_fix(f, NULL, "start the container with the GPU (see the root cause)");
	} else if (facts->container.in_container) {
		finding_detail(f, "The container has the device nodes but not the driver's libraries: the runtime "
			       "injects them only for the capabilities asked for (NVIDIA_DRIVER_CAPABILITIES=%s).",
			       caps ? caps : "unset");
		finding_fix(f, NULL, "start the container with --gpus all -e NVIDIA_DRIVER_CAPABILITIES=compute,utility");
	} else if (facts->container.wsl) {
		finding_detail(f, "Under WSL the CUDA driver library comes from Windows in /usr/lib/wsl/lib. It is %s.",
			       facts->container.wsl_libcuda ? N_("there but not on the loader's path") : N_("missing"));
		finding_fix(f, "echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig",
			    "put WSL's library directory on the loader path");
		finding_fix(f, NULL, "update the NVIDIA driver on Windows if /usr/lib/wsl/lib has no libcuda.so.1");
	} else if (!facts->kmod.nvidia && !facts->kmod.nvrm_version[0]) {
		finding_detail(f, "No NVIDIA driver is installed, so its CUDA library is missing too.");
		finding_fix(f, NULL, "install the NVIDIA driver (see the root cause)");
	} else {
		finding_detail(f, "The kernel side of the driver is present, but its user-space CUDA library is not "
			       "installed (on Debian and Ubuntu it is a separate package, libcuda1 or libnvidia-compute-<branch>).");
		if (facts->kmod.nvrm_version[0])
			finding_fix(f, NULL, "install the driver's CUDA library package of the same version as the kernel module, %s",
				    facts->kmod.nvrm_version);
		else
			finding_fix(f, NULL, "install the driver's CUDA library package of the same version as the kernel module");
	}
}

static void mismatch_one(const struct facts *facts, struct findings *out, const struct lib_choice *choice,
			 struct finding **f)
{
	const struct lib_candidate *c = lib_choice_chosen(choice);
	const char *kmod = facts->kmod.nvrm_version;

	if (!c || !c->version[0] || c->is_stub || is_compat(c) || !kmod[0] || strcmp(c->version, kmod) == 0)
		return;
	if (!*f) {
		bool upgraded = version_compare(c->version, kmod) > 0;

		*f = findings_add(out, CAUSE_DRIVER_LIBRARY_MISMATCH, SEV_ERROR,
				  "driver kernel module %s does not match its libraries %s", kmod, c->version);
		finding_detail(*f, "The kernel module and the user-space driver libraries must be the same version. "
			       "NVML fails with \"Driver/library version mismatch\" and CUDA with "
			       "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803). %s",
			       upgraded ? N_("The libraries are newer: the driver was upgraded (often by unattended "
					     "upgrades) and the old module is still loaded.")
					: N_("The libraries are older than the module: a stray copy of an older driver's "
					     "library is found first."));
		finding_evidence(*f, "kernel module", "/proc/driver/nvidia/version", "%s", kmod);
		if (upgraded) {
			finding_fix(*f, "sudo reboot", "reboot to load the new module (simplest)");
			finding_alternative(*f, "reload the modules without a reboot");
			finding_fix(*f, "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia nvidia_uvm",
				    "with no process using the GPU (stop the display manager first), reload the modules");
		} else {
			finding_fix(*f, NULL, "remove the stale %s (or its directory from LD_LIBRARY_PATH)", c->path);
		}
	}
	finding_evidence(*f, c->soname, lib_origin_name(c->origin), "%s (version %s)", c->resolved, c->version);
}

static void check_mismatch(const struct facts *facts, struct findings *out)
{
	struct finding *f = NULL;

	mismatch_one(facts, out, &facts->libs.cuda, &f);
	mismatch_one(facts, out, &facts->libs.nvml, &f);
}

/* A copy picked from LD_LIBRARY_PATH/LD_PRELOAD that differs from the system's. */
static void check_shadowing(const struct facts *facts, struct findings *out)
{
	const struct lib_choice *choice = &facts->libs.cuda;
	const struct lib_candidate *c = lib_choice_chosen(choice);
	struct finding *f;

	if (!c || (c->origin != LIB_FROM_LD_LIBRARY_PATH && c->origin != LIB_FROM_PRELOAD))
		return;
	for (int i = 0; i < choice->count; i++) {
		const struct lib_candidate *o = &choice->candidates[i];

		if (i == choice->chosen || o->origin == LIB_FROM_LD_LIBRARY_PATH || o->origin == LIB_FROM_PRELOAD ||
		    o->in_cache_dir_only || strcmp(o->resolved, c->resolved) == 0)
			continue;
		if (c->is_stub)
			return;	/* cuda.stub-library says it better */
		f = findings_add(out, CAUSE_ENV_LIBRARY_SHADOWING, SEV_WARNING,
				 "%s shadows the system's libcuda.so.1", lib_origin_name(c->origin));
		finding_stage(f, STAGE_USER_LIBS);	/* libcuda.so.1 here; torch's CUDA libraries at python */
		finding_detail(f, "The loader takes %s from %s before the system's copy %s%s. %s",
			       c->resolved, lib_origin_name(c->origin), o->resolved,
			       is_compat(c) ? " (a CUDA forward-compatibility library)" : "",
			       is_compat(c) ? "Forward compatibility works only on data-center GPUs and fails with error "
					      "804 on GeForce and workstation cards."
					    : "Every CUDA program started from this environment uses the other copy.");
		add_candidates(f, choice);
		finding_fix(f, NULL, "remove the directory of %s from %s unless you put it there on purpose", c->path,
			    lib_origin_name(c->origin));
		return;
	}
}

static const struct rule libs_rules[] = {
	{ CAUSE_CUDA_STUB_LIBRARY, check_stub },
	{ CAUSE_CUDA_LIB_MISSING, check_missing },
	{ CAUSE_DRIVER_LIBRARY_MISMATCH, check_mismatch },
	{ CAUSE_ENV_LIBRARY_SHADOWING, check_shadowing },
};

const struct rule_family rules_libs = { "libs", libs_rules, sizeof(libs_rules) / sizeof(libs_rules[0]) };
