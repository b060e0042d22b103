/*
 * harness.c - the temporary machine root behind the fuzz harnesses.
 *
 * One root per process, made on first use and removed at exit (libFuzzer
 * leaves through exit(), so atexit runs; after a crash the directory stays
 * in $TMPDIR, which is what one wants when reproducing it).
 */
#define _XOPEN_SOURCE 700	/* nftw */

#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/facts.h"

static char root_dir[PATH_MAX];
static struct rootfs root_fs;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz harness: %s '%s': %s\n", what, path, strerror(errno));
	abort();
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0 && errno != ENOENT)
		die("cannot remove", path);
	return 0;
}

static void remove_tree(const char *host)
{
	if (nftw(host, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
		die("cannot walk", host);
}

static void remove_root(void)
{
	rootfs_release(&root_fs);
	if (root_dir[0])
		remove_tree(root_dir);
}

const struct rootfs *harness_fs(void)
{
	const char *tmp = getenv("TMPDIR");
	struct error err;

	if (root_dir[0])
		return &root_fs;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(root_dir, sizeof(root_dir), "%s/gdfuzz.XXXXXX", tmp) >= (int)sizeof(root_dir)) {
		errno = ENAMETOOLONG;
		die("temporary directory name too long under", tmp);
	}
	if (!mkdtemp(root_dir))
		die("cannot create", root_dir);
	if (rootfs_init(&root_fs, root_dir, &err) < 0) {
		fprintf(stderr, "fuzz harness: %s\n", err.msg);
		abort();
	}
	atexit(remove_root);
	return &root_fs;
}

/* The host path of a machine path: the root's directory joined to it. */
static void host_path(char *out, size_t outsz, const char *path)
{
	harness_fs();
	while (*path == '/')
		path++;
	if (snprintf(out, outsz, "%s/%s", root_dir, path) >= (int)outsz) {
		errno = ENAMETOOLONG;
		die("path too long", path);
	}
}

/*
 * mkdir -p of a host path that lies under root_dir. The deepest directory is
 * tried first: a harness writes into the same few directories every run,
 * and walking down from the root each time cost more than the probe.
 */
static void mkdir_host(char *host)
{
	char *slash;
	int e;

	if (mkdir(host, 0755) == 0 || (e = errno) == EEXIST)
		return;
	slash = strrchr(host, '/');
	if (e != ENOENT || !slash || slash <= host + strlen(root_dir)) {
		errno = e;
		die("cannot create", host);
	}
	*slash = '\0';
	mkdir_host(host);
	*slash = '/';
	if (mkdir(host, 0755) != 0 && errno != EEXIST)
		die("cannot create", host);
}

/* Make the parent directories of a host path. */
static void mkdir_parent(const char *host)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", host);
	slash = strrchr(dir, '/');
	if (slash && slash > dir + strlen(root_dir)) {
		*slash = '\0';
		mkdir_host(dir);
	}
}

void harness_mkdir(const char *path)
{
	char host[PATH_MAX];

	host_path(host, sizeof(host), path);
	mkdir_host(host);
}

void harness_write(const char *path, const void *data, size_t size)
{
	char host[PATH_MAX];
	const char *p = data;
	int fd;

	host_path(host, sizeof(host), path);
	fd = open(host, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT) {
		mkdir_parent(host);
		fd = open(host, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		die("cannot write", host);
	while (size > 0) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("cannot write", host);
		p += n;
		size -= (size_t)n;
	}
	if (close(fd) != 0)
		die("cannot close", host);
}

void harness_symlink(const char *target, const char *path)
{
	char host[PATH_MAX];

	host_path(host, sizeof(host), path);
	mkdir_parent(host);
	if (unlink(host) != 0 && errno != ENOENT)
		die("cannot replace", host);
	if (symlink(target, host) != 0)
		die("cannot link", host);
}

void harness_remove(const char *path)
{
	char host[PATH_MAX];
	struct stat st;

	host_path(host, sizeof(host), path);
	if (lstat(host, &st) == 0)
		remove_tree(host);
}

void harness_run_probes(char *const *extra_env, const harness_probe_fn *probes)
{
	static char home[] = "HOME=/home/u", path[] = "PATH=/usr/bin:/bin", user[] = "USER=u";
	char *env[16] = { home, path, user };
	size_t n = 3;
	struct probe_ctx ctx;
	struct facts *f;

	for (; extra_env && *extra_env && n + 1 < sizeof(env) / sizeof(env[0]); extra_env++)
		env[n++] = *extra_env;
	env[n] = NULL;
	memset(&ctx, 0, sizeof(ctx));
	ctx.fs = harness_fs();
	ctx.envp = env;
	ctx.static_only = true;	/* belt and braces: no probe here calls the driver */
	ctx.fast = true;	/* nor runs an interpreter */
	f = facts_new();
	if (!f) {
		errno = ENOMEM;
		die("cannot allocate", "struct facts");
	}
	snprintf(f->root, sizeof(f->root), "%s", ctx.fs->dir);
	probe_env(f, &ctx);
	for (; *probes; probes++)
		(*probes)(f, &ctx);
	facts_free(f);
}

void harness_make_venv(void)
{
	static const char interpreter[] = "#!/bin/false\n";	/* never run: only its name is read */
	/* The keys `python3 -m venv` writes on Debian 12 (Python 3.11). */
	static const char cfg[] = "home = /usr/bin\n"
				  "include-system-site-packages = false\n"
				  "version = 3.11.2\n"
				  "executable = /usr/bin/python3.11\n"
				  "command = /usr/bin/python3 -m venv " HARNESS_VENV "\n";

	harness_write("/usr/bin/python3.11", interpreter, sizeof(interpreter) - 1);
	harness_write(HARNESS_VENV "/pyvenv.cfg", cfg, sizeof(cfg) - 1);
	harness_symlink("python3.11", "/usr/bin/python3");
	harness_symlink("/usr/bin/python3", HARNESS_VENV "/bin/python3");
	harness_symlink("python3", HARNESS_VENV "/bin/python");
	harness_mkdir(HARNESS_SITE);
}
