/* O_PATH, and readlinkat on an O_PATH descriptor, are Linux. */
#define _GNU_SOURCE

#include "util/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/str.h"

/* Linux's own limit on links followed while resolving one path. */
#define MAX_LINK_HOPS 40
/* Directory levels below the root one walk may hold open. */
#define MAX_DEPTH 128

/*
 * See rootfs.h. A directory that resolves to "/" gives a live rootfs. On failure err says why and fs
 * holds no descriptor (rootfs_release is still safe); no refusal log is attached either way.
 */
int rootfs_init(struct rootfs *fs, const char *dir, struct error *err)
{
	struct stat st;
	size_t len;

	memset(fs, 0, sizeof(*fs));
	fs->dirfd = -1;
	if (!dir || !*dir || strcmp(dir, "/") == 0)
		goto live;
	if (stat(dir, &st) != 0)
		return error_errno(err, errno, "cannot use root '%.200s'", dir);
	if (!S_ISDIR(st.st_mode))
		return error_set(err, "root '%.200s' is not a directory", dir);
	/* fs->dir is PATH_MAX long, which is what realpath may write. */
	if (!realpath(dir, fs->dir))
		return error_errno(err, errno, "cannot resolve root '%.200s'", dir);
	len = strlen(fs->dir);
	while (len > 1 && fs->dir[len - 1] == '/')
		fs->dir[--len] = '\0';
	if (strcmp(fs->dir, "/") == 0)
		goto live;
	fs->dirfd = open(fs->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fs->dirfd < 0)
		return error_errno(err, errno, "cannot open root '%.200s'", dir);
	return 0;
live:
	fs->live = true;
	fs->dir[0] = '\0';
	fs->dirfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fs->dirfd < 0)
		return error_errno(err, errno, "cannot open '/'");
	return 0;
}

/* Close the root's descriptor; idempotent. Does not touch the refusal log, which the caller owns. */
void rootfs_release(struct rootfs *fs)
{
	if (fs->dirfd >= 0)
		close(fs->dirfd);
	fs->dirfd = -1;
}

static bool refused(int e)
{
	return e == EACCES || e == EPERM;
}

/* Log a refusal of path (a machine path) and return -1 with errno kept. */
static int note_refusal(const struct rootfs *fs, const char *path, int e)
{
	struct rootfs_denials *d = fs->denied;

	if (d && refused(e)) {
		/* every refusal counts (a probe asks whether any happened while it ran); paths are kept once */
		bool seen = false;

		for (unsigned i = 0; i < d->kept; i++)
			seen |= strcmp(d->paths[i], path) == 0;
		if (!seen && d->kept < ROOTFS_DENIED_KEPT)
			str_copy(d->paths[d->kept++], sizeof(d->paths[0]), path);
		str_copy(d->last, sizeof(d->last), path);
		d->count++;
	}
	errno = e;
	return -1;
}

/* Refusals logged so far; 0 when no log is attached. */
unsigned rootfs_denied_count(const struct rootfs *fs)
{
	return fs->denied ? fs->denied->count : 0;
}

/* Distinct refused paths kept (at most ROOTFS_DENIED_KEPT); 0 when no log is attached. */
unsigned rootfs_denied_kept(const struct rootfs *fs)
{
	return fs->denied ? fs->denied->kept : 0;
}

/* The i-th kept refused path, borrowed from the log; "" past the end or without a log, never NULL. */
const char *rootfs_denied_path(const struct rootfs *fs, unsigned i)
{
	return fs->denied && i < fs->denied->kept ? fs->denied->paths[i] : "";
}

/* The newest refused path, borrowed from the log; "" when none or without a log, never NULL. */
const char *rootfs_denied_last(const struct rootfs *fs)
{
	return fs->denied ? fs->denied->last : "";
}

