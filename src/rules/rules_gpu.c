/*
 * rules_gpu.c - the device itself: present and on a full-width link (its health: rules_health.c).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"

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
		finding_evidence(f, "CUDA toolkits installed", "toolkit scan", "%d (they need a GPU to run anything)",
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

static const struct rule gpu_rules[] = {
	{ CAUSE_GPU_NONE, check_no_gpu },
	{ CAUSE_GPU_PCIE_DEGRADED, check_link },
};

const struct rule_family rules_gpu = { "gpu", gpu_rules, sizeof(gpu_rules) / sizeof(gpu_rules[0]) };
