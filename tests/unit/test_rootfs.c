/* Unit tests for src/util/rootfs.c, against a temporary directory tree. */
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "util/rootfs.h"
#include "util/str.h"

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
};

/*
 * The tree every test sees (-> marks a symbolic link and its text):
 *
 *   etc/passwd                         "inside\n"
 *   usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05  "ELF"
 *   usr/lib/x86_64-linux-gnu/libcuda.so.1 -> libcuda.so.535.104.05
 *   usr/lib/libcuda.so.1               -> /usr/lib/x86_64-linux-gnu/libcuda.so.1
 *   usr/lib/abs                        -> /etc
 *   lib                                -> usr/lib
 *   escape                             -> ../../../../etc/passwd
 *   deep/a/b/escape                    -> ../../../../../../../etc/passwd
 *   absescape                          -> /../../../etc/passwd
 *   dangling                           -> /does/not/exist
 *   loop1 -> loop2, loop2 -> loop1, self -> self
 *   data/hello                         "hello world"
 *   data/empty                         ""
 *   data/lines                         "first\nsecond\n"
 */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };
	const char *r;

	tu_mkdtemp(fx->dir, sizeof(fx->dir));
	r = fx->dir;
	tu_write(r, "etc/passwd", "inside\n");
	tu_write(r, "usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "ELF");
	tu_symlink(r, "usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
	tu_symlink(r, "usr/lib/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	tu_symlink(r, "usr/lib/abs", "/etc");
	tu_symlink(r, "lib", "usr/lib");
	tu_symlink(r, "escape", "../../../../etc/passwd");
	tu_symlink(r, "deep/a/b/escape", "../../../../../../../etc/passwd");
	tu_symlink(r, "absescape", "/../../../etc/passwd");
	tu_symlink(r, "dangling", "/does/not/exist");
	tu_symlink(r, "loop1", "loop2");
	tu_symlink(r, "loop2", "loop1");
	tu_symlink(r, "self", "self");
	tu_write(r, "data/hello", "hello world");
	tu_write(r, "data/empty", "");
	tu_write(r, "data/lines", "first\nsecond\n");
	assert_int_equal(rootfs_init(&fx->fs, fx->dir, &err), 0);
	assert_false(fx->fs.live);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	rootfs_release(&fx->fs);
	tu_rmrf(fx->dir);
	free(fx);
	return 0;
}

static void resolve_ok(const struct rootfs *fs, const char *path, bool follow, const char *want)
{
	char out[ROOTFS_PATH_MAX];
	struct error err = { 0 };

	if (rootfs_resolve(fs, path, follow, out, sizeof(out), &err) != 0)
		fail_msg("rootfs_resolve(\"%s\") failed: %s", path, err.msg);
	if (strcmp(out, want) != 0)
		fail_msg("rootfs_resolve(\"%s\", follow=%d) = \"%s\", want \"%s\"", path, follow, out, want);
}

static void test_init(void **state)
{
	struct rootfs fs;
	struct error err = { 0 };
	char missing[TU_PATH], file[TU_PATH], slashes[TU_PATH];
	struct fixture *fx = *state;

	tu_path(missing, fx->dir, "no-such-dir");
	assert_int_equal(rootfs_init(&fs, missing, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_non_null(strstr(err.msg, "no-such-dir"));

	tu_path(file, fx->dir, "data/hello");
	assert_int_equal(rootfs_init(&fs, file, &err), -1);
	assert_non_null(strstr(err.msg, "not a directory"));

	tu_path(slashes, fx->dir, "data///");
	assert_int_equal(rootfs_init(&fs, slashes, &err), 0);
	assert_false(fs.live);
	assert_true(str_ends_with(fs.dir, "/data"));
	assert_int_equal(fs.dir[0], '/');

	assert_int_equal(rootfs_init(&fs, NULL, &err), 0);
	assert_true(fs.live);
	assert_int_equal(rootfs_init(&fs, "", &err), 0);
	assert_true(fs.live);
	assert_int_equal(rootfs_init(&fs, "/", &err), 0);
	assert_true(fs.live);
	assert_int_equal(rootfs_init(&fs, "//", &err), 0);
	assert_true(fs.live);	/* realpath gives "/" */
	assert_int_equal(rootfs_init(&fs, missing, NULL), -1);	/* NULL err is fine */
}

static void test_resolve_plain(void **state)
{
	struct fixture *fx = *state;

	resolve_ok(&fx->fs, "/etc/passwd", true, "/etc/passwd");
	resolve_ok(&fx->fs, "etc/passwd", true, "/etc/passwd");
	resolve_ok(&fx->fs, "//etc//./passwd", true, "/etc/passwd");
	resolve_ok(&fx->fs, "/", true, "/");
	resolve_ok(&fx->fs, "", true, "/");
	resolve_ok(&fx->fs, "/data/../etc/passwd", true, "/etc/passwd");
}

static void test_resolve_links(void **state)
{
	struct fixture *fx = *state;

	/* relative link */
	resolve_ok(&fx->fs, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", true,
		   "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
	/* absolute link, re-rooted, then a relative one */
	resolve_ok(&fx->fs, "/usr/lib/libcuda.so.1", true, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
	/* a link as a directory in the middle */
	resolve_ok(&fx->fs, "/lib/x86_64-linux-gnu/libcuda.so.1", true,
		   "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
	resolve_ok(&fx->fs, "/usr/lib/abs/passwd", true, "/etc/passwd");
	/* ".." after a link applies to the link's target (physical walk) */
	resolve_ok(&fx->fs, "/lib/..", true, "/usr");
	/* follow_last false: lstat semantics for the last component only */
	resolve_ok(&fx->fs, "/usr/lib/libcuda.so.1", false, "/usr/lib/libcuda.so.1");
	resolve_ok(&fx->fs, "/lib/x86_64-linux-gnu/libcuda.so.1", false, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	resolve_ok(&fx->fs, "/lib", false, "/lib");
	resolve_ok(&fx->fs, "/lib/", false, "/lib");
}

static void test_resolve_clamped_at_root(void **state)
{
	struct fixture *fx = *state;
	char *text = NULL;
	size_t len = 0;
	struct error err = { 0 };

	resolve_ok(&fx->fs, "/escape", true, "/etc/passwd");
	resolve_ok(&fx->fs, "/deep/a/b/escape", true, "/etc/passwd");
	resolve_ok(&fx->fs, "/absescape", true, "/etc/passwd");
	resolve_ok(&fx->fs, "/../../../../etc/passwd", true, "/etc/passwd");
	resolve_ok(&fx->fs, "/..", true, "/");
	/* and reading through the link gets the root's file, not the host's */
	assert_int_equal(rootfs_read(&fx->fs, "/escape", 4096, &text, &len, NULL, &err), 0);
	assert_string_equal(text, "inside\n");
	free(text);
	assert_int_equal(rootfs_read(&fx->fs, "/deep/a/b/escape", 4096, &text, &len, NULL, &err), 0);
	assert_string_equal(text, "inside\n");
	free(text);
	assert_int_equal(rootfs_read(&fx->fs, "/../../etc/passwd", 4096, &text, &len, NULL, &err), 0);
	assert_string_equal(text, "inside\n");
	free(text);
}

static void test_resolve_loops(void **state)
{
	struct fixture *fx = *state;
	char out[ROOTFS_PATH_MAX];
	struct error err = { 0 };
	struct stat st;

	assert_int_equal(rootfs_resolve(&fx->fs, "/loop1", true, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, ELOOP);
	err.code = 0;
	assert_int_equal(rootfs_resolve(&fx->fs, "/self/x/y", true, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, ELOOP);
	err.code = 0;
	assert_int_equal(rootfs_resolve(&fx->fs, "/loop2/anything", false, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, ELOOP);
	/* not following the last component, the loop is never entered */
	resolve_ok(&fx->fs, "/loop1", false, "/loop1");
	assert_int_equal(rootfs_lstat(&fx->fs, "/loop1", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(rootfs_stat(&fx->fs, "/loop1", &st), -1);
	assert_false(rootfs_exists(&fx->fs, "/loop1"));
	assert_int_equal(rootfs_read(&fx->fs, "/loop1", 100, &(char *){ NULL }, NULL, NULL, &err), -1);
	assert_int_equal(err.code, ELOOP);
}

/* A chain of exactly 40 links resolves (Linux's limit); 41 is a loop. */
static void test_resolve_hop_limit(void **state)
{
	struct fixture *fx = *state;
	char name[64], target[64], out[ROOTFS_PATH_MAX];
	struct error err = { 0 };

	tu_write(fx->dir, "chain/end", "x");
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof(name), "chain/l%d", i);
		if (i == 0)
			snprintf(target, sizeof(target), "end");
		else
			snprintf(target, sizeof(target), "l%d", i - 1);
		tu_symlink(fx->dir, name, target);
	}
	resolve_ok(&fx->fs, "/chain/l39", true, "/chain/end");	/* 40 hops */
	assert_int_equal(rootfs_resolve(&fx->fs, "/chain/l40", true, out, sizeof(out), &err), -1);
	assert_int_equal(err.code, ELOOP);
}

static void test_resolve_missing_tail(void **state)
{
	struct fixture *fx = *state;
	char *text = (char *)"unchanged";
	struct error err = { 0 };

	resolve_ok(&fx->fs, "/usr/lib/nope/deeper/file", true, "/usr/lib/nope/deeper/file");
	resolve_ok(&fx->fs, "/lib/nope", true, "/usr/lib/nope");
	resolve_ok(&fx->fs, "/dangling", true, "/does/not/exist");
	resolve_ok(&fx->fs, "/dangling/more", true, "/does/not/exist/more");
	resolve_ok(&fx->fs, "/nope/../etc/passwd", true, "/etc/passwd");
	assert_int_equal(rootfs_read(&fx->fs, "/dangling", 100, &text, NULL, NULL, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_string_equal(text, "unchanged");	/* *out untouched on failure */
	assert_false(rootfs_exists(&fx->fs, "/usr/lib/nope"));
}

static void test_resolve_too_long(void **state)
{
	struct fixture *fx = *state;
	char path[ROOTFS_PATH_MAX * 3], comp[NAME_MAX + 10], out[ROOTFS_PATH_MAX];
	struct error err = { 0 };

	memset(comp, 'c', sizeof(comp) - 1);
	comp[sizeof(comp) - 1] = '\0';
	snprintf(path, sizeof(path), "/%s", comp);
	assert_int_equal(rootfs_resolve(&fx->fs, path, true, out, sizeof(out), &err), -1);
	path[0] = '\0';
	for (int i = 0; i < ROOTFS_PATH_MAX / 4; i++)
		strcat(path, "/abc");
	strcat(path, "/x");
	assert_int_equal(rootfs_resolve(&fx->fs, path, true, out, sizeof(out), &err), -1);
	/* out too small for the answer */
	assert_int_equal(rootfs_resolve(&fx->fs, "/etc/passwd", true, out, 5, &err), -1);
}

static void test_host_path(void **state)
{
	struct fixture *fx = *state;
	char out[TU_PATH], want[TU_PATH + 128];
	struct rootfs live;
	struct error err = { 0 };

	assert_int_equal(rootfs_host_path(&fx->fs, "/lib/libcuda.so.1", true, out, sizeof(out), &err), 0);
	snprintf(want, sizeof(want), "%s/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", fx->fs.dir);
	assert_string_equal(out, want);
	assert_int_equal(rootfs_init(&live, NULL, &err), 0);
	assert_int_equal(rootfs_host_path(&live, "/lib/../x", true, out, sizeof(out), &err), 0);
	assert_string_equal(out, "/lib/../x");	/* live: the kernel resolves */
}

static void test_read_bounded(void **state)
{
	struct fixture *fx = *state;
	char *text = NULL;
	size_t len = 99;
	bool trunc = false;
	struct error err = { 0 };

	assert_int_equal(rootfs_read(&fx->fs, "/data/hello", 5, &text, &len, &trunc, &err), 0);
	assert_string_equal(text, "hello");
	assert_int_equal(len, 5);
	assert_true(trunc);
	free(text);

	assert_int_equal(rootfs_read(&fx->fs, "/data/hello", 11, &text, &len, &trunc, &err), 0);
	assert_string_equal(text, "hello world");
	assert_int_equal(len, 11);
	assert_false(trunc);	/* exactly max is not truncated */
	free(text);

	assert_int_equal(rootfs_read(&fx->fs, "/data/hello", 10, &text, &len, &trunc, &err), 0);
	assert_string_equal(text, "hello worl");
	assert_true(trunc);
	free(text);

	assert_int_equal(rootfs_read(&fx->fs, "/data/hello", 1 << 20, &text, &len, &trunc, &err), 0);
	assert_string_equal(text, "hello world");
	assert_false(trunc);
	free(text);

	assert_int_equal(rootfs_read(&fx->fs, "/data/hello", 0, &text, &len, &trunc, &err), 0);
	assert_string_equal(text, "");
	assert_int_equal(len, 0);
	assert_true(trunc);
	free(text);

	/* len and truncated may be NULL */
	assert_int_equal(rootfs_read(&fx->fs, "/data/hello", 3, &text, NULL, NULL, NULL), 0);
	assert_string_equal(text, "hel");
	free(text);
}

static void test_read_large(void **state)
{
	struct fixture *fx = *state;
	const size_t size = 300 * 1000 + 7;
	char *big = malloc(size), *text = NULL;
	size_t len = 0;
	bool trunc = true;
	struct error err = { 0 };

	for (size_t i = 0; i < size; i++)
		big[i] = (char)('a' + i % 26);
	tu_write_bytes(fx->dir, "data/big", big, size);
	assert_int_equal(rootfs_read(&fx->fs, "/data/big", 4 << 20, &text, &len, &trunc, &err), 0);
	assert_int_equal(len, size);
	assert_false(trunc);
	assert_memory_equal(text, big, size);
	assert_int_equal(text[size], '\0');
	free(text);
	assert_int_equal(rootfs_read(&fx->fs, "/data/big", 5000, &text, &len, &trunc, &err), 0);
	assert_int_equal(len, 5000);
	assert_true(trunc);
	assert_memory_equal(text, big, 5000);
	assert_int_equal(strlen(text), 5000);
	free(text);
	/* exactly the growth boundaries */
	assert_int_equal(rootfs_read(&fx->fs, "/data/big", 4096, &text, &len, &trunc, &err), 0);
	assert_int_equal(len, 4096);
	assert_true(trunc);
	free(text);
	assert_int_equal(rootfs_read(&fx->fs, "/data/big", size, &text, &len, &trunc, &err), 0);
	assert_int_equal(len, size);
	assert_false(trunc);
	free(text);
	free(big);
}

static void test_read_empty_missing_dir(void **state)
{
	struct fixture *fx = *state;
	char *text = NULL;
	size_t len = 99;
	bool trunc = true;
	struct error err = { 0 };

	assert_int_equal(rootfs_read(&fx->fs, "/data/empty", 100, &text, &len, &trunc, &err), 0);
	assert_string_equal(text, "");
	assert_int_equal(len, 0);
	assert_false(trunc);
	free(text);

	assert_int_equal(rootfs_read(&fx->fs, "/data/missing", 100, &text, &len, &trunc, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_non_null(strstr(err.msg, "/data/missing"));
	assert_non_null(strstr(err.msg, "No such file"));

	err.code = 0;
	assert_int_equal(rootfs_read(&fx->fs, "/data", 100, &text, &len, &trunc, &err), -1);
	assert_int_equal(err.code, EISDIR);

	err.code = 0;
	assert_int_equal(rootfs_read(&fx->fs, "/data/hello/sub", 100, &text, &len, &trunc, &err), -1);
	assert_int_equal(err.code, ENOTDIR);
}

/* A FIFO stand-in must not block a read (O_NONBLOCK) and fopen refuses it. */
static void test_read_fifo_does_not_hang(void **state)
{
	struct fixture *fx = *state;
	char p[TU_PATH], *text = NULL;
	size_t len = 99;
	struct error err = { 0 };

	tu_path(p, fx->dir, "data/fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_null(rootfs_fopen(&fx->fs, "/data/fifo"));
	/* not a regular file: refused without being opened */
	assert_int_equal(rootfs_read(&fx->fs, "/data/fifo", 100, &text, &len, NULL, &err), -1);
	assert_int_equal(err.code, EINVAL);
	assert_null(text);
	assert_int_equal(len, 99);
}

static void test_read_line_and_pread(void **state)
{
	struct fixture *fx = *state;
	char line[64], buf[16], small[4];

	assert_int_equal(rootfs_read_line(&fx->fs, "/data/lines", line, sizeof(line)), 0);
	assert_string_equal(line, "first");
	assert_int_equal(rootfs_read_line(&fx->fs, "/data/lines", small, sizeof(small)), 0);
	assert_string_equal(small, "fir");
	assert_int_equal(rootfs_read_line(&fx->fs, "/data/empty", line, sizeof(line)), 0);
	assert_string_equal(line, "");
	assert_int_equal(rootfs_read_line(&fx->fs, "/data/missing", line, sizeof(line)), -1);
	assert_int_equal(rootfs_read_line(&fx->fs, "/data/lines", line, 0), -1);

	memset(buf, 0, sizeof(buf));
	assert_int_equal(rootfs_pread(&fx->fs, "/data/hello", buf, 5, 6), 5);
	assert_string_equal(buf, "world");
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rootfs_pread(&fx->fs, "/data/hello", buf, sizeof(buf), 8), 3);
	assert_string_equal(buf, "rld");
	assert_int_equal(rootfs_pread(&fx->fs, "/data/hello", buf, sizeof(buf), 11), 0);
	assert_int_equal(rootfs_pread(&fx->fs, "/data/hello", buf, sizeof(buf), 1000), 0);
	assert_int_equal(rootfs_pread(&fx->fs, "/data/missing", buf, sizeof(buf), 0), -1);
	assert_int_equal(rootfs_pread(&fx->fs, "/data/hello", buf, sizeof(buf), -1), -1);
	/* through a link chain */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rootfs_pread(&fx->fs, "/lib/libcuda.so.1", buf, 3, 0), 3);
	assert_string_equal(buf, "ELF");
}

static void test_stat_readlink_dirs(void **state)
{
	struct fixture *fx = *state;
	char out[64], tiny[4];
	struct stat st;
	DIR *d;
	int n = 0;
	struct dirent *de;
	FILE *fp;

	assert_true(rootfs_exists(&fx->fs, "/lib/libcuda.so.1"));
	assert_true(rootfs_is_dir(&fx->fs, "/lib"));
	assert_true(rootfs_is_dir(&fx->fs, "/usr/lib/abs"));
	assert_false(rootfs_is_dir(&fx->fs, "/etc/passwd"));
	assert_int_equal(rootfs_stat(&fx->fs, "/usr/lib/libcuda.so.1", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 3);
	assert_int_equal(rootfs_lstat(&fx->fs, "/usr/lib/libcuda.so.1", &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	assert_int_equal(rootfs_readlink(&fx->fs, "/usr/lib/libcuda.so.1", out, sizeof(out)), 0);
	assert_string_equal(out, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");	/* raw text */
	assert_int_equal(rootfs_readlink(&fx->fs, "/lib/x86_64-linux-gnu/libcuda.so.1", out, sizeof(out)), 0);
	assert_string_equal(out, "libcuda.so.535.104.05");
	/* a target cut short would name another file: refused */
	assert_int_equal(rootfs_readlink(&fx->fs, "/lib/x86_64-linux-gnu/libcuda.so.1", tiny, sizeof(tiny)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_int_equal(rootfs_readlink(&fx->fs, "/etc/passwd", out, sizeof(out)), -1);
	assert_int_equal(rootfs_readlink(&fx->fs, "/usr/lib/libcuda.so.1", out, 0), -1);

	d = rootfs_opendir(&fx->fs, "/lib/x86_64-linux-gnu");
	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	assert_int_equal(n, 2);
	assert_null(rootfs_opendir(&fx->fs, "/nope"));

	fp = rootfs_fopen(&fx->fs, "/escape");
	assert_non_null(fp);
	assert_non_null(fgets(out, sizeof(out), fp));
	assert_string_equal(out, "inside\n");
	fclose(fp);
	assert_null(rootfs_fopen(&fx->fs, "/data"));	/* a directory is refused */
}

static void test_live_rootfs(void **state)
{
	struct fixture *fx = *state;
	struct rootfs live;
	struct error err = { 0 };
	char host[TU_PATH + 128], *text = NULL;
	size_t len;

	assert_int_equal(rootfs_init(&live, "/", &err), 0);
	snprintf(host, sizeof(host), "%s/data/hello", fx->fs.dir);
	assert_int_equal(rootfs_read(&live, host, 100, &text, &len, NULL, &err), 0);
	assert_string_equal(text, "hello world");
	free(text);
	/* live resolution follows the host's links (relative one here) */
	snprintf(host, sizeof(host), "%s/lib/x86_64-linux-gnu/libcuda.so.1", fx->fs.dir);
	{
		char out[ROOTFS_PATH_MAX], want[TU_PATH + 128];

		assert_int_equal(rootfs_resolve(&live, host, true, out, sizeof(out), &err), 0);
		snprintf(want, sizeof(want), "%s/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", fx->fs.dir);
		assert_string_equal(out, want);
	}
	assert_true(rootfs_exists(&live, host));
}

/*
 * A directory of the image swapped for a link to outside it, over and over,
 * while we read through it: the walk opens each component from its parent's
 * descriptor without following links, so no read may ever return what is
 * outside (the old lstat-then-open() read it in about a quarter of runs).
 */
static void test_swap_race(void **state)
{
	struct fixture *fx = *state;
	char outside[TU_PATH], dir[TU_PATH], link[TU_PATH];
	int inside_reads = 0, outside_reads = 0;
	pid_t swapper;

	tu_mkdtemp(outside, sizeof(outside));
	tu_write(outside, "os-release", "SECRET\n");
	tu_write(fx->dir, "swap/os-release", "INSIDE\n");
	tu_path(dir, fx->dir, "swap");
	tu_path(link, fx->dir, "swap-link");
	assert_int_equal(symlink(outside, link), 0);
	swapper = fork();
	assert_true(swapper >= 0);
	if (swapper == 0) {
		for (;;)
			syscall(SYS_renameat2, AT_FDCWD, dir, AT_FDCWD, link, 2 /* RENAME_EXCHANGE */);
	}
	for (int i = 0; i < 4000; i++) {
		char *text = NULL;

		if (rootfs_read(&fx->fs, "/swap/os-release", 100, &text, NULL, NULL, NULL) == 0) {
			inside_reads += strcmp(text, "INSIDE\n") == 0;
			outside_reads += strcmp(text, "SECRET\n") == 0;
			free(text);
		}
	}
	kill(swapper, SIGKILL);
	waitpid(swapper, NULL, 0);
	tu_rmrf(outside);
	assert_int_equal(outside_reads, 0);
	assert_true(inside_reads > 0);	/* the race ran both ways */
}

/* A device node in an image is stat'ed, never opened (opening one can act on the device). */
static void test_device_node_not_opened(void **state)
{
	struct fixture *fx = *state;
	char node[TU_PATH], *text = NULL;
	struct error err = { 0 };
	struct stat st;

	if (geteuid() != 0)
		skip();	/* mknod needs root */
	tu_write(fx->dir, "dev/.keep", "");
	tu_path(node, fx->dir, "dev/zero");
	assert_int_equal(mknod(node, S_IFCHR | 0666, makedev(1, 5)), 0);
	assert_int_equal(rootfs_read(&fx->fs, "/dev/zero", 100, &text, NULL, NULL, &err), -1);
	assert_int_equal(err.code, EINVAL);
	assert_null(rootfs_fopen(&fx->fs, "/dev/zero"));
	assert_int_equal(rootfs_pread(&fx->fs, "/dev/zero", node, 4, 0), -1);
	assert_int_equal(rootfs_stat(&fx->fs, "/dev/zero", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

/* Refusals are logged by path, once each; missing files are not refusals. */
static void check_denials(const char *dir)
{
	struct rootfs_denials log = { 0 };
	struct rootfs fs;
	struct error err = { 0 };
	char *text = NULL;

	assert_int_equal(rootfs_init(&fs, dir, &err), 0);
	fs.denied = &log;
	assert_int_equal(rootfs_read(&fs, "/closed/file", 100, &text, NULL, NULL, &err), -1);
	assert_int_equal(err.code, EACCES);
	assert_int_equal(rootfs_read(&fs, "/unreadable", 100, &text, NULL, NULL, &err), -1);
	assert_int_equal(err.code, EACCES);
	assert_null(rootfs_opendir(&fs, "/closed"));
	assert_int_equal(rootfs_read(&fs, "/closed/file", 100, &text, NULL, NULL, &err), -1);
	assert_int_equal(rootfs_read(&fs, "/missing", 100, &text, NULL, NULL, &err), -1);
	assert_int_equal(err.code, ENOENT);
	/* four refusals (the second read of /closed/file counts: a probe asks whether any happened while it ran) */
	assert_int_equal(rootfs_denied_count(&fs), 4);
	assert_int_equal(rootfs_denied_kept(&fs), 3);
	assert_string_equal(rootfs_denied_path(&fs, 0), "/closed/file");
	assert_string_equal(rootfs_denied_path(&fs, 1), "/unreadable");
	assert_string_equal(rootfs_denied_path(&fs, 2), "/closed");
	assert_string_equal(rootfs_denied_path(&fs, 3), "");	/* beyond what is kept */
	assert_string_equal(rootfs_denied_last(&fs), "/closed/file");
	rootfs_release(&fs);
}

static void test_denials_logged(void **state)
{
	struct fixture *fx = *state;
	char p[TU_PATH];
	pid_t pid;
	int status;

	tu_write(fx->dir, "closed/file", "x");
	tu_write(fx->dir, "unreadable", "x");
	tu_path(p, fx->dir, "unreadable");
	assert_int_equal(chmod(p, 0), 0);
	tu_path(p, fx->dir, "closed");
	assert_int_equal(chmod(p, 0), 0);
	assert_int_equal(chmod(fx->dir, 0755), 0);
	if (geteuid() != 0) {
		check_denials(fx->dir);
	} else {
		/* root reads anything: check as nobody, in a child */
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			if (setgid(65534) != 0 || setuid(65534) != 0)
				_exit(2);
			check_denials(fx->dir);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(chmod(p, 0755), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_plain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_clamped_at_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_hop_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_missing_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_large, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_empty_missing_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_fifo_does_not_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_line_and_pread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stat_readlink_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_rootfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap_race, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_node_not_opened, setup, teardown),
		cmocka_unit_test_setup_teardown(test_denials_logged, setup, teardown),
	};

	return cmocka_run_group_tests_name("rootfs", tests, NULL, NULL);
}
