#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"

/*
 * --color always or never decide; otherwise only text format on a terminal, with NO_COLOR unset or empty
 * and TERM not "dumb". Reads this process's environment, not the diagnosed one (opts->envp).
 */
bool cmd_use_color(const struct cmd_options *opts)
{
	const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");

	if (opts->color == COLOR_ALWAYS)
		return true;
	if (opts->color == COLOR_NEVER || opts->format != FORMAT_TEXT)
		return false;
	if (no_color && no_color[0])
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(STDOUT_FILENO);
}

/*
 * A write that failed earlier leaves only the stream's error flag, not its
 * errno; a pipe whose reader has gone reports POLLERR on our end, which
 * tells a closed pipe from a real write error.
 */
static bool stdout_reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/*
 * See cmd.h. Returns status unchanged on success or a gone reader; on a real write error prints one line to
 * stderr and returns EXIT_INTERNAL. Call once, after the last write to stdout.
 */
int cmd_finish_output(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (errno == EPIPE || stdout_reader_gone())
		return status;	/* `gpudoctor | head`: the reader has what it wanted */
	fprintf(stderr, "gpudoctor: cannot write output: %s\n", strerror(errno ? errno : EIO));
	return EXIT_INTERNAL;
}
