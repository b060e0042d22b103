/*
 * dwidth.h - how many terminal columns text takes: UTF-8 decoded, East Asian
 * Wide and Fullwidth characters (Chinese, Japanese, Korean, fullwidth
 * punctuation) two columns, everything else one. A fixed table, not the C
 * library's wcwidth: that depends on the locale, and a machine with only
 * C.UTF-8 still prints Chinese reports.
 */
#ifndef GD_UTIL_DWIDTH_H
#define GD_UTIL_DWIDTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Decode the UTF-8 character at s (len > 0 bytes left) into *cp; returns its length in bytes (1 to 4). A
 * byte that does not start a valid sequence is one character U+FFFD of length 1, so that a caller
 * stepping by the result never stops inside a sequence nor loops.
 */
size_t dw_decode(const char *s, size_t len, uint32_t *cp);

/* Whether cp is East Asian Wide (W) or Fullwidth (F): two columns. */
bool dw_is_wide(uint32_t cp);

/* Columns of the code point: 2 for wide ones, 1 otherwise (controls and combining marks included). */
int dw_char_width(uint32_t cp);

/* Columns of text[0..len) (no escape sequences: see textfmt.h for those). */
int dw_width(const char *text, size_t len);

/*
 * Whether a line may break between the characters a and b: when either is wide (Chinese has no spaces,
 * and "CUDA版本" may break before 版), unless b is closing punctuation that must not start a line
 * (，。：；！？、）」』》 , . : ; ) ] ` ...) or a opening punctuation that must not end one (（「『《 ( [ ` ...).
 * Never between two narrow characters: a command or path is never broken.
 */
bool dw_can_break(uint32_t a, uint32_t b);

#endif
