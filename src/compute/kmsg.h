/*
 * kmsg.h - watch the kernel log for NVIDIA Xid events during a run.
 *
 * /dev/kmsg is read from its end at the start, so only what the kernel logs
 * during the run is seen. Reading it needs root (or CAP_SYSLOG) on most
 * systems; without it the watch says why and reports nothing.
 */
#ifndef GD_COMPUTE_KMSG_H
#define GD_COMPUTE_KMSG_H

#include <stddef.h>

struct kmsg_watch {
	int fd;
};

/* Start watching; -1 with why filled when the log cannot be read. */
int kmsg_watch_start(struct kmsg_watch *w, char *why, size_t whysz);
/* The "NVRM: Xid" lines logged since the start (at most max, each truncated to 256 bytes); stops the watch. */
int kmsg_watch_finish(struct kmsg_watch *w, char lines[][256], int max);

#endif
