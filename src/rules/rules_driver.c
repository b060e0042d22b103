/*
 * rules_driver.c - the kernel driver and its device nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "rules/fixes.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

/* On the host of a real GPU, not in a container or WSL (where the kernel side is elsewhere). */
static bool bare_metal_gpu(const struct facts *facts)
{
	return facts->pci.count > 0 && !facts->container.in_container && !facts->container.wsl;
}

static bool driver_installed(const struct facts *facts)
{
	return facts->kmod.module_on_disk || facts->kmod.dkms_count > 0 || facts->libs.cuda.count > 0 ||
	       facts->kmod.nvidia_smi;
}

static const struct pci_gpu *gpu_bound_to(const struct facts *facts, const char *driver)
{
	for (int i = 0; i < facts->pci.count; i++)
		if (strcmp(facts->pci.gpus[i].driver, driver) == 0)
			return &facts->pci.gpus[i];
	return NULL;
}

static void add_gpu_evidence(struct finding *f, const struct facts *facts)
{
	for (int i = 0; i < facts->pci.count && i < 4; i++) {
		const struct pci_gpu *g = &facts->pci.gpus[i];

		finding_evidence(f, "GPU", g->sysfs_path, "%s %s [%04x:%04x], driver: %s", g->address,
				 g->name[0] ? g->name : "NVIDIA device", g->vendor, g->device,
				 g->driver[0] ? g->driver : "none");
	}
}

/* The newest driver branch that still drives g (data/arch_support.tsv), 0 when unlimited or unknown. */
static int gpu_last_branch(const struct pci_gpu *g, const char **source)
{
	struct kb_arch_support sup;

	if (!g->cc[0] || kb_arch_support(g->cc, &sup) < 0 || !sup.last_driver_branch[0])
		return 0;
	if (source)
		*source = "data/arch_support.tsv";	/* its row names NVIDIA's sources */
	return atoi(sup.last_driver_branch);
}

/* Bound to nvidia, or to vfio-pci (kept for a virtual machine on purpose): not a GPU the driver failed. */
static bool gpu_driven_or_reserved(const struct pci_gpu *g)
{
	return strcmp(g->driver, "nvidia") == 0 || strcmp(g->driver, "vfio-pci") == 0;
}

/* The first GPU whose last branch is older than the installed driver's (module, else libraries); NULL none. */
static const struct pci_gpu *gpu_dropped_by_branch(const struct facts *facts, int *last, const char **source)
{
	const char *drv = facts_driver_version(facts);
	int major = drv ? atoi(drv) : 0;

	for (int i = 0; major > 0 && i < facts->pci.count; i++) {
		int b = gpu_last_branch(&facts->pci.gpus[i], source);

		if (b > 0 && major > b && !gpu_driven_or_reserved(&facts->pci.gpus[i])) {
			*last = b;
			return &facts->pci.gpus[i];
		}
	}
	return NULL;
}

/* Without a GSP (GPU System Processor): older than Turing, compute capability 7.5 (data/arch_support.tsv). */
static bool gpu_lacks_gsp(const struct pci_gpu *g)
{
	return g->cc[0] && version_compare(g->cc, "7.5") < 0;
}

/* Whether the open kernel module is the one installed: loaded, or its refusal of a GPU in the kernel log. */
static bool open_module_installed(const struct facts *facts)
{
	return facts->kmod.open_kernel_module || facts->kernlog.gsp_refused ||
	       strcmp(facts->kmod.module_license, "Dual MIT/GPL") == 0;
}

/* The GPU the open module cannot drive: the one the kernel log names, else the first without a GSP. */
static const struct pci_gpu *gpu_refused_by_open_module(const struct facts *facts)
{
	const char *bus = facts->kernlog.gsp_bus_id;

	if (!open_module_installed(facts))
		return NULL;
	for (int i = 0; bus[0] && i < facts->pci.count; i++)
		if (strcasecmp(facts->pci.gpus[i].address, bus) == 0)
			return &facts->pci.gpus[i];
	for (int i = 0; i < facts->pci.count; i++)
		if (gpu_lacks_gsp(&facts->pci.gpus[i]) && !gpu_driven_or_reserved(&facts->pci.gpus[i]))
			return &facts->pci.gpus[i];
	return NULL;
}

static const char *gpu_display_name(const struct pci_gpu *g)
{
	return g->kb_name[0] ? g->kb_name : g->name[0] ? g->name : "NVIDIA GPU";
}

