/*
 * python.c - every Python interpreter on the machine, found without running
 * any: the python3 on PATH (through pyenv shims), VIRTUAL_ENV, CONDA_PREFIX
 * and conda's environments, pyenv's versions, the system's, Jupyter's
 * kernels. For each, its version, prefix and the site directories it
 * imports from, in order.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "probe/probe_internal.h"
#include "util/kv.h"
#include "util/str.h"

#define SMALL_FILE_MAX (64 * 1024)
/* ~/.conda/environments.txt of a shared install can list thousands of environments. */
#define ENV_LIST_MAX (4 * 1024 * 1024)
/*
 * Environments found by scanning (conda's, pyenv's, Jupyter's) are listed in
 * full up to here; after that only those that hold a torch, so that the
 * torch in the 10,000th environment of a cluster's shared conda is still
 * found, while the table keeps room for them and for --python.
 */
#define SCAN_DETAILED (MAX_PYTHONS - 16)

static const char *home_of(const struct facts *f)
{
	const char *home = facts_env(f, "HOME");

	return home && home[0] == '/' ? home : NULL;
}

/* A file in a pyenv root's shims/ (a root holds shims/ and versions/; PYENV_ROOT may name any directory). */
static bool is_pyenv_shim(const struct rootfs *fs, const char *path)
{
	char dir[FACT_PATH], root[FACT_PATH], versions[FACT_PATH];

	return path_dirname(path, dir, sizeof(dir)) == 0 && strcmp(path_basename(dir), "shims") == 0 &&
	       path_dirname(dir, root, sizeof(root)) == 0 &&
	       path_join(versions, sizeof(versions), root, "versions") == 0 && rootfs_is_dir(fs, versions);
}

/* Whether an interpreter lives under $PYENV_ROOT/versions/. */
static bool in_pyenv_root(const struct facts *f, const char *real)
{
	const char *root = facts_env(f, "PYENV_ROOT");
	char versions[FACT_PATH];

	return root && root[0] == '/' && path_join(versions, sizeof(versions), root, "versions/") == 0 &&
	       str_starts_with(real, versions);
}

/*
 * pyenv's project pin: the first .python-version in the working directory (PWD of the diagnosed environment)
 * or one of its parents (pyenv's README, "Understanding Python version selection"). False when none.
 */
static bool local_version_file(const struct facts *f, const struct rootfs *fs, char *out, size_t outsz)
{
	const char *pwd = facts_env(f, "PWD");
	char dir[FACT_PATH], path[FACT_PATH];

	if (!pwd || pwd[0] != '/')
		return false;
	str_copy(dir, sizeof(dir), pwd);
	for (int depth = 0; depth < 64; depth++) {
		char parent[FACT_PATH];

		if (path_join(path, sizeof(path), dir, ".python-version") == 0 &&
		    rootfs_read_line(fs, path, out, outsz) == 0 && out[0])
			return true;
		if (strcmp(dir, "/") == 0 || path_dirname(dir, parent, sizeof(parent)) < 0)
			break;
		str_copy(dir, sizeof(dir), parent);
	}
	out[0] = '\0';
	return false;
}

/*
 * pyenv's shims are scripts; the interpreter they run is $PYENV_ROOT/versions/<v>/bin/<name>, <v> from
 * PYENV_VERSION, the project's .python-version, else the root's global version file.
 */
