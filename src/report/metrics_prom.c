/*
 * metrics_prom.c - a watcher's sample in the Prometheus text exposition
 * format 0.0.4: https://prometheus.io/docs/instrumenting/exposition_formats/
 * Names follow https://prometheus.io/docs/practices/naming/: the unit in the
 * name and in base units (bytes, seconds, hertz, watts, celsius), ratios
 * 0..1 rather than percentages, counters ending in _total. Every family's
 * lines stay together after its # HELP and # TYPE, as the format requires.
 *
 * A value the driver did not give (-1 in struct nvml_device) is left out:
 * a missing series says "unknown", a 0 would say "measured, zero". A
 * family with no series at all is left out whole.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "cause/cause.h"
#include "kb/kb.h"
#include "report/report_metrics.h"

#define MIB 1048576.0
#define MHZ 1e6
#define KIB 1024.0

/* The per-GPU gauges that are one number each. */
enum gpu_field {
	F_UTIL, F_MEM_UTIL, F_MEM_USED, F_MEM_TOTAL, F_TEMP, F_SLOWDOWN, F_POWER, F_POWER_LIMIT,
	F_SM_CLOCK, F_SM_CLOCK_MAX, F_MEM_CLOCK, F_MEM_CLOCK_MAX, F_FAN, F_PSTATE,
	F_LINK_GEN, F_LINK_GEN_MAX, F_LINK_WIDTH, F_LINK_WIDTH_MAX, F_PCIE_TX, F_PCIE_RX,
	F_REMAP_PENDING, F_REMAP_FAILURE, F_LOST,
};

static const struct gpu_gauge {
	const char *name, *help;
	enum gpu_field field;
} gpu_gauges[] = {
	{ "gpudoctor_gpu_utilization_ratio", "Fraction of the last sample period a kernel ran on the GPU (0..1).",
	  F_UTIL },
	{ "gpudoctor_gpu_memory_utilization_ratio", "Fraction of the last sample period device memory was read "
	  "or written (0..1).", F_MEM_UTIL },
	{ "gpudoctor_gpu_memory_used_bytes", "Device memory in use, in bytes.", F_MEM_USED },
	{ "gpudoctor_gpu_memory_total_bytes", "Device memory in all, in bytes.", F_MEM_TOTAL },
	{ "gpudoctor_gpu_temperature_celsius", "GPU core temperature, in degrees Celsius.", F_TEMP },
	{ "gpudoctor_gpu_slowdown_temperature_celsius", "Temperature at which the GPU starts slowing itself down, "
	  "in degrees Celsius.", F_SLOWDOWN },
	{ "gpudoctor_gpu_power_watts", "Power drawn by the GPU, in watts.", F_POWER },
	{ "gpudoctor_gpu_power_limit_watts", "Power limit the driver enforces on the GPU, in watts.", F_POWER_LIMIT },
	{ "gpudoctor_gpu_sm_clock_hertz", "SM clock now, in hertz.", F_SM_CLOCK },
	{ "gpudoctor_gpu_sm_clock_max_hertz", "Highest SM clock the GPU may run at, in hertz.", F_SM_CLOCK_MAX },
	{ "gpudoctor_gpu_memory_clock_hertz", "Memory clock now, in hertz.", F_MEM_CLOCK },
	{ "gpudoctor_gpu_memory_clock_max_hertz", "Highest memory clock, in hertz.", F_MEM_CLOCK_MAX },
	{ "gpudoctor_gpu_fan_ratio", "Fan speed as a fraction of its maximum (0..1).", F_FAN },
	{ "gpudoctor_gpu_pstate", "Performance state, 0 (fastest) to 15 (slowest).", F_PSTATE },
	{ "gpudoctor_gpu_pcie_link_generation", "PCIe link generation now (it drops at idle to save power).",
	  F_LINK_GEN },
	{ "gpudoctor_gpu_pcie_link_max_generation", "Highest PCIe generation the GPU and its slot can both do.",
	  F_LINK_GEN_MAX },
	{ "gpudoctor_gpu_pcie_link_width", "PCIe link width now, in lanes.", F_LINK_WIDTH },
	{ "gpudoctor_gpu_pcie_link_max_width", "Widest PCIe link the GPU and its slot can both do, in lanes.",
	  F_LINK_WIDTH_MAX },
	{ "gpudoctor_gpu_pcie_tx_bytes_per_second", "PCIe transmit throughput over the driver's last 20 ms "
	  "window, in bytes per second.", F_PCIE_TX },
	{ "gpudoctor_gpu_pcie_rx_bytes_per_second", "PCIe receive throughput over the driver's last 20 ms "
	  "window, in bytes per second.", F_PCIE_RX },
	{ "gpudoctor_gpu_row_remap_pending", "1 when remapped memory rows wait for a GPU reset, else 0.",
	  F_REMAP_PENDING },
	{ "gpudoctor_gpu_row_remap_failure", "1 when a memory row could not be remapped, else 0.",
	  F_REMAP_FAILURE },
	{ "gpudoctor_gpu_lost", "1 when the driver answered that the GPU is lost (fallen off the bus), else 0.",
	  F_LOST },
};