/* The open flavour's packages, as the distribution names them (NNN: the branch, when the version is known). */
static void open_packages(const struct facts *facts, char *out, size_t outsz)
{
	const char *drv = facts_driver_version(facts);
	char b[16] = "NNN";

	if (drv && atoi(drv) > 0)
		str_printf(b, sizeof(b), "%d", atoi(drv));
	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
		str_printf(out, outsz, "nvidia-driver-%s-open, with nvidia-dkms-%s-open or linux-modules-nvidia-%s-open-*; "
			   "from NVIDIA's repository: nvidia-open", b, b, b);
		break;
	case DISTRO_DEBIAN:
		str_printf(out, outsz, "nvidia-open-kernel-dkms (Debian's), or nvidia-open and nvidia-kernel-open-dkms "
			   "(NVIDIA's repository)");
		break;
	case DISTRO_RHEL:
		str_printf(out, outsz, "the nvidia-driver:open-dkms module stream's packages (nvidia-open, "
			   "kmod-nvidia-open-dkms)");
		break;
	case DISTRO_FEDORA:
		str_printf(out, outsz, "RPM Fusion's akmod-nvidia and xorg-x11-drv-nvidia (its current branch builds the "
			   "open module and conflicts with the legacy 580xx packages)");
		break;
	case DISTRO_ARCH:
		str_printf(out, outsz, "nvidia-open, nvidia-open-lts or nvidia-open-dkms (Arch's packages are the open "
			   "modules since 590)");
		break;
	default:
		str_printf(out, outsz, "the NVIDIA packages whose names end in -open");
		break;
	}
}

static void check_open_module_unsupported(const struct facts *facts, struct findings *out)
{
	const struct kernlog_facts *kl = &facts->kernlog;
	const struct pci_gpu *g;
	const char *limit_source = "data/arch_support.tsv";
	char packages[200];
	struct finding *f;
	int last;

	if (fact_denied(&facts->kmod.status) || !bare_metal_gpu(facts) || !(g = gpu_refused_by_open_module(facts)))
		return;
	last = gpu_last_branch(g, &limit_source);
	f = findings_add(out, CAUSE_DRIVER_OPEN_MODULE_UNSUPPORTED, SEV_ERROR,
			 "the open NVIDIA kernel module cannot drive the %s", gpu_display_name(g));
	finding_detail(f, "NVIDIA's open kernel modules run only on GPUs with a GSP (GPU System Processor): Turing "
		       "(compute capability 7.5) and newer. The %s is %s%s%s%s, so the open module refuses it and "
		       "nothing can use it for CUDA. Drivers 560 and newer install the open flavour by default on several "
		       "distributions; this GPU needs the proprietary flavour%s.",
		       gpu_display_name(g), g->arch[0] ? g->arch : N_("older than Turing"), g->cc[0] ? N_(" (compute capability ") : "",
		       g->cc, g->cc[0] ? N_(")") : "", last > 0 ? N_(", of a branch no newer than its last") : "");
	finding_evidence(f, "GPU", g->sysfs_path, "%s %s [%04x:%04x], %s, compute capability %s, driver: %s", g->address,
			 gpu_display_name(g), g->vendor, g->device, g->arch[0] ? g->arch : N_("architecture unknown"),
			 g->cc[0] ? g->cc : "unknown", g->driver[0] ? g->driver : "none");
	if (facts->kmod.open_kernel_module)
		finding_evidence(f, "kernel module flavour", "/proc/driver/nvidia/version", "%s", facts->kmod.nvrm_line);
	else if (strcmp(facts->kmod.module_license, "Dual MIT/GPL") == 0)
		finding_evidence(f, "kernel module flavour", facts->kmod.module_path, "open (license \"Dual MIT/GPL\")");
	if (kl->gsp_refused)
		finding_evidence(f, "kernel log", kl->source, "NVRM: The NVIDIA GPU %s%s%s%s is not supported by open nvidia.ko "
				 "because it does not include the required GPU System Processor (GSP)",
				 kl->gsp_bus_id[0] ? kl->gsp_bus_id : "(not named)", kl->gsp_pci_id[0] ? " (PCI ID: " : "",
				 kl->gsp_pci_id, kl->gsp_pci_id[0] ? ")" : "");
	if (kl->probe_failed)
		finding_evidence(f, "kernel log", kl->source, "probe with driver nvidia failed%s%s",
				 kl->probe_failed_bus_id[0] ? " for " : "", kl->probe_failed_bus_id);
	if (last > 0)
		finding_evidence(f, "last driver branch", limit_source, "%d for %s", last, g->arch[0] ? g->arch : g->cc);
	open_packages(facts, packages, sizeof(packages));
	finding_fix(f, NULL, "remove the open kernel module's packages: %s", packages);
	fix_install_driver(f, facts);
	finding_alternative(f, "if the driver came from NVIDIA's .run installer");
	if (last > 0)
		finding_fix(f, NULL, "run the installer of a branch no newer than %d again with "
			    "--kernel-module-type=proprietary (-m=kernel before 560), then reboot", last);
	else
		finding_fix(f, NULL, "run the installer again with --kernel-module-type=proprietary (-m=kernel before "
			    "560), then reboot");
}

