#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

/* Both copies of the message from one format; the local one only while a translation is active. */
static void format_both(struct error *err, const char *fmt, va_list ap)
{
	va_list local;
	char *l;

	va_copy(local, ap);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	l = i18n_local_vdupf(err->msg, fmt, local);
	va_end(local);
	snprintf(err->local, sizeof(err->local), "%s", l ? l : "");
	free(l);
}

/* See error.h: always -1; err->code is reset to 0. */
int error_vset(struct error *err, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->code = 0;
	format_both(err, fmt, ap);
	return -1;
}

/* See error.h: always returns -1 so callers can "return error_set(...)"; err->code is reset to 0. */
int error_set(struct error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* See error.h: always -1; err->code is errnum. A long message may crowd out the strerror text. */
int error_errno(struct error *err, int errnum, const char *fmt, ...)
{
	const char *why;
	va_list ap;
	size_t len;

	if (!err)
		return -1;
	err->code = errnum;
	va_start(ap, fmt);
	format_both(err, fmt, ap);
	va_end(ap);
	/* strerror follows LC_MESSAGES: already in the active language when there is one */
	why = strerror(errnum);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", why);
	len = strlen(err->local);
	if (len)
		snprintf(err->local + len, sizeof(err->local) - len, "%s%s", i18n_text(N_(": ")), why);
	return -1;
}

/* See error.h. */
const char *error_message(const struct error *err)
{
	return err->local[0] ? err->local : err->msg;
}
