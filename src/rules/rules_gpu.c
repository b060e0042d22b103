/*
 * rules_gpu.c - the device itself: present and on a full-width link (its health: rules_health.c).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "util/i18n.h"

static void check_no_gpu(const struct facts *facts, struct findings *out)
{
	const struct devnode *ctl = facts_devnode(facts, "/dev/nvidiactl");
	struct finding *f;

	if (facts->pci.count > 0 || (ctl && ctl->present) || (facts->container.wsl && facts->container.dev_dxg) ||
	    fact_denied(&facts->pci.status) || fact_denied(&facts->kmod.status))
		return;	/* what could not be read is not "no GPU" */
	f = findings_add(out, CAUSE_GPU_NONE, SEV_ERROR, "no NVIDIA GPU is visible on %s", facts_machine(facts));
	if (facts->container.wsl)
		finding_detail(f, "This is WSL, but /dev/dxg is missing: the Windows side exposes no GPU to this "
			       "distribution (WSL 1, or a Windows driver without WSL support).");
	else if (facts->pci.status.state != FACT_OK)
		finding_detail(f, "The PCI bus could not be listed (%s) and no /dev/nvidiactl exists, so no NVIDIA "
			       "GPU can be reached. CUDA programs, PyTorch included, will run on the CPU only.",
			       facts->pci.status.reason);
	else
		finding_detail(f, "No PCI device from NVIDIA (vendor 0x10de) with a display or 3D class is present. "
			       "CUDA programs, PyTorch included, can only run on the CPU here.%s%s",
			       facts->pci.other_display_count ? " Other display adapters: " : "",
			       facts->pci.other_display_count ? facts->pci.other_display : "");
	finding_evidence(f, "NVIDIA PCI devices", "/sys/bus/pci/devices", "0");
	if (facts->toolkits.count > 0)
		finding_evidence(f, "CUDA toolkits installed", N_("toolkit scan"), "%d (they need a GPU to run anything)",
				 facts->toolkits.count);
	finding_fix(f, "lspci -nn | grep -i nvidia", "confirm the bus sees no NVIDIA device");
	finding_fix(f, NULL, "in a VM or cloud instance, attach a GPU (PCI passthrough or a GPU instance type); "
		    "on a desktop, check the card is seated, powered and enabled in the firmware setup");
}

static void check_link(const struct facts *facts, struct findings *out)
{
	for (int i = 0; i < facts->pci.count; i++) {
		const struct pci_gpu *g = &facts->pci.gpus[i];
		struct finding *f;
		char cmd[128];

		if (g->link_width <= 0 || g->max_link_width <= 0 || g->link_width >= g->max_link_width)
			continue;
		f = findings_add(out, CAUSE_GPU_PCIE_DEGRADED, SEV_WARNING,
				 "GPU %s runs on x%d of its x%d PCIe lanes", g->address, g->link_width, g->max_link_width);
		finding_detail(f, "The link trained narrower than the device supports, which cuts host-device "
			       "bandwidth. Link *speed* drops at idle to save power, but the *width* should not: "
			       "a narrow link points at the slot, a riser, or the card's seating.");
		finding_evidence(f, "link width", g->sysfs_path, "x%d of x%d (speed %s, max %s)", g->link_width,
				 g->max_link_width, g->link_speed, g->max_link_speed);
		snprintf(cmd, sizeof(cmd), "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", g->address);
		finding_fix(f, cmd, "compare the link's capability with its status");
		finding_fix(f, NULL, "reseat the card or move it to a full x16 slot; check the firmware's lane settings");
	}
}

/*
 * Slurm's gres.conf against the driver: a node that promises more GPUs than it has gets jobs it cannot run
 * (slurmd also refuses to register with fewer than configured); one that promises fewer leaves GPUs idle.
 */
static void check_gres(const struct facts *facts, struct findings *out)
{
	const struct gres_facts *g = &facts->gres;
	int seen = facts->runtime.nvml_count;
	struct finding *f;

	if (g->status.state != FACT_OK || g->gpus < 0 || seen < 0 || seen == g->gpus)
		return;
	f = findings_add(out, CAUSE_GPU_GRES_MISMATCH, seen < g->gpus ? SEV_ERROR : SEV_WARNING,
			 "Slurm's gres.conf promises %s %d GPU%s; the driver lists %d", g->node[0] ? g->node : "this node",
			 g->gpus, g->gpus == 1 ? "" : "s", seen);
	if (seen < g->gpus)
		finding_detail(f, "Slurm offers jobs GPUs this node does not have: slurmd refuses to register a node with "
			       "fewer GPUs than configured, and a job given a missing one fails. A GPU lost by the driver "
			       "(see the other findings) is the usual reason; else gres.conf does not fit this node.");
	else
		finding_detail(f, "The GPUs beyond the %d in gres.conf are never given to jobs.", g->gpus);
	if (g->files[0])
		finding_evidence(f, "gres.conf", g->path, "line %lu: File=%s", g->line, g->files);
	else
		finding_evidence(f, "gres.conf", g->path, "Name=gpu for %s: %d", g->node, g->gpus);
	finding_evidence(f, "GPUs the driver lists", "NVML", "%d", seen);
	finding_fix(f, "nvidia-smi -L", "list the GPUs the driver sees, with their bus ids");
	finding_fix(f, NULL, "when a GPU is lost, see its own finding; when gres.conf is wrong, give it one File= entry "
		    "per GPU of this node (or AutoDetect=nvml), then restart slurmd");
}

static const struct rule gpu_rules[] = {
	{ CAUSE_GPU_NONE, check_no_gpu },
	{ CAUSE_GPU_PCIE_DEGRADED, check_link },
	{ CAUSE_GPU_GRES_MISMATCH, check_gres },
};

const struct rule_family rules_gpu = { "gpu", gpu_rules, sizeof(gpu_rules) / sizeof(gpu_rules[0]) };
