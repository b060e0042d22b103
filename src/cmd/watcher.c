/*
 * watcher.c - the sampler `watch` and `metrics` share (watcher.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/watcher.h"
#include "cmd/options.h"
#include "util/clock.h"
#include "util/i18n.h"

/* The doctor's one-sample families, then the watcher's; the order is the report's. */
static const struct rule_family *const watch_families[] = {
	&rules_driver_calls, &rules_live, &rules_health, &rules_load,
};

/* See watcher.h. */
int watcher_open(struct watcher *w, const struct cmd_options *given, double default_interval_s)
{
	struct cmd_options opts = *given;
	struct error err;
	int status;

	memset(w, 0, sizeof(*w));
	w->interval_s = given->interval_s > 0 ? given->interval_s : default_interval_s;
	opts.static_only = true;
	opts.fast = true;
	opts.deep = false;
	opts.python = NULL;
	if ((status = machine_open(&w->m, &opts)))
		return status;
	if (!(w->facts = machine_probe(&w->m, &opts)))
		return EXIT_INTERNAL;
	w->sample = malloc(sizeof(*w->sample));
	w->sampler = w->sample ? live_open(w->facts, &w->m.fs, given->load_root_libraries,
					   given->timeout_s > 0 ? given->timeout_s : WATCHER_DEADLINE_S, &err) : NULL;
	if (!w->sampler) {
		cmd_error("gpudoctor: %s", w->sample ? err.msg : "out of memory");
		return EXIT_INTERNAL;
	}
	return 0;
}

/* See watcher.h. */
void watcher_close(struct watcher *w)
{
	live_close(w->sampler);
	free(w->sample);
	facts_free(w->facts);
	machine_close(&w->m);
}

/* See watcher.h. */
void watcher_step(struct watcher *w, struct diagnosis *d)
{
	live_sample(w->sampler, w->sample);
	live_apply(w->facts, w->sample, w->interval_s);
	rules_run_families(w->facts, watch_families, sizeof(watch_families) / sizeof(watch_families[0]), d);
	finding_track_update(&w->track, d, w->sample->seq);
}

volatile sig_atomic_t watcher_stop_signal;

static void on_stop(int sig)
{
	watcher_stop_signal = sig;
}

/* See watcher.h. */
void watcher_catch_stops(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* See watcher.h. */
void watcher_sleep_until(double deadline_ms)
{
	double left = deadline_ms - clock_ms();

	if (left > 0 && !watcher_stop_signal)
		nanosleep(&(struct timespec){ (time_t)(left / 1000), (long)((left - (long)(left / 1000) * 1000) * 1e6) },
			  NULL);
}

static const struct cmd_option machine_only[] = {
	{ "root", 0, "DIR", OPT_ROOT, N_("look at the machine whose files are under DIR instead of / (nothing from "
	  "it is loaded without --load-root-libraries)") },
	{ "load-root-libraries", 0, NULL, OPT_LOAD_ROOT_LIBS, N_("under --root, load and call the image's driver "
	  "libraries (only for an image you trust)") },
	{ "timeout", 0, "SECONDS", OPT_TIMEOUT, N_("one driver call's deadline (default 2): a call past it is a "
	  "finding, and the next sample starts a fresh helper") },
};
CMD_OPTION_GROUP(watcher_machine_options, machine_only);
