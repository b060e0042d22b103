/*
 * torch.c - PyTorch as installed, read from its files: torch/version.py
 * (what torch.__version__ and torch.version.cuda will say), the dist-info
 * that names the installer, and which interpreter imports which copy.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/kv.h"
#include "util/str.h"

#define VERSION_PY_MAX (64 * 1024)

/*
 * version.py lines: "__version__ = '2.1.0+cu121'", "cuda: Optional[str] = '12.1'",
 * "hip: Optional[str] = None", "debug = False". Copies the quoted value, or ""
 * for None. Returns -1 when the key is absent.
 */
int torch_version_field(const char *text, const char *key, char *out, size_t outsz)
{
	const char *p = text;
	size_t klen = strlen(key);

	while (p && *p) {
		const char *eol = strchr(p, '\n'), *v;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > klen && strncmp(p, key, klen) == 0 && (p[klen] == ' ' || p[klen] == ':' || p[klen] == '=')) {
			v = memchr(p, '=', len);
			if (v) {
				char buf[128];
				size_t vlen = (size_t)(p + len - (v + 1));

				if (vlen >= sizeof(buf))
					vlen = sizeof(buf) - 1;
				memcpy(buf, v + 1, vlen);
				buf[vlen] = '\0';
				str_trim(buf);
				if (strcmp(buf, "None") == 0)
					return str_copy(out, outsz, "");
				if (buf[0] == '\'' || buf[0] == '"') {
					char q = buf[0];
					char *end = strchr(buf + 1, q);

					if (end)
						*end = '\0';
					return str_copy(out, outsz, buf + 1);
				}
				return str_copy(out, outsz, buf);
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return -1;
}

/*
 * Packages that move when torch does: its companions, released in step with
 * it, and those built against its C++ ABI or CUDA version, which a new torch
 * leaves broken until they are reinstalled or rebuilt. Names as
 * dist-info directories spell them (PEP 503 normalised to underscores).
 */
static const char *const moves_with_torch[] = {
	"torchvision", "torchaudio", "torchtext", "torchdata", "xformers", "flash_attn", "bitsandbytes", "apex",
	"detectron2", "mmcv", "mmcv_full", "pytorch3d", "torch_scatter", "torch_sparse", "torch_cluster",
	"torch_spline_conv", "deepspeed", "vllm", "torch_tensorrt", "spconv", "natten", "causal_conv1d", "mamba_ssm",
};

/* "torchvision-0.20.1+cpu.dist-info" (or .egg-info) -> "torchvision 0.20.1+cpu" when it moves with torch. */
static bool moves_with(const char *dirname, char *out, size_t outsz)
{
	char name[128], *dash, *dot;

	if (!(str_ends_with(dirname, ".dist-info") || str_ends_with(dirname, ".egg-info")) ||
	    str_copy(name, sizeof(name), dirname) < 0)
		return false;
	dot = strrchr(name, '.');
	*dot = '\0';
	if (!(dash = strchr(name, '-')))
		return false;
	*dash = '\0';
	for (char *c = name; *c; c++)
		if (*c == '-' || *c == '.')
			*c = '_';
	for (size_t i = 0; i < sizeof(moves_with_torch) / sizeof(moves_with_torch[0]); i++)
		if (str_casecmp(name, moves_with_torch[i]) == 0)
			return str_printf(out, outsz, "%s %s", moves_with_torch[i], dash + 1) == 0;
	return false;
}

/* The nvidia-* wheels beside torch ("nvidia_cudnn_cu12 9.1.0.70") and the packages that move with it. */
static void read_wheels(struct facts *f, const struct rootfs *fs, const char *site, struct torch_install *t)
{
	DIR *d = rootfs_opendir(fs, site);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char name[128], *dash;

		if (moves_with(de->d_name, name, sizeof(name))) {
			if (t->npackages < MAX_TORCH_PACKAGES)
				str_copy(t->packages[t->npackages++], sizeof(t->packages[0]), name);
			else
				facts_dropped(f, "packages beside torch that move with it", MAX_TORCH_PACKAGES, 1);
			continue;
		}
		if (!str_starts_with(de->d_name, "nvidia_") || !str_ends_with(de->d_name, ".dist-info") ||
		    str_copy(name, sizeof(name), de->d_name) < 0)
			continue;
		if (t->nwheels >= MAX_TORCH_WHEELS) {
			facts_dropped(f, "nvidia-* wheels beside torch", MAX_TORCH_WHEELS, 1);
			continue;
		}
		name[strlen(name) - 10] = '\0';
		if ((dash = strchr(name, '-')))
			*dash = ' ';
		str_copy(t->wheels[t->nwheels++], sizeof(t->wheels[0]), name);
	}
	closedir(d);
	/* Directory order is the filesystem's: sort for a stable report. */
	qsort(t->wheels, (size_t)t->nwheels, sizeof(t->wheels[0]), (int (*)(const void *, const void *))strcmp);
	qsort(t->packages, (size_t)t->npackages, sizeof(t->packages[0]), (int (*)(const void *, const void *))strcmp);
}

/* conda-meta/NAME-VERSION-BUILD.json: the file names say enough. */
static void read_conda_meta(const struct rootfs *fs, const char *site, struct torch_install *t)
{
	char prefix[FACT_PATH], meta[FACT_PATH];
	const char *lib = strstr(site, "/lib/python");
	DIR *d;
	struct dirent *de;

	if (!lib || (size_t)(lib - site) >= sizeof(prefix))
		return;
	memcpy(prefix, site, (size_t)(lib - site));
	prefix[lib - site] = '\0';
	if (path_join(meta, sizeof(meta), prefix, "conda-meta") < 0 || !(d = rootfs_opendir(fs, meta)))
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		char stem[128];

		if (!str_ends_with(n, ".json") || str_copy(stem, sizeof(stem), n) < 0)
			continue;
		stem[strlen(stem) - 5] = '\0';
		if (str_starts_with(stem, "pytorch-cuda-"))
			version_prefix(stem + 13, 2, t->conda_pytorch_cuda, sizeof(t->conda_pytorch_cuda));
		else if (str_starts_with(stem, "pytorch-") && char_is_digit((unsigned char)stem[8]))
			str_copy(t->conda_pytorch, sizeof(t->conda_pytorch), stem);
		else if (str_starts_with(stem, "cudatoolkit-"))
			version_prefix(stem + 12, 2, t->conda_cudatoolkit, sizeof(t->conda_cudatoolkit));
		else if (str_starts_with(stem, "cpuonly-"))
			t->conda_cpuonly = true;
		else if (str_starts_with(stem, "torchvision-"))
			t->conda_vision = true;
		else if (str_starts_with(stem, "torchaudio-"))
			t->conda_audio = true;
	}
	closedir(d);
	if (t->conda_pytorch[0] && strcmp(t->installer, "unknown") == 0)
		str_copy(t->installer, sizeof(t->installer), "conda");
}

