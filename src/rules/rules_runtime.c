/*
 * rules_runtime.c - what the driver itself said when called: init results,
 * hangs and crashes, and the cross-check of PCI vs NVML vs CUDA devices.
 *
 * Result codes are those of NVIDIA's public headers (nvml.h nvmlReturn_t,
 * cuda.h CUresult; names and numbers in data/error_codes.tsv). When a
 * static rule already named the same cause, the driver's answer joins it
 * as evidence in the reconcile step instead of standing as a second finding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

struct code_cause {
	const char *api;	/* "nvml" or "cuda" */
	int code;
	enum cause_id cause;
	enum severity severity;
	const char *title;
	const char *detail;
	const char *fix_text;
	const char *fix_command;
};

/* Init results that occur in practice, and what they mean. */
static const struct code_cause code_causes[] = {
	{ "nvml", 18, CAUSE_DRIVER_LIBRARY_MISMATCH, SEV_ERROR,
	  N_("NVML: Driver/library version mismatch"),
	  N_("The kernel module that is loaded is not the version of the user-space libraries. This is what happens "
	  "when the driver package is upgraded while the old module stays loaded."),
	  N_("reboot to load the module that matches the libraries"), "sudo reboot" },
	{ "cuda", 803, CAUSE_DRIVER_LIBRARY_MISMATCH, SEV_ERROR,
	  N_("cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)"),
	  N_("libcuda.so.1 and the kernel module are different driver versions. In a container this is usually a CUDA "
	  "forward-compatibility library (cuda-compat) that the host's driver cannot serve."),
	  N_("reboot after a driver upgrade; in a container, drop the compat directory from LD_LIBRARY_PATH"), NULL },
	{ "nvml", 9, CAUSE_DRIVER_NOT_LOADED, SEV_ERROR, N_("NVML: the NVIDIA driver is not loaded"),
	  N_("NVML found its library but no running kernel driver."), N_("load the driver"), "sudo modprobe nvidia" },
	{ "nvml", 4, CAUSE_DRIVER_DEVICE_PERMISSION, SEV_ERROR, N_("NVML: no permission to use the GPU"),
	  N_("The user may not open the NVIDIA device nodes."), N_("see the device node permissions in the facts"), NULL },
	{ "nvml", 17, CAUSE_DRIVER_DEVICE_PERMISSION, SEV_ERROR,
	  N_("NVML: the operating system blocked access to the GPU"),
	  N_("The device nodes exist, but opening them is refused: inside a container, the cgroup device rules do not "
	  "allow them (the container was given the files but not the devices)."),
	  N_("restart the container with the GPU requested (--gpus all, or the pod's nvidia.com/gpu limit)"), NULL },
	{ "cuda", 304, CAUSE_DRIVER_DEVICE_PERMISSION, SEV_ERROR,
	  N_("cuInit: CUDA_ERROR_OPERATING_SYSTEM (304)"),
	  N_("The operating system refused CUDA access to the GPU: device-node permissions, or cgroup device rules in "
	  "a container."), N_("restart the container with the GPU requested, or fix the node permissions"), NULL },
	{ "nvml", 15, CAUSE_GPU_HARDWARE_FAULT, SEV_ERROR, N_("NVML: the GPU is lost"),
	  N_("The driver reports that the GPU has fallen off the bus or become inaccessible (Xid 79 in the kernel log)."),
	  N_("reboot; if it recurs, check power, cooling and seating"), "sudo dmesg | grep -i xid" },
	{ "nvml", 16, CAUSE_GPU_HARDWARE_FAULT, SEV_ERROR, N_("NVML: the GPU needs a reset"),
	  N_("The driver reports that the GPU must be reset before it can be used again."),
	  N_("reset the GPU when no process uses it, or reboot"), "sudo nvidia-smi -r" },
	{ "cuda", 34, CAUSE_CUDA_STUB_LIBRARY, SEV_ERROR, N_("cuInit: CUDA_ERROR_STUB_LIBRARY (34)"),
	  N_("The libcuda.so.1 that was loaded is the CUDA toolkit's stub, which contains no driver."),
	  N_("remove the toolkit's stubs directory from LD_LIBRARY_PATH and /etc/ld.so.conf.d"), NULL },
	{ "cuda", 46, CAUSE_GPU_MIG_OR_COMPUTE_MODE, SEV_ERROR,
	  N_("cuInit: CUDA_ERROR_DEVICE_UNAVAILABLE (46)"),
	  N_("All CUDA devices are busy or unavailable: a GPU in exclusive-process compute mode already used by another "
	  "process, or in prohibited mode."), N_("see the compute mode in the facts; set it back to default"),
	  "sudo nvidia-smi -c DEFAULT" },
	{ "cuda", 804, CAUSE_CUDA_INIT_FAILED, SEV_ERROR,
	  N_("cuInit: CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)"),
	  N_("A CUDA forward-compatibility library is in use, and forward compatibility works only on data-center GPUs "
	  "with supported drivers. On GeForce and most workstation GPUs it fails with this error."),
	  N_("remove the compat directory (e.g. /usr/local/cuda/compat) from LD_LIBRARY_PATH, or upgrade the host driver"), NULL },
	{ "cuda", 999, CAUSE_CUDA_INIT_FAILED, SEV_ERROR, N_("cuInit: CUDA_ERROR_UNKNOWN (999)"),
	  N_("CUDA failed to initialise without a reason. The usual cause is a suspend and resume, after which the "
	  "nvidia_uvm module is left in a bad state; Xid errors in the kernel log are the other one."),
	  N_("reload the unified-memory module (no CUDA process may be running), or reboot"),
	  "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm" },
	{ "cuda", 100, CAUSE_CUDA_INIT_FAILED, SEV_ERROR, N_("cuInit: CUDA_ERROR_NO_DEVICE (100)"),
	  N_("The CUDA driver found no usable device: the device nodes or nvidia_uvm are missing, or the GPU is "
	  "hidden from this process."), N_("check the device nodes and nvidia_uvm (see the facts)"), NULL },
};

