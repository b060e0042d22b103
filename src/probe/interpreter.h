/*
 * interpreter.h - the interpreter --python names, found and checked
 * statically: nothing is run, only the file's metadata and first bytes are
 * read, through the rootfs (so --root DIR checks the image's file).
 */
#ifndef GD_PROBE_INTERPRETER_H
#define GD_PROBE_INTERPRETER_H

#include <stddef.h>

#include "util/error.h"
#include "util/rootfs.h"

/*
 * Find name on the machine fs reads: a name without "/" in the directories of path_var (the diagnosed
 * environment's PATH; NULL or empty finds nothing), a relative path under cwd (NULL: under the root).
 * It is an interpreter when it resolves, symbolic links followed inside the root, to a regular file with
 * an execute bit whose first bytes are an ELF header or "#!" (a script such as a pyenv shim). A file that
 * may be executed but not read by this user is accepted: what it holds cannot be told.
 *
 * On success writes the machine path found (before links are followed) to out and returns 0; otherwise
 * returns -1 with err->msg saying why, without naming name ("no such file or directory", "a directory",
 * "not executable", ...), and err->code the errno where one caused it.
 */
int interpreter_find(const struct rootfs *fs, const char *name, const char *path_var, const char *cwd,
		     char *out, size_t outsz, struct error *err);

#endif