/* torch-2.1.0+cu121.dist-info/INSTALLER says who installed it. */
static void read_dist_info(const struct rootfs *fs, const char *site, struct torch_install *t)
{
	DIR *d = rootfs_opendir(fs, site);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		char path[FACT_PATH], line[32];

		if (!str_starts_with(n, "torch-") || !(str_ends_with(n, ".dist-info") || str_ends_with(n, ".egg-info")))
			continue;
		str_copy(t->dist_version, sizeof(t->dist_version), n + 6);
		t->dist_version[strlen(t->dist_version) - (str_ends_with(n, ".dist-info") ? 10 : 9)] = '\0';
		if (str_printf(path, sizeof(path), "%s/%s/INSTALLER", site, n) == 0 &&
		    rootfs_read_line(fs, path, line, sizeof(line)) == 0 && str_trim(line)[0])
			str_copy(t->installer, sizeof(t->installer), line);
		if (str_ends_with(n, ".dist-info") && str_printf(path, sizeof(path), "%s/%s/METADATA", site, n) == 0 &&
		    rootfs_exists(fs, path))
			str_copy(t->metadata, sizeof(t->metadata), path);
		break;
	}
	closedir(d);
}

static int add_torch(struct facts *f, const struct rootfs *fs, const char *site, const char *home)
{
	struct python_facts *p = &f->python;
	struct torch_install *t;
	char dir[FACT_PATH], vpath[FACT_PATH], *text = NULL, debug[16] = "";

	if (path_join(dir, sizeof(dir), site, "torch") < 0 || path_join(vpath, sizeof(vpath), dir, "version.py") < 0 ||
	    !rootfs_exists(fs, vpath))
		return -1;
	for (int i = 0; i < p->ntorch; i++)
		if (strcmp(p->torches[i].dir, dir) == 0)
			return i;
	if (p->ntorch >= MAX_TORCHES) {
		facts_dropped(f, "torch installs", MAX_TORCHES, 1);
		return -1;
	}
	if (rootfs_read(fs, vpath, VERSION_PY_MAX, &text, NULL, NULL, NULL) < 0)
		return -1;
	t = &p->torches[p->ntorch];
	memset(t, 0, sizeof(*t));
	str_copy(t->dir, sizeof(t->dir), dir);
	torch_version_field(text, "__version__", t->version, sizeof(t->version));
	torch_version_field(text, "cuda", t->cuda, sizeof(t->cuda));
	torch_version_field(text, "hip", t->hip, sizeof(t->hip));
	torch_version_field(text, "debug", debug, sizeof(debug));
	t->debug = strcmp(debug, "True") == 0;
	free(text);
	read_dist_info(fs, site, t);
	read_wheels(f, fs, site, t);
	read_conda_meta(fs, site, t);
	if (!t->installer[0])
		str_copy(t->installer, sizeof(t->installer),
			 str_starts_with(site, "/usr/lib/python3/dist-packages") ? "debian" : "unknown");
	t->user_site = home && str_starts_with(site, home) && strstr(site, "/.local/lib/");
	return p->ntorch++;
}

