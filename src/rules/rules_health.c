/*
 * rules_health.c - each GPU's health, one GPU at a time.
 *
 * On a node with eight GPUs, one that needs a reset is not a detail: every
 * job that lands on it crashes, while the other seven work. So health is
 * judged per GPU, each troubled GPU gets its own finding naming it (index,
 * UUID, bus id), and when that is the root cause the verdict says how many
 * GPUs are still ready and which one needs what.
 *
 * What counts, and what it means (NVIDIA's documents):
 *  - a GPU whose PCI config space reads all ones has fallen off the bus; one
 *    the nvidia module is bound to but NVML does not list was lost by the
 *    driver: only a reboot (or power cycle) brings either back;
 *  - a page retirement pending (GPUs before Ampere): after a double-bit
 *    error "no further context will be created on the GPU until the DBE is
 *    mapped out", i.e. until the GPU is reset (Dynamic Page Retirement);
 *  - a row remap pending (Ampere and later) takes effect at the next reset;
 *    a row remapping failure is NVIDIA's RMA criterion (GPU Memory Error
 *    Management, "RMA Policy Thresholds for Row-Remapping");
 *  - uncorrectable errors counted since the driver loaded, with nothing
 *    pending, and fatal PCIe AER errors: warnings, the GPU still works;
 *  - Xid events logged this boot that name the GPU (judge_xids).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

enum trouble {
	TROUBLE_NONE,
	TROUBLE_WATCH,		/* works; errors worth watching (a warning) */
	TROUBLE_RESET,		/* needs a GPU reset before it takes jobs again */
	TROUBLE_LOST,		/* fallen off the bus or lost by the driver: reboot */
	TROUBLE_REPLACE,	/* meets the RMA criterion */
};

/* One GPU as the bus and the driver see it; either index may be -1. */
struct gpu_state {
	int pci, nvml;
	enum trouble trouble;
	char bus[32];		/* 0000:86:00.0 */
	const char *why;	/* static: what the verdict says it needs */
	int nxids;		/* Xid events this boot that name it */
};

#define MAX_STATES (MAX_PCI_GPUS + MAX_RT_DEVICES)

/* NVML's "00000000:86:00.0" and sysfs's "0000:86:00.0" name the same device: compare bus:dev.fn. */
static bool same_bus_id(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la >= 7 && lb >= 7 && strcasecmp(a + la - 7, b + lb - 7) == 0;
}

/* The 4-digit-domain form people and sysfs use. */
static void short_bus_id(const char *id, char *out, size_t outsz)
{
	size_t n = strlen(id);

	str_copy(out, outsz, n > 12 ? id + n - 12 : id);
	for (char *p = out; *p; p++)
		if (*p >= 'A' && *p <= 'F')
			*p = (char)(*p - 'A' + 'a');
}

static void raise_trouble(struct gpu_state *s, enum trouble t, const char *why)
{
	if (t > s->trouble) {
		s->trouble = t;
		s->why = why;
	}
}

/*
 * A GPU NVML still lists but answers NVML_ERROR_GPU_IS_LOST for is lost like one it no longer lists. While
 * watching, rules_live's check_lost reports it with the sample it was lost in, so it is left to that.
 */
static void judge_nvml(struct gpu_state *s, const struct nvml_device *d, bool watching)
{
	if (d->lost && !watching)
		raise_trouble(s, TROUBLE_LOST, N_("was lost by the driver"));
	if (d->ecc_uncorrected > 0 || (d->retired_dbe > 0 && d->retired_pending != 1))
		raise_trouble(s, TROUBLE_WATCH, N_("has had uncorrectable memory errors"));
	if (d->retired_pending == 1)
		raise_trouble(s, TROUBLE_RESET, N_("needs a reset"));
	if (d->remap_pending == 1)
		raise_trouble(s, TROUBLE_RESET, N_("needs a reset"));
	if (d->remap_failure == 1)
		raise_trouble(s, TROUBLE_REPLACE, N_("should be replaced"));
}

/* The Xid's "PCI:0000:86:00" names bus and device; compare them with "0000:86:00.0". */
static bool xid_names_gpu(const struct klog_xid *x, const char *bus)
{
	size_t lx = strlen(x->bus_id), lb = strlen(bus);

	return lx >= 5 && lb >= 7 && strncasecmp(x->bus_id + lx - 5, bus + lb - 7, 5) == 0;
}

/*
 * Xid events this boot that say the GPU needs attention (NVIDIA's Xid catalog, data/xid.tsv): 79 fallen
 * off the bus; 48 a double-bit ECC error, 63 a retirement or remap waiting for a reset, 64 one that could
 * not be recorded, 74 an NVLink error, 94 and 95 contained and uncontained ECC errors: a reset; 92 a high
 * single-bit error rate: watch it.
 */
