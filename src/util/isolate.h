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

/*
 * A long-lived helper, for a caller that asks the same thing again and again (a watcher sampling the
 * driver once a second): one child serves every request, keeping what it loaded and initialised, instead
 * of a fork per sample. The child runs work(shared, arg) once per request, with the same limits as
 * isolate_run; arg's memory is the child's own copy from the fork, so the child keeps its state there.
 * A request that hangs or crashes kills that child; the next request starts a fresh one (which starts
 * from the parent's arg again). The parent reads the shared block between requests only.
 */
struct isolate_session {
	void *shared;			/* size bytes, then the call clock */
	size_t size, total;
	int fd;				/* the parent's end of the socket pair, -1 with no child */
	int pid;			/* the child serving requests, 0 for none */
	int stuck_pid;			/* the last child that would not die (asleep in the kernel), 0 for none */
	void (*work)(void *shared, void *arg);
	void *arg;
};

/* Map the shared block (zeroed); no child is started yet. Returns 0, or -1 with err set. */
int isolate_session_open(struct isolate_session *s, size_t size, void (*work)(void *shared, void *arg), void *arg,
			 struct error *err);

/*
 * Have the child run work once, starting a child first if none serves; blocks until it is done or a
 * limit passes (then the child is killed, and reaped within a grace period or left behind as stuck).
 * Returns 0 with *out filled (out->pid the child), or -1 with err set when no child could be started.
 * While a killed child is still stuck in the kernel no other is started: out->stuck says so at once.
 */
int isolate_session_ask(struct isolate_session *s, const struct isolate_limits *limits, struct isolate_outcome *out,
			struct error *err);

/* The child's results: valid between requests. */
static inline void *isolate_session_shared(const struct isolate_session *s)
{
	return s->shared;
}

/* End the child (it exits when its socket closes; killed if it does not within the grace) and unmap. */
void isolate_session_close(struct isolate_session *s);

#endif
