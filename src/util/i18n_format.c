/*
 * i18n_format.c - a text formatted a second time in the language of the text reports: the catalog's
 * translation of the format, its %s arguments translated where the catalog has them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

/* A growing string for i18n_local_vdupf. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

static void sbuf_addf(struct sbuf *b, const char *spec, ...) __attribute__((format(printf, 2, 3)));

/* Append spec formatted; on failure b->failed is set and later appends do nothing. */
static void sbuf_addf(struct sbuf *b, const char *spec, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	va_start(ap, spec);
	n = vsnprintf(NULL, 0, spec, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->len + (size_t)n + 1) * 2;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->failed = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, spec);
	vsnprintf(b->s + b->len, b->cap - b->len, spec, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/*
 * One conversion of fmt (fmt[0] is '%', not "%%") with its argument(s) from ap into b, a %s argument
 * translated (i18n_text); returns the length of the directive, or 0 for one it does not know (%n, %1$s).
 */
static size_t add_directive(struct sbuf *b, const char *fmt, va_list *ap)
{
	char spec[32], length[3] = "";
	const char *p = fmt + 1;
	int width = -1, prec = -1, n;
	size_t flags;

	flags = strspn(p, "-+ #0'");
	p += flags;
	if (*p == '*') {
		width = va_arg(*ap, int);
		p++;
	} else {
		for (width = 0; *p >= '0' && *p <= '9'; p++)
			width = width * 10 + (*p - '0');
		if (p == fmt + 1 + flags)
			width = -1;
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			prec = va_arg(*ap, int);	/* a negative one counts as none */
			p++;
		} else {
			for (prec = 0; *p >= '0' && *p <= '9'; p++)
				prec = prec * 10 + (*p - '0');
		}
	}
	for (size_t k = 0; k < 2 && strchr("hlzjtL", *p) && *p; k++)
		length[k] = *p++;
	if (flags > 6 || !*p)
		return 0;
	n = snprintf(spec, sizeof(spec), "%%%.*s", (int)flags, fmt + 1);
	if (width >= 0)
		n += snprintf(spec + n, sizeof(spec) - (size_t)n, "%d", width);
	if (prec >= 0)
		n += snprintf(spec + n, sizeof(spec) - (size_t)n, ".%d", prec);
	snprintf(spec + n, sizeof(spec) - (size_t)n, "%s%c", length, *p);
	switch (*p) {
	case 'd': case 'i':
		if (strcmp(length, "ll") == 0)
			sbuf_addf(b, spec, va_arg(*ap, long long));
		else if (strcmp(length, "l") == 0)
			sbuf_addf(b, spec, va_arg(*ap, long));
		else if (strcmp(length, "z") == 0 || strcmp(length, "t") == 0)
			sbuf_addf(b, spec, va_arg(*ap, ptrdiff_t));
		else if (strcmp(length, "j") == 0)
			sbuf_addf(b, spec, va_arg(*ap, intmax_t));
		else
			sbuf_addf(b, spec, va_arg(*ap, int));
		break;
	case 'u': case 'o': case 'x': case 'X':
		if (strcmp(length, "ll") == 0)
			sbuf_addf(b, spec, va_arg(*ap, unsigned long long));
		else if (strcmp(length, "l") == 0)
			sbuf_addf(b, spec, va_arg(*ap, unsigned long));
		else if (strcmp(length, "z") == 0 || strcmp(length, "t") == 0)
			sbuf_addf(b, spec, va_arg(*ap, size_t));
		else if (strcmp(length, "j") == 0)
			sbuf_addf(b, spec, va_arg(*ap, uintmax_t));
		else
			sbuf_addf(b, spec, va_arg(*ap, unsigned));
		break;
	case 'c':
		sbuf_addf(b, spec, va_arg(*ap, int));
		break;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		if (strcmp(length, "L") == 0)
			sbuf_addf(b, spec, va_arg(*ap, long double));
		else
			sbuf_addf(b, spec, va_arg(*ap, double));
		break;
	case 's': {
		const char *arg = va_arg(*ap, const char *);

		sbuf_addf(b, spec, arg ? i18n_text(arg) : "(null)");
		break;
	}
	case 'p':
		sbuf_addf(b, spec, va_arg(*ap, void *));
		break;
	default:
		return 0;
	}
	return (size_t)(p + 1 - fmt);
}

/* See i18n.h. */
char *i18n_local_vdupf(const char *english, const char *fmt, va_list ap)
{
	struct sbuf b = { 0 };
	const char *p;
	va_list args;

	if (!english || !i18n_active())
		return NULL;
	va_copy(args, ap);
	for (p = i18n_text(fmt); *p && !b.failed;) {
		size_t run = strcspn(p, "%"), used;

		if (run) {
			sbuf_addf(&b, "%.*s", (int)run, p);
			p += run;
			continue;
		}
		if (p[1] == '%') {
			sbuf_addf(&b, "%%");
			p += 2;
			continue;
		}
		used = add_directive(&b, p, &args);
		if (!used)
			b.failed = true;
		p += used;
	}
	va_end(args);
	if (b.failed || !b.s || strcmp(b.s, english) == 0) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* See i18n.h. */
char *i18n_local_dupf(const char *english, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!english || !i18n_active())
		return NULL;
	va_start(ap, fmt);
	s = i18n_local_vdupf(english, fmt, ap);
	va_end(ap);
	return s;
}