static void judge_xids(struct gpu_state *s, const struct kernlog_facts *klog)
{
	for (int i = 0; i < klog->nxids; i++) {
		const struct klog_xid *x = &klog->xids[i];

		if (!xid_names_gpu(x, s->bus))
			continue;
		switch (x->xid) {
		case 79:
			raise_trouble(s, TROUBLE_LOST, N_("has fallen off the bus"));
			break;
		case 48: case 63: case 64: case 74: case 94: case 95:
			raise_trouble(s, TROUBLE_RESET, N_("needs a reset"));
			break;
		case 92:
			raise_trouble(s, TROUBLE_WATCH, N_("has had many correctable memory errors"));
			break;
		default:
			continue;
		}
		s->nxids++;
	}
}

/*
 * The GPUs of this machine: every NVIDIA device on the bus, matched with
 * NVML's by bus id, then NVML's that the bus view lacks (a container).
 */
static int gpu_states(const struct facts *facts, struct gpu_state *out)
{
	const struct runtime_facts *rt = &facts->runtime;
	bool driver_listed = rt->nvml_count >= 0 && rt->nvml_ndev + rt->nvml_lost == rt->nvml_count &&
			     !facts->container.in_container && !facts->container.wsl;
	bool matched[MAX_RT_DEVICES] = { false };
	int n = 0;

	for (int i = 0; i < facts->pci.count && n < MAX_STATES; i++) {
		const struct pci_gpu *g = &facts->pci.gpus[i];
		struct gpu_state *s = &out[n++];

		memset(s, 0, sizeof(*s));
		s->pci = i;
		s->nvml = -1;
		short_bus_id(g->address, s->bus, sizeof(s->bus));
		for (int k = 0; k < rt->nvml_ndev && s->nvml < 0; k++)
			if (!matched[k] && same_bus_id(rt->nvml[k].bus_id, g->address)) {
				s->nvml = k;
				matched[k] = true;
			}
		if (g->aer_fatal)
			raise_trouble(s, TROUBLE_WATCH, N_("reports PCIe errors"));
		if (g->fallen_off_bus)
			raise_trouble(s, TROUBLE_LOST, N_("has fallen off the bus"));
		else if (s->nvml < 0 && driver_listed && strcmp(g->driver, "nvidia") == 0)
			raise_trouble(s, TROUBLE_LOST, N_("was lost by the driver"));
		if (s->nvml >= 0)
			judge_nvml(s, &rt->nvml[s->nvml], facts->watch.on);
		judge_xids(s, &facts->kernlog);
	}
	for (int k = 0; k < rt->nvml_ndev && n < MAX_STATES; k++) {
		struct gpu_state *s;

		if (matched[k])
			continue;
		s = &out[n++];
		memset(s, 0, sizeof(*s));
		s->pci = -1;
		s->nvml = k;
		short_bus_id(rt->nvml[k].bus_id, s->bus, sizeof(s->bus));
		judge_nvml(s, &rt->nvml[k], facts->watch.on);
		judge_xids(s, &facts->kernlog);
	}
	return n;
}

/* "GPU 5 (0000:86:00.0)", or "GPU 0000:86:00.0" for one the driver does not list. */
static void gpu_label(const struct gpu_state *s, char *out, size_t outsz)
{
	if (s->nvml >= 0)
		snprintf(out, outsz, "GPU %d (%s)", s->nvml, s->bus);
	else
		snprintf(out, outsz, "GPU %s", s->bus);
}

