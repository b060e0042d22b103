/*
 * container_host.c - on a host with a container engine: the NVIDIA
 * Container Toolkit, the engines' runtime configuration, and CDI specs.
 *
 * Read only where it matters: not inside a container (the toolkit lives on
 * the host), not under WSL, and only when an engine (Docker, containerd,
 * Podman) is evidently installed, by its programs or its configuration. A
 * workstation without one gets nothing here.
 *
 * Formats, as their writers produce them:
 *   - /etc/docker/daemon.json: `nvidia-ctk runtime configure --runtime=docker`
 *     adds {"runtimes": {"nvidia": {"args": [], "path": "nvidia-container-runtime"}}}
 *     (nvidia-container-toolkit pkg/config/engine/docker); older nvidia-docker2
 *     wrote "runtimeArgs" and a full path. Read with jansson.
 *   - /etc/containerd/config.toml: a [plugins...runtimes.nvidia] table whose
 *     BinaryName is nvidia-container-runtime; searched as text, not parsed.
 *   - CDI specs (/etc/cdi, /var/run/cdi; `nvidia-ctk cdi generate`): YAML or
 *     JSON. For YAML only what is needed is read, line by line: the top-level
 *     `kind:` and every `hostPath:` value (a bounded reader, not a YAML parser:
 *     flow style, anchors and multi-line scalars are not understood, and a spec
 *     written that way yields no host paths). JSON specs are parsed with jansson.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "probe/loader.h"
#include "probe/probe_internal.h"
#include "util/i18n.h"
#include "util/path.h"
#include "util/str.h"

#define CONFIG_MAX (1024 * 1024)
#define CDI_SPEC_MAX (4 * 1024 * 1024)
#define CDI_MAX_PATHS 512		/* host paths checked per spec */

static bool find_program(const struct facts *f, const struct rootfs *fs, const char *name, char *out, size_t outsz)
{
	static const char *const dirs[] = { "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/bin",
					    "/sbin", "/snap/bin" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[FACT_PATH];

		if (path_join(path, sizeof(path), dirs[i], name) == 0 && rootfs_exists(fs, path))
			return str_copy(out, outsz, path) == 0;
	}
	return probe_find_on_path(f, fs, name, out, outsz);
}

static void add_engine(struct container_host_facts *h, const char *name, const char *evidence)
{
	size_t n = strlen(h->engines);

	if (strstr(h->engines, name))
		return;
	str_printf(h->engines + n, sizeof(h->engines) - n, "%s%s (%s)", n ? ", " : "", name, evidence);
	h->engine = true;
}

static void find_engines(struct facts *f, const struct rootfs *fs)
{
	struct container_host_facts *h = &f->container_host;
	static const struct {
		const char *program, *engine;
	} programs[] = { { "dockerd", "docker" }, { "docker", "docker" }, { "containerd", "containerd" },
			 { "podman", "podman" } };
	char path[FACT_PATH];

	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
		if (find_program(f, fs, programs[i].program, path, sizeof(path)))
			add_engine(h, programs[i].engine, path);
	if (rootfs_exists(fs, "/etc/docker/daemon.json"))
		add_engine(h, "docker", "/etc/docker/daemon.json");
	if (rootfs_exists(fs, "/etc/containerd/config.toml"))
		add_engine(h, "containerd", "/etc/containerd/config.toml");
	h->docker = strstr(h->engines, "docker") != NULL;
	h->containerd = strstr(h->engines, "containerd") != NULL;
}

static int note_library(const char *path, enum lib_origin origin, void *arg)
{
	char *out = arg;

	(void)origin;
	if (!out[0])
		str_copy(out, FACT_PATH, path);
	return 1;
}

