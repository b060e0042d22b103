/*
 * subprocess.h - run a program with a deadline and capture its output.
 *
 * No shell is involved: argv goes to execve() as it is. The child gets
 * /dev/null as stdin, the working directory the caller names and its own
 * process group, so that at the deadline the whole group is killed. Output
 * beyond max_output bytes is read and dropped, so a chatty child can
 * neither block nor exhaust memory. A child that does not go away once
 * killed (asleep in the kernel) is left behind after REAP_GRACE_MS rather
 * than waited for.
 */
#ifndef GD_UTIL_SUBPROCESS_H
#define GD_UTIL_SUBPROCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct subprocess_result {
	int exit_code;		/* -1 when killed by a signal */
	int signal;		/* the signal, 0 when it exited */
	bool timed_out;
	bool stuck;		/* killed, but still there after the grace period: not collected */
	int pid;
	char *out, *err;	/* NUL-terminated, owned; release with subprocess_result_release */
	size_t out_len, err_len;
	double elapsed_ms;
};

/* Run argv[0] (a path) in directory dir with exactly the environment envp. */
int subprocess_run(char *const argv[], char *const envp[], const char *dir, double timeout_s, size_t max_output,
		   struct subprocess_result *res, struct error *err);
void subprocess_result_release(struct subprocess_result *res);

#endif
