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

/* Break at spaces; a word longer than the line is printed whole. */
void tf_wrap(struct textfmt *t, int indent, int hang, const char *text)
{
	int col = indent;
	bool line_start = true;
	const char *p = text;

	fprintf(t->out, "%*s", indent, "");
	while (*p == ' ' || *p == '\n')
		p++;
	while (*p) {
		size_t wlen = strcspn(p, " \n");

		if (!line_start && col + 1 + (int)wlen > t->width) {
			fprintf(t->out, "\n%*s", hang, "");
			col = hang;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', t->out);
			col++;
		}
		fwrite(p, 1, wlen, t->out);
		col += (int)wlen;
		line_start = false;
		p += wlen;
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', t->out);
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
