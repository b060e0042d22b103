#include "util/kv.h"

#include <string.h>

#include "util/str.h"

/*
 * See kv.h: the returned line points into the caller's text. Returns NULL once the text is used up;
 * an empty line in the middle comes back as "".
 */
char *line_next(char **cursor)
{
	char *line = *cursor, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = line + strlen(line);
	}
	return line;
}

/* Copy len bytes of s into out, always terminating; -1 if they do not fit. */
static int copy_span(char *out, size_t outsz, const char *s, size_t len)
{
	if (outsz == 0)
		return -1;
	if (len >= outsz) {
		memcpy(out, s, outsz - 1);
		out[outsz - 1] = '\0';
		return -1;
	}
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

/*
 * The first line whose key matches wins; leading blanks are skipped and one pair of matching quotes is
 * removed, with no escape processing. -1 also when the value does not fit (out holds it truncated).
 */
int kv_shell_get(const char *text, const char *key, char *out, size_t outsz)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		while (len > 0 && char_is_space((unsigned char)*p) && *p != '\n') {
			p++;
			len--;
		}
		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t vlen = len - klen - 1;

			while (vlen > 0 && char_is_space((unsigned char)v[vlen - 1]))
				vlen--;
			if (vlen >= 2 && (v[0] == '"' || v[0] == '\'') && v[vlen - 1] == v[0]) {
				v++;
				vlen -= 2;
			}
			return copy_span(out, outsz, v, vlen);
		}
		p = eol ? eol + 1 : NULL;
	}
	return -1;
}

/*
 * The key must start the line, followed by optional blanks and ':'. The first match wins; -1 when absent
 * or when the value does not fit (out then holds it truncated).
 */
int kv_colon_get(const char *text, const char *key, char *out, size_t outsz)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > klen && strncmp(p, key, klen) == 0) {
			const char *q = p + klen;

			while (q < p + len && (*q == ' ' || *q == '\t'))
				q++;
			if (q < p + len && *q == ':') {
				const char *v = q + 1;
				size_t vlen = (size_t)(p + len - v);

				while (vlen > 0 && char_is_space((unsigned char)*v)) {
					v++;
					vlen--;
				}
				while (vlen > 0 && char_is_space((unsigned char)v[vlen - 1]))
					vlen--;
				return copy_span(out, outsz, v, vlen);
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return -1;
}
