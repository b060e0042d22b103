/*
 * clean.c - what the way a text was captured or posted adds to it: a
 * terminal's escape sequences, a forum's quote markers and escapes, a word
 * processor's quotes. These cleaners work in place and only shorten; the
 * last one finds where a sentence was wrapped onto the next line.
 */
#include "explain/clean.h"

#include <stdbool.h>
#include <string.h>

#include "util/str.h"

/* See clean.h. */
size_t clean_ansi(char *p, size_t n)
{
	size_t r = 0, w = 0;

	while (r < n) {
		char *esc = memchr(p + r, 0x1b, n - r);
		size_t plain = esc ? (size_t)(esc - (p + r)) : n - r;

		memmove(p + w, p + r, plain);
		w += plain;
		r += plain;
		if (r >= n)
			break;
		r++;	/* ESC */
		if (r < n && p[r] == '[') {
			for (r++; r < n && !((unsigned char)p[r] >= 0x40 && (unsigned char)p[r] <= 0x7e) && p[r] != '\n'; r++)
				;
			if (r < n && p[r] != '\n')
				r++;
		} else if (r < n && p[r] == ']') {
			for (r++; r < n && p[r] != 0x07 && p[r] != '\n' && !(p[r] == 0x1b && r + 1 < n && p[r + 1] == '\\'); r++)
				;
			if (r < n && p[r] == 0x07)
				r++;
			else if (r < n && p[r] == 0x1b)
				r += 2;
		} else {
			/* ESC, intermediates (0x20-0x2f), a final byte: "ESC ( B", which tput sgr0 prints, is three */
			while (r < n && (unsigned char)p[r] >= 0x20 && (unsigned char)p[r] <= 0x2f)
				r++;
			if (r < n && p[r] != '\n')
				r++;
		}
	}
	return w;
}

/* CommonMark lets a backslash escape any ASCII punctuation character. */
static bool markdown_escapable(unsigned char c)
{
	return c && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) != NULL;
}

/*
 * Whether every backslash in [p, end) escapes punctuation, so the line reads as Markdown source
 * ("torch.\_C", "CUDA\_VISIBLE\_DEVICES"). A Windows path (torch\lib\cudnn64_8.dll) has a backslash
 * before a letter and is left as it is.
 */
static bool markdown_escaped(const char *p, const char *end)
{
	bool any = false;

	for (const char *b = p; (b = memchr(b, '\\', (size_t)(end - b))) != NULL; b += 2) {
		if (b + 1 >= end || !markdown_escapable((unsigned char)b[1]))
			return false;
		any = true;
	}
	return any;
}

/* Past the quote markers at a line's start: up to three spaces, then "> " or ">" any number of times. */
static const char *skip_quote_markers(const char *p, const char *end)
{
	const char *q = p;

	for (int spaces = 0; q < end && *q == ' ' && spaces < 3; spaces++)
		q++;
	if (q >= end || *q != '>')
		return p;
	while (q < end && *q == '>') {
		/* ">>>" is Python's prompt and ">=" a comparison: text, not a marker */
		if ((end - q >= 3 && q[1] == '>' && q[2] == '>') || (q + 1 < end && q[1] == '='))
			break;
		q++;
		if (q < end && *q == ' ')
			q++;
	}
	return q;
}

/*
 * The character an HTML character reference at p ('&') stands for, when it is one a posted error
 * message carries (quotes, angle brackets, ampersand, spaces); *len is the reference's length. 0 when
 * p starts none of those.
 */
