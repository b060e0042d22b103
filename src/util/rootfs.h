/*
 * rootfs.h - the one door through which probes read the machine's files.
 *
 * Every path a probe names is the path as seen on the machine being
 * diagnosed ("/proc/modules"). A live rootfs reads it as is; a rooted one
 * (--root DIR) reads DIR/proc/modules instead, resolving symbolic links
 * inside DIR: an absolute link target and ".." never leave the root. This is
 * what lets a scenario directory stand in for a whole machine.
 *
 * All reads are bounded by a caller-given maximum. Nothing here writes.
 */
#ifndef GD_UTIL_ROOTFS_H
#define GD_UTIL_ROOTFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/path.h"

#define ROOTFS_PATH_MAX 1024

struct rootfs {
	bool live;			/* true when reading "/" itself */
	char dir[ROOTFS_PATH_MAX];	/* the root directory, no trailing slash */
};

/* dir NULL, "" or "/" gives a live rootfs. The directory must exist. */
int rootfs_init(struct rootfs *fs, const char *dir, struct error *err);

/*
 * Resolve a machine path, following links inside the root. With
 * follow_last false the last component is left as is (lstat semantics).
 * Writes the resolved machine path (always absolute, normalised) to out.
 * A path that does not exist still resolves as far as it can: the missing
 * tail is appended unchanged, so callers get ENOENT from the next call.
 */
int rootfs_resolve(const struct rootfs *fs, const char *path, bool follow_last,
		   char *out, size_t outsz, struct error *err);

/* Map a machine path to the host path to pass to system calls. */
int rootfs_host_path(const struct rootfs *fs, const char *path, bool follow_last,
		     char *out, size_t outsz, struct error *err);

int rootfs_stat(const struct rootfs *fs, const char *path, struct stat *st);
int rootfs_lstat(const struct rootfs *fs, const char *path, struct stat *st);
bool rootfs_exists(const struct rootfs *fs, const char *path);
bool rootfs_is_dir(const struct rootfs *fs, const char *path);

/* The raw text of a symbolic link (not re-rooted). */
int rootfs_readlink(const struct rootfs *fs, const char *path, char *out, size_t outsz);

/*
 * Read at most max bytes of a file into a fresh NUL-terminated buffer the
 * caller frees. *truncated (may be NULL) says whether more was there.
 * On failure err->code holds errno (ENOENT for a missing file).
 */
int rootfs_read(const struct rootfs *fs, const char *path, size_t max,
		char **out, size_t *len, bool *truncated, struct error *err);

/* Read the first line (without newline) into buf; -1 if unreadable. */
int rootfs_read_line(const struct rootfs *fs, const char *path, char *buf, size_t size);

/* Read a file from offset off into buf; returns bytes read or -1. */
long rootfs_pread(const struct rootfs *fs, const char *path, void *buf, size_t size, long off);

FILE *rootfs_fopen(const struct rootfs *fs, const char *path);
DIR *rootfs_opendir(const struct rootfs *fs, const char *path);


#endif
