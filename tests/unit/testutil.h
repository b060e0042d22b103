/*
 * testutil.h - shared helpers for the cmocka unit tests: build a throw-away
 * directory tree (files, directories, symbolic links) and remove it again.
 *
 * Header-only; every function is static inline so a test that uses only a
 * few of them builds without unused-function warnings. Helpers abort the
 * test (via cmocka's assert macros) when the file system refuses, so a
 * test never runs against a half-built tree.
 */
#ifndef GD_TESTS_TESTUTIL_H
#define GD_TESTS_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define TU_PATH 4096

/* Create a fresh directory under $TMPDIR (or /tmp); buf gets its path. */
static inline void tu_mkdtemp(char *buf, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	assert_true(snprintf(buf, size, "%s/gdunit.XXXXXX", tmp) < (int)size);
	assert_non_null(mkdtemp(buf));
}

static inline void tu_path(char *out, const char *root, const char *rel)
{
	while (*rel == '/')
		rel++;
	assert_true(snprintf(out, TU_PATH, "%s/%s", root, rel) < TU_PATH);
}

/* mkdir -p root/rel */
static inline void tu_mkdir(const char *root, const char *rel)
{
	char p[TU_PATH];

	tu_path(p, root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) != 0)
			assert_int_equal(errno, EEXIST);
		*s = '/';
	}
	if (mkdir(p, 0755) != 0)
		assert_int_equal(errno, EEXIST);
}

/* Make the parent directories of root/rel. */
static inline void tu_mkparent(const char *root, const char *rel)
{
	char r[TU_PATH], *slash;

	while (*rel == '/')
		rel++;
	assert_true(snprintf(r, sizeof(r), "%s", rel) < (int)sizeof(r));
	slash = strrchr(r, '/');
	if (slash) {
		*slash = '\0';
		tu_mkdir(root, r);
	}
}

/* Write len bytes to root/rel, creating parent directories. */
static inline void tu_write_bytes(const char *root, const char *rel, const void *data, size_t len)
{
	char p[TU_PATH];
	FILE *fp;

	tu_mkparent(root, rel);
	tu_path(p, root, rel);
	fp = fopen(p, "wb");
	assert_non_null(fp);
	if (len)
		assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static inline void tu_write(const char *root, const char *rel, const char *text)
{
	tu_write_bytes(root, rel, text, strlen(text));
}

/* Create root/rel as a symbolic link whose text is target (verbatim). */
static inline void tu_symlink(const char *root, const char *rel, const char *target)
{
	char p[TU_PATH];

	tu_mkparent(root, rel);
	tu_path(p, root, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* rm -rf path, never following symbolic links. */
static inline void tu_rmrf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			char child[TU_PATH];

			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			if (snprintf(child, sizeof(child), "%s/%s", path, de->d_name) < (int)sizeof(child))
				tu_rmrf(child);
		}
		closedir(d);
	}
	rmdir(path);
}

#endif