static const struct code_cause *cause_for(const char *api, int code)
{
	for (size_t i = 0; i < sizeof(code_causes) / sizeof(code_causes[0]); i++)
		if (strcmp(code_causes[i].api, api) == 0 && code_causes[i].code == code)
			return &code_causes[i];
	return NULL;
}

/*
 * A finding from the driver's answer: it joins the finding that already
 * names the same cause (a static rule's, or one made earlier here) in the
 * reconcile step; standing alone it keeps what is set on it here.
 */
static struct finding *add_joining(struct findings *out, enum cause_id cause, enum severity sev, const char *title)
{
	struct finding *f = findings_add(out, cause, sev, "%s", title);

	finding_joins(f, cause);
	return f;
}

static const char *init_call(const char *api)
{
	return strcmp(api, "nvml") == 0 ? "nvmlInit_v2" : "cuInit";
}

static void report_init(struct findings *out, const char *api, const struct rt_library *lib)
{
	const struct code_cause *c;
	struct finding *f;

	if (!lib->init_done || lib->init == 0)
		return;
	c = cause_for(api, lib->init);
	if (!c) {
		f = findings_add(out, CAUSE_CUDA_INIT_FAILED, strcmp(api, "nvml") == 0 ? SEV_WARNING : SEV_ERROR,
				 "%s", strcmp(api, "nvml") == 0 ? "NVML failed to initialise" : "cuInit failed");
		finding_detail(f, "The driver refused to initialise with %s. Other findings and the kernel log "
			       "(`sudo dmesg | grep -i nvrm`) usually say why.", lib->init_name);
	} else {
		f = findings_add(out, c->cause, c->severity, "%s", c->title);
		finding_detail(f, "%s", c->detail);
		finding_fix(f, c->fix_command, "%s", c->fix_text);
	}
	finding_evidence(f, init_call(api), lib->path, "%s (%d)", lib->init_name, lib->init);
	/*
	 * "No device" while CUDA_VISIBLE_DEVICES hides them: the static rule (or
	 * the UUID/MIG check here) already named the variable, and cuInit's
	 * answer confirms it. A MIG GPU without instances or a closed compute
	 * mode explains "no device" and "busy". A valid-looking variable leaves
	 * the code to its usual meaning.
	 */
	if (strcmp(api, "cuda") == 0 && (lib->init == 100 || lib->init == 101))
		finding_joins(f, CAUSE_ENV_VISIBLE_DEVICES);
	if (strcmp(api, "cuda") == 0 && (lib->init == 100 || lib->init == 46))
		finding_joins(f, CAUSE_GPU_MIG_OR_COMPUTE_MODE);
	finding_joins(f, f ? f->cause : CAUSE_CUDA_INIT_FAILED);
}

