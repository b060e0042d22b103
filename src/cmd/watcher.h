/*
 * watcher.h - the sampler `watch` and `metrics` share: the machine's files
 * probed once, one long-lived driver helper (probe/live.h) asked once per
 * interval, and each sample run through the doctor's GPU families and the
 * watcher's own (rules_live.c), with the findings' history kept
 * (rules/finding_track.h).
 */
#ifndef GD_CMD_WATCHER_H
#define GD_CMD_WATCHER_H

#include <signal.h>

#include "cmd/cmd.h"
#include "cmd/machine.h"
#include "probe/live.h"
#include "rules/finding_track.h"
#include "rules/rules.h"

/* One driver call's deadline unless --timeout says otherwise: a watcher must not freeze for the doctor's 10 s. */
#define WATCHER_DEADLINE_S 2.0

struct watcher {
	struct machine m;
	struct facts *facts;		/* the static probe's, then each sample's (live_apply) */
	struct live_sampler *sampler;
	struct live_sample *sample;	/* the latest */
	struct finding_track track;
	double interval_s;
};

/*
 * Probe the machine opts names (its files only: never Python, never the driver; the sampler calls it)
 * and open the sampler; the interval is opts->interval_s, or default_interval_s when not given. Returns
 * 0, or the exit status after printing why. watcher_close must follow either way.
 */
int watcher_open(struct watcher *w, const struct cmd_options *opts, double default_interval_s);

/* Take one sample and run it through the rules into d, which the caller releases (diagnosis_release). */
void watcher_step(struct watcher *w, struct diagnosis *d);

/* A watcher's --timeout (one driver call's deadline); --root and --load-root-libraries are cmd_root_options. */
struct cmd_option_group;
extern const struct cmd_option_group watcher_machine_options;

/* The signal (SIGINT, SIGTERM) that asked the loop to end, 0 while none has; a loop may set it too. */
extern volatile sig_atomic_t watcher_stop_signal;

/* Catch SIGINT and SIGTERM into watcher_stop_signal (no SA_RESTART: a sleep returns at once). */
void watcher_catch_stops(void);

/* Sleep until deadline_ms on the monotonic clock (util/clock.h), or until a stop signal. */
void watcher_sleep_until(double deadline_ms);

/* End the helper and free what watcher_open took; safe after a failed watcher_open. */
void watcher_close(struct watcher *w);

#endif