static void find_toolkit(struct facts *f, const struct probe_ctx *ctx)
{
	struct container_host_facts *h = &f->container_host;

	find_program(f, ctx->fs, "nvidia-ctk", h->nvidia_ctk, sizeof(h->nvidia_ctk));
	find_program(f, ctx->fs, "nvidia-container-cli", h->nvidia_container_cli, sizeof(h->nvidia_container_cli));
	find_program(f, ctx->fs, "nvidia-container-runtime", h->nvidia_container_runtime,
		     sizeof(h->nvidia_container_runtime));
	find_program(f, ctx->fs, "nvidia-container-runtime-hook", h->nvidia_container_runtime_hook,
		     sizeof(h->nvidia_container_runtime_hook));
	if (ctx->loader)
		loader_scan_prefix(ctx->loader, "libnvidia-container.so.1", note_library, h->libnvidia_container);
	h->toolkit_config = rootfs_exists(ctx->fs, "/etc/nvidia-container-runtime/config.toml");
}

/* A runtime entry whose "path" runs the NVIDIA Container Runtime. */
static bool is_nvidia_runtime(json_t *rt)
{
	json_t *path = json_object_get(rt, "path");

	return json_is_string(path) && strstr(json_string_value(path), "nvidia-container-runtime") != NULL;
}

static void read_daemon_json(struct facts *f, const struct rootfs *fs)
{
	struct container_host_facts *h = &f->container_host;
	char *text = NULL;
	struct error err;
	json_t *root, *runtimes, *rt, *def;
	const char *name;

	if (rootfs_read(fs, "/etc/docker/daemon.json", CONFIG_MAX, &text, NULL, NULL, &err) < 0) {
		h->docker_config = err.code == ENOENT ? 0 : -1;
		return;
	}
	root = json_loads(text, 0, NULL);
	free(text);
	if (!json_is_object(root)) {
		h->docker_config = -1;	/* dockerd refuses to start with it too */
		json_decref(root);
		return;
	}
	h->docker_config = 1;
	runtimes = json_object_get(root, "runtimes");
	json_object_foreach(runtimes, name, rt) {
		if (is_nvidia_runtime(rt) && !h->docker_runtime[0])
			str_copy(h->docker_runtime, sizeof(h->docker_runtime), name);
	}
	def = json_object_get(root, "default-runtime");
	if (json_is_string(def))
		str_copy(h->docker_default_runtime, sizeof(h->docker_default_runtime), json_string_value(def));
	json_decref(root);
}

static void read_containerd(struct facts *f, const struct rootfs *fs)
{
	struct container_host_facts *h = &f->container_host;
	char *text = NULL;

	if (rootfs_read(fs, "/etc/containerd/config.toml", CONFIG_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	h->containerd_runtime = strstr(text, "nvidia-container-runtime") != NULL;
	free(text);
}

/* The driver version in a host path: libcuda.so.550.54.15, libnvidia-ml.so.575.64.03 -> the version. */
static bool driver_version_in(const char *path, char *out, size_t outsz)
{
	static const char *const names[] = { "/libcuda.so.", "/libnvidia-ml.so." };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *p = strstr(path, names[i]);

		if (p && version_is_valid(p + strlen(names[i])) && strchr(p + strlen(names[i]), '.'))
			return str_copy(out, outsz, p + strlen(names[i])) == 0;
	}
	return false;
}

static void spec_host_path(struct cdi_spec *s, const struct rootfs *fs, const char *path)
{
	if (s->checked >= CDI_MAX_PATHS)
		return;
	s->checked++;
	if (!s->driver_version[0])
		driver_version_in(path, s->driver_version, sizeof(s->driver_version));
	if (rootfs_exists(fs, path))
		return;
	if (!s->missing++)
		str_copy(s->missing_example, sizeof(s->missing_example), path);
}

/* The value of a `key: value` line, unquoted, into out; false for other lines. */
static bool yaml_value(const char *line, const char *key, char *out, size_t outsz)
{
	const char *p = line;
	size_t n;

	while (*p == ' ' || *p == '-')
		p++;
	if (!str_starts_with(p, key) || p[strlen(key)] != ':')
		return false;
	p += strlen(key) + 1;
	while (*p == ' ')
		p++;
	n = strcspn(p, "\r\n");
	if (n >= 2 && (p[0] == '"' || p[0] == '\'') && p[n - 1] == p[0]) {
		p++;
		n -= 2;
	}
	if (n >= outsz)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

static void read_yaml_spec(struct cdi_spec *s, const struct rootfs *fs, char *text)
{
	char *next;

	for (char *line = text; line; line = next) {
		char value[FACT_PATH];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] != ' ' && line[0] != '-' && yaml_value(line, "kind", value, sizeof(value)))
			str_copy(s->kind, sizeof(s->kind), value);
		else if (yaml_value(line, "hostPath", value, sizeof(value)) && value[0] == '/')
			spec_host_path(s, fs, value);
	}
}