static void check_hung(const struct facts *facts, struct findings *out)
{
	const struct runtime_facts *rt = &facts->runtime;
	struct finding *f;

	if (rt->hung) {
		f = findings_add(out, CAUSE_DRIVER_HUNG, SEV_ERROR,
				 "the NVIDIA driver did not answer: %s hung for %.*f s", rt->last_call,
				 rt->timeout_s < 1 ? 1 : 0, rt->timeout_s);
		finding_detail(f, "A call into the driver blocked until gpudoctor gave up on it. nvidia-smi and every CUDA "
			       "program will hang the same way. The GPU or the driver is wedged, usually after an Xid "
			       "error, a GPU that fell off the bus, or a process stuck in the kernel.");
		finding_evidence(f, "call in progress", N_("driver helper"), "%s", rt->last_call);
		if (rt->helper_stuck)
			finding_evidence(f, "helper process", N_("driver helper"), "pid %d did not exit when killed: it is "
					 "asleep in the kernel, inside the driver", rt->helper_pid);
		finding_fix(f, "sudo dmesg | grep -iE 'xid|nvrm'", "read what the driver logged");
		finding_fix(f, "ps -eo pid,stat,cmd | awk '$2 ~ /D/'", "look for processes stuck in the kernel");
		finding_fix(f, "sudo reboot", "a reboot clears a wedged driver");
	} else if (rt->crashed) {
		f = findings_add(out, CAUSE_DRIVER_CRASHED, SEV_ERROR,
				 "the NVIDIA driver library crashed in %s (signal %d)", rt->last_call, rt->signal);
		finding_detail(f, "Calling the driver killed the helper process gpudoctor runs it in. A library that "
			       "crashes when called is broken or does not belong to this driver (a copied or "
			       "partially upgraded libcuda/libnvidia-ml).");
		finding_evidence(f, "call in progress", N_("driver helper"), "%s", rt->last_call);
		if (rt->cuda_lib.path[0])
			finding_evidence(f, "libcuda.so.1", "dlopen", "%s", rt->cuda_lib.path);
		if (rt->nvml_lib.path[0])
			finding_evidence(f, "libnvidia-ml.so.1", "dlopen", "%s", rt->nvml_lib.path);
		finding_fix(f, NULL, "reinstall the driver package so its libraries match the kernel module");
	}
}

/* A library that is there but cannot be loaded (wrong architecture, a missing dependency, corrupt). */
static void report_load(struct findings *out, const char *soname, const struct rt_library *lib, enum severity sev)
{
	struct finding *f;

	if (!lib->attempted || lib->loaded || !lib->load_error[0])
		return;
	f = add_joining(out, CAUSE_CUDA_INIT_FAILED, sev, N_("the driver library cannot be loaded"));
	finding_stage(f, STAGE_USER_LIBS);
	finding_detail(f, "The loader finds %s but cannot load it. Every CUDA program fails the same way.", soname);
	finding_evidence(f, soname, "dlopen", "%s", lib->load_error);
	finding_fix(f, NULL, "reinstall the driver's libraries (same version as the kernel module); for a 32-bit or "
		    "foreign-architecture copy, remove it from the library path");
}