static void add_evidence(struct finding *f, const struct facts *facts, const struct gpu_state *s)
{
	const struct nvml_device *d = s->nvml >= 0 ? &facts->runtime.nvml[s->nvml] : NULL;
	const struct pci_gpu *g = s->pci >= 0 ? &facts->pci.gpus[s->pci] : NULL;

	if (d)
		finding_evidence(f, "GPU", "NVML", "%d: %s, %s, %s", s->nvml, d->name[0] ? d->name : "unnamed",
				 d->uuid[0] ? d->uuid : "no UUID", s->bus);
	if (g && g->fallen_off_bus)
		finding_evidence(f, "PCI config space", g->sysfs_path, "%s reads all ones: the GPU has fallen off the bus",
				 g->address);
	else if (g && !d && s->trouble == TROUBLE_LOST && facts->runtime.nvml_lost)
		finding_evidence(f, "GPU", g->sysfs_path, "%s is bound to nvidia; NVML counts %d GPUs but answers "
				 "\"GPU is lost\" for %d of them", g->address, facts->runtime.nvml_count,
				 facts->runtime.nvml_lost);
	else if (g && !d && s->trouble == TROUBLE_LOST)
		finding_evidence(f, "GPU", g->sysfs_path, "%s is bound to nvidia, but not among the %d GPUs NVML lists",
				 g->address, facts->runtime.nvml_count);
	for (int i = 0; s->nxids && i < facts->kernlog.nxids; i++)
		if (xid_names_gpu(&facts->kernlog.xids[i], s->bus))
			finding_evidence(f, "Xid", facts->kernlog.source, "%s", facts->kernlog.xids[i].text);
	if (g && g->aer_fatal)
		finding_evidence(f, "fatal PCIe AER errors", g->sysfs_path, "%s: %llu", g->address,
				 (unsigned long long)g->aer_fatal);
	if (!d)
		return;
	if (d->ecc_uncorrected >= 0)
		finding_evidence(f, "uncorrectable ECC errors since the driver loaded", "NVML", "%lld", d->ecc_uncorrected);
	if (d->retired_pending >= 0 || d->retired_sbe >= 0 || d->retired_dbe >= 0)
		finding_evidence(f, "retired pages", "NVML", "%s pending; %d for double-bit, %d for single-bit errors",
				 d->retired_pending == 1 ? "retirement" : "none", d->retired_dbe, d->retired_sbe);
	if (d->remap_pending >= 0 || d->remap_failure >= 0)
		finding_evidence(f, "row remapping", "NVML", "pending %s, failure %s", d->remap_pending == 1 ? "yes" : "no",
				 d->remap_failure == 1 ? "yes" : "no");
}

/* CUDA_VISIBLE_DEVICES naming every GPU but the troubled ones, in nvidia-smi's (PCI) order. */
static bool healthy_list(const struct facts *facts, const struct gpu_state *st, int n, char *out, size_t outsz)
{
	const struct runtime_facts *rt = &facts->runtime;
	struct strbuf sb = { 0 };
	int kept = 0;

	if (rt->nvml_count < 0 || rt->nvml_ndev != rt->nvml_count)
		return false;	/* a list we cannot see whole cannot be rewritten safely */
	for (int k = 0; k < rt->nvml_ndev; k++) {
		bool bad = false;

		for (int i = 0; i < n; i++)
			bad |= st[i].nvml == k && st[i].trouble >= TROUBLE_RESET;
		if (!bad)
			strbuf_addf(&sb, "%s%d", kept++ ? "," : "", k);
	}
	if (kept)
		str_copy(out, outsz, sb.buf);
	strbuf_release(&sb);
	return kept > 0;
}

static void add_keep_off(struct finding *f, const struct facts *facts, const struct gpu_state *st, int n,
			 const char *label)
{
	char list[160], cmd[256];

	if (healthy_list(facts, st, n, list, sizeof(list))) {
		snprintf(cmd, sizeof(cmd), "export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=%s", list);
		finding_fix(f, cmd, "meanwhile, keep jobs off %s: list only the healthy GPUs in the jobs' environment "
			    "(PCI_BUS_ID makes CUDA number the GPUs as nvidia-smi does)", label);
	}
}

static void add_drain_alternatives(struct finding *f, const char *label)
{
	char cmd[256];

	finding_alternative(f, "drain the node, when a scheduler places the jobs");
	snprintf(cmd, sizeof(cmd), "sudo scontrol update NodeName=$(hostname -s) State=DRAIN Reason=\"gpudoctor: %s\"",
		 label);
	finding_fix(f, cmd, "Slurm: let running jobs finish and start no new ones here (resume with State=RESUME)");
	finding_fix(f, "kubectl cordon $(hostname)", "Kubernetes: mark the node unschedulable (undo with kubectl uncordon)");
}

static void add_rma_step(struct finding *f, const char *index_opt)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "nvidia-smi -q%s -d ECC,PAGE_RETIREMENT,ROW_REMAPPER", index_opt);
	finding_fix(f, cmd, "afterwards, read its memory error state");
	finding_fix(f, NULL, "replace the GPU (RMA) when a row remapping failure is reported, a page cannot be retired "
		    "(Xid 64), or uncorrectable errors come back after resets; attach the output of "
		    "`sudo nvidia-bug-report.sh` to the request");
}

