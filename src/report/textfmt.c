#include "report/textfmt.h"

#include "rules/finding.h"

#include <stdarg.h>
#include <string.h>

#include "util/dwidth.h"
#include "util/i18n.h"

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
static size_t skip_escape(const char *text, size_t i, size_t len);

/*
 * The bytes of word[0..len) up to the first place a line may break inside it (dw_can_break: between two
 * wide characters), or len: a word of narrow characters (a command, a path) is one piece.
 */
static size_t piece_length(const char *word, size_t len)
{
	uint32_t prev = 0;
	bool have_prev = false;

	for (size_t i = 0; i < len;) {
		size_t next = skip_escape(word, i, len);
		uint32_t cp;

		if (next != i) {
			i = next;
			continue;
		}
		next = i + dw_decode(word + i, len - i, &cp);
		if (have_prev && dw_can_break(prev, cp))
			return i;
		prev = cp;
		have_prev = true;
		i = next;
	}
	return len;
}

/* Break at spaces and between wide characters; a piece longer than the line is printed whole. Colour escapes take no width. */
void tf_wrap(struct textfmt *t, int indent, int hang, const char *text)
{
	fprintf(t->out, "%*s", indent, "");
	tf_wrap_at(t, indent, hang, text);
}

/*
 * Words of text[0..len), from column col: a word that would pass t->width starts a new line at hang; the
 * first word stays on the current line, however long. Between words on one line, one space, or with
 * keep_spaces the run of spaces the text has (a table's alignment, the spaces after a label).
 */
static void wrap_words(struct textfmt *t, int col, int hang, const char *text, size_t len, bool keep_spaces)
{
	bool line_start = true;
	const char *p = text, *end = text + len;
	size_t prev_gap = 1;

	while (p < end && (*p == ' ' || *p == '\n'))
		p++;
	if (keep_spaces && p > text) {	/* after a label: its spaces lead to the first word, as any gap */
		prev_gap = (size_t)(p - text);
		line_start = false;
	}
	while (p < end) {
		size_t wlen = 0, gap = 0;
		int wcols, sep;

		while (p + wlen < end && p[wlen] != ' ' && p[wlen] != '\n')
			wlen++;
		wcols = visible_width(p, wlen);
		while (p + wlen + gap < end && (p[wlen + gap] == ' ' || p[wlen + gap] == '\n'))
			gap++;
		sep = keep_spaces ? (int)prev_gap : 1;
		if (line_start ? col + wcols <= t->width : col + sep + wcols <= t->width) {
			if (!line_start) {
				fprintf(t->out, "%*s", sep, "");
				col += sep;
			}
			fwrite(p, 1, wlen, t->out);
			col += wcols;
		} else {
			/* too long for the rest of the line: piece by piece, a new line where the next piece passes it */
			for (size_t off = 0; off < wlen;) {
				size_t plen = piece_length(p + off, wlen - off);
				int pcols = visible_width(p + off, plen), s = off == 0 && !line_start ? sep : 0;

				if (!line_start && col + s + pcols > t->width) {
					fprintf(t->out, "\n%*s", hang, "");
					col = hang;
					s = 0;
				}
				fprintf(t->out, "%*s", s, "");
				fwrite(p + off, 1, plen, t->out);
				col += s + pcols;
				line_start = false;
				off += plen;
			}
		}
		line_start = false;
		prev_gap = gap;
		p += wlen + gap;
	}
	fputc('\n', t->out);
}

/* See textfmt.h: the first word stays on the current line, however long. */
void tf_wrap_at(struct textfmt *t, int col, int hang, const char *text)
{
	wrap_words(t, col, hang, text, strlen(text), false);
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

/* Columns text[0..len) takes on a terminal (dwidth.h: wide characters two); colour escapes take none. */
static int visible_width(const char *text, size_t len)
{
	int w = 0;

	for (size_t i = 0; i < len;) {
		size_t next = skip_escape(text, i, len);
		uint32_t cp;

		if (next != i) {
			i = next;
			continue;
		}
		i += dw_decode(text + i, len - i, &cp);
		w += dw_char_width(cp);
	}
	return w;
}

/* See textfmt.h. */
int tf_width(const char *text)
{
	return visible_width(text, strlen(text));
}

/* See textfmt.h. */
void tf_pad(struct textfmt *t, const char *text, int cols)
{
	int w = tf_width(text);

	fputs(text, t->out);
	if (w < cols)
		fprintf(t->out, "%*s", cols - w, "");
}

/*
 * One over-long line: its first keep columns as they are (a label, escapes included), the rest wrapped
 * at hang like any text, its runs of spaces kept.
 */
static void reflow_line(struct textfmt *t, const char *line, size_t len, int keep, int hang)
{
	size_t at = 0;
	int col = 0;

	while (at < len && col < keep) {
		size_t next = skip_escape(line, at, len);
		uint32_t cp;

		if (next == at) {
			at += dw_decode(line + at, len - at, &cp);
			col += dw_char_width(cp);
		} else {
			at = next;
		}
	}
	while (at < len && skip_escape(line, at, len) != at)
		at = skip_escape(line, at, len);
	fwrite(line, 1, at, t->out);
	wrap_words(t, col, hang, line + at, len - at, true);
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

/* See textfmt.h. */
const char *shown_text(const char *english, const char *local)
{
	return local ? local : i18n_text(english);
}

/* See textfmt.h. */
const char *tf_gap(const char *label)
{
	static const char fullwidth_colon[] = "\xef\xbc\x9a";	/* U+FF1A */
	size_t n = strlen(label), k = sizeof(fullwidth_colon) - 1;

	return n >= k && memcmp(label + n - k, fullwidth_colon, k) == 0 ? "" : " ";
}

/*
 * See textfmt.h. An alternative of one step whose text is its title shows
 * the title and the command only.
 */
void report_fix_steps(struct textfmt *t, const struct fix_step *fix, int nfix, const char *const *alt_titles,
		      const char *const *alt_titles_local, int nalt)
{
	for (int alt = 0; alt <= nalt; alt++) {
		int n = 0, count = 0;

		for (int i = 0; i < nfix; i++)
			count += fix[i].alt == alt;
		if (alt == 0 && count)
			tf_line(t, 2, "%s%s%s", tf_c(t, TF_BOLD), _("fix:"), tf_c(t, TF_RESET));
		else if (alt > 0)
			tf_wrapf(t, 2, 4, "%s%s%s%s%s", tf_c(t, TF_BOLD), _("or instead:"), tf_c(t, TF_RESET),
				 tf_gap(_("or instead:")), shown_text(alt_titles[alt - 1], alt_titles_local ? alt_titles_local[alt - 1] : NULL));
		for (int i = 0; i < nfix; i++) {
			if (fix[i].alt != alt)
				continue;
			if (alt > 0 && count == 1 && strcmp(fix[i].text, alt_titles[alt - 1]) == 0) {
				if (fix[i].command)
					tf_line(t, 7, "%s$ %s%s", tf_c(t, TF_GREEN), fix[i].command, tf_c(t, TF_RESET));
				continue;
			}
			tf_wrapf(t, 4, 7, "%d. %s", ++n, shown_text(fix[i].text, fix[i].text_local));
			if (fix[i].command)
				tf_line(t, 7, "%s$ %s%s", tf_c(t, TF_GREEN), fix[i].command, tf_c(t, TF_RESET));
		}
	}
}
