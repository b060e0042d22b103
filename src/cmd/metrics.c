/*
 * metrics.c - `gpudoctor metrics`: the watcher's sample and diagnosis
 * (cmd/watcher.h) in Prometheus's text format (report/report_metrics.h):
 * one exposition on standard output; or, every interval, written
 * atomically into node_exporter's textfile directory (--textfile) or
 * served over HTTP (--listen, cmd/metrics_http.h). A sampler loop refreshes
 * the exposition; a scrape is answered from the latest one and never waits
 * for the driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/metrics_http.h"
#include "cmd/options.h"
#include "cmd/watcher.h"
#include "report/report_metrics.h"
#include "util/clock.h"
#include "util/i18n.h"

#define METRICS_INTERVAL_S 15.0
#define TEXTFILE_NAME "gpudoctor.prom"


/* SIGINT and SIGTERM blocked (block) or not: the HTTP server's thread inherits the mask, so only the sampler gets them. */
static void mask_stops(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(how, &set, NULL);
}

/* One sample, diagnosed and rendered into *body (the caller frees it); -1 when out of memory. */
static int render(struct watcher *w, char **body, size_t *len)
{
	struct diagnosis d;
	double start = clock_ms();
	FILE *out;

	watcher_step(w, &d);
	*body = NULL;
	if (!(out = open_memstream(body, len))) {
		diagnosis_release(&d);
		return -1;
	}
	report_metrics_prom(out, w->facts, w->sample, &d, (clock_ms() - start) / 1000.0);
	diagnosis_release(&d);
	if (fclose(out) != 0) {
		free(*body);
		*body = NULL;
		return -1;
	}
	return 0;
}

/*
 * DIR/gpudoctor.prom replaced atomically, as node_exporter's textfile collector asks: written to a
 * temporary file in DIR (same file system), synced, then renamed over it, so a reader sees the old
 * exposition or the new one, never half of one. Returns 0, or an errno with what failed in *what.
 */
static int textfile_write(const char *dir, const char *body, size_t len, const char **what)
{
	char tmp[4096], final[4096];
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, TEXTFILE_NAME) >= (int)sizeof(tmp) ||
	    snprintf(final, sizeof(final), "%s/%s", dir, TEXTFILE_NAME) >= (int)sizeof(final)) {
		*what = "the directory's name is too long";
		return ENAMETOOLONG;
	}
	*what = "cannot create a file in it";
	if ((fd = mkstemp(tmp)) < 0)
		return errno;
	*what = "cannot write it";
	/* mkstemp makes it 0600: node_exporter often runs as another user */
	if (fchmod(fd, 0644) < 0 || cmd_write_all(fd, body, len) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	*what = "cannot rename it into place";
	if (rename(tmp, final) < 0)
		goto fail;
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return e;
}

struct sink {
	const char *dir;		/* --textfile */
	struct metrics_http *http;	/* --listen */
	bool announced;			/* its address said, once the first sample is there to serve */
};

/* Hand an exposition to the sink; the first failure to write the text file is a usage error (exit 2). */
static int publish(struct sink *k, const char *body, size_t len, long n)
{
	const char *what;
	int e;

	if (k->http && metrics_http_publish(k->http, body, len) < 0) {
		cmd_error("gpudoctor: out of memory");
		return EXIT_INTERNAL;
	}
	if (k->http && !k->announced) {
		char where[80];

		metrics_http_address(k->http, where, sizeof(where));
		fprintf(stderr, "gpudoctor: serving http://%s/metrics\n", where);
		k->announced = true;
	}
	if (k->dir && (e = textfile_write(k->dir, body, len, &what))) {
		cmd_error("gpudoctor: --textfile %s: %s: %s", k->dir, what, strerror(e));
		if (n == 0)
			return EXIT_USAGE;
	}
	return 0;
}

/* Sample every interval into the sink until --count or a signal. */
static int loop(const struct cmd_options *opts, struct watcher *w, struct sink *k)
{
	double start = clock_ms();

	for (long n = 0; !watcher_stop_signal && (opts->count <= 0 || n < opts->count); n++) {
		char *body;
		size_t len;
		int status;

		if (render(w, &body, &len) < 0) {
			cmd_error("gpudoctor: out of memory");
			return EXIT_INTERNAL;
		}
		status = publish(k, body, len, n);
		free(body);
		if (status)
			return status;
		if (opts->count > 0 && n + 1 == opts->count)
			break;
		watcher_sleep_until(start + (double)(n + 1) * w->interval_s * 1000.0);
	}
	return EXIT_READY;
}