/* Drop the last component of an absolute normalised path, keeping "/". */
static void pop_component(char *cur)
{
	char *slash = strrchr(cur, '/');

	if (slash == cur)
		cur[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/*
 * One walk down from the root. fds[0] is the root (borrowed); fds[1..depth]
 * are O_PATH descriptors of the directories of cur, the resolved machine
 * path so far, which is absolute, normalised and free of links.
 */
struct walk {
	int fds[MAX_DEPTH + 1];
	int depth;
	char cur[ROOTFS_PATH_MAX];
};

/* cur + "/" + comp, cur being absolute and normalised. */
static int append_component(char *cur, size_t cursz, const char *comp)
{
	size_t n = strlen(cur);

	return str_printf(cur + n, cursz - n, "%s%s", n > 1 ? "/" : "", comp);
}

static void walk_pop(struct walk *w)
{
	if (w->depth > 0)
		close(w->fds[w->depth--]);
	pop_component(w->cur);
}

static void walk_release(struct walk *w)
{
	while (w->depth > 0)
		close(w->fds[w->depth--]);
}

/*
 * Resolve path in the root. Each component is opened with openat(O_PATH |
 * O_NOFOLLOW) from its parent's descriptor; a link is read from its own
 * descriptor and its target spliced in front of what is left (an absolute
 * target restarts at the root, ".." stops there). The path is never handed
 * to the kernel as a whole, so a link swapped in mid-walk is read and
 * re-rooted like any other.
 *
 * On success returns an O_PATH descriptor of the final object (the link
 * itself when follow_last is false) that the caller closes, with w->cur its
 * machine path. With keep_missing, a component that does not exist ends the
 * walk with success, -2 instead of a descriptor, and the missing tail
 * appended to w->cur. Otherwise -1 with errno set.
 */
static int walk_path(const struct rootfs *fs, struct walk *w, const char *path, bool follow_last, bool keep_missing)
{
	char todo[ROOTFS_PATH_MAX * 2];
	int hops = 0, virtual = 0, e;

	w->fds[0] = fs->dirfd;
	w->depth = 0;
	str_copy(w->cur, sizeof(w->cur), "/");
	if (str_copy(todo, sizeof(todo), path) < 0)
		return errno = ENAMETOOLONG, -1;
	for (;;) {
		char comp[NAME_MAX + 1];
		char *p = todo, *end;
		size_t clen;
		struct stat st;
		bool last;
		int fd;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		clen = end ? (size_t)(end - p) : strlen(p);
		if (clen > NAME_MAX) {
			e = ENAMETOOLONG;
			goto fail;
		}
		memcpy(comp, p, clen);
		comp[clen] = '\0';
		memmove(todo, p + clen, strlen(p + clen) + 1);
		last = todo[strspn(todo, "/")] == '\0';
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0 && virtual > 0) {
			pop_component(w->cur);
			virtual--;
			continue;
		}
		if (strcmp(comp, "..") == 0) {
			walk_pop(w);
			continue;
		}
		if (virtual > 0) {
			if (append_component(w->cur, sizeof(w->cur), comp) < 0) {
				e = ENAMETOOLONG;
				goto fail;
			}
			virtual++;
			continue;
		}
		fd = openat(w->fds[w->depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			if (refused(e)) {
				char where[ROOTFS_PATH_MAX];

				path_join(where, sizeof(where), w->cur, comp);
				note_refusal(fs, where, e);
			}
			if (keep_missing && (e == ENOENT || e == ENOTDIR || refused(e))) {
				/* the rest is walked as text only, until ".." climbs back */
				if (append_component(w->cur, sizeof(w->cur), comp) < 0) {
					e = ENAMETOOLONG;
					goto fail;
				}
				virtual++;
				continue;
			}
			goto fail;
		}
		if (fstat(fd, &st) != 0) {
			e = errno;
			close(fd);
			goto fail;
		}
		if (S_ISLNK(st.st_mode) && (!last || follow_last)) {
			char target[ROOTFS_PATH_MAX], rest[ROOTFS_PATH_MAX * 2];
			ssize_t n;

			n = ++hops > MAX_LINK_HOPS ? (errno = ELOOP, -1) : readlinkat(fd, "", target, sizeof(target) - 1);
			e = errno;
			close(fd);
			if (n < 0)
				goto fail;
			target[n] = '\0';
			str_copy(rest, sizeof(rest), todo);
			if (str_printf(todo, sizeof(todo), "%s/%s", target, rest) < 0) {
				e = ENAMETOOLONG;
				goto fail;
			}
			if (target[0] == '/')
				while (w->depth > 0 || strcmp(w->cur, "/") != 0)
					walk_pop(w);
			continue;
		}
		if (w->depth == MAX_DEPTH) {
			close(fd);
			e = ENAMETOOLONG;
			goto fail;
		}
		if (append_component(w->cur, sizeof(w->cur), comp) < 0) {
			close(fd);
			e = ENAMETOOLONG;
			goto fail;
		}
		w->fds[++w->depth] = fd;
	}
	if (virtual > 0) {
		walk_release(w);
		return -2;
	}
	if (w->depth == 0)
		return fcntl(fs->dirfd, F_DUPFD_CLOEXEC, 0);
	{
		int fd = w->fds[w->depth--];

		walk_release(w);
		return fd;
	}
fail:
	walk_release(w);
	errno = e;
	return -1;
}

/* An O_PATH descriptor of a machine path, or -1 with errno. */
static int open_path(const struct rootfs *fs, const char *path, bool follow_last)
{
	struct walk w;
	int fd;

	if (fs->live) {
		/* The kernel resolves links itself on the live machine. */
		fd = open(path, O_PATH | O_CLOEXEC | (follow_last ? 0 : O_NOFOLLOW));
		return fd < 0 ? note_refusal(fs, path, errno) : fd;
	}
	return walk_path(fs, &w, path, follow_last, false);
}

/*
 * See rootfs.h. Walks the root's descriptor even on a live rootfs. A component that is refused is treated
 * like a missing one (resolved as text, and logged); only a link loop, a name too long or an unexpected
 * error fails.
 */
int rootfs_resolve(const struct rootfs *fs, const char *path, bool follow_last,
		   char *out, size_t outsz, struct error *err)
{
	struct walk w;
	int fd = walk_path(fs, &w, path, follow_last, true);

	if (fd == -1) {
		if (errno == ELOOP)
			return error_errno(err, ELOOP, "cannot resolve '%.64s'", path);
		if (errno == ENAMETOOLONG)
			return error_set(err, "path too long: '%.64s...'", path);
		return error_errno(err, errno, "cannot resolve '%.64s'", path);
	}
	if (fd >= 0)
		close(fd);
	if (str_copy(out, outsz, w.cur) < 0)
		return error_set(err, "path too long: '%.64s...'", path);
	return 0;
}

/*
 * See rootfs.h. Live, path is copied as given, not resolved or normalised; rooted, a missing tail still
 * yields a host path. Nothing is read or opened for reading.
 */
int rootfs_host_path(const struct rootfs *fs, const char *path, bool follow_last,
		     char *out, size_t outsz, struct error *err)
{
	char resolved[ROOTFS_PATH_MAX];

	if (fs->live) {
		/* The kernel resolves links itself; keep the caller's path. */
		if (str_copy(out, outsz, path) < 0)
			return error_set(err, "path too long: '%.64s...'", path);
		return 0;
	}
	if (rootfs_resolve(fs, path, follow_last, resolved, sizeof(resolved), err) < 0)
		return -1;
	if (str_printf(out, outsz, "%s%s", fs->dir, resolved) < 0)
		return error_set(err, "path too long: '%.64s...'", path);
	return 0;
}

static int stat_path(const struct rootfs *fs, const char *path, bool follow_last, struct stat *st)
{
	int fd, r, e;

	if (fs->live) {
		/* one system call: nothing to keep inside on the live machine */
		r = follow_last ? stat(path, st) : lstat(path, st);
		return r < 0 ? note_refusal(fs, path, errno) : 0;
	}
	if ((fd = open_path(fs, path, follow_last)) < 0)
		return -1;
	r = fstat(fd, st);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

/* stat(2) inside the root, following a final link; -1 with errno, a refusal logged. */
int rootfs_stat(const struct rootfs *fs, const char *path, struct stat *st)
{
	return stat_path(fs, path, true, st);
}

/* lstat(2) inside the root: a final link is described, not followed; -1 with errno, a refusal logged. */
int rootfs_lstat(const struct rootfs *fs, const char *path, struct stat *st)
{
	return stat_path(fs, path, false, st);
}

/* True when the path (a final link followed) can be stat'ed; a refused or dangling path reads as absent. */
bool rootfs_exists(const struct rootfs *fs, const char *path)
{
	struct stat st;

	return rootfs_stat(fs, path, &st) == 0;
}

/* True when the path (a final link followed) is a directory that can be stat'ed. */
bool rootfs_is_dir(const struct rootfs *fs, const char *path)
{
	struct stat st;

	return rootfs_stat(fs, path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* /proc/self/fd/N names the object an O_PATH descriptor holds, without a path walk. */
static void fd_link(int fd, char *out, size_t outsz)
{
	snprintf(out, outsz, "/proc/self/fd/%d", fd);
}

/*
 * Checks the object the walk found through /proc/self/fd, so the host's /proc must be mounted; the
 * check is made for the real user, as access(2) does.
 */
int rootfs_access(const struct rootfs *fs, const char *path, int mode)
{
	char link[64];
	int fd = open_path(fs, path, true), r, e;

	if (fd < 0)
		return -1;
	fd_link(fd, link, sizeof(link));
	r = access(link, mode);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

/*
 * See rootfs.h. -1 when path is not a link, outsz is 0, or the target does not fit (ENAMETOOLONG: a cut
 * target would name another file); out is always terminated on success.
 */
int rootfs_readlink(const struct rootfs *fs, const char *path, char *out, size_t outsz)
{
	int fd;
	ssize_t n;

	if (outsz == 0 || (fd = open_path(fs, path, false)) < 0)
		return -1;
	n = readlinkat(fd, "", out, outsz);
	close(fd);
	if (n < 0)
		return -1;
	if ((size_t)n >= outsz)
		return errno = ENAMETOOLONG, -1;
	out[n] = '\0';
	return 0;
}

/*
 * See rootfs.h: a regular file only, opened O_NONBLOCK; the caller closes the descriptor. Refusal is
 * logged; err (may be NULL) carries the errno.
 */
int rootfs_open(const struct rootfs *fs, const char *path, struct error *err)
{
	char link[64];
	struct stat st;
	int pfd = open_path(fs, path, true), fd, e;

	if (pfd < 0)
		return error_errno(err, errno, "cannot open '%s'", path);
	if (fstat(pfd, &st) != 0) {
		e = errno;
		close(pfd);
		return error_errno(err, e, "cannot stat '%s'", path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(pfd);
		return error_errno(err, S_ISDIR(st.st_mode) ? EISDIR : EINVAL, "'%s' is not a regular file", path);
	}
	/* Reopen the very inode the walk found; it was checked to be a regular file. */
	fd_link(pfd, link, sizeof(link));
	fd = open(link, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	e = errno;
	close(pfd);
	if (fd < 0) {
		note_refusal(fs, path, e);
		return error_errno(err, e, "cannot open '%s'", path);
	}
	return fd;
}

/*
 * See rootfs.h. Reads max + 1 bytes to tell "exactly max" from "more"; *out is set only on success, and
 * len may be NULL. Never blocks on a FIFO or device: those are refused unopened.
 */
int rootfs_read(const struct rootfs *fs, const char *path, size_t max,
		char **out, size_t *len, bool *truncated, struct error *err)
{
	size_t cap = 4096, used = 0;
	char *buf;
	int fd;

	fd = rootfs_open(fs, path, err);
	if (fd < 0)
		return -1;
	if (cap > max + 1)
		cap = max + 1;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return error_errno(err, ENOMEM, "cannot read '%s'", path);
	}
	/* Read one byte past max so we can tell "exactly max" from "more". */
	for (;;) {
		ssize_t n;

		if (used == cap) {
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb;

			if (ncap <= cap)
				break;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				close(fd);
				return error_errno(err, ENOMEM, "cannot read '%s'", path);
			}
			buf = nb;
			cap = ncap;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			note_refusal(fs, path, e);
			return error_errno(err, e, "cannot read '%s'", path);
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	if (truncated)
		*truncated = used > max;
	if (used > max)
		used = max;
	if (used == cap) {
		char *nb = realloc(buf, used + 1);

		if (!nb) {
			free(buf);
			return error_errno(err, ENOMEM, "cannot read '%s'", path);
		}
		buf = nb;
	}
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return 0;
}

/*
 * The first size - 1 bytes of the file, cut at the first newline, into buf. A longer first line is
 * truncated silently; an empty file gives "". No error detail is kept: -1 only says unreadable.
 */
int rootfs_read_line(const struct rootfs *fs, const char *path, char *buf, size_t size)
{
	char *data;
	size_t len;

	if (size == 0 || rootfs_read(fs, path, size - 1, &data, &len, NULL, NULL) < 0)
		return -1;
	data[strcspn(data, "\n")] = '\0';
	str_copy(buf, size, data);
	free(data);
	return 0;
}

/* One pread(2) of a regular file, opened and closed per call; a short count is not retried. -1 on error. */
long rootfs_pread(const struct rootfs *fs, const char *path, void *buf, size_t size, long off)
{
	ssize_t n;
	int fd;

	if (off < 0 || (fd = rootfs_open(fs, path, NULL)) < 0)
		return -1;
	n = pread(fd, buf, size, off);
	close(fd);
	return n;
}

/* A regular file as a read-only stream the caller fcloses; NULL on failure (refusals logged). */
FILE *rootfs_fopen(const struct rootfs *fs, const char *path)
{
	int fd = rootfs_open(fs, path, NULL);
	FILE *fp;

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "r");
	if (!fp)
		close(fd);
	return fp;
}

/*
 * A directory stream the caller closes with closedir; NULL on failure, refusals logged. Rooted, the
 * directory is the very one the walk resolved inside the root.
 */
DIR *rootfs_opendir(const struct rootfs *fs, const char *path)
{
	int pfd, fd, e;
	DIR *d;

	if (fs->live) {
		d = opendir(path);
		if (!d)
			note_refusal(fs, path, errno);
		return d;
	}
	if ((pfd = open_path(fs, path, true)) < 0)
		return NULL;
	fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	e = errno;
	close(pfd);
	if (fd < 0) {
		note_refusal(fs, path, e);
		return NULL;
	}
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}