/* x scaled into *v when known (x >= 0). */
static bool known(double x, double scale, double *v)
{
	*v = x * scale;
	return x >= 0;
}

static bool gpu_value(const struct nvml_device *d, enum gpu_field f, double *v)
{
	switch (f) {
	case F_UTIL: return known(d->utilization, 0.01, v);
	case F_MEM_UTIL: return known(d->mem_utilization, 0.01, v);
	case F_MEM_USED: return known((double)d->mem_used_mib, MIB, v);
	case F_MEM_TOTAL: return known((double)d->mem_total_mib, MIB, v);
	case F_TEMP: return known(d->temperature_c, 1, v);
	case F_SLOWDOWN: return known(d->temp_slowdown_c, 1, v);
	case F_POWER: return known(d->power_w, 1, v);
	case F_POWER_LIMIT: return known(d->power_limit_w, 1, v);
	case F_SM_CLOCK: return known(d->sm_clock_mhz, MHZ, v);
	case F_SM_CLOCK_MAX: return known(d->sm_clock_max_mhz, MHZ, v);
	case F_MEM_CLOCK: return known(d->mem_clock_mhz, MHZ, v);
	case F_MEM_CLOCK_MAX: return known(d->mem_clock_max_mhz, MHZ, v);
	case F_FAN: return known(d->fan_percent, 0.01, v);
	case F_PSTATE: return known(d->pstate, 1, v);
	case F_LINK_GEN: return known(d->link_gen, 1, v);
	case F_LINK_GEN_MAX: return known(d->link_gen_max, 1, v);
	case F_LINK_WIDTH: return known(d->link_width, 1, v);
	case F_LINK_WIDTH_MAX: return known(d->link_width_max, 1, v);
	case F_PCIE_TX: return known((double)d->pcie_tx_kbps, KIB, v);	/* NVML: KB/s */
	case F_PCIE_RX: return known((double)d->pcie_rx_kbps, KIB, v);
	case F_REMAP_PENDING: return known(d->remap_pending, 1, v);
	case F_REMAP_FAILURE: return known(d->remap_failure, 1, v);
	case F_LOST: *v = d->lost; return true;
	}
	return false;
}

/* See report_metrics.h. */
void report_metrics_label_value(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '"')
			fputs("\\\"", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', out);
		else
			fputc(c, out);
	}
}

/* A sample value: integers exactly, others with 15 significant digits (291.3, not 291.30000000000001). */
static void value(FILE *out, double v)
{
	fprintf(out, " %.15g\n", v);
}

static void family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void label(FILE *out, const char *name, const char *v, bool first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	report_metrics_label_value(out, v);
	fputc('"', out);
}

/* name{gpu="0",uuid="...",pci_bus_id="...",name="..." — the caller adds its own labels and the closing brace. */
static void gpu_series(FILE *out, const char *name, const struct nvml_device *d, int index)
{
	fprintf(out, "%s{gpu=\"%d\"", name, index);
	label(out, "uuid", d->uuid, false);
	label(out, "pci_bus_id", d->bus_id, false);
	label(out, "name", d->name, false);
}