static char html_reference(const char *p, const char *end, size_t *len)
{
	static const struct { const char *name; char c; } named[] = {
		{ "&quot;", '"' }, { "&apos;", '\'' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' },
		{ "&nbsp;", ' ' }, { "&lsquo;", '\'' }, { "&rsquo;", '\'' }, { "&ldquo;", '"' }, { "&rdquo;", '"' },
	};
	unsigned long code = 0;
	const char *q = p + 2;
	bool hex;

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		size_t k = strlen(named[i].name);

		if ((size_t)(end - p) >= k && memcmp(p, named[i].name, k) == 0) {
			*len = k;
			return named[i].c;
		}
	}
	if (end - p < 4 || p[1] != '#')
		return 0;
	hex = *q == 'x' || *q == 'X';
	if (hex)
		q++;
	for (const char *start = q; q < end && q - start < 6; q++) {
		int digit = char_is_digit((unsigned char)*q) ? *q - '0' :
			    hex && (char_lower((unsigned char)*q) >= 'a' && char_lower((unsigned char)*q) <= 'f') ?
			    char_lower((unsigned char)*q) - 'a' + 10 : -1;

		if (digit < 0)
			break;
		code = code * (hex ? 16 : 10) + (unsigned long)digit;
	}
	if (q >= end || *q != ';' || q == p + 2 + hex)
		return 0;
	*len = (size_t)(q + 1 - p);
	if (code >= 0x20 && code < 0x7f)
		return (char)code;
	if (code == 0xa0)
		return ' ';
	if (code == 0x2018 || code == 0x2019)
		return '\'';
	if (code == 0x201c || code == 0x201d)
		return '"';
	return 0;
}

/*
 * The ASCII a typographic UTF-8 sequence at p stands for in an error message (' for ‘ ’, " for “ ”, a
 * space for a no-break or an ideographic space, ASCII for its full-width form), or '\0' to drop it (a
 * zero-width space, a byte order mark); *len is its length. -1 when p starts none of those.
 */
static int typographic(const unsigned char *p, const unsigned char *end, size_t *len)
{
	if (p[0] == 0xc2 && end - p >= 2 && p[1] == 0xa0) {
		*len = 2;
		return ' ';
	}
	if (p[0] == 0xef && end - p >= 3 && p[1] == 0xbb && p[2] == 0xbf) {
		*len = 3;
		return '\0';
	}
	if (p[0] == 0xef && end - p >= 3 && ((p[1] == 0xbc && p[2] >= 0x81) || (p[1] == 0xbd && p[2] <= 0x9e))) {
		/* the full-width forms of ASCII (U+FF01-U+FF5E) a Chinese input method types: "：" "（" "，" */
		*len = 3;
		return p[1] == 0xbc ? 0x21 + (p[2] - 0x81) : 0x60 + (p[2] - 0x80);
	}
	if (p[0] == 0xe3 && end - p >= 3 && p[1] == 0x80 && p[2] == 0x80) {
		*len = 3;	/* the ideographic space */
		return ' ';
	}
	if (p[0] != 0xe2 || end - p < 3 || p[1] != 0x80)
		return -1;
	*len = 3;
	switch (p[2]) {
	case 0x98: case 0x99:
		return '\'';
	case 0x9c: case 0x9d:
		return '"';
	case 0x8b: case 0x8c: case 0x8d:
		return '\0';
	default:
		return -1;
	}
}

/* Drop the backslash of every escape in [p, end) (markdown_escaped said each escapes); returns the new end. */
static char *unescape_markdown(char *p, char *end)
{
	char *w = p;

	for (const char *r = p; r < end; r++) {
		if (*r == '\\' && r + 1 < end)
			r++;
		*w++ = *r;
	}
	return w;
}

/*
 * One line [r, end) written at w; returns where the next write goes. References and typography first, so
 * that an escape is judged on the characters the line shows ("\&quot;" is an escaped quote).
 */
static char *clean_line(char *w, const char *r, const char *end)
{
	char *start = w;

	if (end > r && end[-1] == '\r')
		end--;	/* a Windows line end: the '\n' alone ends the line */
	r = skip_quote_markers(r, end);
	while (r < end) {
		const char *next = r;
		size_t len;
		char c;
		int t;

		/* copy up to the next byte that may start something to undo */
		while (next < end && *next != '&' && (unsigned char)*next < 0xc2)
			next++;
		if (next > r) {
			memmove(w, r, (size_t)(next - r));
			w += next - r;
			r = next;
			continue;
		}
		if (*r == '&' && (c = html_reference(r, end, &len)) != 0) {
			*w++ = c;
			r += len;
		} else if ((t = typographic((const unsigned char *)r, (const unsigned char *)end, &len)) >= 0) {
			if (t)
				*w++ = (char)t;
			r += len;
		} else {
			*w++ = *r++;
		}
	}
	if (markdown_escaped(start, w))
		w = unescape_markdown(start, w);
	return w;
}

