#include "util/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/str.h"

/* Linux's own limit on links followed while resolving one path. */
#define MAX_LINK_HOPS 40

int rootfs_init(struct rootfs *fs, const char *dir, struct error *err)
{
	struct stat st;
	size_t len;

	memset(fs, 0, sizeof(*fs));
	if (!dir || !*dir || strcmp(dir, "/") == 0) {
		fs->live = true;
		return 0;
	}
	if (stat(dir, &st) != 0)
		return error_errno(err, errno, "cannot use root '%s'", dir);
	if (!S_ISDIR(st.st_mode))
		return error_set(err, "root '%s' is not a directory", dir);
	if (!realpath(dir, fs->dir))
		return error_errno(err, errno, "cannot resolve root '%s'", dir);
	len = strlen(fs->dir);
	while (len > 1 && fs->dir[len - 1] == '/')
		fs->dir[--len] = '\0';
	if (strcmp(fs->dir, "/") == 0)
		fs->live = true;
	return 0;
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
 * The resolver keeps two strings: cur, the resolved prefix (absolute,
 * normalised, link-free), and todo, what is left to walk. A link's target
 * is spliced in front of todo, which is how relative and absolute targets
 * both end up re-rooted.
 */
int rootfs_resolve(const struct rootfs *fs, const char *path, bool follow_last,
		   char *out, size_t outsz, struct error *err)
{
	char cur[ROOTFS_PATH_MAX] = "/";
	char todo[ROOTFS_PATH_MAX * 2];
	int hops = 0;

	if (str_copy(todo, sizeof(todo), path) < 0)
		return error_set(err, "path too long: '%.64s...'", path);
	for (;;) {
		char comp[NAME_MAX + 1], next[ROOTFS_PATH_MAX], host[ROOTFS_PATH_MAX * 2];
		char *p = todo, *end;
		size_t clen;
		struct stat st;
		bool last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		clen = end ? (size_t)(end - p) : strlen(p);
		if (clen > NAME_MAX)
			return error_set(err, "path component too long in '%.64s'", path);
		memcpy(comp, p, clen);
		comp[clen] = '\0';
		memmove(todo, p + clen, strlen(p + clen) + 1);
		last = todo[strspn(todo, "/")] == '\0';

		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			pop_component(cur);
			continue;
		}
		if (path_join(next, sizeof(next), cur, comp) < 0)
			return error_set(err, "path too long: '%.64s...'", path);
		if (fs->live)
			str_copy(host, sizeof(host), next);
		else
			str_printf(host, sizeof(host), "%s%s", fs->dir, next);
		if ((last && !follow_last) || lstat(host, &st) != 0 || !S_ISLNK(st.st_mode)) {
			/* Not a link, or missing: keep the name and walk on. */
			str_copy(cur, sizeof(cur), next);
			continue;
		}
		{
			char target[ROOTFS_PATH_MAX], rest[ROOTFS_PATH_MAX * 2];
			ssize_t n;

			if (++hops > MAX_LINK_HOPS)
				return error_errno(err, ELOOP, "cannot resolve '%s'", path);
			n = readlink(host, target, sizeof(target) - 1);
			if (n < 0)
				return error_errno(err, errno, "cannot read link '%s'", next);
			target[n] = '\0';
			str_copy(rest, sizeof(rest), todo);
			if (str_printf(todo, sizeof(todo), "%s/%s", target, rest) < 0)
				return error_set(err, "path too long resolving '%.64s'", path);
			if (target[0] == '/')
				str_copy(cur, sizeof(cur), "/");
		}
	}
	if (str_copy(out, outsz, cur) < 0)
		return error_set(err, "path too long: '%.64s...'", path);
	return 0;
}

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

int rootfs_stat(const struct rootfs *fs, const char *path, struct stat *st)
{
	char host[ROOTFS_PATH_MAX * 2];

	if (rootfs_host_path(fs, path, true, host, sizeof(host), NULL) < 0)
		return -1;
	return stat(host, st);
}

int rootfs_lstat(const struct rootfs *fs, const char *path, struct stat *st)
{
	char host[ROOTFS_PATH_MAX * 2];

	if (rootfs_host_path(fs, path, false, host, sizeof(host), NULL) < 0)
		return -1;
	return lstat(host, st);
}

bool rootfs_exists(const struct rootfs *fs, const char *path)
{
	struct stat st;

	return rootfs_stat(fs, path, &st) == 0;
}

bool rootfs_is_dir(const struct rootfs *fs, const char *path)
{
	struct stat st;

	return rootfs_stat(fs, path, &st) == 0 && S_ISDIR(st.st_mode);
}

int rootfs_readlink(const struct rootfs *fs, const char *path, char *out, size_t outsz)
{
	char host[ROOTFS_PATH_MAX * 2];
	ssize_t n;

	if (outsz == 0 || rootfs_host_path(fs, path, false, host, sizeof(host), NULL) < 0)
		return -1;
	n = readlink(host, out, outsz - 1);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

int rootfs_read(const struct rootfs *fs, const char *path, size_t max,
		char **out, size_t *len, bool *truncated, struct error *err)
{
	char host[ROOTFS_PATH_MAX * 2];
	size_t cap = 4096, used = 0;
	char *buf;
	int fd;

	if (rootfs_host_path(fs, path, true, host, sizeof(host), err) < 0)
		return -1;
	fd = open(host, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return error_errno(err, errno, "cannot open '%s'", path);
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

long rootfs_pread(const struct rootfs *fs, const char *path, void *buf, size_t size, long off)
{
	char host[ROOTFS_PATH_MAX * 2];
	ssize_t n;
	int fd;

	if (rootfs_host_path(fs, path, true, host, sizeof(host), NULL) < 0)
		return -1;
	fd = open(host, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	n = pread(fd, buf, size, off);
	close(fd);
	return n;
}

FILE *rootfs_fopen(const struct rootfs *fs, const char *path)
{
	char host[ROOTFS_PATH_MAX * 2];
	struct stat st;

	if (rootfs_host_path(fs, path, true, host, sizeof(host), NULL) < 0)
		return NULL;
	/* Refuse FIFOs and devices: reading one could block forever. */
	if (stat(host, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	return fopen(host, "re");
}

DIR *rootfs_opendir(const struct rootfs *fs, const char *path)
{
	char host[ROOTFS_PATH_MAX * 2];

	if (rootfs_host_path(fs, path, true, host, sizeof(host), NULL) < 0)
		return NULL;
	return opendir(host);
}