static void json_mounts(struct cdi_spec *s, const struct rootfs *fs, json_t *edits)
{
	size_t i;
	json_t *m;

	json_array_foreach(json_object_get(edits, "mounts"), i, m) {
		json_t *hp = json_object_get(m, "hostPath");

		if (json_is_string(hp) && json_string_value(hp)[0] == '/')
			spec_host_path(s, fs, json_string_value(hp));
	}
}

static void read_json_spec(struct cdi_spec *s, const struct rootfs *fs, const char *text)
{
	json_t *root = json_loads(text, 0, NULL), *kind, *dev;
	size_t i;

	if (!root)
		return;
	kind = json_object_get(root, "kind");
	if (json_is_string(kind))
		str_copy(s->kind, sizeof(s->kind), json_string_value(kind));
	json_mounts(s, fs, json_object_get(root, "containerEdits"));
	json_array_foreach(json_object_get(root, "devices"), i, dev)
		json_mounts(s, fs, json_object_get(dev, "containerEdits"));
	json_decref(root);
}

static void read_cdi_dir(struct facts *f, const struct rootfs *fs, const char *dir)
{
	struct container_host_facts *h = &f->container_host;
	DIR *d = rootfs_opendir(fs, dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		bool yaml = str_ends_with(de->d_name, ".yaml") || str_ends_with(de->d_name, ".yml");
		struct cdi_spec s = { 0 };
		char *text = NULL;

		if (!yaml && !str_ends_with(de->d_name, ".json"))
			continue;
		if (path_join(s.path, sizeof(s.path), dir, de->d_name) < 0 ||
		    rootfs_read(fs, s.path, CDI_SPEC_MAX, &text, NULL, NULL, NULL) < 0)
			continue;
		if (yaml)
			read_yaml_spec(&s, fs, text);
		else
			read_json_spec(&s, fs, text);
		free(text);
		if (!str_starts_with(s.kind, "nvidia.com/"))
			continue;	/* another vendor's devices */
		if (h->ncdi >= MAX_CDI_SPECS) {
			facts_dropped(f, "NVIDIA CDI specs", MAX_CDI_SPECS, 1);
			continue;
		}
		h->cdi[h->ncdi++] = s;
	}
	closedir(d);
}

/*
 * Fills f->container_host on a host (not in a container, not WSL) with an NVIDIA GPU on the bus and an
 * evident container engine; otherwise leaves it "not applicable". Needs probe_container and probe_pci
 * done; uses ctx->loader for libnvidia-container.so.1 when set.
 */
void probe_container_host(struct facts *f, const struct probe_ctx *ctx)
{
	struct container_host_facts *h = &f->container_host;

	if (f->container.in_container || f->container.wsl || f->pci.count == 0) {
		fact_status_set(&h->status, FACT_UNKNOWN, "not applicable: %s", f->container.in_container ?
				N_("inside a container") : f->container.wsl ? N_("under WSL") : N_("no NVIDIA GPU on the bus"));
		return;
	}
	find_engines(f, ctx->fs);
	if (!h->engine) {
		fact_status_set(&h->status, FACT_ABSENT, "no container engine installed");
		return;
	}
	h->status.state = FACT_OK;
	find_toolkit(f, ctx);
	read_daemon_json(f, ctx->fs);
	read_containerd(f, ctx->fs);
	read_cdi_dir(f, ctx->fs, "/etc/cdi");
	read_cdi_dir(f, ctx->fs, "/var/run/cdi");
}
