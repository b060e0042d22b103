#include "probe/facts.h"
#include "util/i18n.h"
#include "util/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * See facts.h: one calloc the caller frees with facts_free. Not all zero: the "none chosen" indices and the
 * tri-state fields start at -1 (unknown), so a probe that never runs leaves no false 0.
 */
struct facts *facts_new(void)
{
	struct facts *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->toolkits.active = -1;
	f->libs.cuda.chosen = -1;
	f->libs.nvml.chosen = -1;
	f->kmod.secure_boot = -1;
	f->runtime.nvml_count = -1;
	f->python.selected = -1;
	f->python.deep.available = -1;
	f->runtime.cuda_count = -1;
	return f;
}

/* See facts.h. */
void nvml_device_unknown(struct nvml_device *d)
{
	memset(d, 0, sizeof(*d));
	d->mem_total_mib = d->mem_used_mib = d->ecc_uncorrected = -1;
	d->utilization = d->temperature_c = d->persistence = d->compute_mode = -1;
	d->mig_current = d->mig_pending = d->mig_instances = -1;
	d->retired_pending = d->remap_pending = d->remap_failure = -1;
	d->cc_major = d->cc_minor = -1;
	d->power_w = d->power_limit_w = -1;
	d->fan_percent = d->pstate = d->temp_slowdown_c = -1;
	d->clock_events = -1;
	d->retired_sbe = d->retired_dbe = -1;
	d->mem_utilization = d->sm_clock_mhz = d->sm_clock_max_mhz = d->mem_clock_mhz = d->mem_clock_max_mhz = -1;
	d->link_gen = d->link_width = d->link_gen_max = d->link_width_max = -1;
	d->pcie_tx_kbps = d->pcie_rx_kbps = d->ecc_corrected = -1;
	for (int i = 0; i < MAX_RT_PROCS; i++)
		d->procs[i].uid = -1;
}

/* See facts.h. */
const char *facts_machine(const struct facts *facts)
{
	return facts->from_paste ? N_("the pasted machine") : N_("this machine");
}

/* Frees the environment values (the model's only heap strings) and the model itself; NULL is fine. */
void facts_free(struct facts *facts)
{
	if (!facts)
		return;
	for (int i = 0; i < facts->env.count; i++)
		free(facts->env.vars[i].value);
	free(facts);
}

/* Set a section's state and its reason (cut to fit, never overflowing); st->denied is left as it was. */
/*
 * The translation of the text english was formatted to from fmt and ap into local (size n), or "" when
 * none is active, it reads the same, or it does not fit whole (a cut would split a UTF-8 sequence).
 */
static void localize(char *local, size_t n, const char *english, const char *fmt, va_list ap)
{
	char *l = i18n_active() ? i18n_local_vdupf(english, fmt, ap) : NULL;

	local[0] = '\0';
	if (l && str_copy(local, n, l) < 0)
		local[0] = '\0';
	free(l);
}

void fact_status_set(struct fact_status *st, enum fact_state state, const char *fmt, ...)
{
	va_list ap;

	st->state = state;
	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	localize(st->reason_local, sizeof(st->reason_local), st->reason, fmt, ap);
	va_end(ap);
}

const char *fact_reason_shown(const struct fact_status *st)
{
	return st->reason_local[0] ? st->reason_local : i18n_text(st->reason);
}