static void gpu_gauges_write(FILE *out, const struct live_sample *s)
{
	for (size_t g = 0; g < sizeof(gpu_gauges) / sizeof(gpu_gauges[0]); g++) {
		bool any = false;
		double v;

		for (int i = 0; i < s->ndev; i++) {
			if (!gpu_value(&s->gpu[i], gpu_gauges[g].field, &v))
				continue;
			if (!any)
				family(out, gpu_gauges[g].name, "gauge", gpu_gauges[g].help);
			any = true;
			gpu_series(out, gpu_gauges[g].name, &s->gpu[i], i);
			fputc('}', out);
			value(out, v);
		}
	}
}

static void clock_events_write(FILE *out, const struct live_sample *s)
{
	const char *name = "gpudoctor_gpu_clocks_event_reason";
	bool any = false;

	for (int i = 0; i < s->ndev; i++) {
		if (s->gpu[i].clock_events < 0)
			continue;
		for (int b = 0; b < 64; b++) {
			unsigned long long bit = 1ULL << b;
			const char *reason = gpu_clock_event_name(bit);

			if (!((unsigned long long)s->gpu[i].clock_events & bit) || !reason)
				continue;
			if (!any)
				family(out, name, "gauge", "1 for each reason the driver gives for holding clocks below "
				       "their maximum now.");
			any = true;
			gpu_series(out, name, &s->gpu[i], i);
			label(out, "reason", reason, false);
			fputc('}', out);
			value(out, 1);
		}
	}
}

/* A family of two series per GPU told apart by one label (ECC errors, retired pages). */
static void pair_write(FILE *out, const struct live_sample *s, const char *name, const char *type, const char *help,
		       const char *key, const char *const names[2], size_t off0, size_t off1, bool is_int)
{
	bool any = false;

	for (int i = 0; i < s->ndev; i++) {
		const char *base = (const char *)&s->gpu[i];

		for (int k = 0; k < 2; k++) {
			size_t off = k ? off1 : off0;
			double v = is_int ? *(const int *)(base + off) : (double)*(const long long *)(base + off);

			if (v < 0)
				continue;
			if (!any)
				family(out, name, type, help);
			any = true;
			gpu_series(out, name, &s->gpu[i], i);
			label(out, key, names[k], false);
			fputc('}', out);
			value(out, v);
		}
	}
}

static void processes_write(FILE *out, const struct live_sample *s)
{
	const char *name = "gpudoctor_gpu_process_memory_used_bytes";
	bool any = false;

	for (int i = 0; i < s->ndev; i++)
		for (int p = 0; p < s->gpu[i].nprocs; p++) {
			const struct gpu_process *proc = &s->gpu[i].procs[p];

			if (proc->used_mib < 0)
				continue;
			if (!any)
				family(out, name, "gauge", "Device memory a process holds, in bytes (labelled by pid only).");
			any = true;
			gpu_series(out, name, &s->gpu[i], i);
			fprintf(out, ",pid=\"%u\"}", proc->pid);
			value(out, (double)proc->used_mib * MIB);
		}
}

static void xid_write(FILE *out, const struct facts *facts, const struct live_sample *s)
{
	const char *name = "gpudoctor_gpu_xid_events_total";

	if (!facts->watch.on || s->ndev == 0)
		return;
	family(out, name, "counter", "Xid events the driver reported for the GPU since gpudoctor started "
	       "watching it.");
	for (int i = 0; i < s->ndev; i++) {
		gpu_series(out, name, &s->gpu[i], i);
		fputc('}', out);
		value(out, (double)facts->watch.gpu[i].xid_events);
	}
}

/* Whether finding k repeats an earlier one's cause and GPU (one series each). */
static bool repeated(const struct diagnosis *d, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (d->findings.items[j].cause == d->findings.items[k].cause &&
		    d->findings.items[j].gpu == d->findings.items[k].gpu)
			return true;
	return false;
}

