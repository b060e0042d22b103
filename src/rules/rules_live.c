/*
 * rules_live.c - what only a watcher sees: a state that lasts over samples,
 * a counter that keeps rising, an event, a GPU that disappears. They read
 * facts->watch (probe/live.h), which is off outside `watch` and `metrics`.
 *
 * The one-sample checks (memory busy, slowdown, hardware state, a hung
 * driver call) are the doctor's own families, run on each sample: the same
 * ids and fixes as the doctor.
 */
#include <stdio.h>
#include <string.h>

#include "cause/cause.h"
#include "kb/kb.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

/* Samples a state must last before it is a finding: 5 s at the default interval of 1 s. */
#define STARVED_SAMPLES 5
/* A busy GPU's link below its maximum for this many samples: not a moment of power saving. */
#define LINK_DOWN_SAMPLES 3

static double samples_s(const struct live_facts *w, int samples)
{
	return samples * (w->interval_s > 0 ? w->interval_s : 1);
}

/* An NVML index names a device of this sample (the driver answered for it). */
static const struct nvml_device *device(const struct facts *facts, int i)
{
	return i >= 0 && i < facts->runtime.nvml_ndev ? &facts->runtime.nvml[i] : NULL;
}

static void check_lost(const struct facts *facts, struct findings *out)
{
	const struct live_facts *w = &facts->watch;

	for (int i = 0; w->on && i < facts->runtime.nvml_ndev; i++) {
		const struct nvml_device *d = &facts->runtime.nvml[i];
		struct finding *f;
		char cmd[64];

		if (!d->lost)
			continue;
		f = findings_add(out, CAUSE_GPU_HARDWARE_FAULT, SEV_ERROR, "GPU %d (%s) fell off the bus during the watch", i,
				 d->bus_id[0] ? d->bus_id : "bus id unknown");
		finding_gpu(f, i);
		finding_detail(f, "NVML answers \"GPU is lost\" for it since sample %d: the GPU stopped responding on "
			       "PCIe. Every process using it has failed or will, and it stays lost until a reset or "
			       "a reboot. Power, cooling, the riser or the slot are the usual causes; the kernel log "
			       "has an Xid 79 for it.", w->gpu[i].lost_seq);
		finding_evidence(f, "NVML", "nvmlDeviceGetMemoryInfo", "GPU %d: NVML_ERROR_GPU_IS_LOST", i);
		finding_fix(f, "sudo dmesg | grep -iE 'xid|nvrm'", "read what the driver logged");
		snprintf(cmd, sizeof(cmd), "sudo nvidia-smi -r -i %d", i);
		finding_fix(f, "sudo reboot", "reboot (power-cycle if it does not come back); a reset (`%s`) rarely "
			    "recovers a GPU that fell off the bus", cmd);
		finding_fix(f, NULL, "if it happens again, check the power cables and supply, cooling, the riser and "
			    "the card's seating; then contact the vendor");
	}
}

/* The Xid's row in data/xid.tsv, or -1. */
static long xid_row(long long xid)
{
	char key[24];

	snprintf(key, sizeof(key), "%lld", xid);
	for (size_t r = 0; r < kb_table_xid.nrows; r++)
		if (strcmp(kb_field(&kb_table_xid, r, "xid"), key) == 0)
			return (long)r;
	return -1;
}

