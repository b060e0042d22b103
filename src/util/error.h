/*
 * error.h - an error object passed by the caller to every fallible call.
 *
 * Fallible functions return 0 on success and -1 on failure, filling the
 * caller's struct error with a message in git's style: lowercase, no full
 * stop, the subject quoted ("cannot read '/proc/modules': permission denied").
 * There is no global error state; a NULL error pointer is allowed and
 * simply discards the message.
 */
#ifndef GD_UTIL_ERROR_H
#define GD_UTIL_ERROR_H

#define ERROR_MSG_MAX 256

struct error {
	int code;		/* errno when the cause was a system call, else 0 */
	char msg[ERROR_MSG_MAX];
};

/* Format a message into err (if not NULL) and return -1. */
int error_set(struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like error_set, appending ": strerror(errnum)". */
int error_errno(struct error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
