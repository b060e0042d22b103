/*
 * str.h - small string helpers and a growable string buffer.
 *
 * Everything here is locale-independent: parsing never uses the C locale's
 * ctype tables, so a user's LANG cannot change what we read.
 */
#ifndef GD_UTIL_STR_H
#define GD_UTIL_STR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copy src into dst of size n, always terminating. Returns -1 if truncated. */
int str_copy(char *dst, size_t n, const char *src);

/* snprintf that reports truncation as -1 instead of a length. */
int str_printf(char *dst, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

bool str_starts_with(const char *s, const char *prefix);
bool str_ends_with(const char *s, const char *suffix);

/* Strip leading and trailing ASCII whitespace in place; returns s. */
char *str_trim(char *s);

bool str_is_digits(const char *s);
bool char_is_space(int c);
bool char_is_digit(int c);
bool char_is_alnum(int c);	/* ASCII letters and digits */
int char_lower(int c);

/* Case-insensitive ASCII substring search. */
const char *str_casestr(const char *haystack, const char *needle);
/* strcmp ignoring ASCII case, without the locale. */
int str_casecmp(const char *a, const char *b);

/*
 * Parse an unsigned decimal or 0x-prefixed hex number occupying all of s
 * (surrounding whitespace allowed). Returns -1 on garbage or overflow.
 */
int str_to_u64(const char *s, uint64_t *out);

/*
 * Compare dotted version strings numerically component by component
 * ("535.104.05" > "535.54.03", "12.10" > "12.9"). Non-numeric suffixes
 * compare as text after the numbers. Returns <0, 0 or >0.
 */
int version_compare(const char *a, const char *b);

/* True if s looks like a dotted version: digits separated by dots. */
bool version_is_valid(const char *s);

/*
 * A plain decimal number, "12", "2.5" or ".5" (digits, at most one dot, at
 * most 9 digits after it), read without the locale (strtod would take
 * "2,5" in a German one); -1 for anything else.
 */
int str_to_decimal(const char *s, double *out);

/* Copy the first n dot-separated components of version into out. */
int version_prefix(const char *version, int n, char *out, size_t outsz);

/* A growable NUL-terminated string. Zero-initialise, then append. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

/* Appends never fail: on allocation failure the buffer stays as it was
 * and strbuf.oom is not tracked; callers treat text as best effort. */
void strbuf_add(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hand the string over to the caller (never NULL) and reset sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

/* strdup that never returns NULL for a non-NULL input unless out of memory. */
char *str_dup(const char *s);
/* printf into a fresh heap string; NULL on allocation failure. */
char *str_dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *str_vdupf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
