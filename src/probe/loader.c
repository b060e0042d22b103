#include "probe/loader.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/kv.h"
#include "util/str.h"

#define LDCONF_MAX (256 * 1024)
#define LDCONF_DEPTH 4

/* Debian and Fedora multiarch and classic system directories. */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

/* Append dir to dirs (cap entries) once; what does not fit is counted in *dropped. */
static void add_dir(char **dirs, int *n, int cap, const char *dir, int *dropped)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(dirs[i], dir) == 0)
			return;
	if (dir[0] != '/')
		return;
	if (*n >= cap)
		(*dropped)++;
	else if ((dirs[*n] = str_dup(dir)))
		(*n)++;
}

static void read_ldconf(struct loader *ld, const char *path, int depth);

/*
 * "include /etc/ld.so.conf.d/NAME.conf" style globs apply to the file name only. A relative pattern is
 * relative to the directory of the file that names it (glibc's ldconfig.c, parse_conf_include).
 */
static void read_ldconf_include(struct loader *ld, const char *from, const char *pattern, int depth)
{
	char dir[FACT_PATH], full[FACT_PATH], pat[FACT_PATH], from_dir[FACT_PATH];
	const char *base;
	DIR *d;
	struct dirent *de;
	char *names[128];
	int n = 0;

	if (pattern[0] != '/' && path_dirname(from, from_dir, sizeof(from_dir)) == 0)
		str_printf(pat, sizeof(pat), "%s/%s", from_dir, pattern);
	else
		str_copy(pat, sizeof(pat), pattern);
	if (path_dirname(pat, dir, sizeof(dir)) < 0 || !(d = rootfs_opendir(ld->fs, dir)))
		return;
	base = path_basename(pat);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && fnmatch(base, de->d_name, 0) == 0) {
			if (n < (int)(sizeof(names) / sizeof(names[0])))
				names[n++] = str_dup(de->d_name);
			else
				ld->dropped_dirs++;
		}
	closedir(d);
	/* glob(3) sorts, and the order decides which directory wins. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && names[j] && names[j - 1] && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		if (names[i] && path_join(full, sizeof(full), dir, names[i]) == 0)
			read_ldconf(ld, full, depth + 1);
		free(names[i]);
	}
}

static void read_ldconf(struct loader *ld, const char *path, int depth)
{
	char *text = NULL, *cur, *line;

	if (depth > LDCONF_DEPTH || rootfs_read(ld->fs, path, LDCONF_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	cur = text;
	while ((line = line_next(&cur))) {
		line[strcspn(line, "#")] = '\0';
		str_trim(line);
		if (str_starts_with(line, "include") && char_is_space((unsigned char)line[7])) {
			char *save = NULL;

			for (char *p = strtok_r(line + 8, " \t", &save); p; p = strtok_r(NULL, " \t", &save))
				read_ldconf_include(ld, path, p, depth);
		} else if (line[0] == '/') {
			line[strcspn(line, " \t=")] = '\0';	/* drop old "dir=TYPE" hints */
			add_dir(ld->conf_dirs, &ld->nconf, LOADER_MAX_DIRS, line, &ld->dropped_dirs);
		}
	}
	free(text);
}

static void split_list(char **dirs, int *n, int cap, const char *value, const char *seps, int *dropped)
{
	char buf[8192], *save = NULL;

	if (!value)
		return;
	str_copy(buf, sizeof(buf), value);
	for (char *p = strtok_r(buf, seps, &save); p; p = strtok_r(NULL, seps, &save))
		add_dir(dirs, n, cap, p, dropped);
}

/*
 * Always returns 0: a missing or broken ld.so.cache is recorded in ld->cache_status and ld.so.conf stands
 * in. fs is borrowed and must outlive ld. Relative entries, including a bare name in LD_PRELOAD that ld.so
 * itself would search for, are ignored; an unknown arch accepts cache entries of any ABI.
 */
