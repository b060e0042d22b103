/*
 * rules_load.c - a GPU that works but is not free: another process holds
 * its memory, or it slows itself down for heat or power.
 *
 * Both read as "ready" to every static check, and both are what a user
 * sees as "PyTorch runs out of memory at once" or "training got slower".
 * The numbers come from NVML; who holds the memory from /proc, joined by
 * probe/gpu_procs.c.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

/* Used memory from this fraction up leaves a new job little room. */
#define MEMORY_BUSY_PERCENT 90

static void process_evidence(struct finding *f, const struct runtime_facts *rt, const struct nvml_device *d)
{
	for (int k = 0; k < d->nprocs; k++) {
		const struct gpu_process *p = &d->procs[k];

		if (p->seen)
			finding_evidence(f, "process", "NVML, /proc", "pid %u (%s) holds %lld MiB: %s", p->pid,
					 p->user[0] ? p->user : "unknown user", p->used_mib,
					 p->command[0] ? p->command : "no command line");
		else
			finding_evidence(f, "process", "NVML", "pid %u holds %lld MiB%s", p->pid, p->used_mib,
					 rt->procs_foreign_pids ? " (a host pid, not visible in this container)" : "");
	}
	if (d->procs_total > 0)
		finding_evidence(f, "processes", "NVML", "%d (too many to list)", d->procs_total);
}

/* Who holds the memory, as far as /proc tells: the user's own processes are theirs to stop. */
static const char *holders(const struct facts *facts, const struct nvml_device *d)
{
	int own = 0, known = 0;

	for (int k = 0; k < d->nprocs; k++) {
		if (d->procs[k].uid < 0)
			continue;
		known++;
		own += (uid_t)d->procs[k].uid == facts->system.user.uid;
	}
	if (known == 0 && facts->from_paste) /* a table's processes: whose, the paste does not say */
		return d->nprocs == 1 ? N_("a process") : N_("processes");
	if (known == d->nprocs && own == d->nprocs && d->procs_total <= 0)
		return d->nprocs == 1 ? N_("your own process") : N_("your own processes");
	if (own > 0)
		return N_("processes, some of them yours");
	return d->nprocs == 1 ? N_("another process") : N_("other processes");
}

static void check_memory(const struct facts *facts, struct findings *out)
{
	const struct runtime_facts *rt = &facts->runtime;

	for (int i = 0; i < rt->nvml_ndev; i++) {
		const struct nvml_device *d = &rt->nvml[i];
		long long percent;
		struct finding *f;
		char cmd[64];

		if (d->mem_total_mib <= 0 || d->mem_used_mib < 0)
			continue;
		percent = (d->mem_used_mib * 100 + d->mem_total_mib / 2) / d->mem_total_mib;
		if (percent < MEMORY_BUSY_PERCENT || (d->nprocs == 0 && d->procs_total <= 0))
			continue;
		f = findings_add(out, CAUSE_GPU_MEMORY_BUSY, SEV_WARNING, "GPU %d's memory is %lld%% used by %s", i,
				 percent, holders(facts, d));
		finding_gpu(f, i);
		finding_detail(f, "Only %lld MiB of %lld MiB are free, so a new PyTorch process on this GPU runs out of "
			       "memory at its first large allocation (\"CUDA out of memory\"), however small its own "
			       "model is.", d->mem_total_mib - d->mem_used_mib, d->mem_total_mib);
		finding_evidence(f, "memory used", "NVML", "GPU %d (%s): %lld of %lld MiB", i, d->bus_id, d->mem_used_mib,
				 d->mem_total_mib);
		process_evidence(f, rt, d);
		snprintf(cmd, sizeof(cmd), "nvidia-smi -i %d", i);
		finding_fix(f, cmd, "see what runs there now");
		finding_fix(f, NULL, "wait for those processes, stop your own stale ones (`kill PID`), or run on a GPU "
			    "with free memory (CUDA_VISIBLE_DEVICES)");
	}
}

/*
 * Thermal slowdowns and the hardware's emergency brakes. The software power
 * cap is left out: a busy GPU running at its power limit is working as
 * designed.
 */
static void check_slowdown(const struct facts *facts, struct findings *out)
{
	const struct runtime_facts *rt = &facts->runtime;

	for (int i = 0; i < rt->nvml_ndev; i++) {
		const struct nvml_device *d = &rt->nvml[i];
		bool thermal = d->clock_events > 0 && (d->clock_events & (GPU_CLOCKS_SW_THERMAL | GPU_CLOCKS_HW_THERMAL));
		char why[160];
		struct finding *f;

		if (!gpu_clock_events_text(d->clock_events, GPU_CLOCKS_SLOWDOWNS & ~GPU_CLOCKS_SW_POWER_CAP, why, sizeof(why)))
			continue;
		f = findings_add(out, CAUSE_GPU_SLOWDOWN, SEV_WARNING, "GPU %d slows itself down: %s", i, why);
		finding_gpu(f, i);
		if (thermal)
			finding_detail(f, "The GPU is too hot and lowers its clocks to cool down, so everything on it runs "
				       "slower (often by half). The cause is cooling: blocked airflow, a failing or "
				       "throttled fan, dust, or a hot room or rack.");
		else
			finding_detail(f, "The GPU's hardware slowdown is engaged: its power supply or the board signalled "
				       "a problem (insufficient power, a power brake from the system). Clocks drop by "
				       "half or more until it clears.");
		finding_evidence(f, "clocks event reasons", "NVML", "GPU %d (%s): %s", i, d->bus_id, why);
		if (d->temperature_c >= 0)
			finding_evidence(f, "temperature", "NVML", "%d C%s", d->temperature_c, "");
		if (d->temp_slowdown_c > 0)
			finding_evidence(f, "slowdown temperature", "NVML", "%d C", d->temp_slowdown_c);
		if (d->fan_percent >= 0)
			finding_evidence(f, "fan", "NVML", "%d%%", d->fan_percent);
		if (d->power_w >= 0 && d->power_limit_w > 0)
			finding_evidence(f, "power", "NVML", "%.0f W of %.0f W", d->power_w, d->power_limit_w);
		if (d->utilization >= 0)
			finding_evidence(f, "utilization", "NVML", "%d%%", d->utilization);
		finding_fix(f, "nvidia-smi -q -d PERFORMANCE,TEMPERATURE", "read the slowdown reasons and temperatures");
		if (thermal)
			finding_fix(f, NULL, "improve the cooling: clear the air path and dust, check the fans spin, and keep "
				    "the room or rack's inlet air cool");
		else
			finding_fix(f, NULL, "check the GPU's power connectors and the power supply's capacity");
	}
}

static const struct rule load_rules[] = {
	{ CAUSE_GPU_MEMORY_BUSY, check_memory },
	{ CAUSE_GPU_SLOWDOWN, check_slowdown },
};

const struct rule_family rules_load = { "load", load_rules, sizeof(load_rules) / sizeof(load_rules[0]) };
