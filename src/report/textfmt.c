#include "report/textfmt.h"

#include "rules/finding.h"

#include <stdarg.h>
#include <string.h>

/* code itself (static, borrowed) when colour is on, else ""; never NULL. */
const char *tf_c(const struct textfmt *t, const char *code)
{
	return t->color ? code : "";
}

/* indent spaces, the formatted text and a newline, with no wrapping, escaping or truncation. */
void tf_line(struct textfmt *t, int indent, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->out, "%*s", indent, "");
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
	fputc('\n', t->out);
}

static int visible_width(const char *text, size_t len);

/* Break at spaces; a word longer than the line is printed whole. Colour escapes take no width. */
void tf_wrap(struct textfmt *t, int indent, int hang, const char *text)
{
	fprintf(t->out, "%*s", indent, "");
	tf_wrap_at(t, indent, hang, text);
}

/* See textfmt.h: the first word stays on the current line, however long. */
void tf_wrap_at(struct textfmt *t, int col, int hang, const char *text)
{
	bool line_start = true;
	const char *p = text;

	while (*p == ' ' || *p == '\n')
		p++;
	while (*p) {
		size_t wlen = strcspn(p, " \n");
		int wcols = visible_width(p, wlen);

		if (!line_start && col + 1 + wcols > t->width) {
			fprintf(t->out, "\n%*s", hang, "");
			col = hang;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', t->out);
			col++;
		}
		fwrite(p, 1, wlen, t->out);
		col += wcols;
		line_start = false;
		p += wlen;
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', t->out);
}

/* If text[i] opens a colour escape (ESC [ ... m), the index just past it; else i. */
static size_t skip_escape(const char *text, size_t i, size_t len)
{
	if (text[i] != '\033' || i + 1 >= len || text[i + 1] != '[')
		return i;
	i += 2;
	while (i < len && text[i] != 'm')
		i++;
	return i < len ? i + 1 : len;
}

/* Whether byte c starts a character: a UTF-8 continuation byte is no new column. */
static bool starts_char(char c)
{
	return ((unsigned char)c & 0xC0) != 0x80;
}

/* Columns text[0..len) takes on a terminal; colour escapes take none. */
static int visible_width(const char *text, size_t len)
{
	int w = 0;

	for (size_t i = 0; i < len;) {
		size_t next = skip_escape(text, i, len);

		if (next != i) {
			i = next;
			continue;
		}
		w += starts_char(text[i++]);
	}
	return w;
}

/*
 * One over-long line: its first keep columns as they are (a label), the rest
 * broken at the last space that fits, each new line indented by hang. A word
 * longer than the room is printed whole on a line of its own.
 */
static void reflow_line(struct textfmt *t, const char *line, size_t len, int keep, int hang)
{
	size_t at = 0;
	int col = 0;

	while (at < len && col < keep) { /* the label, escapes included */
		size_t next = skip_escape(line, at, len);

		if (next == at)
			col += starts_char(line[at++]);
		else
			at = next;
	}
	while (at < len && skip_escape(line, at, len) != at)
		at = skip_escape(line, at, len);
	fwrite(line, 1, at, t->out);
	while (at < len) {
		size_t cut = 0, first_space = 0, i = at;
		int c = col;

		/* the last space at which the text before it still fits, else the first space */
		while (i < len) {
			size_t next = skip_escape(line, i, len);

			if (next != i) {
				i = next;
				continue;
			}
			if (line[i] == ' ' && i > at) {
				if (c <= t->width)
					cut = i;
				else if (cut)
					break;
				if (!first_space)
					first_space = i;
				if (c > t->width)
					break;
			}
			c += starts_char(line[i++]);
		}
		if (i >= len && c <= t->width)
			cut = len;
		if (!cut)
			cut = first_space ? first_space : len;
		fwrite(line + at, 1, cut - at, t->out);
		at = cut;
		while (at < len && line[at] == ' ')
			at++;
		if (at < len)
			fprintf(t->out, "\n%*s", hang, "");
		col = hang;
	}
	fputc('\n', t->out);
}

/* See textfmt.h. */
void tf_reflow(struct textfmt *t, const char *text, int keep, int hang)
{
	while (*text) {
		size_t len = strcspn(text, "\n");

		if (visible_width(text, len) <= t->width) {
			fwrite(text, 1, len, t->out);
			fputc('\n', t->out);
		} else {
			reflow_line(t, text, len, keep, hang);
		}
		text += len;
		if (*text == '\n')
			text++;
	}
}

/* tf_wrap on the formatted text, cut silently at 4095 bytes. */
void tf_wrapf(struct textfmt *t, int indent, int hang, const char *fmt, ...)
{
	va_list ap;
	char buf[4096];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tf_wrap(t, indent, hang, buf);
}

/* See textfmt.h: cut to outsz - 1 bytes and always terminated; outsz must be at least 1. */
void str_upper(char *out, size_t outsz, const char *in)
{
	size_t i = 0;

	if (outsz == 0)
		return;
	for (; in[i] && i + 1 < outsz; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') ? (char)(in[i] - 'a' + 'A') : in[i];
	out[i] = '\0';
}

/*
 * See textfmt.h. An alternative of one step whose text is its title shows
 * the title and the command only.
 */
void report_fix_steps(struct textfmt *t, const struct fix_step *fix, int nfix, const char *const *alt_titles, int nalt)
{
	for (int alt = 0; alt <= nalt; alt++) {
		int n = 0, count = 0;

		for (int i = 0; i < nfix; i++)
			count += fix[i].alt == alt;
		if (alt == 0 && count)
			tf_line(t, 2, "%sfix:%s", tf_c(t, TF_BOLD), tf_c(t, TF_RESET));
		else if (alt > 0)
			tf_wrapf(t, 2, 4, "%sor instead:%s %s", tf_c(t, TF_BOLD), tf_c(t, TF_RESET), alt_titles[alt - 1]);
		for (int i = 0; i < nfix; i++) {
			if (fix[i].alt != alt)
				continue;
			if (alt > 0 && count == 1 && strcmp(fix[i].text, alt_titles[alt - 1]) == 0) {
				if (fix[i].command)
					tf_line(t, 7, "%s$ %s%s", tf_c(t, TF_GREEN), fix[i].command, tf_c(t, TF_RESET));
				continue;
			}
			tf_wrapf(t, 4, 7, "%d. %s", ++n, fix[i].text);
			if (fix[i].command)
				tf_line(t, 7, "%s$ %s%s", tf_c(t, TF_GREEN), fix[i].command, tf_c(t, TF_RESET));
		}
	}
}
