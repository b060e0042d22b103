/*
 * rootfs.h - the one door through which probes read the machine's files.
 *
 * Every path a probe names is the path as seen on the machine being
 * diagnosed ("/proc/modules"). A live rootfs reads it as is; a rooted one
 * (--root DIR) reads DIR/proc/modules instead, resolving symbolic links
 * inside DIR: an absolute link target and ".." never leave the root.
 *
 * A rooted path is never handed to the kernel as one string. It is walked
 * a component at a time from a descriptor of the root with openat(O_PATH |
 * O_NOFOLLOW), each link read and re-rooted by us, so a directory swapped
 * for a link while we read cannot lead outside the root. Only regular files
 * are opened for reading (a device node or FIFO in an image is never
 * opened, only stat'ed).
 *
 * All reads are bounded by a caller-given maximum. Nothing here writes.
 * Reads refused for permission are counted in an optional log, so that a
 * probe can tell "unreadable" from "missing".
 */
#ifndef GD_UTIL_ROOTFS_H
#define GD_UTIL_ROOTFS_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/path.h"

/* The longest machine path the resolver produces. */
#define ROOTFS_PATH_MAX 1024
#define ROOTFS_DENIED_KEPT 8

/* Paths whose reading was refused (EACCES, EPERM): the first few and a count. */
struct rootfs_denials {
	unsigned count;				/* refusals */
	unsigned kept;				/* distinct paths in paths[] */
	char paths[ROOTFS_DENIED_KEPT][256];
	char last[256];				/* the newest refusal's path */
};

struct rootfs {
	bool live;			/* true when reading "/" itself */
	int dirfd;			/* O_PATH descriptor of the root (also live: "/") */
	char dir[PATH_MAX];		/* the root directory, no trailing slash; "" live */
	struct rootfs_denials *denied;	/* where refusals are logged; NULL: not logged */
};

/*
 * dir NULL, "" or "/" gives a live rootfs. The directory must exist. The
 * rootfs holds a descriptor until rootfs_release.
 */
int rootfs_init(struct rootfs *fs, const char *dir, struct error *err);
void rootfs_release(struct rootfs *fs);

/*
 * Resolve a machine path, following links inside the root. With
 * follow_last false the last component is left as is (lstat semantics).
 * Writes the resolved machine path (always absolute, normalised) to out.
 * A path that does not exist still resolves as far as it can: the missing
 * tail is appended unchanged, so callers get ENOENT from the next call.
 */
int rootfs_resolve(const struct rootfs *fs, const char *path, bool follow_last,
		   char *out, size_t outsz, struct error *err);

/*
 * The host path of a machine path, for what leaves this process (a library
 * to dlopen, a program to run): the root's directory joined to the resolved
 * path. Nothing read through the rootfs itself uses it.
 */
int rootfs_host_path(const struct rootfs *fs, const char *path, bool follow_last,
		     char *out, size_t outsz, struct error *err);

int rootfs_stat(const struct rootfs *fs, const char *path, struct stat *st);
int rootfs_lstat(const struct rootfs *fs, const char *path, struct stat *st);
bool rootfs_exists(const struct rootfs *fs, const char *path);
bool rootfs_is_dir(const struct rootfs *fs, const char *path);
/* access(2) for the calling user on the resolved file; -1 with errno. */
int rootfs_access(const struct rootfs *fs, const char *path, int mode);

/* The raw text of a symbolic link (not re-rooted). */
int rootfs_readlink(const struct rootfs *fs, const char *path, char *out, size_t outsz);

/*
 * Open a regular file for reading; the caller closes the descriptor.
 * Anything else (a directory, device, FIFO, socket) fails with EINVAL
 * without being opened.
 */
int rootfs_open(const struct rootfs *fs, const char *path, struct error *err);

/*
 * Read at most max bytes of a regular file into a fresh NUL-terminated
 * buffer the caller frees. *truncated (may be NULL) says whether more was
 * there. On failure err->code holds errno (ENOENT for a missing file,
 * EACCES when refused, EINVAL for a file that is not regular).
 */
int rootfs_read(const struct rootfs *fs, const char *path, size_t max,
		char **out, size_t *len, bool *truncated, struct error *err);

/* Read the first line (without newline) into buf; -1 if unreadable. */
int rootfs_read_line(const struct rootfs *fs, const char *path, char *buf, size_t size);

/* Read a file from offset off into buf; returns bytes read or -1. */
long rootfs_pread(const struct rootfs *fs, const char *path, void *buf, size_t size, long off);

FILE *rootfs_fopen(const struct rootfs *fs, const char *path);
DIR *rootfs_opendir(const struct rootfs *fs, const char *path);

/*
 * How many refusals there were, and the paths: the first ROOTFS_DENIED_KEPT
 * distinct ones, and the newest. A probe notes the count before it runs and
 * asks for the newest afterwards.
 */
unsigned rootfs_denied_count(const struct rootfs *fs);
unsigned rootfs_denied_kept(const struct rootfs *fs);
const char *rootfs_denied_path(const struct rootfs *fs, unsigned i);	/* i < kept; "" otherwise */
const char *rootfs_denied_last(const struct rootfs *fs);

#endif