/*
 * The ELF reads are the costly part: only for the torch the diagnosed interpreter imports. Its declared
 * requirements are judged for that interpreter too (markers depend on its Python version).
 */
static void read_selected_libs(struct facts *f, const struct probe_ctx *ctx)
{
	struct python_facts *p = &f->python;
	const struct python_env *py;
	struct torch_install *t;

	if (p->selected < 0 || p->envs[p->selected].torch < 0)
		return;
	py = &p->envs[p->selected];
	t = &p->torches[py->torch];
	if (t->metadata[0]) {
		struct marker_env env = { py->version, f->system.arch };

		torch_requires_read(f, ctx->fs, &env, t);
		torch_requires_check(ctx->fs, py, t);
	}
	if (t->cuda[0])
		probe_torch_libs(f, ctx, t);
}

/* A directory on py's import path, reached through from: the first torch is imported, the next one hidden. */
static void look_in(struct facts *f, const struct rootfs *fs, struct python_env *py, const char *dir, const char *from,
		    const char *home)
{
	int t = add_torch(f, fs, dir, home);

	if (t < 0)
		return;
	if (py->torch < 0) {
		py->torch = t;
		str_copy(py->torch_from, sizeof(py->torch_from), from);
	} else if (py->torch_shadowed < 0 && t != py->torch) {
		py->torch_shadowed = t;
		str_copy(py->torch_shadowed_from, sizeof(py->torch_shadowed_from), from);
	}
}

/*
 * Called by probe_python, not by probe_all: finds torch on each interpreter's import path (PYTHONPATH, site
 * directories, what .pth files add) in import order (the first is what it imports, the next one shadowed).
 * The costly ELF reads are made only for the selected interpreter's CUDA build.
 */
void probe_torch(struct facts *f, const struct probe_ctx *ctx)
{
	struct python_facts *p = &f->python;
	const char *home = facts_env(f, "HOME");

	for (int i = 0; i < p->count; i++) {
		struct python_env *py = &p->envs[i];

		/* PYTHONPATH first, then each site directory followed by what its .pth files add */
		for (int k = 0; k < py->npath_dirs; k++)
			if (py->path_dirs[k].after_site == -1)
				look_in(f, ctx->fs, py, py->path_dirs[k].dir, "PYTHONPATH", home);
		for (int s = 0; s < py->nsite; s++) {
			look_in(f, ctx->fs, py, py->site_dirs[s], "site", home);
			for (int k = 0; k < py->npath_dirs; k++)
				if (py->path_dirs[k].after_site == s)
					look_in(f, ctx->fs, py, py->path_dirs[k].dir, py->path_dirs[k].pth, home);
		}
		/* an editable install's finder answers only when the whole path had no torch */
		for (int k = 0; k < py->npath_dirs; k++)
			if (py->path_dirs[k].after_site == PATH_AFTER_ALL)
				look_in(f, ctx->fs, py, py->path_dirs[k].dir, py->path_dirs[k].pth, home);
	}
	read_selected_libs(f, ctx);
}