static bool resolve_pyenv_shim(const struct facts *f, const struct rootfs *fs, const char *shim, char *out,
			       size_t outsz)
{
	char root[FACT_PATH], dir[FACT_PATH], version[64] = "", path[FACT_PATH];
	const char *v = facts_env(f, "PYENV_VERSION");

	if (!strstr(shim, "/shims/"))
		return false;
	path_dirname(shim, dir, sizeof(dir));
	path_dirname(dir, root, sizeof(root));
	if (v && v[0])
		str_copy(version, sizeof(version), v);
	else if (!local_version_file(f, fs, version, sizeof(version)) &&
		 str_printf(path, sizeof(path), "%s/version", root) == 0)
		rootfs_read_line(fs, path, version, sizeof(version));
	str_trim(version);
	version[strcspn(version, ": ")] = '\0';	/* "3.11.7:3.10.13" lists fallbacks */
	if (!version[0] || strcmp(version, "system") == 0)
		return false;
	if (str_printf(path, sizeof(path), "%s/versions/%s/bin/%s", root, version, path_basename(shim)) < 0 ||
	    !rootfs_exists(fs, path))
		return false;
	return rootfs_resolve(fs, path, true, out, outsz, NULL) == 0;
}

/* "python3.11" -> "3.11" */
static void version_from_name(const char *name, char *out, size_t outsz)
{
	if (str_starts_with(name, "python") && version_is_valid(name + 6) && strchr(name + 6, '.'))
		str_copy(out, outsz, name + 6);
}

/* The single lib/python3.X directory under a prefix names its version. */
static void version_from_lib(const struct rootfs *fs, const char *prefix, char *out, size_t outsz)
{
	char lib[FACT_PATH];
	DIR *d;
	struct dirent *de;

	if (path_join(lib, sizeof(lib), prefix, "lib") < 0 || !(d = rootfs_opendir(fs, lib)))
		return;
	while ((de = readdir(d)))
		if (strlen(de->d_name) > 6 && (!out[0] || version_compare(de->d_name + 6, out) > 0))
			version_from_name(de->d_name, out, outsz);
	closedir(d);
}

static void add_site(struct python_env *py, const struct rootfs *fs, const char *dir)
{
	for (int i = 0; i < py->nsite; i++)
		if (strcmp(py->site_dirs[i], dir) == 0)
			return;
	if (!rootfs_is_dir(fs, dir))
		return;
	if (py->nsite < MAX_SITE_DIRS)
		str_copy(py->site_dirs[py->nsite++], FACT_PATH, dir);
	else
		py->nsite_dropped++;
}

/* sys.path's site part, in import order: the user site first, then the prefix's. */
static void site_dirs(const struct facts *f, const struct rootfs *fs, struct python_env *py, const char *base_prefix,
		      bool system_site, bool user_site)
{
	char dir[FACT_PATH];
	const char *home = home_of(f);
	const char *nouser = facts_env(f, "PYTHONNOUSERSITE");

	if (user_site && home && !(nouser && nouser[0])) {
		str_printf(dir, sizeof(dir), "%s/.local/lib/python%s/site-packages", home, py->version);
		add_site(py, fs, dir);
	}
	str_printf(dir, sizeof(dir), "%s/lib/python%s/site-packages", py->prefix, py->version);
	add_site(py, fs, dir);
	if (!system_site)
		return;
	if (strcmp(base_prefix, "/usr") == 0) {
		/* Debian and Ubuntu patch sys.path to these. */
		str_printf(dir, sizeof(dir), "/usr/local/lib/python%s/dist-packages", py->version);
		add_site(py, fs, dir);
		add_site(py, fs, "/usr/lib/python3/dist-packages");
		str_printf(dir, sizeof(dir), "/usr/lib/python%s/dist-packages", py->version);
		add_site(py, fs, dir);
	}
	str_printf(dir, sizeof(dir), "%s/lib/python%s/site-packages", base_prefix, py->version);
	add_site(py, fs, dir);
}

/* Whether a prefix holds lib/pythonX.Y/site-packages/torch: a directory listing and a stat per version. */
static bool prefix_has_torch(const struct rootfs *fs, const char *prefix)
{
	char lib[FACT_PATH], path[FACT_PATH];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (path_join(lib, sizeof(lib), prefix, "lib") < 0 || !(d = rootfs_opendir(fs, lib)))
		return false;
	while (!found && (de = readdir(d)))
		found = str_starts_with(de->d_name, "python") &&
			str_printf(path, sizeof(path), "%s/%s/site-packages/torch/version.py", lib, de->d_name) == 0 &&
			rootfs_exists(fs, path);
	closedir(d);
	return found;
}

