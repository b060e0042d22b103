/*
 * python_path.c - the rest of an interpreter's import path, read the way
 * CPython builds it, without running it: PYTHONPATH's directories come
 * before the standard library and every site directory; each site
 * directory is followed by the directories its .pth files add (Lib/site.py,
 * addsitedir and addpackage): the files in sorted order; in each, lines
 * starting with '#' and blank lines skipped, lines starting "import " or
 * "import\t" executed (here: recorded, never run), any other line, with
 * trailing whitespace removed, joined to the site directory and
 * normalised, appended when it exists and is not on the path already.
 * A torch in any of them is found where the interpreter finds it.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/kv.h"
#include "util/str.h"

#define PTH_MAX (64 * 1024)
#define MAX_PTH_FILES 64

/* See probe_internal.h. */
int path_normalize(const char *base, const char *path, char *out, size_t outsz)
{
	char buf[FACT_PATH * 2], *save = NULL;
	size_t len = 0;

	if (path[0] == '/') {
		if (str_copy(buf, sizeof(buf), path) < 0)
			return -1;
	} else if (!base || base[0] != '/' || str_printf(buf, sizeof(buf), "%s/%s", base, path) < 0) {
		return -1;
	}
	if (outsz < 2)
		return -1;
	out[0] = '\0';
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			char *slash = strrchr(out, '/');

			len = slash ? (size_t)(slash - out) : 0;
			out[len] = '\0';
			continue;
		}
		if (len + 1 + strlen(c) + 1 > outsz)
			return -1;
		out[len++] = '/';
		strcpy(out + len, c);
		len += strlen(c);
	}
	if (len == 0)
		strcpy(out, "/");
	return 0;
}

/* Whether dir is on py's path already (site.py's known_paths): a site directory or one added before. */
static bool on_path(const struct python_env *py, const char *dir, bool sites_too)
{
	for (int i = 0; sites_too && i < py->nsite; i++)
		if (strcmp(py->site_dirs[i], dir) == 0)
			return true;
	for (int i = 0; i < py->npath_dirs; i++)	/* (an import hook's package is not on sys.path) */
		if (py->path_dirs[i].after_site != PATH_AFTER_ALL && strcmp(py->path_dirs[i].dir, dir) == 0)
			return true;
	return false;
}

static void add_dir(struct facts *f, struct python_env *py, const char *dir, const char *pth, int after_site)
{
	struct path_dir *d;

	if (py->npath_dirs >= MAX_PATH_DIRS) {
		facts_dropped(f, "import path directories of an interpreter", MAX_PATH_DIRS, 1);
		return;
	}
	d = &py->path_dirs[py->npath_dirs++];
	str_copy(d->dir, sizeof(d->dir), dir);
	str_copy(d->pth, sizeof(d->pth), pth);
	d->after_site = after_site;
}

/* PYTHONPATH: absolute directories that exist (a relative entry depends on the working directory). */
static void read_pythonpath(struct facts *f, const struct rootfs *fs, struct python_env *py)
{
	const char *value = facts_env(f, "PYTHONPATH");
	char buf[4096], *save = NULL;

	if (!value || str_copy(buf, sizeof(buf), value) < 0)
		return;
	for (char *e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char dir[FACT_PATH];

		if (e[0] == '/' && path_normalize(NULL, e, dir, sizeof(dir)) == 0 && rootfs_is_dir(fs, dir) &&
		    !on_path(py, dir, false))	/* (before any .pth or finder entry is read) */
			add_dir(f, py, dir, "", -1);
	}
}

/*
 * setuptools' editable install of a flat-layout project (PyTorch's) writes "import F; F.install()" into
 * __editable__.NAME-VERSION.pth and F.py beside it with "MAPPING: dict[str, str] = {'torch': '/src/torch'}";
 * install() appends the finder to sys.meta_path, after the path finder: it answers only when no directory
 * on sys.path has the package (setuptools/command/editable_wheel.py, _TopLevelFinder, _FINDER_TEMPLATE).
 */
