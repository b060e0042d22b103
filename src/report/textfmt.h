/*
 * textfmt.h - small helpers for terminal text: colour that switches off
 * cleanly, and word wrapping with a hanging indent, by display columns: a
 * Chinese character takes two, and a line may break between two of them.
 */
#ifndef GD_REPORT_TEXTFMT_H
#define GD_REPORT_TEXTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TF_RESET "\033[0m"
#define TF_BOLD "\033[1m"
#define TF_DIM "\033[2m"
#define TF_RED "\033[31m"
#define TF_GREEN "\033[32m"
#define TF_YELLOW "\033[33m"
#define TF_CYAN "\033[36m"

struct textfmt {
	FILE *out;
	bool color;
	int width;
};

/* The escape sequence when colour is on, else "". */
const char *tf_c(const struct textfmt *t, const char *code);
/* One line at an indent (no wrapping). */
void tf_line(struct textfmt *t, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Wrap text at t->width: first line at indent, the rest at hang. */
void tf_wrap(struct textfmt *t, int indent, int hang, const char *text);
void tf_wrapf(struct textfmt *t, int indent, int hang, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Wrap text on a line already begun, at column col (what is before it was printed by the caller); the
 * first word stays on that line, the rest wrap at t->width and hang. Ends the line.
 */
void tf_wrap_at(struct textfmt *t, int col, int hang, const char *text);
/*
 * Print text line by line; a line wider than t->width keeps its first keep
 * columns and is broken at spaces after them, later lines indented by hang.
 * Colour escapes take no width.
 */
void tf_reflow(struct textfmt *t, const char *text, int keep, int hang);
struct fix_step;
/*
 * Fix steps as "fix:" numbered, then each alternative as "or instead: TITLE" with its own numbers; each text
 * in the text reports' language (shown_text). alt_titles_local may be NULL.
 */
void report_fix_steps(struct textfmt *t, const struct fix_step *fix, int nfix, const char *const *alt_titles,
		      const char *const *alt_titles_local, int nalt);
/*
 * The text a text report shows: local (a finding's *_local) when there is one, else english looked up in
 * the catalog (a data table's text, a word marked N_), which is english itself when none is active.
 */
const char *shown_text(const char *english, const char *local);
/*
 * What goes between a label and its text: nothing after a full-width colon ("备选方案：" is followed
 * directly, Chinese puts no space there), one space otherwise ("or instead: ...").
 */
const char *tf_gap(const char *label);
/* Display columns of text: wide (CJK) characters two, colour escapes none (util/dwidth.h). */
int tf_width(const char *text);
/* Print text, then spaces up to cols display columns (none when it is wider): "%-*s" by columns. */
void tf_pad(struct textfmt *t, const char *text, int cols);
/* ASCII upper-case copy. */
void str_upper(char *out, size_t outsz, const char *in);

#endif
