/*
 * termsafe.h - text read from a machine, made safe to show on a terminal.
 *
 * An os-release name, a kernel release, a torch version or a file name can
 * hold escape sequences that move the cursor, rewrite lines or retitle the
 * window. Every control character except newline and tab, DEL, the C1
 * controls, invalid UTF-8 and the Unicode bidirectional overrides become a
 * visible escape (\x1b, \u202e). With keep_color, the colour sequences a
 * renderer writes itself (ESC [ digits/semicolons m) pass unchanged; they
 * can only colour text.
 */
#ifndef GD_UTIL_TERMSAFE_H
#define GD_UTIL_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Escape n bytes of s into a fresh NUL-terminated buffer (*out, *outlen)
 * the caller frees. Returns 0, or -1 when out of memory.
 */
int termsafe_escape(const char *s, size_t n, bool keep_color, char **out, size_t *outlen);

#endif
