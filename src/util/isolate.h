/*
 * isolate.h - run code that may hang or crash (calls into a GPU driver) in
 * a forked child, against deadlines.
 *
 * The child works on a block of memory shared with the parent; whatever it
 * wrote there survives its death, including the name of the call it was in
 * (which it records before each call, with the time it started). Two limits
 * apply: one call may take at most call_s (a call that does not return is a
 * hang), and the whole run at most total_s (a slow run whose calls all
 * return is over its budget, which is not a hang). The parent watches both,
 * kills the child when one is passed, and waits a bounded time for it to go:
 * a child asleep in the kernel cannot be killed, and is left behind and
 * reported rather than waited for.
 */
#ifndef GD_UTIL_ISOLATE_H
#define GD_UTIL_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct isolate_limits {
	double call_s;		/* the longest one marked call may take */
	double total_s;		/* the longest the whole run may take */
};

struct isolate_outcome {
	bool hung;		/* a call ran past call_s: killed */
	bool over_budget;	/* the run ran past total_s while its calls returned: killed */
	bool crashed;		/* died of a signal of its own */
	int signal;
	int exit_code;
	double elapsed_ms;
	double call_ms;		/* how long the call in progress had run when it was killed */
	bool stuck;		/* did not go away after the kill: left behind */
	int pid;
	char state;		/* its state letter then ('D': asleep in the kernel), '?' unknown */
};

/*
 * Copy size bytes of state into shared memory, fork, and run work(shared,
 * arg) in the child with its standard output sent to /dev/null (driver
 * libraries must not write into our report); copy the block back into state
 * when the child is done or killed. Every tick_ms, tick(shared, arg) runs in
 * the parent (tick may be NULL). Returns 0 with *out filled, or -1 with err
 * set when the child could not be started (state is then unchanged).
 */
int isolate_run(void *state, size_t size, void (*work)(void *shared, void *arg), void *arg,
		const struct isolate_limits *limits, void (*tick)(const void *shared, void *arg), int tick_ms,
		struct isolate_outcome *out, struct error *err);

/*
 * For the child: store call into a field of the shared block, NUL-terminated,
 * before making it; this also starts the call's clock ("" ends it: the
 * helper is between calls).
 */
void isolate_mark(char *field, size_t size, const char *call);

#endif
