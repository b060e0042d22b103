#include "probe/interpreter.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/str.h"

/* The first directory of path_var holding a regular file called name, joined to it in out. */
static int find_on_path(const struct rootfs *fs, const char *name, const char *path_var, char *out, size_t outsz)
{
	const char *dir = path_var;

	while (dir && *dir) {
		size_t len = strcspn(dir, ":");
		struct stat st;

		/* an empty or relative entry would depend on the working directory of whoever runs it: skipped */
		if (dir[0] == '/' && str_printf(out, outsz, "%.*s/%s", (int)len, dir, name) == 0 &&
		    rootfs_stat(fs, out, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
		dir += len;
		if (*dir == ':')
			dir++;
	}
	return -1;
}

/* See interpreter.h: the checks on a path already found. */
static int check(const struct rootfs *fs, const char *path, struct error *err)
{
	struct stat st;
	struct error open_err;
	unsigned char head[4];
	ssize_t n;
	int fd;

	if (rootfs_stat(fs, path, &st) < 0) {
		int e = errno;

		if (e == ENOENT && rootfs_lstat(fs, path, &st) == 0 && S_ISLNK(st.st_mode))
			return error_set(err, "a symbolic link to something that does not exist");
		if (e == ENOENT || e == ENOTDIR)
			return error_set(err, "no such file");
		return error_errno(err, e, "cannot look it up");
	}
	if (S_ISDIR(st.st_mode))
		return error_set(err, "a directory");
	if (!S_ISREG(st.st_mode))
		return error_set(err, "not a regular file");
	if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return error_set(err, "not executable (no execute permission)");
	if ((fd = rootfs_open(fs, path, &open_err)) < 0) {
		if (open_err.code == EACCES || open_err.code == EPERM)
			return 0;	/* executable but unreadable here: cannot be told, so not refused */
		return error_errno(err, open_err.code ? open_err.code : EIO, "cannot read it");
	}
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n >= 4 && memcmp(head, "\177ELF", 4) == 0)
		return 0;
	if (n >= 2 && memcmp(head, "#!", 2) == 0)
		return 0;
	return error_set(err, "neither an ELF executable nor a #! script");
}

/* See interpreter.h. */
int interpreter_find(const struct rootfs *fs, const char *name, const char *path_var, const char *cwd,
		     char *out, size_t outsz, struct error *err)
{
	if (err)
		err->code = 0;
	if (!name[0])
		return error_set(err, "an empty name");
	if (!strchr(name, '/')) {
		if (find_on_path(fs, name, path_var, out, outsz) < 0)
			return error_set(err, "not found in any directory of PATH");
	} else if (name[0] != '/' && cwd) {
		if (str_printf(out, outsz, "%s/%s", cwd, name) < 0)
			return error_set(err, "the path is too long");
	} else if (str_copy(out, outsz, name) < 0) {
		return error_set(err, "the path is too long");
	}
	return check(fs, out, err);
}