static void check_not_installed(const struct facts *facts, struct findings *out)
{
	struct finding *f;

	if (fact_denied(&facts->kmod.status))
		return;	/* the module, its files or its nodes could not all be read */

	if (!bare_metal_gpu(facts) || facts->kmod.nvidia || facts->kmod.nvrm_version[0] || driver_installed(facts))
		return;
	f = findings_add(out, CAUSE_DRIVER_NOT_INSTALLED, SEV_ERROR, "the NVIDIA driver is not installed");
	finding_detail(f, "The GPU is on the bus, but there is no NVIDIA kernel module for kernel %s, no DKMS "
		       "build and no libcuda.so.1. %s",
		       facts->system.kernel_release,
		       gpu_bound_to(facts, "nouveau") ? N_("The open-source nouveau driver drives the display, "
							  "but it cannot run CUDA.") :
		       N_("Nothing can run CUDA until it is installed."));
	add_gpu_evidence(f, facts);
	finding_evidence(f, "nvidia kernel module", "/lib/modules", "none for %s", facts->system.kernel_release);
	finding_evidence(f, "libcuda.so.1", N_("loader search"), "not found");
	fix_install_driver(f, facts);
}

/* Which of the known reasons keeps an installed module from loading. */
static void explain_not_loaded(struct finding *f, const struct facts *facts)
{
	const struct kmod_facts *k = &facts->kmod;
	const struct pci_gpu *nouveau = gpu_bound_to(facts, "nouveau"), *vfio = gpu_bound_to(facts, "vfio-pci");
	const struct pci_gpu *refused, *dropped;
	const char *source = "data/arch_support.tsv";
	int last = 0;

	if (nouveau || k->nouveau) {
		finding_detail(f, "The open-source nouveau driver has claimed the GPU%s, so the NVIDIA module cannot "
			       "bind it. nouveau cannot run CUDA.%s", nouveau ? "" : " (nouveau is loaded)",
			       k->nouveau_blacklisted ? " nouveau is blacklisted, but the initramfs still loads it: "
							"rebuild the initramfs." : "");
		finding_evidence(f, "nouveau", nouveau ? nouveau->sysfs_path : "/proc/modules", "%s",
				 nouveau ? "bound to the GPU" : "loaded");
		if (!k->nouveau_blacklisted)
			fix_blacklist_nouveau(f, facts);
		else {
			fix_rebuild_initramfs(f, facts);
			finding_fix(f, "sudo reboot", "reboot so nouveau stays out");
		}
	} else if (vfio) {
		finding_detail(f, "The GPU is bound to vfio-pci, which reserves it for passthrough to a virtual "
			       "machine. The host cannot use it for CUDA while it is bound there.");
		finding_evidence(f, "vfio-pci", vfio->sysfs_path, "bound to %s", vfio->address);
		finding_fix(f, NULL, "remove the GPU's ids from vfio-pci.ids (kernel command line or /etc/modprobe.d) "
			    "and reboot, if the host should use it");
	} else if ((refused = gpu_refused_by_open_module(facts))) {
		finding_detail(f, "The open kernel module is installed, and it cannot drive the %s (%s): see "
			       "driver.open-module-unsupported.", gpu_display_name(refused), refused->address);
	} else if ((dropped = gpu_dropped_by_branch(facts, &last, &source))) {
		const char *drv = facts_driver_version(facts);

		finding_detail(f, "Driver %s (branch %d) no longer supports the %s: %d is the last branch for %s GPUs, so "
			       "the module ignores it%s. Install a driver of branch %d (or older), the newest that drives it.",
			       drv, atoi(drv), gpu_display_name(dropped), last, dropped->arch[0] ? dropped->arch : "these",
			       facts->kernlog.no_gpu_found ? " and, finding no other GPU, does not load" : "", last);
		finding_evidence(f, "driver version", facts_driver_version_source(facts), "%s", drv);
		finding_evidence(f, "last driver branch", source, "%d for %s (compute capability %s)", last,
				 dropped->arch[0] ? dropped->arch : gpu_display_name(dropped), dropped->cc);
		if (facts->kernlog.legacy_branch[0])
			finding_evidence(f, "kernel log", facts->kernlog.source, "the %s GPU is supported through the NVIDIA "
					 "%s Legacy drivers; the %s NVIDIA driver will ignore it", facts->kernlog.legacy_gpu,
					 facts->kernlog.legacy_branch, facts->kernlog.legacy_ignoring[0] ?
					 facts->kernlog.legacy_ignoring : drv);
		if (facts->kernlog.no_gpu_found)
			finding_evidence(f, "kernel log", facts->kernlog.source, "NVRM: No NVIDIA GPU found.");
		finding_fix(f, NULL, "remove the packages of driver branch %d (the package manager's list of installed "
			    "nvidia packages names them)", atoi(drv));
		fix_install_driver(f, facts);
	} else if (k->on_disk_status.state == FACT_OK && !k->module_on_disk) {
		finding_detail(f, "No nvidia module is built for the running kernel %s. This happens after a kernel "
			       "update when DKMS could not build the module (missing kernel headers).%s",
			       facts->system.kernel_release,
			       !k->dkms_count ? "" : k->dkms_built_for_kernel ?
			       " DKMS built it for this kernel but did not install it into /lib/modules." :
			       " DKMS knows the driver source, but has no build for this kernel.");
		finding_evidence(f, "nvidia.ko", "/lib/modules", "missing for %s", facts->system.kernel_release);
		if (k->dkms_count)
			finding_evidence(f, "DKMS nvidia", "/var/lib/dkms/nvidia", "%s, built for this kernel: %s",
					 k->dkms_versions[0], k->dkms_built_for_kernel ? "yes" : "no");
		fix_rebuild_module(f, facts);
	} else if (k->secure_boot == 1 && (!k->module_signature_known || !k->module_signed)) {
		finding_detail(f, "Secure Boot is on and the nvidia module is %s. The kernel refuses to load modules "
			       "whose signing key is not enrolled.",
			       k->module_signature_known ? "not signed" : "probably signed by a key the firmware does not trust");
		finding_evidence(f, "Secure Boot", k->secure_boot_source, "enabled");
		finding_evidence(f, "module", k->module_path, "%s", k->module_signature_known ? "unsigned" : "signature unknown");
		finding_fix(f, "sudo mokutil --import /var/lib/dkms/mok.pub",
			    "enroll the DKMS signing key (mokutil asks for a one-time password)");
		finding_fix(f, "sudo reboot", "reboot and confirm the key in the blue MOK manager screen");
		finding_alternative(f, "switch Secure Boot off instead (the firmware then loads unsigned modules)");
		finding_fix(f, NULL, "disable Secure Boot in the firmware setup, then boot again");
	} else if (facts->kmod.nvidia) {
		finding_detail(f, "The nvidia module is loaded but has not bound the GPU. The installed driver may not "
			       "support this GPU (too new for an old driver branch, or a legacy GPU dropped by a new "
			       "one); the kernel log says which.");
		if (facts->kernlog.release_refused)
			finding_evidence(f, "kernel log", facts->kernlog.source, "the GPU %s is not supported by the NVIDIA "
					 "%s driver release", facts->kernlog.release_refused_bus_id[0] ?
					 facts->kernlog.release_refused_bus_id : "(not named)", k->nvrm_version);
		finding_fix(f, "sudo dmesg | grep -i nvrm", "read why the driver did not take the device");
	} else {
		finding_detail(f, "The driver is installed (%s) but its kernel module is not loaded.",
			       k->module_on_disk ? k->module_path : N_("user-space parts found"));
		finding_fix(f, "sudo modprobe nvidia", "load the module; if it fails, the message says why");
		finding_fix(f, "sudo dmesg | grep -i nvrm", "read the driver's kernel messages");
	}
}

