/*
 * reap.h - collect a child process that was told to die, without trusting
 * it to. SIGKILL cannot end a process sleeping uninterruptibly in the kernel
 * (a wedged GPU driver does that), and an unbounded waitpid() would then
 * hang us with it.
 */
#ifndef GD_UTIL_REAP_H
#define GD_UTIL_REAP_H

#include <stdbool.h>
#include <sys/types.h>

/* How long a killed helper gets to go away before we stop waiting for it. */
#define REAP_GRACE_MS 2000.0

/*
 * Wait at most wait_ms for pid to exit. Returns true with *status filled
 * when it was collected; false when it is still there (it is left as it
 * is, and becomes a zombie for init once we exit).
 */
bool reap_within(pid_t pid, double wait_ms, int *status);

/* The process's state letter as the kernel shows it ('D' for uninterruptible), or '?'. */
char reap_state(pid_t pid);

#endif
