/*
 * clean.h - what the way a text was captured or posted adds to it, taken
 * out before the signatures read it.
 */
#ifndef GD_EXPLAIN_CLEAN_H
#define GD_EXPLAIN_CLEAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Remove ANSI escape sequences from p[0..n) in place: CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or
 * ESC \) and the others (ESC, intermediate bytes, a final byte: "ESC ( B"). A terminal's colours, not
 * text. Returns the new length.
 */
size_t clean_ansi(char *p, size_t n);

/*
 * Undo in place what posting a text on a forum or an issue tracker does to it, so that the message
 * inside reads as the program printed it: quote markers at a line's start ("> ", "> > "; a Python
 * prompt ">>>" stays), Markdown backslash escapes (CUDA\_VISIBLE\_DEVICES) on lines whose every
 * backslash escapes punctuation (a Windows path keeps its backslashes), typographic quotes (’ “ ”),
 * full-width ASCII ("：" "（" of a Chinese input method), HTML character references (&#39; &quot;
 * &lt; &gt; &amp;), no-break, ideographic and zero-width spaces, a byte order mark, the '\r' of a
 * Windows line end. Every change shortens the text and keeps its newlines, so line numbers stay.
 * Returns the new length.
 */
size_t clean_posted(char *p, size_t n);

/* A line shorter than this is a line of its own (a heading, a command, a field), not wrapped prose. */
#define WRAP_MIN_LINE 40

/*
 * Join in place the lines of p[0..n) that a mail client, an editor or a reporter wrapped: where a long line
 * ends in a word and the next goes on with a lower-case word at the margin ("The NVIDIA driver on your" /
 * "system is too old"), the break and the blanks before it become one space. Column output (two blanks in a
 * row) is never joined. A joined sentence keeps its offset and its length (blanks pad its end), so every
 * newline left stays where it was. Returns how many line breaks it joined.
 */
size_t clean_unwrap(char *p, size_t n);

/* Whether clean_unwrap would join any line of p[0..n): it reads, and writes nothing. */
bool clean_wrapped(const char *p, size_t n);

#endif