static void check_not_loaded(const struct facts *facts, struct findings *out)
{
	const struct kmod_facts *k = &facts->kmod;
	struct finding *f;
	bool unbound = false;

	if (fact_denied(&facts->kmod.status))
		return;	/* the module, its files or its nodes could not all be read */

	if (!bare_metal_gpu(facts))
		return;
	for (int i = 0; i < facts->pci.count; i++) {
		const char *drv = facts->pci.gpus[i].driver;

		/* A GPU kept on vfio-pci beside ones on nvidia is reserved for a VM on purpose. */
		if (strcmp(drv, "nvidia") != 0 && !(strcmp(drv, "vfio-pci") == 0 && gpu_bound_to(facts, "nvidia")))
			unbound = true;
	}
	if ((k->nvidia || k->nvrm_version[0]) && !unbound)
		return;
	if (!k->nvidia && !k->nvrm_version[0] && !driver_installed(facts))
		return;	/* driver.not-installed */
	f = findings_add(out, CAUSE_DRIVER_NOT_LOADED, SEV_ERROR,
			 k->nvidia ? "the NVIDIA driver does not drive the GPU" : "the NVIDIA kernel module is not loaded");
	add_gpu_evidence(f, facts);
	finding_evidence(f, "nvidia module", "/proc/modules", "%s", k->nvidia ? N_("loaded") : N_("not loaded"));
	explain_not_loaded(f, facts);
}