static void read_editable_finder(struct facts *f, const struct rootfs *fs, struct python_env *py, int s,
				 const char *pth, const char *line)
{
	static const char key[] = "'torch': '";
	char module[96], path[FACT_PATH], dir[FACT_PATH], *text = NULL, *cur, *l;
	size_t n;

	if (!str_starts_with(line, "import __editable__"))
		return;
	n = strcspn(line + 7, "; \t");
	if (n == 0 || n >= sizeof(module) - 3)
		return;
	memcpy(module, line + 7, n);
	strcpy(module + n, ".py");
	if (path_join(path, sizeof(path), py->site_dirs[s], module) < 0 ||
	    rootfs_read(fs, path, PTH_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	cur = text;
	while ((l = line_next(&cur))) {
		char *at = str_starts_with(l, "MAPPING") ? strstr(l, key) : NULL, *end;

		if (!at || !(end = strchr(at + sizeof(key) - 1, '\'')))
			continue;
		*end = '\0';
		if (strcmp(path_basename(at + sizeof(key) - 1), "torch") == 0 &&
		    path_dirname(at + sizeof(key) - 1, dir, sizeof(dir)) == 0 && dir[0] == '/' && rootfs_is_dir(fs, dir))
			add_dir(f, py, dir, pth, PATH_AFTER_ALL);
		break;
	}
	free(text);
}

static bool is_blank(const char *s)
{
	while (*s && char_is_space((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* One .pth file of site directory s, line by line as addpackage reads it. */
static void read_pth(struct facts *f, const struct rootfs *fs, struct python_env *py, int s, const char *name)
{
	const char *site = py->site_dirs[s];
	char path[FACT_PATH], *text = NULL, *cur, *line;
	bool recorded = false;

	if (path_join(path, sizeof(path), site, name) < 0 || rootfs_read(fs, path, PTH_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	cur = text;
	while ((line = line_next(&cur))) {
		char dir[FACT_PATH];
		size_t len;

		if (line[0] == '#' || is_blank(line))
			continue;
		if (str_starts_with(line, "import ") || str_starts_with(line, "import\t")) {
			if (!recorded && py->npth_imports < MAX_PTH_IMPORTS) {
				py->pth_imports[py->npth_imports].site = s;
				str_copy(py->pth_imports[py->npth_imports++].name, sizeof(py->pth_imports[0].name), name);
			} else if (!recorded) {
				facts_dropped(f, ".pth files with import lines", MAX_PTH_IMPORTS, 1);
			}
			recorded = true;
			read_editable_finder(f, fs, py, s, name, line);
			continue;
		}
		len = strlen(line);
		while (len > 0 && char_is_space((unsigned char)line[len - 1]))
			line[--len] = '\0';
		if (path_normalize(site, line, dir, sizeof(dir)) == 0 && !on_path(py, dir, true) && rootfs_is_dir(fs, dir))
			add_dir(f, py, dir, name, s);
	}
	free(text);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* A site directory's .pth files in sorted order (hidden ones skipped from Python 3.13 on, as site.py does). */
static void read_site_pths(struct facts *f, const struct rootfs *fs, struct python_env *py, int s)
{
	char names[MAX_PTH_FILES][64];
	bool skip_hidden = py->version[0] && version_compare(py->version, "3.13") >= 0;
	DIR *d = rootfs_opendir(fs, py->site_dirs[s]);
	struct dirent *de;
	int n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!str_ends_with(de->d_name, ".pth") || (skip_hidden && de->d_name[0] == '.') ||
		    strlen(de->d_name) >= sizeof(names[0]))
			continue;
		if (n >= MAX_PTH_FILES) {
			facts_dropped(f, ".pth files of a site directory", MAX_PTH_FILES, 1);
			break;
		}
		str_copy(names[n++], sizeof(names[0]), de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), compare_names);
	for (int i = 0; i < n; i++)
		read_pth(f, fs, py, s, names[i]);
}

/* See probe_internal.h. */
void python_import_path(struct facts *f, const struct rootfs *fs, struct python_env *py)
{
	read_pythonpath(f, fs, py);
	for (int s = 0; s < py->nsite; s++)
		read_site_pths(f, fs, py, s);
}
