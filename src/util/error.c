#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* See error.h: always returns -1 so callers can "return error_set(...)"; err->code is reset to 0. */
int error_set(struct error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* See error.h: always -1; err->code is errnum. A long message may crowd out the strerror text. */
int error_errno(struct error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	if (!err)
		return -1;
	err->code = errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", strerror(errnum));
	return -1;
}
