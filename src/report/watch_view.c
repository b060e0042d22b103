/*
 * watch_view.c - the full-screen watch view's data: the kept sample, made
 * safe for a terminal, and its table cells as text (see watch_view.h).
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_watch.h"
#include "report/watch_view.h"
#include "util/dwidth.h"
#include "util/i18n.h"
#include "util/str.h"
#include "util/termsafe.h"

#define NAME_MAX_WIDTH 24

/*
 * src made safe into dst: escapes for control characters and invalid UTF-8 (termsafe), so what is left
 * past ASCII is whole UTF-8 characters, kept for the screen (a Chinese title, a GPU name); never cut
 * inside a character; always terminated.
 */
static void safe_copy(char *dst, size_t size, const char *src)
{
	char *esc = NULL;
	size_t len = 0, j = 0;
	const char *from;

	if (!size)
		return;
	from = termsafe_escape(src, strnlen(src, 4096), false, &esc, &len) == 0 ? esc : src;
	for (size_t i = 0, n = strlen(from); i < n;) {
		unsigned char c = (unsigned char)from[i];
		uint32_t cp;
		size_t step = c < 0x80 ? 1 : dw_decode(from + i, n - i, &cp);

		if (c >= 0x80 && from == esc) {	/* termsafe passed it: a valid UTF-8 character */
			if (j + step >= size)
				break;
			memcpy(dst + j, from + i, step);
			j += step;
		} else {
			if (j + 1 >= size)
				break;
			/* without termsafe (out of memory) the filter alone keeps the terminal safe */
			dst[j++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		}
		i += step;
	}
	dst[j] = '\0';
	free(esc);
}

static void safe_in_place(char *s, size_t size)
{
	char copy[FACT_TEXT * 2];

	str_copy(copy, sizeof(copy), s);
	safe_copy(s, size, copy);
}

static void keep_sample(struct live_sample *k, const struct live_sample *s)
{
	*k = *s;
	safe_in_place(k->why, sizeof(k->why));
	safe_in_place(k->call, sizeof(k->call));
	safe_in_place(k->driver_version, sizeof(k->driver_version));
	if (k->ndev > MAX_RT_DEVICES)
		k->ndev = MAX_RT_DEVICES;
	for (int i = 0; i < k->ndev; i++) {
		struct nvml_device *d = &k->gpu[i];

		safe_in_place(d->name, sizeof(d->name));
		if (d->nprocs > MAX_RT_PROCS)
			d->nprocs = MAX_RT_PROCS;
		for (int p = 0; p < d->nprocs; p++) {
			safe_in_place(d->procs[p].user, sizeof(d->procs[p].user));
			safe_in_place(d->procs[p].command, sizeof(d->procs[p].command));
		}
	}
}

/* See watch_view.h. */
void view_keep(struct view *v, const struct live_sample *s, const struct diagnosis *d, const struct finding_track *t)
{
	int n = (int)d->findings.count < t->nnow ? (int)d->findings.count : t->nnow;

	if (!v->have_sample) {
		v->first_seq = s->seq;
		v->first_t_s = s->t_s;
	}
	keep_sample(&v->sample, s);
	v->have_sample = true;
	v->nfindings = 0;
	v->findings_dropped = (int)d->findings.count - n;
	for (int i = 0; i < n; i++) {
		const struct finding *f = &d->findings.items[i];
		struct view_finding vf = { f->severity, f->cause, f->gpu, t->now[i].since, "" };
		int at = v->nfindings++;

		/* the title in the report's language when it has one (finding.h) */
		safe_copy(vf.title, sizeof(vf.title), f->title_local ? f->title_local : f->title ? f->title : "");
		/* newest first; equal ages keep the diagnosis's order (root cause first) */
		while (at > 0 && v->findings[at - 1].since < vf.since) {
			v->findings[at] = v->findings[at - 1];
			at--;
		}
		v->findings[at] = vf;
	}
}

/* See watch_view.h. */
double view_interval_s(const struct view *v)
{
	if (!v->have_sample || v->sample.seq <= v->first_seq)
		return 0;
	return (v->sample.t_s - v->first_t_s) / (double)(v->sample.seq - v->first_seq);
}

static const struct {
	const char *heading;
	int width;
} columns[VIEW_NCOLS] = {
	[COL_INDEX] = { N_("GPU"), 3 },
	[COL_NAME] = { N_("NAME"), 8 },
	[COL_UTIL] = { N_("UTIL"), 4 },
	[COL_MEM_UTIL] = { N_("MEM%"), 4 },
	[COL_MEMORY] = { N_("MEMORY MiB"), 11 },
	[COL_TEMP] = { N_("TEMP"), 4 },
	[COL_POWER] = { N_("POWER W"), 7 },
	[COL_SM_CLOCK] = { "SM MHz", 9 },
	[COL_FAN] = { N_("FAN"), 4 },
	[COL_PSTATE] = { "P", 3 },
	[COL_PCIE] = { "PCIE", 9 },
	[COL_SLOWDOWN] = { N_("SLOWDOWN"), 10 },
	[COL_ECC] = { "ECC C/U", 7 },
};

/* Dropped first to last when the screen is narrow: the index, the name, use and memory stay. */
static const enum view_col drop_order[] = {
	COL_MEM_UTIL, COL_FAN, COL_PCIE, COL_PSTATE, COL_ECC, COL_SM_CLOCK, COL_POWER, COL_SLOWDOWN, COL_TEMP,
};

/* See watch_view.h. */
const char *view_col_heading(enum view_col c)
{
	return (unsigned)c < VIEW_NCOLS ? i18n_text(columns[c].heading) : "";
}

/* See watch_view.h. A translated heading may be wider than the English one: the column grows to it. */
int view_col_width(enum view_col c)
{
	const char *h = view_col_heading(c);
	int w = dw_width(h, strlen(h));

	if ((unsigned)c >= VIEW_NCOLS)
		return 0;
	return w > columns[c].width ? w : columns[c].width;
}

/* See watch_view.h. */
int view_fit_columns(int width, bool show[VIEW_NCOLS])
{
	int used = -1;	/* no space before the first column */
	size_t k = 0;

	for (int c = 0; c < VIEW_NCOLS; c++) {
		show[c] = true;
		used += view_col_width(c) + 1;
	}
	while (used > width && k < sizeof(drop_order) / sizeof(drop_order[0])) {
		show[drop_order[k]] = false;
		used -= view_col_width(drop_order[k]) + 1;
		k++;
	}
	if (width - used + view_col_width(COL_NAME) > NAME_MAX_WIDTH)
		return NAME_MAX_WIDTH;
	return width > used ? view_col_width(COL_NAME) + width - used : view_col_width(COL_NAME);
}

static void num(char *buf, size_t size, long long v, const char *unit)
{
	if (v < 0)
		str_copy(buf, size, "-");
	else
		str_printf(buf, size, "%lld%s", v, unit);
}

/* "now/most", "now" when the most is unknown, "-" when now is */
static void pair(char *buf, size_t size, long long now, long long most)
{
	if (now < 0)
		str_copy(buf, size, "-");
	else if (most > 0)
		str_printf(buf, size, "%lld/%lld", now, most);
	else
		str_printf(buf, size, "%lld", now);
}

static void pcie(char *buf, size_t size, const struct nvml_device *d)
{
	char now[12] = "-", most[12] = "-";

	if (d->link_gen > 0 && d->link_width > 0)
		str_printf(now, sizeof(now), "%dx%d", d->link_gen, d->link_width);
	if (d->link_gen_max > 0 && d->link_width_max > 0)
		str_printf(most, sizeof(most), "%dx%d", d->link_gen_max, d->link_width_max);
	if (strcmp(now, "-") == 0 && strcmp(most, "-") == 0)
		str_copy(buf, size, "-");
	else
		str_printf(buf, size, "%s/%s", now, most);
}

/* The slowdown reasons in short words, for a narrow column (the line view spells them out). */
static void slowdowns(char *buf, size_t size, long long events)
{
	static const struct {
		unsigned long long bit;
		const char *word;
	} words[] = {
		{ GPU_CLOCKS_SW_POWER_CAP, "power" }, { GPU_CLOCKS_HW_POWER_BRAKE, "brake" },
		{ GPU_CLOCKS_SW_THERMAL, "thermal" }, { GPU_CLOCKS_HW_THERMAL, "hwtherm" },
		{ GPU_CLOCKS_HW_SLOWDOWN, "hw" },
	};
	size_t at = 0;

	if (events < 0) {
		str_copy(buf, size, "-");
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if ((unsigned long long)events & words[i].bit) {
			str_printf(buf + at, size - at, "%s%s", at ? "," : "", words[i].word);
			at = strlen(buf);
		}
}

/* See watch_view.h. */
void view_cell(const struct nvml_device *d, int index, enum view_col c, char *buf, size_t size)
{
	switch (c) {
	case COL_INDEX: str_printf(buf, size, "%d", index); break;
	case COL_NAME:	/* every name starts so: the column shows what tells them apart */
		str_copy(buf, size, !d->name[0] ? "-" : str_starts_with(d->name, "NVIDIA ") ? d->name + 7 : d->name);
		break;
	case COL_UTIL: num(buf, size, d->utilization, "%"); break;
	case COL_MEM_UTIL: num(buf, size, d->mem_utilization, "%"); break;
	case COL_MEMORY: pair(buf, size, d->mem_used_mib, d->mem_total_mib); break;
	case COL_TEMP: num(buf, size, d->temperature_c, "C"); break;
	case COL_POWER:
		if (d->power_w < 0)
			str_copy(buf, size, "-");
		else
			str_printf(buf, size, d->power_limit_w > 0 ? "%.0f/%.0f" : "%.0f", d->power_w, d->power_limit_w);
		break;
	case COL_SM_CLOCK: pair(buf, size, d->sm_clock_mhz, d->sm_clock_max_mhz); break;
	case COL_FAN: num(buf, size, d->fan_percent, "%"); break;
	case COL_PSTATE:
		if (d->pstate < 0)
			str_copy(buf, size, "-");
		else
			str_printf(buf, size, "P%d", d->pstate);
		break;
	case COL_PCIE: pcie(buf, size, d); break;
	case COL_SLOWDOWN: slowdowns(buf, size, d->clock_events); break;
	case COL_ECC: {
		char a[24], b[24];

		num(a, sizeof(a), d->ecc_corrected, "");
		num(b, sizeof(b), d->ecc_uncorrected, "");
		if (d->ecc_corrected < 0 && d->ecc_uncorrected < 0)
			str_copy(buf, size, "-");
		else
			str_printf(buf, size, "%s/%s", a, b);
		break;
	}
	default: str_copy(buf, size, ""); break;
	}
}

/* Whether process a is listed before b: by the sort's key, then (by user) memory, then pid. */
static bool proc_before(const struct gpu_process *a, const struct gpu_process *b, enum view_sort sort)
{
	int c = sort == SORT_USER ? strcmp(a->user, b->user) : 0;

	if (c)
		return c < 0;
	if (sort != SORT_PID && a->used_mib != b->used_mib)
		return a->used_mib > b->used_mib;
	return a->pid < b->pid;
}

/* See watch_view.h. */
void view_sort_procs(const struct nvml_device *d, enum view_sort sort, int order[MAX_RT_PROCS])
{
	int n = d->nprocs < MAX_RT_PROCS ? d->nprocs : MAX_RT_PROCS;

	for (int i = 0; i < n; i++) {
		int at = i;

		while (at > 0 && proc_before(&d->procs[i], &d->procs[order[at - 1]], sort)) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = i;
	}
}

/* See watch_view.h. */
const char *view_sort_name(enum view_sort sort)
{
	/* N_: the full-screen view shows them translated; English callers get these words */
	static const char *const names[] = { N_("memory"), N_("pid"), N_("user") };

	return (unsigned)sort < VIEW_NSORTS ? names[sort] : "?";
}

/* See watch_view.h. */
void view_driver_state(const struct live_sample *s, char *buf, size_t size)
{
	const char *name = report_live_state_name(s->state);

	switch (s->state) {
	case LIVE_OK: str_copy(buf, size, name); break;
	case LIVE_HUNG: str_printf(buf, size, "%s in %s (%.0f ms)", name, s->call, s->call_ms); break;
	case LIVE_CRASHED: str_printf(buf, size, "%s in %s (signal %d)", name, s->call, s->signal); break;
	case LIVE_STUCK: str_printf(buf, size, "%s in %s (pid %d asleep in the kernel)", name, s->call, s->stuck_pid); break;
	case LIVE_INIT_FAILED: str_printf(buf, size, "%s (nvmlInit_v2: %d)", name, s->init); break;
	default: str_printf(buf, size, "%s%s%s", name, s->why[0] ? ": " : "", s->why); break;
	}
}