static void check_too_old(const struct facts *facts, struct findings *out)
{
	const char *drv = facts_driver_version(facts);
	int major = kb_cuda_oldest_compat_major();
	struct kb_answer floor, max;
	struct finding *f;

	if (!drv || major < 0 || kb_cuda_minor_compat_driver(major, &floor) < 0 || version_compare(drv, floor.value) >= 0)
		return;
	f = findings_add(out, CAUSE_DRIVER_TOO_OLD, SEV_ERROR, "NVIDIA driver %s is too old for CUDA %d and later", drv, major);
	if (kb_cuda_max_for_driver(drv, &max) == 0)
		finding_detail(f, "Driver %s supports CUDA up to %s. Programs built for CUDA %d.x need at least driver %s, "
			       "so current PyTorch, TensorFlow and JAX builds cannot use this GPU.", drv, max.value, major, floor.value);
	else
		finding_detail(f, "Driver %s is older than any CUDA release in the tables. Programs built for CUDA "
			       "%d.x need at least driver %s.", drv, major, floor.value);
	finding_evidence(f, "driver version", facts_driver_version_source(facts), "%s", drv);
	finding_evidence(f, "minimum for CUDA minor-version compatibility", floor.source, "%d.x needs %s", major, floor.value);
	fix_torch_plan(f, facts, PROBLEM_DRIVER_TOO_OLD);
}

static bool node_usable(const struct devnode *n)
{
	return n && n->present && n->can_read && n->can_write;
}

static void check_device_nodes(const struct facts *facts, struct findings *out)
{
	const struct kmod_facts *k = &facts->kmod;
	const struct devnode *ctl = facts_devnode(facts, "/dev/nvidiactl");
	const struct devnode *uvm = facts_devnode(facts, "/dev/nvidia-uvm");
	bool gpu_node = false;
	struct finding *f;

	if (fact_denied(&facts->kmod.status))
		return;	/* the module, its files or its nodes could not all be read */

	for (int i = 0; i < k->node_count; i++)
		if (str_is_digits(k->nodes[i].path + strlen("/dev/nvidia")) && str_starts_with(k->nodes[i].path, "/dev/nvidia"))
			gpu_node = true;
	if (!k->nvidia && !(facts->container.in_container && ctl))
		return;
	if (facts->container.in_container && !ctl)
		return;	/* no GPU was given to the container: container.no-gpu says so */
	if (ctl && gpu_node && (uvm || (!k->nvidia_uvm && k->nvidia_modprobe)))
		return;
	f = findings_add(out, CAUSE_DRIVER_DEVICE_MISSING, SEV_ERROR, "NVIDIA device nodes are missing");
	finding_detail(f, "CUDA opens /dev/nvidiactl, /dev/nvidiaN and /dev/nvidia-uvm. %s",
		       !uvm && ctl && gpu_node ? N_("/dev/nvidia-uvm is missing: without the nvidia_uvm module CUDA "
					        "fails to initialise (cuInit returns 999 or 100).")
					      : N_("The module is loaded but the nodes were not created (no udev rule "
						"or nvidia-modprobe ran)."));
	finding_evidence(f, "/dev/nvidiactl", "/dev", "%s", ctl ? "present" : "missing");
	finding_evidence(f, "/dev/nvidiaN", "/dev", "%s", gpu_node ? "present" : "missing");
	finding_evidence(f, "/dev/nvidia-uvm", "/dev", "%s", uvm ? "present" : "missing");
	finding_evidence(f, "nvidia_uvm module", "/proc/modules", "%s", k->nvidia_uvm ? N_("loaded") : N_("not loaded"));
	if (facts->container.in_container) {
		finding_fix(f, NULL, "restart the container with --gpus all (or the runtime's device request) so every node is injected");
	} else {
		finding_fix(f, "sudo modprobe nvidia-uvm", "load the unified-memory module CUDA needs");
		finding_fix(f, "sudo nvidia-modprobe -u -c=0", "create /dev/nvidia-uvm and /dev/nvidia0 (nvidia-smi run as root also creates them)");
	}
}

