/*
 * jscan.c - a pull scanner over one JSON text (see jscan.h).
 */
#include "util/jscan.h"

#include <limits.h>
#include <string.h>

static int fail(struct jscan *s, const char *why)
{
	if (!s->error) {
		s->error = why;
		s->error_at = (size_t)(s->p - s->start);
	}
	return -1;
}

static void skip_ws(struct jscan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
		s->p++;
}

void jscan_init(struct jscan *s, const char *buf, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->start = s->p = buf;
	s->end = buf + len;
}

enum jscan_type jscan_peek(struct jscan *s)
{
	if (s->error)
		return JSCAN_NONE;
	skip_ws(s);
	if (s->p >= s->end)
		return JSCAN_NONE;
	switch (*s->p) {
	case '{': return JSCAN_OBJECT;
	case '[': return JSCAN_ARRAY;
	case '"': return JSCAN_STRING;
	case 't': case 'f': return JSCAN_BOOL;
	case 'n': return JSCAN_NULL;
	default: return (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) ? JSCAN_NUMBER : JSCAN_NONE;
	}
}

/* Enter a container opened by c ('{' or '['). */
static int enter(struct jscan *s, enum jscan_type want, const char *what)
{
	if (jscan_peek(s) != want)
		return fail(s, what);
	if (s->depth >= JSCAN_MAX_DEPTH)
		return fail(s, "nested too deep");
	s->p++;
	s->depth++;
	s->first = true;
	return 0;
}

int jscan_object_begin(struct jscan *s)
{
	return enter(s, JSCAN_OBJECT, "expected an object");
}

int jscan_array_begin(struct jscan *s)
{
	return enter(s, JSCAN_ARRAY, "expected an array");
}

/*
 * Before the next member of the container entered last (closed by close): 1 when one follows (a comma
 * consumed), 0 when the container ends here (left; the one around it has had a member: this one).
 */
static int next_member(struct jscan *s, char close)
{
	if (s->error)
		return -1;
	skip_ws(s);
	if (s->p >= s->end)
		return fail(s, "unexpected end of the text");
	if (*s->p == close) {
		s->p++;
		s->depth--;
		s->first = false;
		return 0;
	}
	if (!s->first) {
		if (*s->p != ',')
			return fail(s, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		s->p++;
	}
	s->first = false;
	return 1;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Where a string is unescaped to: once something did not fit, nothing more is added. */
struct sink {
	char *out;	/* NULL: skipping */
	size_t size, n;
	bool full;
};

/* Append bytes whole, or mark the sink full (a cut never falls inside a UTF-8 sequence). */
static void put(struct sink *k, const char *bytes, size_t len)
{
	if (!k->out || k->full)
		return;
	if (k->n + len >= k->size) {
		/* the longest prefix that fits and does not end inside a sequence */
		size_t room = k->size - 1 - k->n;

		while (room > 0 && ((unsigned char)bytes[room] & 0xc0) == 0x80)
			room--;
		memcpy(k->out + k->n, bytes, room);
		k->n += room;
		k->full = true;
		return;
	}
	memcpy(k->out + k->n, bytes, len);
	k->n += len;
}

static size_t utf8_encode(unsigned cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | (cp >> 18));
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* One \u escape (p after the 'u'), a surrogate pair taken whole; the code point in *cp. */
static int unicode_escape(struct jscan *s, unsigned *cp)
{
	unsigned hi, lo;

	if (s->end - s->p < 4 || hex4(s->p, &hi) < 0)
		return fail(s, "bad \\u escape");
	s->p += 4;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(s, "lone low surrogate");
	if (hi >= 0xd800 && hi <= 0xdbff) {
		if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u' || hex4(s->p + 2, &lo) < 0 ||
		    lo < 0xdc00 || lo > 0xdfff)
			return fail(s, "lone high surrogate");
		s->p += 6;
		hi = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	}
	*cp = hi ? hi : '?';
	return 0;
}

/* A string (p at its quote), unescaped into out when out is not NULL; runs without escapes copied whole. */
static int read_string(struct jscan *s, char *out, size_t outsz)
{
	struct sink k = { out, outsz, 0, false };

	s->p++;
	for (;;) {
		const char *run = s->p;
		char esc[4];
		unsigned cp;

		while (s->p < s->end && *s->p != '"' && *s->p != '\\' && (unsigned char)*s->p >= 0x20)
			s->p++;
		if (s->p > run)
			put(&k, run, (size_t)(s->p - run));
		if (s->p >= s->end)
			return fail(s, "unterminated string");
		if (*s->p == '"') {
			s->p++;
			break;
		}
		if ((unsigned char)*s->p < 0x20)
			return fail(s, "control character in a string");
		/* an escape */
		if (++s->p >= s->end)
			return fail(s, "unterminated string");
		switch (*s->p++) {
		case '"': put(&k, "\"", 1); break;
		case '\\': put(&k, "\\", 1); break;
		case '/': put(&k, "/", 1); break;
		case 'b': put(&k, "\b", 1); break;
		case 'f': put(&k, "\f", 1); break;
		case 'n': put(&k, "\n", 1); break;
		case 'r': put(&k, "\r", 1); break;
		case 't': put(&k, "\t", 1); break;
		case 'u':
			if (unicode_escape(s, &cp) < 0)
				return -1;
			put(&k, esc, utf8_encode(cp, esc));
			break;
		default:
			s->p--;
			return fail(s, "bad escape in a string");
		}
	}
	if (out)
		out[k.n] = '\0';
	return 0;
}

static bool digit(const struct jscan *s)
{
	return s->p < s->end && *s->p >= '0' && *s->p <= '9';
}

/* A number's grammar (RFC 8259 section 6); true when it is an integer (no fraction or exponent). */
static int read_number(struct jscan *s, bool *integer)
{
	*integer = true;
	if (*s->p == '-')
		s->p++;
	if (!digit(s))
		return fail(s, "bad number");
	if (*s->p == '0')
		s->p++;
	else
		while (digit(s))
			s->p++;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		*integer = false;
		if (!digit(s))
			return fail(s, "bad number");
		while (digit(s))
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		*integer = false;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!digit(s))
			return fail(s, "bad number");
		while (digit(s))
			s->p++;
	}
	return 0;
}

