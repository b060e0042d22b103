/*
 * path.h - pure string operations on slash-separated paths (no I/O).
 */
#ifndef GD_UTIL_PATH_H
#define GD_UTIL_PATH_H

#include <stddef.h>

/* Join a directory and a name into out with exactly one slash between. */
int path_join(char *out, size_t outsz, const char *dir, const char *name);
/* The last component of path (borrowed pointer into path). */
const char *path_basename(const char *path);
/* Copy the directory part of path into out ("/" for "/x"). */
int path_dirname(const char *path, char *out, size_t outsz);

#endif