static void diagnosis_write(FILE *out, const struct diagnosis *d)
{
	family(out, "gpudoctor_ready", "gauge", "1 when the verdict is ready, else 0.");
	fprintf(out, "gpudoctor_ready %d\n", d->verdict == VERDICT_READY);
	family(out, "gpudoctor_verdict", "gauge", "The verdict of the latest sample: 1 for the verdict it is.");
	fprintf(out, "gpudoctor_verdict{verdict=\"%s\"} 1\n", verdict_name(d->verdict));
	if (d->findings.count == 0)
		return;
	family(out, "gpudoctor_finding", "gauge", "1 for each finding of the latest sample (id: its cause, "
	       "docs/causes.md; gpu: empty when not one GPU's).");
	for (size_t k = 0; k < d->findings.count; k++) {
		const struct finding *f = &d->findings.items[k];
		char gpu[16] = "";

		if (repeated(d, k))
			continue;
		if (f->gpu >= 0)
			snprintf(gpu, sizeof(gpu), "%d", f->gpu);
		fprintf(out, "gpudoctor_finding{id=\"%s\",severity=\"%s\",gpu=\"%s\"} 1\n", cause_name(f->cause),
			severity_name(f->severity), gpu);
	}
}

/* The CUDA version the driver supports: its own answer when it gave one, else the table's for its version. */
static void cuda_version(const struct facts *facts, const char *driver, char *out, size_t outsz)
{
	int v = facts->runtime.nvml_cuda_version > 0 ? facts->runtime.nvml_cuda_version
						      : facts->runtime.cuda_driver_version;
	struct kb_answer a;

	out[0] = '\0';
	if (v > 0)
		snprintf(out, outsz, "%d.%d", v / 1000, v % 1000 / 10);
	else if (driver[0] && kb_cuda_max_for_driver(driver, &a) == 0)
		snprintf(out, outsz, "%s", a.value);
}

static const char *torch_version(const struct facts *facts)
{
	const struct python_facts *py = &facts->python;
	int t = py->selected >= 0 && py->selected < py->count ? py->envs[py->selected].torch : -1;

	return t >= 0 && t < py->ntorch ? py->torches[t].version : "";
}

static void info_write(FILE *out, const struct facts *facts, const struct live_sample *s)
{
	const char *driver = s->driver_version[0] ? s->driver_version : facts_driver_version(facts);
	char cuda[64];

	if (!driver)
		driver = "";
	cuda_version(facts, driver, cuda, sizeof(cuda));
	family(out, "gpudoctor_driver_up", "gauge", "1 when the driver answered the latest sample, else 0.");
	fprintf(out, "gpudoctor_driver_up %d\n", s->state == LIVE_OK);
	family(out, "gpudoctor_info", "gauge", "Versions of the driver, the CUDA it supports and the PyTorch "
	       "found (empty when unknown); always 1.");
	fputs("gpudoctor_info{", out);
	label(out, "driver_version", driver, true);
	label(out, "cuda_driver_version", cuda, false);
	label(out, "torch_version", torch_version(facts), false);
	fputs("} 1\n", out);
}

/* See report_metrics.h. */
void report_metrics_prom(FILE *out, const struct facts *facts, const struct live_sample *s,
			 const struct diagnosis *d, double scrape_s)
{
	static const char *const ecc_types[2] = { "corrected", "uncorrected" };
	static const char *const page_causes[2] = { "single_bit", "double_bit" };

	gpu_gauges_write(out, s);
	clock_events_write(out, s);
	pair_write(out, s, "gpudoctor_gpu_ecc_errors_total", "counter", "ECC errors since the driver loaded "
		   "(volatile counts).", "type", ecc_types, offsetof(struct nvml_device, ecc_corrected),
		   offsetof(struct nvml_device, ecc_uncorrected), false);
	pair_write(out, s, "gpudoctor_gpu_retired_pages", "gauge", "Memory pages retired (or pending "
		   "retirement), by the kind of error that retired them.", "cause", page_causes,
		   offsetof(struct nvml_device, retired_sbe), offsetof(struct nvml_device, retired_dbe), true);
	processes_write(out, s);
	xid_write(out, facts, s);
	diagnosis_write(out, d);
	info_write(out, facts, s);
	family(out, "gpudoctor_scrape_duration_seconds", "gauge", "How long taking the latest sample and "
	       "diagnosing it took, in seconds.");
	fprintf(out, "gpudoctor_scrape_duration_seconds %.6f\n", scrape_s);
}
