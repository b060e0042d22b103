/*
 * kmsg.c - see kmsg.h. Each read() of /dev/kmsg returns one record:
 * "priority,sequence,timestamp,flags;message\n" (Documentation/ABI/testing/dev-kmsg).
 */
#include "compute/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/str.h"

/*
 * See kmsg.h. Reads the host's /dev/kmsg, never a --root image's. On failure w->fd is -1, so
 * kmsg_watch_finish is still safe and returns 0.
 */
int kmsg_watch_start(struct kmsg_watch *w, char *why, size_t whysz)
{
	w->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->fd < 0) {
		str_printf(why, whysz, "the kernel log was not watched for Xid events (/dev/kmsg: %s%s)", strerror(errno),
			   errno == EACCES || errno == EPERM ? "; run as root to watch it" : "");
		return -1;
	}
	if (lseek(w->fd, 0, SEEK_END) < 0) {
		str_printf(why, whysz, "the kernel log was not watched for Xid events (/dev/kmsg: %s)", strerror(errno));
		close(w->fd);
		w->fd = -1;
		return -1;
	}
	return 0;
}

/*
 * See kmsg.h. Never blocks (the descriptor is non-blocking); lines may be NULL when max is 0. Returns how
 * many were kept; Xid lines past max are dropped uncounted. Safe on a watch that never started (fd -1).
 */
int kmsg_watch_finish(struct kmsg_watch *w, char lines[][256], int max)
{
	char rec[8192];
	int n = 0;

	if (w->fd < 0)
		return 0;
	for (;;) {
		ssize_t r = read(w->fd, rec, sizeof(rec) - 1);
		char *msg;

		if (r < 0 && errno == EPIPE)
			continue;	/* records were overwritten while we read: go on with the next */
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;		/* EAGAIN: nothing more */
		rec[r] = '\0';
		msg = strchr(rec, ';');
		if (!msg || !strstr(msg, "NVRM: Xid") || n >= max)
			continue;
		msg[strcspn(msg, "\n")] = '\0';
		str_copy(lines[n++], 256, msg + 1);
	}
	close(w->fd);
	w->fd = -1;
	return n;
}