/* Add a note for the report; past MAX_NOTES the note is dropped and counted with facts_dropped("notes"). */
void facts_note(struct facts *facts, const char *fmt, ...)
{
	va_list ap;

	if (facts->note_count >= MAX_NOTES) {
		facts_dropped(facts, "notes", MAX_NOTES, 1);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(facts->notes[facts->note_count], sizeof(facts->notes[0]), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	localize(facts->notes_local[facts->note_count], sizeof(facts->notes_local[0]), facts->notes[facts->note_count], fmt, ap);
	va_end(ap);
	facts->note_count++;
}

/* A static lowercase name for JSON and text; an out-of-range value reads "unknown". Never NULL. */
const char *fact_state_name(enum fact_state state)
{
	switch (state) {
	case FACT_OK:
		return "ok";
	case FACT_ABSENT:
		return "absent";
	case FACT_UNKNOWN:
		return "unknown";
	case FACT_ERROR:
		return "error";
	}
	return "unknown";
}

/* A static name of where the loader found a library, for evidence; never NULL. */
const char *lib_origin_name(enum lib_origin origin)
{
	switch (origin) {
	case LIB_FROM_PRELOAD:
		return "LD_PRELOAD";
	case LIB_FROM_LD_LIBRARY_PATH:
		return "LD_LIBRARY_PATH";
	case LIB_FROM_LDCACHE:
		return "ld.so.cache";
	case LIB_FROM_LDCONF:
		return "ld.so.conf";
	case LIB_FROM_DEFAULT_DIR:
		return "default directory";
	case LIB_FROM_WSL:
		return "WSL";
	}
	return "unknown";
}

/* A static name for the CUDA_VISIBLE_DEVICES form; an out-of-range value reads "invalid". Never NULL. */
const char *visible_kind_name(enum visible_kind kind)
{
	static const char *const names[] = {
		[VISIBLE_UNSET] = "unset",     [VISIBLE_EMPTY] = "empty",
		[VISIBLE_NONE] = "none",       [VISIBLE_INDICES] = "indices",
		[VISIBLE_UUIDS] = "uuids",     [VISIBLE_MIG] = "mig",
		[VISIBLE_MIXED] = "mixed",     [VISIBLE_INVALID] = "invalid",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "invalid";
}

/* The value of a variable the env probe recorded, borrowed from the model; NULL when unset or not recorded. */
const char *facts_env(const struct facts *facts, const char *name)
{
	for (int i = 0; i < facts->env.count; i++)
		if (strcmp(facts->env.vars[i].name, name) == 0)
			return facts->env.vars[i].value;
	return NULL;
}

/* True when the variable was recorded as set, even to "". */
bool facts_env_is_set(const struct facts *facts, const char *name)
{
	return facts_env(facts, name) != NULL;
}

/*
 * The /dev entry the device-node probe recorded under exactly this path, borrowed from the model. Only
 * nodes found are recorded, so NULL means absent (or past MAX_DEVNODES).
 */
const struct devnode *facts_devnode(const struct facts *facts, const char *path)
{
	for (int i = 0; i < facts->kmod.node_count; i++)
		if (strcmp(facts->kmod.nodes[i].path, path) == 0)
			return &facts->kmod.nodes[i];
	return NULL;
}

/* The candidate the loader would pick, borrowed from choice; NULL when none (chosen -1 or out of range). */
const struct lib_candidate *lib_choice_chosen(const struct lib_choice *choice)
{
	if (choice->chosen < 0 || choice->chosen >= choice->count)
		return NULL;
	return &choice->candidates[choice->chosen];
}

/*
 * Borrowed from the model: NVRM's version, else NVML's (WSL has no /proc/driver/nvidia), else the chosen
 * libcuda's unless it is a stub. NULL when none of them is known.
 */
const char *facts_driver_version(const struct facts *facts)
{
	const struct lib_candidate *lib;

	if (facts->kmod.nvrm_version[0])
		return facts->kmod.nvrm_version;
	if (facts->runtime.nvml_driver_version[0])
		return facts->runtime.nvml_driver_version;	/* WSL: no /proc/driver/nvidia */
	lib = lib_choice_chosen(&facts->libs.cuda);
	if (lib && lib->version[0] && !lib->is_stub)
		return lib->version;
	return NULL;
}

/*
 * A static label following the same order as facts_driver_version. Only meaningful when that returned a
 * version: with none known it still says "libcuda.so.1".
 */
const char *facts_driver_version_source(const struct facts *facts)
{
	if (facts->kmod.nvrm_version[0])
		return "/proc/driver/nvidia/version";
	if (facts->runtime.nvml_driver_version[0])
		return "NVML";
	return "libcuda.so.1";
}

/*
 * Looks at the sections whose absence rules conclude from: PCI, kernel module, both driver libraries,
 * toolkits, cuDNN and Python. The system, environment, container and runtime sections are not consulted.
 */
bool facts_any_denied(const struct facts *f)
{
	const struct fact_status *sections[] = {
		&f->pci.status, &f->kmod.status, &f->libs.cuda.status, &f->libs.nvml.status, &f->toolkits.status,
		&f->cudnn.status, &f->python.status,
	};

	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (sections[i]->denied)
			return true;
	return false;
}

/*
 * See facts.h. what is kept as a pointer, so it must be a static string; rows are matched by pointer or
 * text. Once one count is -1 it stays -1. With the table full, the drop is added to the last row, whatever
 * that row's noun.
 */
void facts_dropped(struct facts *facts, const char *what, int limit, int n)
{
	struct fact_limit *l = NULL;

	if (n == 0)
		return;
	for (int i = 0; i < facts->nlimits && !l; i++)
		if (facts->limits[i].what == what || strcmp(facts->limits[i].what, what) == 0)
			l = &facts->limits[i];
	if (!l && facts->nlimits < MAX_LIMITS - 1) {
		l = &facts->limits[facts->nlimits++];
		l->what = what;
		l->limit = limit;
	} else if (!l) {
		/* the last row gathers whatever finds the table full, honestly labelled */
		l = &facts->limits[MAX_LIMITS - 1];
		if (facts->nlimits < MAX_LIMITS) {
			facts->nlimits = MAX_LIMITS;
			l->what = "items of other kinds";
			l->limit = 0;
		}
		n = n < 0 ? 1 : n;
	}
	l->dropped = n < 0 || l->dropped < 0 ? -1 : l->dropped + n;
}

/* See facts.h: an uncounted drop (-1) omits the number. Cut to outsz, always terminated when outsz > 0. */
void fact_limit_text(const struct fact_limit *l, char *out, size_t outsz)
{
	if (l->limit == 0)
		snprintf(out, outsz, "%d more %s not examined (the table of limits was full)", l->dropped, l->what);
	else if (l->dropped < 0)
		snprintf(out, outsz, "more %s not examined (the first %d were)", l->what, l->limit);
	else
		snprintf(out, outsz, "%d more %s not examined (the first %d were)", l->dropped, l->what, l->limit);
}

/* See facts.h. The names follow nvml.h's nvmlClocksEventReason* constants, lower-cased. */
const char *gpu_clock_event_name(unsigned long long bit)
{
	static const struct { unsigned long long bit; const char *name; } names[] = {
		{ GPU_CLOCKS_IDLE, "gpu_idle" },
		{ GPU_CLOCKS_APP_SETTING, "applications_clocks_setting" },
		{ GPU_CLOCKS_SW_POWER_CAP, "sw_power_cap" },
		{ GPU_CLOCKS_HW_SLOWDOWN, "hw_slowdown" },
		{ GPU_CLOCKS_SYNC_BOOST, "sync_boost" },
		{ GPU_CLOCKS_SW_THERMAL, "sw_thermal_slowdown" },
		{ GPU_CLOCKS_HW_THERMAL, "hw_thermal_slowdown" },
		{ GPU_CLOCKS_HW_POWER_BRAKE, "hw_power_brake_slowdown" },
		{ GPU_CLOCKS_DISPLAY_SETTING, "display_clock_setting" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].bit == bit)
			return names[i].name;
	return NULL;
}

/* See facts.h. */
bool gpu_clock_events_text(long long events, unsigned long long mask, char *out, size_t outsz)
{
	size_t n = 0;

	if (outsz)
		out[0] = '\0';
	for (int b = 0; events > 0 && b < 63 && n < outsz; b++) {
		unsigned long long bit = 1ULL << b;

		if (((unsigned long long)events & bit & mask) && gpu_clock_event_name(bit))
			n += (size_t)snprintf(out + n, outsz - n, "%s%s", n ? ", " : "", gpu_clock_event_name(bit));
	}
	return n > 0;
}