int loader_init(struct loader *ld, const struct rootfs *fs, const char *ld_library_path,
		const char *ld_preload, const char *arch)
{
	struct error err;

	memset(ld, 0, sizeof(*ld));
	ld->fs = fs;
	split_list(ld->env_dirs, &ld->nenv, LOADER_MAX_DIRS, ld_library_path, ":;", &ld->dropped_dirs);
	split_list(ld->preload, &ld->npreload, LOADER_MAX_PRELOAD, ld_preload, ": \t", &ld->dropped_dirs);
	if (arch && strcmp(arch, "x86_64") == 0)
		ld->arch_flags = LDCACHE_FLAG_X8664_LIB64;
	else if (arch && strcmp(arch, "aarch64") == 0)
		ld->arch_flags = LDCACHE_FLAG_AARCH64_LIB64;
	if (ldcache_load(&ld->cache, fs, "/etc/ld.so.cache", &err) == 0) {
		ld->have_cache = true;
		fact_status_set(&ld->cache_status, FACT_OK, "%zu entries", ld->cache.count);
	} else if (err.code == ENOENT) {
		fact_status_set(&ld->cache_status, FACT_ABSENT, "no /etc/ld.so.cache; using ld.so.conf");
	} else {
		fact_status_set(&ld->cache_status, FACT_ERROR, "%s", err.msg);
	}
	read_ldconf(ld, "/etc/ld.so.conf", 0);
	return 0;
}

/* Free the directory lists and the cache, and zero ld; the rootfs stays the caller's. */
void loader_release(struct loader *ld)
{
	for (int i = 0; i < ld->npreload; i++)
		free(ld->preload[i]);
	for (int i = 0; i < ld->nenv; i++)
		free(ld->env_dirs[i]);
	for (int i = 0; i < ld->nconf; i++)
		free(ld->conf_dirs[i]);
	if (ld->have_cache)
		ldcache_release(&ld->cache);
	memset(ld, 0, sizeof(*ld));
}

/* libcuda.so.535.104.05 -> 535.104.05 (only when what follows is a version). */
static void version_from_name(const char *name, const char *stem, char *out, size_t outsz)
{
	const char *v;

	out[0] = '\0';
	if (!str_starts_with(name, stem))
		return;
	v = name + strlen(stem);
	if (version_is_valid(v))
		str_copy(out, outsz, v);
}

/*
 * See loader.h. Never fails: a path that cannot be resolved keeps itself as resolved. The version comes from
 * the resolved file name, only when it follows the soname's stem; a cache entry under /usr/lib/wsl/ is
 * re-labelled LIB_FROM_WSL.
 */
void loader_describe(const struct loader *ld, struct lib_candidate *cand)
{
	char stem[64];
	const char *so = strstr(cand->soname, ".so");

	if (rootfs_resolve(ld->fs, cand->path, true, cand->resolved, sizeof(cand->resolved), NULL) < 0)
		str_copy(cand->resolved, sizeof(cand->resolved), cand->path);
	if (so) {
		str_printf(stem, sizeof(stem), "%.*s.so.", (int)(so - cand->soname), cand->soname);
		/* A plain file named after the soname carries no version. */
		if (strcmp(path_basename(cand->resolved), cand->soname) != 0)
			version_from_name(path_basename(cand->resolved), stem, cand->version, sizeof(cand->version));
	}
	cand->is_stub = strstr(cand->path, "/stubs/") != NULL || strstr(cand->resolved, "/stubs/") != NULL;
	if (cand->origin == LIB_FROM_LDCACHE && str_starts_with(cand->path, "/usr/lib/wsl/"))
		cand->origin = LIB_FROM_WSL;
}

static int find_path(const struct lib_candidate *out, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (strcmp(out[i].path, path) == 0)
			return i;
	return -1;
}

static int add_candidate(const struct loader *ld, struct lib_candidate *out, int n, int max, int *dropped,
			 const char *soname, const char *path, enum lib_origin origin, bool dir_only)
{
	int seen = find_path(out, n, path);

	if (seen >= 0) {
		/*
		 * ld.so falls back to its default directories after the cache, so
		 * a file missing from a stale cache still loads when it sits in
		 * one (/usr/lib/x86_64-linux-gnu is both a conf and a default dir).
		 */
		if (out[seen].in_cache_dir_only && !dir_only) {
			out[seen].in_cache_dir_only = false;
			out[seen].origin = origin;
		}
		return n;
	}
	if (n >= max) {
		(*dropped)++;
		return n;
	}
	memset(&out[n], 0, sizeof(out[n]));
	str_copy(out[n].soname, sizeof(out[n].soname), soname);
	str_copy(out[n].path, sizeof(out[n].path), path);
	out[n].origin = origin;
	out[n].in_cache_dir_only = dir_only;
	loader_describe(ld, &out[n]);
	return n + 1;
}

