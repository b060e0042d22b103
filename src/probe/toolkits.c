/*
 * toolkits.c - every CUDA toolkit on the machine, its version, and which
 * one a build would use.
 *
 * "Active" is the toolkit PyTorch's extension builder would use
 * (torch.utils.cpp_extension._find_cuda_home): CUDA_HOME, else CUDA_PATH,
 * else the nvcc on PATH (what `nvcc -V` reports), else the /usr/local/cuda
 * link. When the nvcc on PATH is another toolkit, toolkit.conflict says so.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/i18n.h"
#include "util/str.h"

#define VERSION_FILE_MAX (256 * 1024)
#define CUDA_H_MAX (2 * 1024 * 1024)
#define BUILD_FILE_MAX (256 * 1024)

/* version.json (CUDA >= 11.1): {"cuda": {"version": "12.4.1"}, ...} */
static int version_from_json(const struct rootfs *fs, const char *path, char *out, size_t outsz)
{
	char *text = NULL;
	json_t *root, *v;
	int rc = -1;

	if (rootfs_read(fs, path, VERSION_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return -1;
	root = json_loads(text, 0, NULL);
	free(text);
	v = root ? json_object_get(json_object_get(root, "cuda"), "version") : NULL;
	if (json_is_string(v) && version_is_valid(json_string_value(v)))
		rc = str_copy(out, outsz, json_string_value(v));
	json_decref(root);
	return rc;
}

/* version.txt (CUDA <= 11.0): "CUDA Version 11.0.228" */
static int version_from_txt(const struct rootfs *fs, const char *path, char *out, size_t outsz)
{
	char line[256];
	const char *p;

	if (rootfs_read_line(fs, path, line, sizeof(line)) < 0 || !(p = strstr(line, "CUDA Version ")))
		return -1;
	p += strlen("CUDA Version ");
	str_copy(out, outsz, p);
	str_trim(out);
	return version_is_valid(out) ? 0 : -1;
}

/* Toolkits assembled from NVIDIA's wheels keep their dist-info: nvcc's version is the toolkit's. */
static int version_from_dist_info(const struct rootfs *fs, const char *dir, char *out, size_t outsz)
{
	DIR *d = rootfs_opendir(fs, dir);
	struct dirent *de;
	int rc = -1;

	if (!d)
		return -1;
	while (rc < 0 && (de = readdir(d))) {
		/*
		 * The dist-info directory is named after the normalised project: nvidia-cuda-nvcc-cu11 and -cu12 for
		 * CUDA 11 and 12 (PyPI), nvidia-cuda-nvcc from CUDA 13 (as in a CUDA 13.0 toolkit's dist-info/).
		 */
		static const char *const prefixes[] = { "nvidia_cuda_nvcc-", "nvidia_cuda_nvcc_cu12-", "nvidia_cuda_nvcc_cu11-" };
		const char *prefix = NULL;

		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]) && !prefix; i++)
			if (str_starts_with(de->d_name, prefixes[i]))
				prefix = prefixes[i];
		if (prefix && str_ends_with(de->d_name, ".dist-info")) {
			char v[FACT_VER];
			size_t len = strlen(de->d_name) - strlen(prefix) - strlen(".dist-info");

			if (len < sizeof(v)) {
				memcpy(v, de->d_name + strlen(prefix), len);
				v[len] = '\0';
				if (version_is_valid(v))
					rc = str_copy(out, outsz, v);
			}
		}
	}
	closedir(d);
	return rc;
}

/* cuda.h: "#define CUDA_VERSION 12040" -> 12.4 */
int cuda_h_version(const struct rootfs *fs, const char *path, char *out, size_t outsz)
{
	FILE *fp = rootfs_fopen(fs, path);
	char line[512];
	int rc = -1;
	size_t read = 0;

	if (!fp)
		return -1;
	while (rc < 0 && read < CUDA_H_MAX && fgets(line, sizeof(line), fp)) {
		uint64_t v;
		char *p = line;

		read += strlen(line);
		while (char_is_space((unsigned char)*p))
			p++;
		if (!str_starts_with(p, "#define CUDA_VERSION"))
			continue;
		p += strlen("#define CUDA_VERSION");
		if (!char_is_space((unsigned char)*p))
			continue;
		p[strcspn(p, "/")] = '\0';	/* drop a trailing comment */
		if (str_to_u64(p, &v) == 0 && v >= 1000 && v < 100000)
			rc = str_printf(out, outsz, "%u.%u", (unsigned)(v / 1000), (unsigned)(v % 1000) / 10);
	}
	fclose(fp);
	return rc;
}

