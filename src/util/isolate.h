/*
 * isolate.h - run code that may hang or crash (calls into a GPU driver) in
 * a forked child, against a deadline.
 *
 * The child works on a block of memory shared with the parent; whatever it
 * wrote there survives its death, including the name of the call it was in
 * (which it records before each call). The parent waits at most until the
 * deadline, then kills the child, and can watch the shared block meanwhile
 * (for a progress line).
 */
#ifndef GD_UTIL_ISOLATE_H
#define GD_UTIL_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct isolate_outcome {
	bool hung;		/* killed at the deadline */
	bool crashed;		/* died of a signal of its own */
	int signal;
	int exit_code;
	double elapsed_ms;
};

/*
 * Copy size bytes of state into shared memory, fork, and run work(shared,
 * arg) in the child with its standard output sent to /dev/null (driver
 * libraries must not write into our report); copy the block back into state
 * when the child is done or killed. Every tick_ms, tick(shared, arg) runs in
 * the parent (tick may be NULL). Returns 0 with *out filled, or -1 with err
 * set when the child could not be started (state is then unchanged).
 */
int isolate_run(void *state, size_t size, void (*work)(void *shared, void *arg), void *arg, double timeout_s,
		void (*tick)(const void *shared, void *arg), int tick_ms, struct isolate_outcome *out,
		struct error *err);

/* For the child: store call into a field of the shared block, NUL-terminated, before making it. */
void isolate_mark(char *field, size_t size, const char *call);

#endif