/* One finding per GPU and Xid code seen during the watch, with how often and when last. */
static void check_xid(const struct facts *facts, struct findings *out)
{
	const struct live_facts *w = &facts->watch;

	for (int k = 0; w->on && k < w->nxid; k++) {
		const struct live_xid *x = &w->xid[k];
		int times = 0;
		long last = x->seq, row;
		bool hardware;
		struct finding *f;

		for (int j = 0; j < w->nxid; j++) {
			if (w->xid[j].gpu != x->gpu || w->xid[j].xid != x->xid)
				continue;
			if (j < k)
				break;	/* reported with its first */
			times++;
			last = w->xid[j].seq;
		}
		if (times == 0)
			continue;
		row = xid_row(x->xid);
		hardware = row >= 0 && strcmp(kb_field(&kb_table_xid, (size_t)row, "cause"), cause_name(CAUSE_GPU_HARDWARE_FAULT)) == 0;
		f = findings_add(out, CAUSE_GPU_XID, hardware ? SEV_ERROR : SEV_WARNING, "GPU %d reported Xid %lld%s%s", x->gpu,
				 x->xid, row >= 0 ? ": " : "", row >= 0 ? kb_field(&kb_table_xid, (size_t)row, "name") : "");
		finding_gpu(f, x->gpu);
		finding_detail(f, "The driver raised Xid %lld for GPU %d during the watch (%d time%s, last in sample %ld). "
			       "%s", x->xid, x->gpu, times, times == 1 ? "" : "s", last,
			       row >= 0 ? "NVIDIA's catalog says what it means and what to do (the fix below)."
					: "NVIDIA's Xid catalog lists what each code means.");
		finding_evidence(f, "Xid event", "nvmlEventSetWait_v2", "GPU %d: Xid %lld", x->gpu, x->xid);
		if (row >= 0)
			finding_evidence(f, "source", "data/xid.tsv", "%s", kb_field(&kb_table_xid, (size_t)row, "source"));
		finding_fix(f, "sudo dmesg | grep -iE 'xid|nvrm'", "read the driver's full message (which process, which "
			    "channel)");
		if (row >= 0)
			finding_fix(f, NULL, "%s", kb_field(&kb_table_xid, (size_t)row, "action"));
		else
			finding_fix(f, NULL, "look the code up in NVIDIA's Xid catalog: "
				    "https://docs.nvidia.com/deploy/xid-errors/");
	}
}

static void check_ecc_rising(const struct facts *facts, struct findings *out)
{
	const struct live_facts *w = &facts->watch;

	for (int i = 0; w->on && i < MAX_RT_DEVICES; i++) {
		const struct nvml_device *d = device(facts, i);
		const struct live_gpu *g = &w->gpu[i];
		struct finding *f;
		char cmd[64];

		if (!d || d->lost || g->ecc_corrected_rise <= 0)
			continue;
		f = findings_add(out, CAUSE_GPU_ECC_RISING, SEV_WARNING,
				 "GPU %d's corrected memory errors rose by %lld during the watch", i, g->ecc_corrected_rise);
		finding_gpu(f, i);
		finding_detail(f, "ECC corrected each of them, so no result was wrong, but memory that keeps producing "
			       "single-bit errors is wearing out: the driver retires or remaps the worst pages, and "
			       "corrected errors often come before uncorrectable ones, which end the process that "
			       "hits them.");
		finding_evidence(f, "volatile corrected ECC errors", "NVML", "%lld now, %lld when the watch began "
				 "(%ld samples, %.1f s, ago)", d->ecc_corrected, g->ecc_corrected_first, w->seq,
				 samples_s(w, (int)w->seq));
		if (d->retired_sbe >= 0)
			finding_evidence(f, "pages retired for single-bit errors", "NVML", "%d", d->retired_sbe);
		snprintf(cmd, sizeof(cmd), "nvidia-smi -q -i %d -d ECC,PAGE_RETIREMENT,ROW_REMAPPER", i);
		finding_fix(f, cmd, "read the error counts, retired pages and remapped rows");
		finding_fix(f, NULL, "keep watching: if the count keeps climbing or uncorrectable errors appear, drain the "
			    "GPU and ask the vendor for a replacement (attach `sudo nvidia-bug-report.sh`)");
	}
}

static const char *link_text(int gen, int width, char *out, size_t outsz)
{
	snprintf(out, outsz, "Gen%d x%d", gen, width);
	return out;
}