/* See clean.h. */
size_t clean_posted(char *p, size_t n)
{
	const char *r = p, *end = p + n;
	char *w = p;

	while (r < end) {
		const char *nl = memchr(r, '\n', (size_t)(end - r));
		const char *stop = nl ? nl : end;

		w = clean_line(w, r, stop);
		if (nl)
			*w++ = '\n';
		r = nl ? nl + 1 : end;
	}
	return (size_t)(w - p);
}

/* Whether [p, end) holds two blanks in a row between its words: columns (pip list, ls -l, a table), not prose. */
static bool has_columns(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (; p + 1 < end; p++)
		if ((*p == ' ' || *p == '\t') && (p[1] == ' ' || p[1] == '\t'))
			return true;
	return false;
}

/*
 * Whether the line [start, nl) goes on in the line after nl: it is long, ends in a word or a comma, and the
 * next line starts at the same margin with a plain lower-case word, maybe in parentheses ("system is too
 * old", "(found version 11000)"; not "nvidia-smi", "crw-rw----", "torch==2.1.0").
 */
static bool wraps_at(const char *start, const char *nl, const char *end)
{
	const char *text = start, *last = nl, *next = nl + 1, *first, *word, *word_end, *next_nl;
	size_t margin;

	while (text < nl && (*text == ' ' || *text == '\t'))
		text++;
	margin = (size_t)(text - start);
	while (last > text && (last[-1] == ' ' || last[-1] == '\t'))
		last--;
	if (last - text < WRAP_MIN_LINE ||
	    !((char_is_alnum((unsigned char)last[-1]) && !char_is_digit((unsigned char)last[-1])) || last[-1] == ','))
		return false;
	/* text indented as code keeps its indentation on every line */
	if ((size_t)(end - next) <= margin || memcmp(start, next, margin) != 0)
		return false;
	first = word = next + margin;
	if (*word == '(')
		word++;		/* "(found version 11000)", "(torch.cuda.FloatTensor)" */
	for (word_end = word; word_end < end && *word_end >= 'a' && *word_end <= 'z'; word_end++)
		;
	if (word_end == word || (word_end < end && *word_end != '\n' && !strchr(" ,.;:)", *word_end)))
		return false;
	next_nl = memchr(next, '\n', (size_t)(end - next));
	if (has_columns(text, nl) || has_columns(first, next_nl ? next_nl : end))
		return false;
	/* a log's next line of the same kind ("step 12 | loss ..." after "step 11 | loss ...") is no continuation */
	return !(last - text > word_end - first && memcmp(text, first, (size_t)(word_end - first)) == 0 &&
		 !char_is_alnum((unsigned char)text[word_end - first]));
}

/* See clean.h. */
bool clean_wrapped(const char *p, size_t n)
{
	const char *end = p + n;

	for (const char *nl; p < end && (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1)
		if (nl + 1 < end && wraps_at(p, nl, end))
			return true;
	return false;
}

/* See clean.h. */
size_t clean_unwrap(char *p, size_t n)
{
	const char *r = p, *end = p + n;
	char *w = p;
	size_t joined = 0;
	bool goes_on = false;	/* the line before wrapped into this one */

	while (r < end) {
		const char *nl = memchr(r, '\n', (size_t)(end - r));
		const char *stop = nl ? nl : end, *from = r;
		/* read before the line moves: the text left of r is already rewritten, the rest not yet */
		bool wraps = nl && nl + 1 < end && wraps_at(r, nl, end);

		while (goes_on && from < stop && (*from == ' ' || *from == '\t'))
			from++;		/* the margin of a continued line: the sentence goes on after one blank */
		memmove(w, from, (size_t)(stop - from));
		w += stop - from;
		goes_on = wraps;
		if (wraps) {
			/* one blank where the line broke; what that saves waits at the end of the sentence */
			while (w > p && (w[-1] == ' ' || w[-1] == '\t'))
				w--;
			*w++ = ' ';
			joined++;
		} else {
			while (w < stop)
				*w++ = ' ';
			if (nl)
				*w++ = '\n';
		}
		r = nl ? nl + 1 : end;
	}
	return joined;
}
