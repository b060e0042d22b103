/*
 * watch_view.h - what the full-screen watch view shows, kept apart from
 * curses: a copy of one sample and its findings, made safe for a terminal
 * (the caller releases the diagnosis right after drawing, and a redraw on a
 * key or a resize comes later), and the cells of its table as text.
 * watch_tui.c puts them on the screen.
 */
#ifndef GD_REPORT_WATCH_VIEW_H
#define GD_REPORT_WATCH_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/live.h"
#include "rules/finding_track.h"
#include "rules/rules.h"

/* The columns of the GPU table, left to right. */
enum view_col {
	COL_INDEX, COL_NAME, COL_UTIL, COL_MEM_UTIL, COL_MEMORY, COL_TEMP, COL_POWER, COL_SM_CLOCK, COL_FAN,
	COL_PSTATE, COL_PCIE, COL_SLOWDOWN, COL_ECC,
	VIEW_NCOLS
};

/* How the selected GPU's processes are listed; s cycles through them in this order. */
enum view_sort { SORT_MEMORY, SORT_PID, SORT_USER, VIEW_NSORTS };

struct view_finding {
	enum severity severity;
	enum cause_id cause;
	int gpu;			/* -1: not one GPU's */
	long since;			/* the sample it first appeared in */
	char title[200];		/* made safe, cut */
};

struct view {
	bool have_sample;
	struct live_sample sample;	/* names, users, command lines, why and call made safe */
	struct view_finding findings[TRACK_MAX];	/* newest first */
	int nfindings;
	int findings_dropped;		/* past TRACK_MAX, not kept */
	long first_seq;			/* the first sample seen, for the interval */
	double first_t_s;
};

/*
 * Copy sample s and diagnosis d's findings (with t's "since") into v, every text from the machine made
 * safe for a terminal: control characters escaped (util/termsafe.h), bytes outside ASCII shown as '?'
 * (the view does not switch the program's locale). Findings are kept newest first. v owns nothing on
 * the heap; d may be released afterwards.
 */
void view_keep(struct view *v, const struct live_sample *s, const struct diagnosis *d, const struct finding_track *t);

/* The seconds between samples as seen so far; 0 when not known yet (one sample). */
double view_interval_s(const struct view *v);

/* A column's heading and its width on screen (COL_NAME's is its least). */
const char *view_col_heading(enum view_col c);
int view_col_width(enum view_col c);

/*
 * Which columns fit in width: fills show[VIEW_NCOLS], dropping the least needed first, and returns the
 * width COL_NAME gets (at most 24, at least its least width, even when nothing fits: the row is cut).
 */
int view_fit_columns(int width, bool show[VIEW_NCOLS]);

/* GPU d's cell of column c as text into buf ("-" for a value the GPU does not report). */
void view_cell(const struct nvml_device *d, int index, enum view_col c, char *buf, size_t size);

/* The indices into d->procs in order (n: d->nprocs, at most MAX_RT_PROCS). */
void view_sort_procs(const struct nvml_device *d, enum view_sort sort, int order[MAX_RT_PROCS]);
const char *view_sort_name(enum view_sort sort);

/* The driver's state in a few words ("ok", "hung in nvmlDeviceGetPowerUsage (2000 ms)") into buf. */
void view_driver_state(const struct live_sample *s, char *buf, size_t size);

#endif