static int literal(struct jscan *s, const char *word)
{
	size_t len = strlen(word);

	if ((size_t)(s->end - s->p) < len || memcmp(s->p, word, len) != 0)
		return fail(s, "bad literal");
	s->p += len;
	return 0;
}

int jscan_object_next(struct jscan *s, char *key, size_t keysz)
{
	int r = next_member(s, '}');

	if (r <= 0)
		return r;
	skip_ws(s);
	if (s->p >= s->end || *s->p != '"')
		return fail(s, "expected a key");
	if (read_string(s, keysz ? key : NULL, keysz) < 0)
		return -1;
	skip_ws(s);
	if (s->p >= s->end || *s->p != ':')
		return fail(s, "expected ':'");
	s->p++;
	return 1;
}

int jscan_array_next(struct jscan *s)
{
	return next_member(s, ']');
}

int jscan_skip(struct jscan *s)
{
	bool integer;
	int r;

	switch (jscan_peek(s)) {
	case JSCAN_OBJECT:
		if (jscan_object_begin(s) < 0)
			return -1;
		while ((r = jscan_object_next(s, NULL, 0)) > 0)
			if (jscan_skip(s) < 0)
				return -1;
		return r;
	case JSCAN_ARRAY:
		if (jscan_array_begin(s) < 0)
			return -1;
		while ((r = jscan_array_next(s)) > 0)
			if (jscan_skip(s) < 0)
				return -1;
		return r;
	case JSCAN_STRING:
		return read_string(s, NULL, 0);
	case JSCAN_NUMBER:
		return read_number(s, &integer);
	case JSCAN_BOOL:
		return literal(s, *s->p == 't' ? "true" : "false");
	case JSCAN_NULL:
		return literal(s, "null");
	case JSCAN_NONE:
		break;
	}
	return fail(s, s->p >= s->end ? "unexpected end of the text" : "expected a value");
}

int jscan_string(struct jscan *s, char *out, size_t outsz)
{
	if (outsz)
		out[0] = '\0';
	switch (jscan_peek(s)) {
	case JSCAN_NULL:
		return literal(s, "null") < 0 ? -1 : 0;
	case JSCAN_STRING:
		return read_string(s, outsz ? out : NULL, outsz) < 0 ? -1 : 1;
	default:
		return fail(s, "expected a string");
	}
}

int jscan_integer(struct jscan *s, long long *out)
{
	const char *at;
	bool integer, negative;
	unsigned long long v = 0;

	switch (jscan_peek(s)) {
	case JSCAN_NULL:
		return literal(s, "null") < 0 ? -1 : 0;
	case JSCAN_NUMBER:
		break;
	default:
		return fail(s, "expected a number");
	}
	at = s->p;
	if (read_number(s, &integer) < 0)
		return -1;
	if (!integer)
		return 0;
	negative = *at == '-';
	for (const char *c = at + negative; c < s->p; c++) {
		if (v > (unsigned long long)LLONG_MAX / 10)
			return 0;
		v = v * 10 + (unsigned)(*c - '0');
	}
	if (v > (unsigned long long)LLONG_MAX)
		return 0;
	*out = negative ? -(long long)v : (long long)v;
	return 1;
}

int jscan_bool(struct jscan *s, bool *out)
{
	switch (jscan_peek(s)) {
	case JSCAN_NULL:
		return literal(s, "null") < 0 ? -1 : 0;
	case JSCAN_BOOL:
		*out = *s->p == 't';
		return literal(s, *out ? "true" : "false") < 0 ? -1 : 1;
	default:
		return fail(s, "expected true or false");
	}
}

int jscan_finish(struct jscan *s)
{
	if (s->error)
		return -1;
	skip_ws(s);
	return s->p < s->end ? fail(s, "text after the JSON value") : 0;
}

const char *jscan_error(const struct jscan *s, size_t *at)
{
	if (at)
		*at = s->error_at;
	return s->error;
}