/* Past SCAN_DETAILED, a scanned environment is listed only when new and holding a torch. */
static bool worth_listing(struct facts *f, const struct rootfs *fs, const char *exe)
{
	struct python_facts *p = &f->python;
	char bin[FACT_PATH], prefix[FACT_PATH];

	if (p->count < SCAN_DETAILED)
		return true;
	path_dirname(exe, bin, sizeof(bin));
	path_dirname(bin, prefix, sizeof(prefix));
	for (int i = 0; i < p->count; i++)
		if (strcmp(p->envs[i].prefix, prefix) == 0)
			return true;	/* known already: add_interpreter merges it */
	if (prefix_has_torch(fs, prefix))
		return true;
	p->unlisted++;
	return false;
}

/*
 * A venv named .venv inside a project (uv's and Poetry's in-project layout)
 * belongs to the project beside it: the tool that manages it decides how
 * packages change (editing pyproject.toml and syncing, not pip).
 */
static void read_project(const struct rootfs *fs, struct python_env *py)
{
	char project[FACT_PATH], path[FACT_PATH + 32], *text = NULL;

	if (strcmp(path_basename(py->prefix), ".venv") != 0 || path_dirname(py->prefix, project, sizeof(project)) < 0 ||
	    str_printf(path, sizeof(path), "%s/pyproject.toml", project) < 0 ||
	    rootfs_read(fs, path, SMALL_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	str_copy(py->project, sizeof(py->project), project);
	if (str_printf(path, sizeof(path), "%s/uv.lock", project) == 0 && rootfs_exists(fs, path))
		str_copy(py->project_tool, sizeof(py->project_tool), "uv");
	else if (str_printf(path, sizeof(path), "%s/poetry.lock", project) == 0 && rootfs_exists(fs, path))
		str_copy(py->project_tool, sizeof(py->project_tool), "poetry");
	else if (strstr(text, "[tool.uv"))
		str_copy(py->project_tool, sizeof(py->project_tool), "uv");
	else if (strstr(text, "[tool.poetry"))
		str_copy(py->project_tool, sizeof(py->project_tool), "poetry");
	else
		str_copy(py->project_tool, sizeof(py->project_tool), "pip");
	free(text);
}

static int add_interpreter(struct facts *f, const struct rootfs *fs, const char *exe, const char *found_by, bool on_path,
			   bool scanned)
{
	struct python_facts *p = &f->python;
	struct python_env *py;
	char real[FACT_PATH], bin[FACT_PATH], prefix[FACT_PATH], cfg_path[FACT_PATH], *cfg = NULL;
	char home[FACT_PATH] = "", value[16] = "";

	if (scanned && !worth_listing(f, fs, exe))
		return -1;
	if (!rootfs_exists(fs, exe))
		return -1;
	if (!resolve_pyenv_shim(f, fs, exe, real, sizeof(real))) {
		/* A shim for pyenv's "system" passes the call on down PATH: it is not an interpreter. */
		if (is_pyenv_shim(fs, exe) || rootfs_resolve(fs, exe, true, real, sizeof(real), NULL) < 0)
			return -1;
	}
	/* A venv's bin/python is a link out of the venv: its prefix is where the link is. */
	path_dirname(exe, bin, sizeof(bin));
	path_dirname(bin, prefix, sizeof(prefix));
	path_join(cfg_path, sizeof(cfg_path), prefix, "pyvenv.cfg");
	if (rootfs_read(fs, cfg_path, SMALL_FILE_MAX, &cfg, NULL, NULL, NULL) < 0) {
		path_dirname(real, bin, sizeof(bin));
		path_dirname(bin, prefix, sizeof(prefix));
	}
	for (int i = 0; i < p->count; i++) {
		if (strcmp(p->envs[i].prefix, prefix) == 0 && strcmp(p->envs[i].real_exe, real) == 0) {
			p->envs[i].on_path |= on_path;
			free(cfg);
			return i;
		}
	}
	if (p->count >= MAX_PYTHONS) {
		facts_dropped(f, "Python interpreters", MAX_PYTHONS, 1);
		free(cfg);
		return -1;
	}
	py = &p->envs[p->count];
	memset(py, 0, sizeof(*py));
	py->torch = py->torch_shadowed = -1;
	str_copy(py->exe, sizeof(py->exe), exe);
	str_copy(py->real_exe, sizeof(py->real_exe), real);
	str_copy(py->prefix, sizeof(py->prefix), prefix);
	str_copy(py->found_by, sizeof(py->found_by), found_by);
	py->on_path = on_path;
	version_from_name(path_basename(real), py->version, sizeof(py->version));
	if (cfg) {
		char base[FACT_PATH] = "";

		py->kind = PY_VENV;
		/* pyvenv.cfg: "home = /usr/bin", "version = 3.11.2" (uv: "version_info") */
		{
			char *line, *cur = cfg;

			while ((line = line_next(&cur))) {
				char *eq = strchr(line, '=');

				if (!eq)
					continue;
				*eq = '\0';
				if (strcmp(str_trim(line), "home") == 0)
					str_copy(home, sizeof(home), str_trim(eq + 1));
				else if (strcmp(str_trim(line), "include-system-site-packages") == 0)
					str_copy(value, sizeof(value), str_trim(eq + 1));
				else if (strcmp(str_trim(line), "version") == 0 || strcmp(line, "version_info") == 0)
					version_prefix(str_trim(eq + 1), 2, py->version, sizeof(py->version));
				else if (strcmp(line, "uv") == 0 || strcmp(line, "virtualenv") == 0)
					str_copy(py->venv_tool, sizeof(py->venv_tool), line);
			}
		}
		if (!py->venv_tool[0])
			str_copy(py->venv_tool, sizeof(py->venv_tool), "venv");
		free(cfg);
		if (!py->version[0])
			version_from_lib(fs, prefix, py->version, sizeof(py->version));
		path_dirname(home[0] ? home : "/usr/bin", base, sizeof(base));
		site_dirs(f, fs, py, base, strcmp(value, "true") == 0, strcmp(value, "true") == 0);
		read_project(fs, py);
	} else {
		if (!py->version[0])
			version_from_lib(fs, prefix, py->version, sizeof(py->version));
		if (str_starts_with(prefix, "/usr") && (strcmp(prefix, "/usr") == 0 || strcmp(prefix, "/usr/local") == 0))
			py->kind = PY_SYSTEM;
		else if (strstr(real, "/.pyenv/versions/") || in_pyenv_root(f, real))
			py->kind = PY_PYENV;
		else if (strstr(found_by, "conda") || strstr(prefix, "conda") || strstr(prefix, "miniforge") ||
			 strstr(prefix, "mamba"))
			py->kind = PY_CONDA;
		else
			py->kind = PY_OTHER;
		/*
		 * Only Debian's own /usr/bin/python3 is patched to read dist-packages; a Python built with prefix
		 * /usr/local (the python:3.x images, make altinstall) reads its prefix's site-packages alone
		 * (CPython's site.getsitepackages).
		 */
		site_dirs(f, fs, py, prefix, true, true);
		if (py->version[0] && str_printf(cfg_path, sizeof(cfg_path), "%s/lib/python%s/EXTERNALLY-MANAGED", prefix,
						 py->version) == 0)
			py->externally_managed = rootfs_exists(fs, cfg_path);
	}
	for (int i = 0; i < py->nsite && !py->pip; i++)
		py->pip = str_printf(cfg_path, sizeof(cfg_path), "%s/pip/__init__.py", py->site_dirs[i]) == 0 &&
			  rootfs_exists(fs, cfg_path);
	python_import_path(f, fs, py);
	return p->count++;
}

/* The first PATH directory holding a regular file name, as a shell would pick it. */
bool probe_find_on_path(const struct facts *f, const struct rootfs *fs, const char *name, char *out, size_t outsz)
{
	const char *path = facts_env(f, "PATH");
	char buf[8192], *save = NULL;

	if (!path)
		return false;
	str_copy(buf, sizeof(buf), path);
	for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		char exe[FACT_PATH];
		struct stat st;

		if (dir[0] == '/' && path_join(exe, sizeof(exe), dir, name) == 0 && rootfs_stat(fs, exe, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			str_copy(out, outsz, exe);
			return true;
		}
	}
	return false;
}

/*
 * conda's own command: on PATH (condabin after `conda init`, or mamba), else
 * in the install the diagnosed conda environment belongs to (PREFIX, or
 * PREFIX/../.. for one under envs/).
 */
static void find_conda(struct facts *f, const struct rootfs *fs)
{
	static const char *const names[] = { "conda", "mamba", "micromamba" };
	const struct python_env *py = f->python.selected >= 0 ? &f->python.envs[f->python.selected] : NULL;
	char base[FACT_PATH], up[FACT_PATH], exe[FACT_PATH];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (probe_find_on_path(f, fs, names[i], f->python.conda, sizeof(f->python.conda)))
			return;
	if (!py || py->kind != PY_CONDA)
		return;
	str_copy(base, sizeof(base), py->prefix);
	if (path_dirname(base, up, sizeof(up)) == 0 && strcmp(path_basename(up), "envs") == 0)
		path_dirname(up, base, sizeof(base));
	if ((str_printf(exe, sizeof(exe), "%s/condabin/conda", base) == 0 && rootfs_exists(fs, exe)) ||
	    (str_printf(exe, sizeof(exe), "%s/bin/conda", base) == 0 && rootfs_exists(fs, exe)))
		str_copy(f->python.conda, sizeof(f->python.conda), exe);
}

static void scan_path(struct facts *f, const struct rootfs *fs)
{
	const char *path = facts_env(f, "PATH");
	char buf[8192], *save = NULL;
	bool first = true;

	if (!path)
		return;
	str_copy(buf, sizeof(buf), path);
	for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		static const char *const names[] = { "python3", "python" };

		for (size_t i = 0; i < 2; i++) {
			char exe[FACT_PATH];

			if (dir[0] != '/' || path_join(exe, sizeof(exe), dir, names[i]) < 0)
				continue;
			if (add_interpreter(f, fs, exe, "PATH", first && i == 0, false) >= 0 && i == 0)
				first = false;
		}
	}
}

/* Each line of ~/.conda/environments.txt is an environment's prefix. */
static void scan_conda(struct facts *f, const struct rootfs *fs)
{
	static const char *const bases[] = { "miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda" };
	const char *home = home_of(f);
	char path[FACT_PATH], *text = NULL, *cur, *line;
	bool cut = false;

	if (home && str_printf(path, sizeof(path), "%s/.conda/environments.txt", home) == 0 &&
	    rootfs_read(fs, path, ENV_LIST_MAX, &text, NULL, &cut, NULL) == 0) {
		if (cut)
			facts_note(f, "%s is longer than %d MiB: the environments after that are not read", path,
				   ENV_LIST_MAX >> 20);
		cur = text;
		while ((line = line_next(&cur))) {
			char exe[FACT_PATH];

			if (str_trim(line)[0] == '/' && str_printf(exe, sizeof(exe), "%s/bin/python", line) == 0)
				add_interpreter(f, fs, exe, "conda environments", false, true);
		}
		free(text);
	}
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]) + 1; i++) {
		char base[FACT_PATH], envs[FACT_PATH];
		DIR *d;
		struct dirent *de;

		if (i < sizeof(bases) / sizeof(bases[0])) {
			if (!home || str_printf(base, sizeof(base), "%s/%s", home, bases[i]) < 0)
				continue;
		} else {
			str_copy(base, sizeof(base), "/opt/conda");
		}
		str_printf(path, sizeof(path), "%s/bin/python", base);
		add_interpreter(f, fs, path, "conda", false, false);
		str_printf(envs, sizeof(envs), "%s/envs", base);
		if (!(d = rootfs_opendir(fs, envs)))
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] != '.' && str_printf(path, sizeof(path), "%s/%s/bin/python", envs, de->d_name) == 0)
				add_interpreter(f, fs, path, "conda envs", false, true);
		}
		closedir(d);
	}
}