static void detect_version(const struct rootfs *fs, struct toolkit *tk)
{
	char p[FACT_PATH + 64];
	const char *root = tk->real_path;

	struct {
		const char *file;
		int (*read)(const struct rootfs *, const char *, char *, size_t);
	} sources[] = {
		{ "version.json", version_from_json },
		{ "version.txt", version_from_txt },
		{ "dist-info", version_from_dist_info },
		{ "include/cuda.h", cuda_h_version },
		{ "targets/x86_64-linux/include/cuda.h", cuda_h_version },
		{ "targets/sbsa-linux/include/cuda.h", cuda_h_version },
	};

	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		if (path_join(p, sizeof(p), root, sources[i].file) < 0)
			continue;
		if (sources[i].read(fs, p, tk->version, sizeof(tk->version)) == 0) {
			str_copy(tk->version_source, sizeof(tk->version_source), p);
			return;
		}
	}
}

static struct toolkit *add_toolkit(struct facts *f, const struct rootfs *fs, const char *path, unsigned origin)
{
	struct toolkit_facts *t = &f->toolkits;
	char real[FACT_PATH], nvcc[FACT_PATH + 16];
	struct toolkit *tk;

	if (rootfs_resolve(fs, path, true, real, sizeof(real), NULL) < 0)
		str_copy(real, sizeof(real), path);
	for (int i = 0; i < t->count; i++) {
		if (strcmp(t->items[i].real_path, real) == 0) {
			t->items[i].origins |= origin;
			return &t->items[i];
		}
	}
	if (t->count >= MAX_TOOLKITS) {
		facts_dropped(f, "CUDA toolkits", MAX_TOOLKITS, 1);
		return NULL;
	}
	tk = &t->items[t->count++];
	str_copy(tk->path, sizeof(tk->path), path);
	str_copy(tk->real_path, sizeof(tk->real_path), real);
	tk->origins = origin;
	tk->exists = rootfs_is_dir(fs, real);
	path_join(nvcc, sizeof(nvcc), real, "bin/nvcc");
	tk->has_nvcc = rootfs_exists(fs, nvcc);
	if (tk->exists)
		detect_version(fs, tk);
	return tk;
}

/* /usr/local/cuda-12.4, /opt/cuda, ...: directories that look like a toolkit. */
static void scan_dir(struct facts *f, const struct rootfs *fs, const char *dir)
{
	DIR *d = rootfs_opendir(fs, dir);
	struct dirent *de;
	char names[MAX_TOOLKITS][256];
	int n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!str_starts_with(de->d_name, "cuda"))
			continue;
		if (n < MAX_TOOLKITS)
			str_copy(names[n++], sizeof(names[0]), de->d_name);
		else
			facts_dropped(f, "CUDA toolkits", MAX_TOOLKITS, 1);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
	for (int i = 0; i < n; i++) {
		char path[FACT_PATH], probe[FACT_PATH + 32];
		struct stat st;

		path_join(path, sizeof(path), dir, names[i]);
		path_join(probe, sizeof(probe), path, "bin/nvcc");
		if (strcmp(path, "/usr/local/cuda") == 0)
			continue;	/* the default link is handled on its own */
		if (rootfs_exists(fs, probe) || (path_join(probe, sizeof(probe), path, "include/cuda.h") == 0 &&
						 rootfs_stat(fs, probe, &st) == 0))
			add_toolkit(f, fs, path, TK_FROM_SCAN);
	}
}

