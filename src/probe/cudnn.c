/*
 * cudnn.c - cuDNN headers and libraries, and the version each declares.
 *
 * Headers say what a build compiles against, libraries what a program
 * loads; when the two disagree, builds succeed and programs fail at run time.
 */
#include <string.h>

#include "probe/loader.h"
#include "probe/probe_internal.h"
#include "util/str.h"

#define HEADER_MAX_LINES 400

static int header_version(const struct rootfs *fs, const char *path, char *out, size_t outsz)
{
	FILE *fp = rootfs_fopen(fs, path);
	char line[512];
	long major = -1, minor = -1, patch = -1;
	int lines = 0;

	if (!fp)
		return -1;
	while (lines++ < HEADER_MAX_LINES && fgets(line, sizeof(line), fp)) {
		static const char *const keys[] = { "#define CUDNN_MAJOR", "#define CUDNN_MINOR",
						    "#define CUDNN_PATCHLEVEL" };
		long *vals[] = { &major, &minor, &patch };

		for (int k = 0; k < 3; k++) {
			uint64_t v;
			char *p = line + strlen(keys[k]);

			if (!str_starts_with(line, keys[k]) || !char_is_space((unsigned char)*p))
				continue;
			p[strcspn(p, "/")] = '\0';
			if (str_to_u64(p, &v) == 0 && v < 100000)
				*vals[k] = (long)v;
		}
		if (major >= 0 && minor >= 0 && patch >= 0)
			break;
	}
	fclose(fp);
	if (major < 0 || minor < 0)
		return -1;
	return str_printf(out, outsz, "%ld.%ld.%ld", major, minor, patch < 0 ? 0 : patch);
}

static bool have_item(const struct cudnn_facts *c, enum cudnn_kind kind, const char *path)
{
	for (int i = 0; i < c->count; i++)
		if (c->items[i].kind == kind && strcmp(c->items[i].path, path) == 0)
			return true;
	return false;
}

static void add_item(struct cudnn_facts *c, enum cudnn_kind kind, const char *path,
		     const char *version, const char *where)
{
	struct cudnn_item *it;

	if (have_item(c, kind, path))
		return;
	if (c->count >= MAX_CUDNN) {
		c->dropped++;
		return;
	}
	it = &c->items[c->count++];
	it->kind = kind;
	str_copy(it->path, sizeof(it->path), path);
	str_copy(it->version, sizeof(it->version), version);
	str_copy(it->where, sizeof(it->where), where);
}

static void find_header(struct cudnn_facts *c, const struct rootfs *fs, const char *dir, const char *where)
{
	static const char *const names[] = { "cudnn_version.h", "cudnn.h" };

	for (size_t i = 0; i < 2; i++) {
		char path[FACT_PATH], real[FACT_PATH], version[FACT_VER];

		if (path_join(path, sizeof(path), dir, names[i]) < 0 ||
		    rootfs_resolve(fs, path, true, real, sizeof(real), NULL) < 0 || !rootfs_exists(fs, real))
			continue;
		if (header_version(fs, real, version, sizeof(version)) == 0) {
			add_item(c, CUDNN_HEADER, real, version, where);
			return;	/* cudnn.h of v8+ only includes cudnn_version.h */
		}
	}
}

struct lib_scan {
	struct cudnn_facts *cudnn;
	const struct rootfs *fs;
	const char *where;
};

static int add_library(const char *path, enum lib_origin origin, void *arg)
{
	struct lib_scan *s = arg;
	char real[FACT_PATH];
	const char *base;

	if (rootfs_resolve(s->fs, path, true, real, sizeof(real), NULL) < 0 || !rootfs_exists(s->fs, real))
		return 0;
	base = path_basename(real);
	if (!str_starts_with(base, "libcudnn.so."))
		base = path_basename(path);	/* a plain file: its own name carries the version */
	if (str_starts_with(base, "libcudnn.so.") && version_is_valid(base + strlen("libcudnn.so.")))
		add_item(s->cudnn, CUDNN_LIBRARY, real, base + strlen("libcudnn.so."),
			 s->where ? s->where : lib_origin_name(origin));
	return 0;
}

static void scan_lib_dir(struct lib_scan *s, const char *dir)
{
	DIR *d = rootfs_opendir(s->fs, dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[FACT_PATH];

		if (str_starts_with(de->d_name, "libcudnn.so.") && path_join(path, sizeof(path), dir, de->d_name) == 0)
			add_library(path, LIB_FROM_DEFAULT_DIR, s);
	}
	closedir(d);
}

/*
 * Headers and libraries from the toolkits, CUDNN_PATH, the system include directories and the loader's
 * search. Needs probe_toolkits done and ctx->loader set. Paths are recorded resolved; versions of
 * libraries come from their file names only; the CUDA major of their build from cudnn_cuda_builds.
 */
void probe_cudnn(struct facts *f, const struct probe_ctx *ctx)
{
	struct cudnn_facts *c = &f->cudnn;
	const struct rootfs *fs = ctx->fs;
	struct lib_scan scan = { c, fs, "toolkit" };
	static const char *const sys_includes[] = { "/usr/include", "/usr/include/x86_64-linux-gnu",
						    "/usr/include/aarch64-linux-gnu", "/usr/local/include" };
	const char *cudnn_path = facts_env(f, "CUDNN_PATH");

	for (int i = 0; i < f->toolkits.count; i++) {
		const struct toolkit *tk = &f->toolkits.items[i];
		char dir[FACT_PATH];
		static const char *const inc[] = { "include", "targets/x86_64-linux/include",
						   "targets/sbsa-linux/include" };
		static const char *const lib[] = { "lib64", "lib", "targets/x86_64-linux/lib",
						   "targets/sbsa-linux/lib" };

		if (!tk->exists)
			continue;
		for (size_t j = 0; j < 3; j++)
			if (path_join(dir, sizeof(dir), tk->real_path, inc[j]) == 0)
				find_header(c, fs, dir, "toolkit");
		for (size_t j = 0; j < 4; j++)
			if (path_join(dir, sizeof(dir), tk->real_path, lib[j]) == 0)
				scan_lib_dir(&scan, dir);
	}
	if (cudnn_path && cudnn_path[0] == '/') {
		char dir[FACT_PATH];

		scan.where = "CUDNN_PATH";
		path_join(dir, sizeof(dir), cudnn_path, "include");
		find_header(c, fs, dir, "CUDNN_PATH");
		path_join(dir, sizeof(dir), cudnn_path, "lib");
		scan_lib_dir(&scan, dir);
		path_join(dir, sizeof(dir), cudnn_path, "lib64");
		scan_lib_dir(&scan, dir);
	}
	for (size_t i = 0; i < sizeof(sys_includes) / sizeof(sys_includes[0]); i++)
		find_header(c, fs, sys_includes[i], "system");
	scan.where = NULL;
	loader_scan_prefix(ctx->loader, "libcudnn.so.", add_library, &scan);
	cudnn_cuda_builds(c, fs);
	if (c->count == 0)
		fact_status_set(&c->status, FACT_ABSENT, "no cuDNN header or library found");
	else
		c->status.state = FACT_OK;
	facts_dropped(f, "cuDNN headers and libraries", MAX_CUDNN, c->dropped);
}