static void check_init(const struct facts *facts, struct findings *out)
{
	report_load(out, "libcuda.so.1", &facts->runtime.cuda_lib, SEV_ERROR);
	report_load(out, "libnvidia-ml.so.1", &facts->runtime.nvml_lib, SEV_WARNING);
	report_init(out, "nvml", &facts->runtime.nvml_lib);
	report_init(out, "cuda", &facts->runtime.cuda_lib);
}

/* 00000000:01:00.0 (NVML) and 0000:01:00.0 (sysfs) name the same device. */
static void check_modes(const struct facts *facts, struct findings *out)
{
	const struct runtime_facts *rt = &facts->runtime;
	struct finding *f = NULL;

	for (int i = 0; i < rt->nvml_ndev; i++) {
		const struct nvml_device *d = &rt->nvml[i];
		bool mig_empty = d->mig_current == 1 && d->mig_instances == 0;
		bool closed = d->compute_mode == 2 || d->compute_mode == 3;
		char cmd[64];

		if (!mig_empty && !closed)
			continue;
		if (!f) {
			f = add_joining(out, CAUSE_GPU_MIG_OR_COMPUTE_MODE, SEV_WARNING,
					mig_empty ? N_("a GPU is in MIG mode with no instances")
						  : d->compute_mode == 2 ? N_("a GPU is in prohibited compute mode")
									 : N_("a GPU is in exclusive-process compute mode"));
			finding_detail(f, "With MIG enabled, CUDA sees only MIG instances, so a MIG GPU without instances "
				       "is invisible to CUDA. In prohibited compute mode no process may create a CUDA "
				       "context; in exclusive-process mode only one at a time (a second one gets \"all "
				       "CUDA-capable devices are busy or unavailable\").");
		}
		if (f && (mig_empty || d->compute_mode == 2))
			f->severity = SEV_ERROR;
		if (mig_empty) {
			finding_evidence(f, "MIG mode", "NVML", "GPU %d (%s): enabled, 0 instances", i, d->name);
			if (!findings_fix_has(f, "sudo nvidia-smi mig -lgip"))
				finding_fix(f, "sudo nvidia-smi mig -lgip", "list the GPU instance profiles the GPUs offer");
			finding_fix(f, NULL, "create instances with `sudo nvidia-smi mig -i %d -cgi PROFILE_IDS -C`", i);
			snprintf(cmd, sizeof(cmd), "sudo nvidia-smi -i %d -mig 0", i);
			finding_alternative(f, "switch MIG off on GPU %d instead", i);
			finding_fix(f, cmd, "switch MIG off on this GPU (then reset it)");
		} else {
			finding_evidence(f, "compute mode", "NVML", "GPU %d (%s): %s", i, d->name,
					 d->compute_mode == 2 ? "prohibited" : "exclusive_process");
			snprintf(cmd, sizeof(cmd), "sudo nvidia-smi -i %d -c DEFAULT", i);
			finding_fix(f, cmd, "set the compute mode back to default");
		}
	}
}

static void check_persistence(const struct facts *facts, struct findings *out)
{
	const struct runtime_facts *rt = &facts->runtime;
	int off = 0;
	struct finding *f;

	for (int i = 0; i < rt->nvml_ndev; i++)
		off += rt->nvml[i].persistence == 0;
	if (rt->nvml_ndev < 2 || off == 0 || facts->container.in_container || facts->container.wsl)
		return;
	f = findings_add(out, CAUSE_GPU_PERSISTENCE_OFF, SEV_INFO,
			 "persistence mode is off on %d of %d GPUs", off, rt->nvml_ndev);
	finding_detail(f, "Without persistence, the driver tears each GPU down when the last process exits and "
		       "sets it up again for the next one, adding seconds to every start and letting settings reset.");
	for (int i = 0; i < rt->nvml_ndev; i++)
		if (rt->nvml[i].persistence == 0)
			finding_evidence(f, "persistence mode", "NVML", "GPU %d (%s): off", i, rt->nvml[i].bus_id);
	finding_fix(f, "sudo systemctl enable --now nvidia-persistenced", "run the persistence daemon");
}