static void check_link_under_load(const struct facts *facts, struct findings *out)
{
	const struct live_facts *w = &facts->watch;

	for (int i = 0; w->on && i < MAX_RT_DEVICES; i++) {
		const struct nvml_device *d = device(facts, i);
		struct finding *f;
		char now[32], max[32], cmd[128];

		if (!d || d->lost || w->gpu[i].link_down_samples < LINK_DOWN_SAMPLES)
			continue;
		link_text(d->link_gen, d->link_width, now, sizeof(now));
		link_text(d->link_gen_max, d->link_width_max, max, sizeof(max));
		f = findings_add(out, CAUSE_GPU_PCIE_DEGRADED, SEV_WARNING, "GPU %d's PCIe link stays at %s under load (it can "
				 "do %s)", i, now, max);
		finding_gpu(f, i);
		finding_detail(f, "A GPU lowers its link's speed when idle to save power and raises it when busy. This "
			       "one has been busy for %d samples (%.0f s) and its link stayed below what it and the "
			       "slot can do, which cuts host-device bandwidth: data loading and copies take longer.",
			       w->gpu[i].link_down_samples, samples_s(w, w->gpu[i].link_down_samples));
		finding_evidence(f, "PCIe link", "NVML", "%s now, %s at most, at %d%% utilization", now, max,
				 d->utilization);
		if (d->bus_id[0]) {
			snprintf(cmd, sizeof(cmd), "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'",
				 d->bus_id + (strlen(d->bus_id) > 12 ? strlen(d->bus_id) - 12 : 0));
			finding_fix(f, cmd, "compare the link's capability with its status");
		}
		finding_fix(f, NULL, "reseat the card or move it to a slot that runs at full speed; check risers and the "
			    "firmware's PCIe generation setting");
	}
}

/* A holder that looks like a Python training process: its command line runs python. */
static const struct gpu_process *python_holder(const struct nvml_device *d)
{
	for (int k = 0; k < d->nprocs; k++)
		if (d->procs[k].used_mib != 0 && strstr(d->procs[k].command, "python"))
			return &d->procs[k];
	return NULL;
}

static void check_starved(const struct facts *facts, struct findings *out)
{
	const struct live_facts *w = &facts->watch;

	for (int i = 0; w->on && i < MAX_RT_DEVICES; i++) {
		const struct nvml_device *d = device(facts, i);
		const struct gpu_process *py;
		struct finding *f;

		if (!d || d->lost || w->gpu[i].idle_held_samples < STARVED_SAMPLES)
			continue;
		py = python_holder(d);
		f = findings_add(out, CAUSE_GPU_STARVED, SEV_WARNING, "GPU %d sits at 0%% while %s holds its memory", i,
				 py ? N_("a Python process") : N_("a process"));
		finding_gpu(f, i);
		finding_detail(f, "For %d samples (%.0f s) the GPU ran no kernel while %s kept memory on it. A training "
			       "job that does this waits for its input: the data loader (decoding, augmentation, "
			       "reading from disk or the network) cannot feed the GPU, or the process is stuck "
			       "between steps (a collective waiting for another rank, a lock, a debugger).",
			       w->gpu[i].idle_held_samples, samples_s(w, w->gpu[i].idle_held_samples),
			       py ? N_("a Python process") : N_("a process"));
		for (int k = 0; k < d->nprocs; k++)
			finding_evidence(f, "process", d->procs[k].seen ? "NVML, /proc" : "NVML", "pid %u holds %lld MiB%s%s",
					 d->procs[k].pid, d->procs[k].used_mib, d->procs[k].command[0] ? ": " : "",
					 d->procs[k].command);
		finding_evidence(f, "utilization", "NVML", "0%% for %d samples", w->gpu[i].idle_held_samples);
		if (py) {
			char cmd[64];

			snprintf(cmd, sizeof(cmd), "py-spy dump --pid %u", py->pid);
			finding_fix(f, cmd, "see where the process waits (pip install py-spy)");
		}
		finding_fix(f, NULL, "if it waits for data: raise the DataLoader's num_workers, set pin_memory=True, and "
			    "move decoding and augmentation off the training loop (or onto the GPU)");
	}
}

static const struct rule live_rules[] = {
	{ CAUSE_GPU_HARDWARE_FAULT, check_lost },
	{ CAUSE_GPU_XID, check_xid },
	{ CAUSE_GPU_ECC_RISING, check_ecc_rising },
	{ CAUSE_GPU_PCIE_DEGRADED, check_link_under_load },
	{ CAUSE_GPU_STARVED, check_starved },
};

const struct rule_family rules_live = { "live", live_rules, sizeof(live_rules) / sizeof(live_rules[0]) };
