#include "util/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* See str.h. A NULL src copies as ""; a truncated copy keeps the first n - 1 bytes. n 0 writes nothing. */
int str_copy(char *dst, size_t n, const char *src)
{
	size_t len;

	if (n == 0)
		return -1;
	if (!src)
		src = "";
	len = strlen(src);
	if (len >= n) {
		memcpy(dst, src, n - 1);
		dst[n - 1] = '\0';
		return -1;
	}
	memcpy(dst, src, len + 1);
	return 0;
}

/* See str.h: a truncated result is still terminated (n > 0); -1 also for an encoding error. */
int str_printf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	return (len < 0 || (size_t)len >= n) ? -1 : 0;
}

/* True when s begins with prefix; every string starts with "". Neither may be NULL. */
bool str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* True when s ends with suffix; every string ends with "". Neither may be NULL. */
bool str_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && memcmp(s + ls - lx, suffix, lx) == 0;
}

/* The six ASCII whitespace characters: isspace() of the C locale, whatever LANG says. */
bool char_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* ASCII '0' to '9' only, whatever the locale. */
bool char_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

bool char_is_alnum(int c)
{
	return char_is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Lowercase ASCII A-Z; every other value, bytes above 127 included, is returned unchanged. */
int char_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* See str.h: the text is moved to the start of s, so s itself stays the pointer to free. */
char *str_trim(char *s)
{
	size_t len;
	char *start = s;

	while (char_is_space((unsigned char)*start))
		start++;
	if (start != s)
		memmove(s, start, strlen(start) + 1);
	len = strlen(s);
	while (len > 0 && char_is_space((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* True for one or more ASCII digits and nothing else: "" and signs are not digits. */
bool str_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!char_is_digit((unsigned char)*s))
			return false;
	return true;
}

/*
 * ASCII case folding only, no locale. Returns a pointer into haystack at the first match, or NULL; an
 * empty needle matches at the start.
 */
const char *str_casestr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++) {
		size_t i = 0;

		while (i < n && haystack[i] &&
		       char_lower((unsigned char)haystack[i]) == char_lower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return haystack;
	}
	return n == 0 ? haystack : NULL;
}

/* See str.h: ASCII letters only, so the result never depends on the locale. */
int str_casecmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = char_lower((unsigned char)*a), cb = char_lower((unsigned char)*b);

		if (ca != cb || !ca)
			return ca - cb;
	}
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = char_lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * See str.h. "0x" with no digits, a sign, or a space between digits is garbage. *out is written only on
 * success.
 */
int str_to_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	bool any = false;

	while (char_is_space((unsigned char)*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (; *s && !char_is_space((unsigned char)*s); s++) {
		int d = hex_value((unsigned char)*s);

		if (d < 0 || (unsigned)d >= base)
			return -1;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -1;
		v = v * base + (uint64_t)d;
		any = true;
	}
	while (char_is_space((unsigned char)*s))
		s++;
	if (!any || *s)
		return -1;
	*out = v;
	return 0;
}

/*
 * See str.h. Numbers compare by value, so leading zeros do not count ("05" == "5"); a component past
 * eleven digits saturates instead of overflowing.
 */
int version_compare(const char *a, const char *b)
{
	while (*a || *b) {
		if (char_is_digit((unsigned char)*a) && char_is_digit((unsigned char)*b)) {
			unsigned long long x = 0, y = 0;

			/* Leading zeros do not matter: "05" == "5". */
			for (; char_is_digit((unsigned char)*a); a++)
				x = x < 100000000000ULL ? x * 10 + (unsigned)(*a - '0') : x;
			for (; char_is_digit((unsigned char)*b); b++)
				y = y < 100000000000ULL ? y * 10 + (unsigned)(*b - '0') : y;
			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (!*a)
			return -1;
		if (!*b)
			return 1;
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

/* See str.h: "" and empty components ("1..2", ".5", "5.") are not valid. */
bool version_is_valid(const char *s)
{
	bool digit = false;

	for (; *s; s++) {
		if (char_is_digit((unsigned char)*s))
			digit = true;
		else if (*s == '.' && digit)
			digit = false;
		else
			return false;
	}
	return digit;
}

/*
 * See str.h. A version with n or fewer components is copied whole (n <= 0 too). Returns -1, out
 * untouched, when the prefix does not fit in outsz.
 */
int version_prefix(const char *version, int n, char *out, size_t outsz)
{
	const char *p = version;
	int dots = 0;

	for (; *p; p++)
		if (*p == '.' && ++dots == n)
			break;
	if ((size_t)(p - version) >= outsz)
		return -1;
	memcpy(out, version, (size_t)(p - version));
	out[p - version] = '\0';
	return 0;
}

static bool strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	char *nb;
	size_t cap;

	if (need <= sb->cap)
		return true;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	nb = realloc(sb->buf, cap);
	if (!nb)
		return false;
	sb->buf = nb;
	sb->cap = cap;
	return true;
}

/* See str.h: on allocation failure s is dropped and sb keeps its old text. */
void strbuf_add(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);

	if (!strbuf_grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

/* See str.h: formats twice (measure, then write); on failure nothing is appended. */
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !strbuf_grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

/*
 * See str.h: the caller frees the result. An empty buffer gives a fresh "" (NULL only if that
 * allocation fails); sb is left empty and reusable.
 */
char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : str_dup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

/* Free the text and leave sb empty and reusable; safe on a zeroed or already released buffer. */
void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

/* NULL for NULL; otherwise a heap copy the caller frees (NULL when out of memory). */
char *str_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/*
 * See str.h: the caller frees the result; ap is not consumed by the measuring pass. A format that
 * vsnprintf rejects gives "" rather than NULL.
 */
char *str_vdupf(const char *fmt, va_list ap)
{
	va_list copy;
	char *buf;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return str_dup("");
	buf = malloc((size_t)n + 1);
	if (buf)
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
	return buf;
}

/* See str.h: a heap string the caller frees; NULL when out of memory. */
char *str_dupf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = str_vdupf(fmt, ap);
	va_end(ap);
	return s;
}

/* See str.h: whole and fraction read as integers, so "0x10", signs and exponents are refused. */
int str_to_decimal(const char *s, double *out)
{
	const char *dot = strchr(s, '.');
	size_t whole_len = dot ? (size_t)(dot - s) : strlen(s), frac_len = dot ? strlen(dot + 1) : 0;
	double value = 0, scale = 1;

	if (whole_len + frac_len == 0 || frac_len > 9)
		return -1;
	for (size_t i = 0; i < whole_len; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 18)
			return -1;
		value = value * 10 + (s[i] - '0');
	}
	for (size_t i = 0; i < frac_len; i++) {
		if (dot[1 + i] < '0' || dot[1 + i] > '9')
			return -1;
		scale /= 10;
		value += (dot[1 + i] - '0') * scale;
	}
	*out = value;
	return 0;
}
