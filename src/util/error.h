/*
 * error.h - an error object passed by the caller to every fallible call.
 *
 * Fallible functions return 0 on success and -1 on failure, filling the
 * caller's struct error with a message in git's style: lowercase, no full
 * stop, the subject quoted ("cannot read '/proc/modules': permission denied").
 * There is no global error state; a NULL error pointer is allowed and
 * simply discards the message.
 *
 * msg is English (JSON and logs carry it); while a translation is active the
 * same message is also formatted in that language, for people to read
 * (error_message).
 */
#ifndef GD_UTIL_ERROR_H
#define GD_UTIL_ERROR_H

#include <stdarg.h>

#define ERROR_MSG_MAX 256

struct error {
	int code;		/* errno when the cause was a system call, else 0 */
	char msg[ERROR_MSG_MAX];
	char local[ERROR_MSG_MAX];	/* msg in the active language; empty when it reads as msg */
};

/* Format a message into err (if not NULL) and return -1. */
int error_set(struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like error_set, appending ": strerror(errnum)". */
int error_errno(struct error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* error_set with a va_list, for wrappers that set their own code afterwards. */
int error_vset(struct error *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* The message to show a person: the localized copy when there is one, else msg. */
const char *error_message(const struct error *err);

#endif