static void check_device_permission(const struct facts *facts, struct findings *out)
{
	const struct kmod_facts *k = &facts->kmod;
	const struct user_facts *u = &facts->system.user;
	struct finding *f = NULL;
	const struct devnode *first = NULL;

	if (fact_denied(&facts->kmod.status))
		return;	/* the module, its files or its nodes could not all be read */

	for (int i = 0; i < k->node_count; i++) {
		const struct devnode *n = &k->nodes[i];
		const char *tail = n->path + strlen("/dev/nvidia");

		if (!str_starts_with(n->path, "/dev/nvidia") || str_starts_with(n->path, "/dev/nvidia-caps") ||
		    !(str_is_digits(tail) || strcmp(tail, "ctl") == 0 || strcmp(tail, "-uvm") == 0))
			continue;
		if (node_usable(n))
			continue;
		if (!f) {
			f = findings_add(out, CAUSE_DRIVER_DEVICE_PERMISSION, SEV_ERROR,
					 "user '%s' cannot open the NVIDIA device nodes", u->name);
			first = n;
		}
		finding_evidence(f, n->path, n->from_standin ? N_("device node stand-in") : "/dev",
				 "mode %03o, owner %s, group %s; %s %s, %s", n->mode, n->owner, n->group, u->name,
				 n->can_read ? N_("can read") : N_("cannot read"),
				 n->can_write ? N_("can write") : N_("cannot write"));
	}
	if (!f)
		return;
	finding_detail(f, "CUDA needs read and write access to /dev/nvidiactl, /dev/nvidia-uvm and each "
		       "/dev/nvidiaN. Without it, cuInit fails with CUDA_ERROR_NO_DEVICE or "
		       "CUDA_ERROR_OPERATING_SYSTEM and torch.cuda.is_available() returns False.");
	if (first && ((first->mode >> 3) & 6) == 6 && strcmp(first->group, "root") != 0) {
		char cmd[160];

		str_printf(cmd, sizeof(cmd), "sudo usermod -aG %s %s", first->group, u->name);
		finding_fix(f, cmd, "add the user to the group that owns the devices");
		finding_fix(f, NULL, "log out and in again (or run `newgrp %s`) for the group to apply", first->group);
	} else {
		finding_fix(f, NULL, "the driver normally creates the nodes with mode 0666: check NVreg_DeviceFileMode, "
			    "NVreg_DeviceFileGID and NVreg_DeviceFileUID in /etc/modprobe.d and any udev rule changing them");
	}
}

static const struct rule driver_rules[] = {
	{ CAUSE_DRIVER_NOT_INSTALLED, check_not_installed },
	{ CAUSE_DRIVER_OPEN_MODULE_UNSUPPORTED, check_open_module_unsupported },
	{ CAUSE_DRIVER_NOT_LOADED, check_not_loaded },
	{ CAUSE_DRIVER_TOO_OLD, check_too_old },
	{ CAUSE_DRIVER_DEVICE_MISSING, check_device_nodes },
	{ CAUSE_DRIVER_DEVICE_PERMISSION, check_device_permission },
};

const struct rule_family rules_driver = { "driver", driver_rules, sizeof(driver_rules) / sizeof(driver_rules[0]) };
