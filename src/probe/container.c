/*
 * container.c - are we inside Docker/Podman/Kubernetes/LXC, or WSL?
 *
 * A container changes which facts mean what: the kernel module lives on the
 * host (so "not on disk" is normal), and /dev/nvidia* exist only when the
 * runtime injected them.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/i18n.h"
#include "util/str.h"

#define PROC_TEXT_MAX (1024 * 1024)

static void set_runtime(struct container_facts *c, const char *runtime, const char *evidence)
{
	if (c->in_container)
		return;
	c->in_container = true;
	str_copy(c->runtime, sizeof(c->runtime), runtime);
	str_copy(c->evidence, sizeof(c->evidence), evidence);
}

/*
 * The file system type mounted at / in a mountinfo text (proc(5): "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS
 * [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS"); the last such line wins, as a later mount hides an earlier one.
 */
int mountinfo_root_fstype(const char *text, char *out, size_t outsz)
{
	int found = -1;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char buf[1024], *save = NULL, *field[5] = { NULL }, *w, *sep;
		size_t len = strcspn(line, "\n");
		int n = 0;

		if (len >= sizeof(buf))
			continue;
		memcpy(buf, line, len);
		buf[len] = '\0';
		sep = strstr(buf, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (w = strtok_r(buf, " ", &save); w && n < 5; w = strtok_r(NULL, " ", &save))
			field[n++] = w;
		if (n < 5 || strcmp(field[4], "/") != 0)
			continue;
		w = strtok_r(sep + 3, " ", &save);
		if (w) {
			str_copy(out, outsz, w);
			found = 0;
		}
	}
	return found;
}

static void detect_container(struct facts *f, const struct rootfs *fs, char *const *envp)
{
	struct container_facts *c = &f->container;
	char *text = NULL, fstype[32];

	if (rootfs_exists(fs, "/.dockerenv"))
		set_runtime(c, "docker", N_("/.dockerenv exists"));
	if (rootfs_exists(fs, "/run/.containerenv"))
		set_runtime(c, "podman", N_("/run/.containerenv exists"));
	for (char *const *e = envp; e && *e; e++) {
		if (str_starts_with(*e, "KUBERNETES_SERVICE_HOST="))
			set_runtime(c, "kubernetes", N_("KUBERNETES_SERVICE_HOST is set"));
		else if (str_starts_with(*e, "container="))
			set_runtime(c, *e + 10, N_("the container variable is set"));
	}
	if (rootfs_read(fs, "/proc/1/cgroup", PROC_TEXT_MAX, &text, NULL, NULL, NULL) == 0) {
		if (strstr(text, "/kubepods"))
			set_runtime(c, "kubernetes", "/proc/1/cgroup names kubepods");
		else if (strstr(text, "/docker/") || strstr(text, "docker-"))
			set_runtime(c, "docker", "/proc/1/cgroup names docker");
		else if (strstr(text, "/lxc/") || strstr(text, "lxc.payload"))
			set_runtime(c, "lxc", "/proc/1/cgroup names lxc");
		else if (strstr(text, "containerd"))
			set_runtime(c, "containerd", "/proc/1/cgroup names containerd");
		free(text);
	}
	if (rootfs_exists(fs, "/sys/fs/cgroup/cgroup.controllers"))
		c->cgroup_version = 2;
	else if (rootfs_is_dir(fs, "/sys/fs/cgroup/memory") || rootfs_is_dir(fs, "/sys/fs/cgroup/devices"))
		c->cgroup_version = 1;
	/* The NVIDIA container runtime bind-mounts driver files it injects. */
	if (rootfs_read(fs, "/proc/self/mountinfo", PROC_TEXT_MAX, &text, NULL, NULL, NULL) == 0) {
		if (strstr(text, "/libcuda.so") || strstr(text, "/libnvidia-ml.so") ||
		    strstr(text, " /dev/nvidiactl ") || strstr(text, "/nvidia-smi "))
			c->nvidia_mounts = true;
		if (!c->in_container && mountinfo_root_fstype(text, fstype, sizeof(fstype)) == 0 &&
		    (strcmp(fstype, "overlay") == 0 || strcmp(fstype, "fuse-overlayfs") == 0))
			set_runtime(c, "unknown", "the root filesystem is an overlay");
		free(text);
	}
	c->nvidia_image = facts_env_is_set(f, "NVIDIA_REQUIRE_CUDA") || facts_env_is_set(f, "CUDA_VERSION") ||
			  facts_env_is_set(f, "NV_CUDA_CUDART_VERSION");
}

static void detect_wsl(struct facts *f, const struct rootfs *fs)
{
	struct container_facts *c = &f->container;
	const char *rel = f->system.kernel_release;

	c->dev_dxg = rootfs_exists(fs, "/dev/dxg");
	c->wsl_lib_dir = rootfs_is_dir(fs, "/usr/lib/wsl/lib");
	c->wsl_libcuda = rootfs_exists(fs, "/usr/lib/wsl/lib/libcuda.so.1") ||
			 rootfs_exists(fs, "/usr/lib/wsl/lib/libcuda.so");
	if (str_casestr(rel, "microsoft-standard-WSL2")) {
		c->wsl = true;
		c->wsl_version = 2;
		str_printf(c->wsl_evidence, sizeof(c->wsl_evidence), "kernel release %s", rel);
	} else if (str_casestr(rel, "microsoft")) {
		c->wsl = true;
		c->wsl_version = str_casestr(rel, "WSL2") ? 2 : 1;
		str_printf(c->wsl_evidence, sizeof(c->wsl_evidence), "kernel release %s", rel);
	} else if (rootfs_exists(fs, "/proc/sys/fs/binfmt_misc/WSLInterop") ||
		   rootfs_exists(fs, "/proc/sys/fs/binfmt_misc/WSLInterop-late")) {	/* the name under systemd */
		c->wsl = true;
		str_copy(c->wsl_evidence, sizeof(c->wsl_evidence), "WSLInterop is registered");
	}
	if (c->wsl && c->wsl_version == 0 && c->dev_dxg)
		c->wsl_version = 2;	/* only WSL 2 has a GPU paravirtualisation device */
}

/*
 * Container runtime and WSL, the first evidence found winning. Needs probe_env and probe_system done (reads
 * NVIDIA_* variables and the kernel release from f) but reads KUBERNETES_SERVICE_HOST and container= from
 * ctx->envp. Sets no section status: not knowing reads as "not in a container".
 */
void probe_container(struct facts *f, const struct probe_ctx *ctx)
{
	detect_container(f, ctx->fs, ctx->envp);
	detect_wsl(f, ctx->fs);
}