static void find_nvcc_on_path(struct facts *f, const struct rootfs *fs)
{
	char nvcc[FACT_PATH], real[FACT_PATH], bin[FACT_PATH], root[FACT_PATH];

	if (!probe_find_on_path(f, fs, "nvcc", nvcc, sizeof(nvcc)) ||
	    rootfs_resolve(fs, nvcc, true, real, sizeof(real), NULL) < 0)
		return;
	str_copy(f->toolkits.nvcc_on_path, sizeof(f->toolkits.nvcc_on_path), real);
	path_dirname(real, bin, sizeof(bin));
	path_dirname(bin, root, sizeof(root));
	/* Debian's nvidia-cuda-toolkit installs /usr/bin/nvcc over /usr/include. */
	add_toolkit(f, fs, root, TK_FROM_NVCC_PATH);
}

/*
 * A PyTorch C++/CUDA extension built from the working directory: its setup.py or pyproject.toml names
 * CUDAExtension (torch.utils.cpp_extension's class for sources with .cu files). The build runs nvcc, so
 * a toolkit it cannot find fails it. Only the first BUILD_FILE_MAX bytes of each file are read.
 */
static void find_extension_build(struct facts *f, const struct rootfs *fs)
{
	static const char *const names[] = { "setup.py", "pyproject.toml" };
	const char *pwd = facts_env(f, "PWD");
	struct toolkit_facts *t = &f->toolkits;

	if (!pwd || pwd[0] != '/')
		return;
	str_copy(t->cwd, sizeof(t->cwd), pwd);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[FACT_PATH], *text = NULL;
		bool cuda;

		if (path_join(path, sizeof(path), pwd, names[i]) < 0 ||
		    rootfs_read(fs, path, BUILD_FILE_MAX, &text, NULL, NULL, NULL) < 0)
			continue;
		cuda = strstr(text, "CUDAExtension") != NULL;
		free(text);
		if (cuda) {
			str_copy(t->extension_build, sizeof(t->extension_build), path);
			return;
		}
	}
}

static int find_origin(const struct toolkit_facts *t, unsigned origin)
{
	for (int i = 0; i < t->count; i++)
		if (t->items[i].origins & origin)
			return i;
	return -1;
}

static void choose_active(struct toolkit_facts *t)
{
	static const struct {
		unsigned origin;
		const char *reason;
	} order[] = {
		{ TK_FROM_CUDA_HOME, "CUDA_HOME" },
		{ TK_FROM_CUDA_PATH, "CUDA_PATH" },
		{ TK_FROM_NVCC_PATH, N_("the nvcc on PATH") },
		{ TK_FROM_DEFAULT_LINK, N_("the /usr/local/cuda link") },
	};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int idx = find_origin(t, order[i].origin);

		if (idx >= 0 && t->items[idx].exists) {
			t->active = idx;
			t->items[idx].active = true;
			str_copy(t->active_reason, sizeof(t->active_reason), order[i].reason);
			return;
		}
	}
}

/*
 * Toolkits from the nvcc on PATH, CUDA_HOME, CUDA_PATH, CUDA_ROOT, /usr/local/cuda and scans of /usr/local
 * and /opt. Needs probe_env done. Chooses the active one in the order of the file's comment; CUDA_ROOT
 * alone never makes one active. Then the working directory (PWD) and a CUDA extension build there.
 */
void probe_toolkits(struct facts *f, const struct probe_ctx *ctx)
{
	const struct rootfs *fs = ctx->fs;
	struct toolkit_facts *t = &f->toolkits;
	static const struct {
		const char *var;
		unsigned origin;
	} vars[] = {
		{ "CUDA_HOME", TK_FROM_CUDA_HOME },
		{ "CUDA_PATH", TK_FROM_CUDA_PATH },
		{ "CUDA_ROOT", TK_FROM_CUDA_ROOT },
	};

	t->active = -1;
	find_nvcc_on_path(f, fs);
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = facts_env(f, vars[i].var);

		if (v && v[0] == '/')
			add_toolkit(f, fs, v, vars[i].origin);
	}
	if (rootfs_exists(fs, "/usr/local/cuda"))
		add_toolkit(f, fs, "/usr/local/cuda", TK_FROM_DEFAULT_LINK);
	scan_dir(f, fs, "/usr/local");
	scan_dir(f, fs, "/opt");
	choose_active(t);
	find_extension_build(f, fs);
	if (t->count == 0)
		fact_status_set(&t->status, FACT_ABSENT, "no CUDA toolkit found");
	else
		t->status.state = FACT_OK;
}