static void scan_dir_versions(struct facts *f, const struct rootfs *fs, const char *dir, const char *found_by)
{
	DIR *d = rootfs_opendir(fs, dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char exe[FACT_PATH];

		if (de->d_name[0] != '.' && str_printf(exe, sizeof(exe), "%s/%s/bin/python3", dir, de->d_name) == 0)
			add_interpreter(f, fs, exe, found_by, false, true);
	}
	closedir(d);
}

/* A kernelspec's kernel.json: {"argv": ["/home/a/envs/ml/bin/python", "-m", "ipykernel_launcher", ...]}. */
static void add_kernel(struct facts *f, const struct rootfs *fs, const char *dir, const char *name)
{
	char path[FACT_PATH], found_by[sizeof(f->python.envs[0].found_by)], *text = NULL;
	json_t *spec, *exe, *display;

	if (str_printf(path, sizeof(path), "%s/%s/kernel.json", dir, name) < 0 ||
	    rootfs_read(fs, path, SMALL_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	spec = json_loads(text, 0, NULL);
	free(text);
	exe = json_array_get(json_object_get(spec, "argv"), 0);
	/* A bare "python" means whatever runs the notebook server: nothing new to find. */
	if (json_is_string(exe) && json_string_value(exe)[0] == '/') {
		/* The notebook's kernel menu shows display_name. */
		display = json_object_get(spec, "display_name");
		str_printf(found_by, sizeof(found_by), "jupyter kernel %s",
			   json_is_string(display) ? json_string_value(display) : name);
		add_interpreter(f, fs, json_string_value(exe), found_by, false, true);
	}
	json_decref(spec);
}

static void scan_kernel_dir(struct facts *f, const struct rootfs *fs, const char *dir)
{
	DIR *d = rootfs_opendir(fs, dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			add_kernel(f, fs, dir, de->d_name);
	closedir(d);
}

/*
 * Jupyter's kernelspecs, where `jupyter kernelspec list` looks: JUPYTER_PATH,
 * the user's data dir, each environment's share/jupyter and the system's.
 */
static void scan_jupyter(struct facts *f, const struct rootfs *fs)
{
	const char *jpath = facts_env(f, "JUPYTER_PATH"), *data = facts_env(f, "JUPYTER_DATA_DIR"), *home = home_of(f);
	int known = f->python.count;
	char dir[FACT_PATH];

	if (jpath) {
		char buf[4096], *save = NULL;

		str_copy(buf, sizeof(buf), jpath);
		for (char *p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save))
			if (p[0] == '/' && str_printf(dir, sizeof(dir), "%s/kernels", p) == 0)
				scan_kernel_dir(f, fs, dir);
	}
	if (data && data[0] == '/' && str_printf(dir, sizeof(dir), "%s/kernels", data) == 0)
		scan_kernel_dir(f, fs, dir);
	else if (home && str_printf(dir, sizeof(dir), "%s/.local/share/jupyter/kernels", home) == 0)
		scan_kernel_dir(f, fs, dir);
	for (int i = 0; i < known; i++)
		if (str_printf(dir, sizeof(dir), "%s/share/jupyter/kernels", f->python.envs[i].prefix) == 0)
			scan_kernel_dir(f, fs, dir);
	scan_kernel_dir(f, fs, "/usr/local/share/jupyter/kernels");
	scan_kernel_dir(f, fs, "/usr/share/jupyter/kernels");
}

/*
 * Finds interpreters without running any, picks the one to diagnose (--python, else python3 on PATH, else
 * the first found), and then calls probe_torch. Needs probe_env done. A --python that names no interpreter
 * becomes a note, not a failure.
 */
void probe_python(struct facts *f, const struct probe_ctx *ctx)
{
	const struct rootfs *fs = ctx->fs;
	struct python_facts *p = &f->python;
	const char *venv = facts_env(f, "VIRTUAL_ENV"), *conda = facts_env(f, "CONDA_PREFIX");
	const char *pyenv_root = facts_env(f, "PYENV_ROOT"), *home = home_of(f);
	char path[FACT_PATH];

	scan_path(f, fs);
	if (venv && str_printf(path, sizeof(path), "%s/bin/python", venv) == 0)
		add_interpreter(f, fs, path, "VIRTUAL_ENV", false, false);
	if (conda && str_printf(path, sizeof(path), "%s/bin/python", conda) == 0)
		add_interpreter(f, fs, path, "CONDA_PREFIX", false, false);
	scan_conda(f, fs);
	if (pyenv_root)
		str_printf(path, sizeof(path), "%s/versions", pyenv_root);
	else if (home)
		str_printf(path, sizeof(path), "%s/.pyenv/versions", home);
	if (pyenv_root || home)
		scan_dir_versions(f, fs, path, "pyenv");
	add_interpreter(f, fs, "/usr/bin/python3", "system", false, false);
	add_interpreter(f, fs, "/usr/local/bin/python3", "system", false, false);
	scan_jupyter(f, fs);
	if (ctx->python && ctx->python[0]) {
		char exe[FACT_PATH];

		str_copy(exe, sizeof(exe), ctx->python);
		if (!strchr(exe, '/'))
			probe_find_on_path(f, fs, ctx->python, exe, sizeof(exe));
		else if (exe[0] != '/' && fs->live) {
			char cwd[FACT_PATH];

			if (getcwd(cwd, sizeof(cwd)))
				str_printf(exe, sizeof(exe), "%s/%s", cwd, ctx->python);
		}
		p->selected = add_interpreter(f, fs, exe, "--python", false, false);
		if (p->selected < 0)
			facts_note(f, "--python %s: no such interpreter; diagnosing the one on PATH", ctx->python);
		str_copy(p->selected_reason, sizeof(p->selected_reason), "--python");
	}
	for (int i = 0; p->selected < 0 && i < p->count; i++) {
		if (p->envs[i].on_path) {
			p->selected = i;
			str_copy(p->selected_reason, sizeof(p->selected_reason), "python3 on PATH");
		}
	}
	if (p->selected < 0 && p->count > 0) {
		p->selected = 0;
		str_copy(p->selected_reason, sizeof(p->selected_reason), "the first interpreter found");
	}
	probe_find_on_path(f, fs, "uv", p->uv, sizeof(p->uv));
	probe_find_on_path(f, fs, "poetry", p->poetry, sizeof(p->poetry));
	find_conda(f, fs);
	if (p->unlisted)
		facts_note(f, "%d more Python environments hold no torch and are not listed", p->unlisted);
	for (int i = 0; i < p->count; i++)
		facts_dropped(f, "site directories of an interpreter", MAX_SITE_DIRS, p->envs[i].nsite_dropped);
	if (p->count == 0)
		fact_status_set(&p->status, FACT_ABSENT, "no Python interpreter found");
	else
		p->status.state = FACT_OK;
	probe_torch(f, ctx);
}
