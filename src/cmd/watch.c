/*
 * watch.c - `gpudoctor watch`: the GPUs sampled every interval from one
 * long-lived driver helper (probe/live.h), the doctor's GPU rules and the
 * watcher's own (rules_live.c) run on each sample (cmd/watcher.h), shown
 * full-screen on a terminal, as lines in a pipe, or as one JSON object per
 * line.
 *
 * It ends after --count samples, on q, Ctrl-C or SIGTERM, or when the
 * reader of a pipe goes away; the terminal is always given back.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd/options.h"
#include "cmd/watcher.h"
#include "report/report_watch.h"
#include "util/clock.h"
#include "util/i18n.h"

#define WATCH_INTERVAL_S 1.0


/* Lines or JSON objects to standard output, escaped for a terminal as every report is. */
static int emit(const struct cmd_options *opts, const struct watcher *w, const struct diagnosis *d)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct cmd_out o;
	FILE *out = cmd_out_open(&o);
	int status = EXIT_READY;

	if (!out)
		return EXIT_INTERNAL;
	if (opts->format == FORMAT_JSON) {
		json_t *j = report_watch_json(w->sample, d, &w->track);

		if (!j || json_dumpf(j, out, JSON_COMPACT) < 0)
			status = EXIT_INTERNAL;
		fputc('\n', out);
		json_decref(j);
	} else {
		report_watch_lines(out, w->sample, d, &w->track, &ro);
	}
	return cmd_out_close(&o, opts, status);
}

static int run_watch(const struct cmd_options *opts)
{
	struct report_opts ro = { cmd_use_color(opts), opts->verbose, 80 };
	struct watch_tui *ui = NULL;
	struct watcher w;
	double start;
	int status = watcher_open(&w, opts, WATCH_INTERVAL_S);

	if (status) {
		watcher_close(&w);
		return status;
	}
	watcher_catch_stops();
	if (opts->format == FORMAT_TEXT && !opts->plain && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		ui = watch_tui_open(&ro);
	start = clock_ms();
	for (long n = 0; !watcher_stop_signal && (opts->count <= 0 || n < opts->count); n++) {
		struct diagnosis d;
		double next = start + (double)(n + 1) * w.interval_s * 1000.0;

		watcher_step(&w, &d);
		if (ui)
			watch_tui_draw(ui, w.sample, &d, &w.track);
		else
			status = emit(opts, &w, &d);
		diagnosis_release(&d);
		if (status != EXIT_READY || cmd_output_closed())
			break;
		if (opts->count > 0 && n + 1 == opts->count)
			break;
		if (ui) {
			double left;

			while (!watcher_stop_signal && (left = next - clock_ms()) > 0)
				if (!watch_tui_wait(ui, (int)left + 1))
					watcher_stop_signal = SIGINT;
		} else {
			watcher_sleep_until(next);
		}
	}
	watch_tui_close(ui);
	watcher_close(&w);
	return status;
}

static const struct cmd_option watch_only[] = {
	{ "interval", 'i', "SECONDS", OPT_INTERVAL, N_("between samples (default 1)") },
	{ "count", 0, "N", OPT_COUNT, N_("stop after N samples (default: until q, Ctrl-C or the end of the pipe)") },
	{ "plain", 0, NULL, OPT_PLAIN, N_("lines even on a terminal, instead of the full-screen view") },
};
static CMD_OPTION_GROUP(watch_options, watch_only);

static const struct cmd_option_group *const groups[] = { &watch_options, &watcher_machine_options, NULL };

const struct command cmd_watch = {
	.name = "watch",
	.run = run_watch,
	.summary = N_("the GPUs live: load, memory, heat, processes, what is wrong"),
	.usage = "gpudoctor watch [options]",
	.description = "Samples every GPU once per interval from one long-lived helper process: utilisation, "
		       "memory, temperature, power, clocks, fan, P-state, slowdown reasons, the PCIe link, ECC "
		       "counters and the processes on it (with their user and command line). Each sample runs "
		       "the doctor's GPU checks and the watcher's own: a new Xid, ECC errors rising, a link "
		       "downtrained under load, a GPU that falls off the bus, a process that holds a GPU but "
		       "leaves it idle. On a terminal the view is full-screen (q quits, up/down select a GPU, s "
		       "sorts its processes; in colour unless NO_COLOR is set or --color=never); piped, one line per GPU per sample; with --json one JSON object "
		       "per sample and line (schema gpudoctor.watch/1).",
	.epilogue = "Exit status: 0 when stopped (q, Ctrl-C, --count, a closed pipe), 2 usage\n"
		    "error, 3 internal error.\n",
	.groups = groups,
};