static int find_in_dirs(const struct loader *ld, char *const *dirs, int ndirs, const char *soname,
			enum lib_origin origin, bool dir_only, struct lib_candidate *out, int n, int max, int *dropped)
{
	for (int i = 0; i < ndirs; i++) {
		char path[FACT_PATH];

		if (path_join(path, sizeof(path), dirs[i], soname) == 0 && rootfs_exists(ld->fs, path))
			n = add_candidate(ld, out, n, max, dropped, soname, path,
					  str_starts_with(path, "/usr/lib/wsl/") ? LIB_FROM_WSL : origin, dir_only);
	}
	return n;
}

static bool arch_ok(const struct loader *ld, int32_t flags)
{
	return !ld->arch_flags || (flags & LDCACHE_FLAG_ARCH_MASK) == ld->arch_flags;
}

/*
 * See loader.h. A preload matches when its file name starts with soname. Each place is checked with
 * rootfs_exists, so a refused directory reads as empty (and is logged as refused).
 */
int loader_find(const struct loader *ld, const char *soname, struct lib_candidate *out, int max, int *dropped)
{
	int n = 0, ignored = 0;

	if (!dropped)
		dropped = &ignored;
	for (int i = 0; i < ld->npreload; i++)
		if (str_starts_with(path_basename(ld->preload[i]), soname) && rootfs_exists(ld->fs, ld->preload[i]))
			n = add_candidate(ld, out, n, max, dropped, soname, ld->preload[i], LIB_FROM_PRELOAD, false);
	n = find_in_dirs(ld, ld->env_dirs, ld->nenv, soname, LIB_FROM_LD_LIBRARY_PATH, false, out, n, max, dropped);
	if (ld->have_cache) {
		for (size_t i = 0; i < ld->cache.count; i++) {
			const struct ldcache_entry *e = &ld->cache.entries[i];

			if (strcmp(e->name, soname) == 0 && arch_ok(ld, e->flags) && rootfs_exists(ld->fs, e->path))
				n = add_candidate(ld, out, n, max, dropped, soname, e->path, LIB_FROM_LDCACHE, false);
		}
		/* What ldconfig would add if it ran now: a stale cache. */
		n = find_in_dirs(ld, ld->conf_dirs, ld->nconf, soname, LIB_FROM_LDCONF, true, out, n, max, dropped);
	} else {
		n = find_in_dirs(ld, ld->conf_dirs, ld->nconf, soname, LIB_FROM_LDCONF, false, out, n, max, dropped);
	}
	n = find_in_dirs(ld, (char *const *)default_dirs, (int)(sizeof(default_dirs) / sizeof(default_dirs[0])),
			 soname, LIB_FROM_DEFAULT_DIR, false, out, n, max, dropped);
	return n;
}

static int scan_dirs(const struct loader *ld, char *const *dirs, int ndirs, const char *prefix,
		     enum lib_origin origin, loader_visit_fn visit, void *arg)
{
	for (int i = 0; i < ndirs; i++) {
		DIR *d = rootfs_opendir(ld->fs, dirs[i]);
		struct dirent *de;
		int stop = 0;

		if (!d)
			continue;
		while (!stop && (de = readdir(d))) {
			char path[FACT_PATH];

			if (str_starts_with(de->d_name, prefix) && path_join(path, sizeof(path), dirs[i], de->d_name) == 0)
				stop = visit(path, origin, arg);
		}
		closedir(d);
		if (stop)
			return 1;
	}
	return 0;
}

/*
 * With a cache, ldconfig has already listed every library of the conf and
 * trusted directories, so only LD_LIBRARY_PATH needs reading: scanning
 * /usr/lib/x86_64-linux-gnu (thousands of entries) again is the slowest
 * thing the doctor could do.
 */
void loader_scan_prefix(const struct loader *ld, const char *prefix, loader_visit_fn visit, void *arg)
{
	if (scan_dirs(ld, ld->env_dirs, ld->nenv, prefix, LIB_FROM_LD_LIBRARY_PATH, visit, arg))
		return;
	if (ld->have_cache) {
		for (size_t i = 0; i < ld->cache.count; i++) {
			const struct ldcache_entry *e = &ld->cache.entries[i];

			if (str_starts_with(e->name, prefix) && arch_ok(ld, e->flags) &&
			    visit(e->path, LIB_FROM_LDCACHE, arg))
				return;
		}
		return;
	}
	if (scan_dirs(ld, ld->conf_dirs, ld->nconf, prefix, LIB_FROM_LDCONF, visit, arg))
		return;
	scan_dirs(ld, (char *const *)default_dirs, (int)(sizeof(default_dirs) / sizeof(default_dirs[0])),
		  prefix, LIB_FROM_DEFAULT_DIR, visit, arg);
}
