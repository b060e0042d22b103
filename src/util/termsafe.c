#include "util/termsafe.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of a colour sequence ESC [ [0-9;]* m at s, or 0. */
static size_t color_sequence(const unsigned char *s, size_t n)
{
	size_t i = 2;

	if (n < 3 || s[0] != 0x1b || s[1] != '[')
		return 0;
	while (i < n && i < 32 && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n && s[i] == 'm' ? i + 1 : 0;
}

/* Decode one well-formed UTF-8 sequence (no overlongs, surrogates or > U+10FFFF): its length, or 0. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c, min;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
	if (n < len)
		return 0;
	c = s[0] & (0xff >> (len + 1));
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Code points shown escaped although well-formed: C1 controls and the bidirectional overrides. */
static bool hidden_code_point(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/*
 * See termsafe.h: *out (caller frees) is sized for the worst case, four bytes per input byte, so escaping
 * never reallocates. *out and *outlen are untouched on failure.
 */
int termsafe_escape(const char *s, size_t n, bool keep_color, char **out, size_t *outlen)
{
	const unsigned char *p = (const unsigned char *)s;
	/* the worst case: every byte becomes \xHH */
	char *buf = malloc(n * 4 + 1), *o = buf;
	size_t i = 0;

	if (!buf)
		return -1;
	while (i < n) {
		unsigned char c = p[i];
		size_t len;
		uint32_t cp;

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
			*o++ = (char)c;
			i++;
		} else if (keep_color && (len = color_sequence(p + i, n - i)) > 0) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		} else if (c >= 0x80 && (len = utf8_decode(p + i, n - i, &cp)) > 0) {
			if (hidden_code_point(cp)) {
				/* \u202e is 6 bytes for 2 or 3: within the worst case */
				o += sprintf(o, "\\u%04x", (unsigned)cp);
			} else {
				memcpy(o, p + i, len);
				o += len;
			}
			i += len;
		} else {
			o += sprintf(o, "\\x%02x", c);
			i++;
		}
	}
	*o = '\0';
	*out = buf;
	*outlen = (size_t)(o - buf);
	return 0;
}