static int once(const struct cmd_options *opts, struct watcher *w)
{
	struct cmd_out o;
	FILE *out;
	char *body;
	size_t len;

	if (render(w, &body, &len) < 0) {
		cmd_error("gpudoctor: out of memory");
		return EXIT_INTERNAL;
	}
	if (!(out = cmd_out_open(&o))) {
		free(body);
		return EXIT_INTERNAL;
	}
	fwrite(body, 1, len, out);
	free(body);
	return cmd_out_close(&o, opts, EXIT_READY);
}

/* A --textfile that is not a directory we may write to: said before any sampling starts. */
static int check_textfile_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		cmd_error("gpudoctor: --textfile %s: %s", dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		cmd_error(_("gpudoctor: --textfile %s: not a directory"), dir);
		return EXIT_USAGE;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		cmd_error(_("gpudoctor: --textfile %s: cannot write in it: %s"), dir, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

static int run_metrics(const struct cmd_options *opts)
{
	struct sink k = { opts->textfile_dir, NULL, false };
	struct watcher w;
	char err[256];
	int status, usage;

	if (opts->format != FORMAT_TEXT) {
		/* the exposition format is its only one: --json would be a promise it does not keep */
		cmd_error(_("gpudoctor: 'metrics' writes the Prometheus text format only (no --json or --format)"));
		return EXIT_USAGE;
	}
	if (opts->textfile_dir && (status = check_textfile_dir(opts->textfile_dir)))
		return status;
	if ((status = watcher_open(&w, opts, METRICS_INTERVAL_S))) {
		watcher_close(&w);
		return status;
	}
	if (!opts->textfile_dir && !opts->listen) {
		status = once(opts, &w);
		watcher_close(&w);
		return status;
	}
	watcher_catch_stops();
	if (opts->listen) {
		mask_stops(SIG_BLOCK);
		k.http = metrics_http_start(opts->listen, err, sizeof(err), &usage);
		mask_stops(SIG_UNBLOCK);
		if (!k.http) {
			cmd_error("gpudoctor: %s", err);
			watcher_close(&w);
			return usage ? EXIT_USAGE : EXIT_INTERNAL;
		}
	}
	status = loop(opts, &w, &k);
	metrics_http_stop(k.http);
	watcher_close(&w);
	return status;
}

static const struct cmd_option metrics_only[] = {
	{ "interval", 'i', "SECONDS", OPT_INTERVAL, N_("between samples with --textfile or --listen (default 15)") },
	{ "count", 0, "N", OPT_COUNT, N_("stop after N samples (default: until Ctrl-C or SIGTERM)") },
	{ "textfile", 0, "DIR", OPT_TEXTFILE, N_("write DIR/gpudoctor.prom every interval, atomically, for "
	  "node_exporter's textfile collector") },
	{ "listen", 0, "ADDR:PORT", OPT_LISTEN, N_("serve GET /metrics on ADDR:PORT (127.0.0.1:9835, [::1]:9835, "
	  "0.0.0.0:9835; :PORT is 127.0.0.1)") },
};
static CMD_OPTION_GROUP(metrics_options, metrics_only);

static const struct cmd_option_group *const groups[] = { &metrics_options, &watcher_machine_options, NULL };

const struct command cmd_metrics = {
	.name = "metrics",
	.run = run_metrics,
	.summary = N_("the GPUs and what is wrong, as Prometheus metrics"),
	.usage = "gpudoctor metrics [options]",
	.description = "Samples every GPU as watch does (utilisation, memory, temperature, power, clocks, "
		       "slowdown reasons, the PCIe link, ECC, retired pages, processes, Xid events), runs the "
		       "same checks, and writes it all in the Prometheus text format 0.0.4, with the verdict "
		       "and one series per finding. Without options, one sample to standard output. With "
		       "--textfile DIR, DIR/gpudoctor.prom is replaced every interval for node_exporter's "
		       "textfile collector; with --listen, an HTTP server answers GET /metrics from the latest "
		       "sample, so a scrape never waits for the driver. A value the driver does not give is "
		       "left out, never shown as 0. Every metric: docs/metrics.md.",
	.epilogue = "Exit status: 0 after one sample, or when stopped (--count, Ctrl-C, SIGTERM);\n"
		    "2 usage error (a --textfile directory that is missing or not writable, a\n"
		    "bad --listen address); 3 internal error (cannot listen there).\n",
	.groups = groups,
};
