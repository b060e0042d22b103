/*
 * kv.h - tiny parsers for the text formats of /proc, /etc and friends.
 */
#ifndef GD_UTIL_KV_H
#define GD_UTIL_KV_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Find KEY in os-release style text (KEY=value or KEY="value", one per line)
 * and copy the unquoted value into out. Returns -1 when absent.
 */
int kv_shell_get(const char *text, const char *key, char *out, size_t outsz);

/*
 * Find "key<sep>value" lines as in /proc/cpuinfo ("model name\t: X") or
 * /proc/meminfo ("MemTotal:  123 kB"); key must match up to the separator
 * exactly (trailing blanks ignored). Copies the trimmed value.
 */
int kv_colon_get(const char *text, const char *key, char *out, size_t outsz);

/*
 * Iterate over lines: returns the next line (NUL-terminated in place by
 * replacing the newline) and advances *cursor; NULL at the end. The text
 * must be writable.
 */
char *line_next(char **cursor);

#endif