static void report_gpu(struct findings *out, const struct facts *facts, const struct gpu_state *st, int n,
		       const struct gpu_state *s, const char *summary, const char *summary_local)
{
	char label[64], index_opt[16] = "", cmd[128];
	enum severity sev = s->trouble >= TROUBLE_RESET ? SEV_ERROR : SEV_WARNING;
	struct finding *f;

	gpu_label(s, label, sizeof(label));
	if (s->nvml >= 0)
		snprintf(index_opt, sizeof(index_opt), " -i %d", s->nvml);
	f = findings_add(out, CAUSE_GPU_HARDWARE_FAULT, sev, "%s %s", label, s->why);
	finding_gpu(f, s->nvml);
	if (sev == SEV_ERROR) {
		finding_summary(f, "%s", summary);
		if (summary_local) {	/* built from translated parts: the whole is no message of its own */
			free(f->summary_local);
			f->summary_local = str_dup(summary_local);
		}
	}
	add_evidence(f, facts, s);
	switch (s->trouble) {
	case TROUBLE_LOST:
		finding_detail(f, "The device no longer answers: nothing on it runs until the machine is rebooted. The "
			       "cause is below every driver: power, seating, a riser cable, overheating or a failing GPU "
			       "(the kernel log shows NVRM Xid 79).");
		add_keep_off(f, facts, st, n, label);
		finding_fix(f, "sudo dmesg | grep -iE 'xid|nvrm|aer'", "read what the kernel logged about the device");
		finding_fix(f, "sudo reboot", "reboot (a full power cycle if it stays lost) to bring the GPU back");
		finding_fix(f, NULL, "if it happens again: check power connectors, PSU capacity, cooling and the slot; a GPU "
			    "that keeps falling off the bus goes back for replacement (RMA)");
		add_drain_alternatives(f, label);
		break;
	case TROUBLE_REPLACE:
		finding_detail(f, "A row remapping failed: a memory bank ran out of spare rows, so the errors it has can no "
			       "longer be repaired. This is NVIDIA's criterion for replacing the GPU (RMA); until then "
			       "jobs on it may fail or compute on faulty memory.");
		add_keep_off(f, facts, st, n, label);
		snprintf(cmd, sizeof(cmd), "nvidia-smi -q%s -d ECC,ROW_REMAPPER", index_opt);
		finding_fix(f, cmd, "record its memory error state for the RMA request");
		finding_fix(f, "sudo nvidia-bug-report.sh", "collect the report NVIDIA support asks for");
		finding_fix(f, NULL, "replace the GPU (RMA with the vendor)");
		add_drain_alternatives(f, label);
		break;
	case TROUBLE_RESET:
		finding_detail(f, "The GPU reported an error that only a GPU reset clears: an uncorrectable memory error "
			       "whose repair (a page retirement or a row remap) waits for the reset, or an NVLink or "
			       "uncontained error (the evidence says which). Until then jobs on it may fail: on GPUs "
			       "before Ampere no new CUDA context is created after a double-bit error until it is "
			       "mapped out.");
		add_keep_off(f, facts, st, n, label);
		snprintf(cmd, sizeof(cmd), "sudo nvidia-smi -r%s", index_opt);
		finding_fix(f, cmd, "when nothing runs on it any more, reset it (GPUs joined by NVSwitch are reset together; "
			    "a reboot does the same)");
		add_rma_step(f, index_opt);
		add_drain_alternatives(f, label);
		break;
	default:
		finding_detail(f, "It still works, but its memory or its link has reported errors. Uncorrectable memory "
			       "errors end the process that hit them; more of them, or errors that keep coming after "
			       "resets, mean the GPU is failing.");
		add_rma_step(f, index_opt);
		break;
	}
}

static void check_gpu_health(const struct facts *facts, struct findings *out)
{
	struct gpu_state st[MAX_STATES];
	struct strbuf summary = { 0 }, local = { 0 };
	int n = gpu_states(facts, st), ready = 0;
	bool tr = i18n_active();

	for (int i = 0; i < n; i++)
		ready += st[i].trouble < TROUBLE_RESET;
	if (n > 1) {
		strbuf_addf(&summary, "%d of %d GPUs ready", ready, n);
		if (tr)
			strbuf_addf(&local, _("%d of %d GPUs ready"), ready, n);
	}
	for (int i = 0; i < n; i++) {
		char label[64];

		if (st[i].trouble < TROUBLE_RESET)
			continue;
		gpu_label(&st[i], label, sizeof(label));
		strbuf_addf(&summary, "%s%s %s", summary.len ? "; " : "", label, st[i].why);
		if (tr)
			strbuf_addf(&local, "%s%s %s", local.len ? _("; ") : "", label, _(st[i].why));
	}
	for (int i = 0; i < n; i++)
		if (st[i].trouble != TROUBLE_NONE)
			report_gpu(out, facts, st, n, &st[i], summary.buf ? summary.buf : "",
				   tr ? (local.buf ? local.buf : "") : NULL);
	strbuf_release(&summary);
	strbuf_release(&local);
}

static const struct rule health_rules[] = {
	{ CAUSE_GPU_HARDWARE_FAULT, check_gpu_health },
};

const struct rule_family rules_health = { "health", health_rules, sizeof(health_rules) / sizeof(health_rules[0]) };