/* UUIDs and MIG ids in CUDA_VISIBLE_DEVICES checked against what NVML lists. */
static void check_visible_ids(const struct facts *facts, struct findings *out)
{
	const struct runtime_facts *rt = &facts->runtime;
	const char *value = facts_env(facts, "CUDA_VISIBLE_DEVICES");
	char buf[1024], *next;
	bool any_mig = false;
	int pos = 0;

	if (!value || rt->nvml_ndev == 0)
		return;
	for (int i = 0; i < rt->nvml_ndev; i++)
		any_mig |= rt->nvml[i].mig_current == 1;
	str_copy(buf, sizeof(buf), value);
	for (char *tok = buf; tok; tok = next, pos++) {
		const char *problem = NULL;

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		str_trim(tok);
		if (!str_is_digits(tok) && !str_starts_with(tok, "GPU-") && !str_starts_with(tok, "MIG-"))
			return;	/* CUDA stops here; the static rule judges such entries */
		if (str_starts_with(tok, "GPU-")) {
			bool found = false;

			for (int i = 0; i < rt->nvml_ndev; i++)
				found |= str_starts_with(rt->nvml[i].uuid, tok);
			if (!found)
				problem = N_("names a GPU UUID this machine does not have");
		} else if (str_starts_with(tok, "MIG-") && !any_mig) {
			problem = N_("names a MIG instance, but MIG is off on every GPU");
		} else if (str_is_digits(tok) && facts->pci.count == 0 && rt->nvml_count >= 0 &&
			   atoi(tok) >= rt->nvml_count) {
			problem = N_("names an index beyond the GPUs the driver lists");
		}
		if (problem) {
			struct finding *f = findings_add(out, CAUSE_ENV_VISIBLE_DEVICES, pos == 0 ? SEV_ERROR : SEV_WARNING,
							 "CUDA_VISIBLE_DEVICES entry \"%s\" %s", tok, problem);

			/* the static rule judges a value it can read alone; this one what only the driver shows */
			finding_unless(f, CAUSE_ENV_VISIBLE_DEVICES);
			finding_detail(f, "CUDA stops reading CUDA_VISIBLE_DEVICES at the first entry it cannot use, so %s.",
				       pos == 0 ? "no GPU is visible" : "the entries after it are dropped too");
			finding_evidence(f, "CUDA_VISIBLE_DEVICES", N_("environment"), "\"%s\"", value);
			for (int i = 0; i < rt->nvml_ndev && i < 8; i++)
				finding_evidence(f, "GPU", "NVML", "%d: %s%s", i, rt->nvml[i].uuid,
						 rt->nvml[i].mig_current == 1 ? " (MIG on)" : "");
			finding_fix(f, NULL, "use `nvidia-smi -L` for the exact UUIDs (and MIG ids)");
			return;
		}
	}
}

/* The checks that name a specific cause come first: init results then join them as evidence. */
static const struct rule runtime_rules[] = {
	{ CAUSE_ENV_VISIBLE_DEVICES, check_visible_ids },
	{ CAUSE_GPU_MIG_OR_COMPUTE_MODE, check_modes },
	{ CAUSE_DRIVER_HUNG, check_hung },
	{ CAUSE_CUDA_INIT_FAILED, check_init },
	{ CAUSE_GPU_PERSISTENCE_OFF, check_persistence },
};

const struct rule_family rules_runtime = { "runtime", runtime_rules, sizeof(runtime_rules) / sizeof(runtime_rules[0]) };

/* A watcher's driver calls: only whether they hung or crashed (the rest is the doctor's once). */
static const struct rule calls_rules[] = {
	{ CAUSE_DRIVER_HUNG, check_hung },
};

const struct rule_family rules_driver_calls = { "driver calls", calls_rules, sizeof(calls_rules) / sizeof(calls_rules[0]) };
