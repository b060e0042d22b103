/*
 * output.c - how commands reach the terminal. A report is rendered into
 * memory, then written to standard output in one place: text and Markdown
 * pass through termsafe first (what a hostile image wrote must not drive
 * the terminal), and a failed write is reported with the error the system
 * call gave, not whatever errno was left by the time the stream noticed.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "util/termsafe.h"

/*
 * Start rendering into memory; returns o->fp, or NULL after printing "out of memory". Either way
 * cmd_out_close must follow: it frees the buffer and gives the exit status.
 */
FILE *cmd_out_open(struct cmd_out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->fp = open_memstream(&o->buf, &o->len);
	if (!o->fp)
		fprintf(stderr, "gpudoctor: out of memory\n");
	return o->fp;
}

/* A pipe whose reader has gone is not an error: `gpudoctor | head` got what it wanted. */
static bool reader_gone(int e)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return e == EPIPE || (poll(&p, 1, 0) == 1 && (p.revents & POLLERR));
}

/* See cmd.h. */
int cmd_write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * See cmd.h. Writes with write(2) after flushing stdout, so stdio output made before comes first. JSON is
 * written as rendered; text and Markdown through termsafe. Frees the buffer on every path.
 */
int cmd_out_close(struct cmd_out *o, const struct cmd_options *opts, int status)
{
	char *safe = NULL;
	size_t safe_len = 0;
	int rc = 0, e = 0;

	if (!o->fp)
		return EXIT_INTERNAL;
	if (fclose(o->fp) != 0) {
		free(o->buf);
		fprintf(stderr, "gpudoctor: out of memory\n");
		return EXIT_INTERNAL;
	}
	o->fp = NULL;
	/* what stdio still holds (a --tee pass-through, help text) goes first */
	if (fflush(stdout) != 0)
		e = errno;
	if (opts->format != FORMAT_JSON) {
		if (termsafe_escape(o->buf, o->len, cmd_use_color(opts), &safe, &safe_len) < 0) {
			free(o->buf);
			fprintf(stderr, "gpudoctor: out of memory\n");
			return EXIT_INTERNAL;
		}
	}
	if (!e) {
		rc = safe ? cmd_write_all(STDOUT_FILENO, safe, safe_len) : cmd_write_all(STDOUT_FILENO, o->buf, o->len);
		e = rc < 0 ? errno : 0;
	}
	free(safe);
	free(o->buf);
	o->buf = NULL;
	if (e && !reader_gone(e)) {
		fprintf(stderr, "gpudoctor: cannot write output: %s\n", strerror(e));
		return EXIT_INTERNAL;
	}
	return status;
}

/*
 * See cmd.h. The caller writes the "gpudoctor: " prefix into fmt. Cut at 1023 bytes; when out of memory
 * the message is lost rather than printed unescaped.
 */
void cmd_error(const char *fmt, ...)
{
	char msg[1024], *safe;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (termsafe_escape(msg, strlen(msg), false, &safe, &len) == 0) {
		fprintf(stderr, "%s\n", safe);
		free(safe);
	}
}

/* See cmd.h. */
int cmd_write_json(FILE *out, json_t *j, int status)
{
	if (!j) {
		cmd_error("gpudoctor: cannot build the JSON report");
		return EXIT_INTERNAL;
	}
	report_json_write(out, j);
	json_decref(j);
	return status;
}

/* See cmd.h. */
bool cmd_output_closed(void)
{
	return reader_gone(0);
}
