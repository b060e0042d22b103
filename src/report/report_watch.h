/*
 * report_watch.h - `gpudoctor watch`'s sample, as a line per GPU (piped
 * output), as one JSON object (gpudoctor.watch/1, one per line), and as a
 * full screen (watch_tui.c). They only format: the sample, its diagnosis
 * and the findings' history come from probe/live.h, the rules and
 * rules/finding_track.h.
 */
#ifndef GD_REPORT_REPORT_WATCH_H
#define GD_REPORT_REPORT_WATCH_H

#include <jansson.h>
#include <stdio.h>

#include "probe/live.h"
#include "report/report.h"
#include "rules/finding_track.h"
#include "rules/rules.h"

#define WATCH_SCHEMA "gpudoctor.watch/1"

/* The driver's state in a word: "ok", "no-library", "init-failed", "hung", "crashed", "stuck". */
const char *report_live_state_name(enum live_state state);

/*
 * The sample's lines: one per GPU (or one saying why there is no sample), then a line per finding that
 * appeared in it and one per finding that went away.
 */
void report_watch_lines(FILE *out, const struct live_sample *s, const struct diagnosis *d,
			const struct finding_track *t, const struct report_opts *o);

/* The sample as one JSON object; a new reference, NULL when out of memory. */
json_t *report_watch_json(const struct live_sample *s, const struct diagnosis *d, const struct finding_track *t);

/*
 * The full-screen view (watch_tui.c, ncurses) on the terminal of standard input and output: a table of
 * the GPUs, the processes of the selected one, and the findings. Keys: q quits, up/down (or j/k) select a
 * GPU, s changes the processes' sort (memory, pid, user). A resized terminal is redrawn.
 */
struct watch_tui;

/* Take the terminal over; NULL when it cannot be (not a terminal, no terminfo): use lines then. */
struct watch_tui *watch_tui_open(const struct report_opts *o);
/* Draw a sample (kept for redraws on a key or a resize until the next one). */
void watch_tui_draw(struct watch_tui *ui, const struct live_sample *s, const struct diagnosis *d,
		    const struct finding_track *t);
/* Wait up to ms for keys, handling them; returns false when the user asked to quit. */
bool watch_tui_wait(struct watch_tui *ui, int ms);
/* Give the terminal back as it was; NULL is fine. */
void watch_tui_close(struct watch_tui *ui);

#endif
