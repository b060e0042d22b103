/*
 * probe.h - the probes that fill struct facts.
 *
 * Probes read files through the rootfs and never print. A probe never
 * fails as a whole: what it cannot learn becomes a status with a reason.
 * They run in a fixed order because later probes read earlier facts
 * (the library search uses LD_LIBRARY_PATH from the environment probe).
 */
#ifndef GD_PROBE_PROBE_H
#define GD_PROBE_PROBE_H

#include "probe/facts.h"
#include "util/rootfs.h"

struct loader;

struct probe_ctx {
	const struct rootfs *fs;	/* the machine's files (borrowed); its denied log, when set, lets probe_all
				   tell unreadable from missing */
	char *const *envp;	/* the environment to diagnose (borrowed) */
	struct loader *loader;	/* built by probe_all after the environment probe */
	double timeout_s;	/* deadline for driver calls; 0 = the default (10 s) */
	bool static_only;	/* read files only, never call the driver */
	bool load_root_libs;	/* under --root, load and call the image's driver libraries */
	const char *python;	/* --python: the interpreter to diagnose, NULL for the one on PATH */
	bool deep;		/* --deep: import torch in it even without a usable GPU */
	bool fast;		/* --fast: never run the interpreter */
};

void probe_env(struct facts *f, const struct probe_ctx *ctx);
/* Where CUDA_VISIBLE_DEVICES was set: a job scheduler, or a profile file read statically. */
void probe_env_origin(struct facts *f, const struct probe_ctx *ctx);
void probe_system(struct facts *f, const struct probe_ctx *ctx);
void probe_container(struct facts *f, const struct probe_ctx *ctx);
void probe_pci(struct facts *f, const struct probe_ctx *ctx);
/* On a host with a container engine: the NVIDIA Container Toolkit, Docker/containerd settings, CDI specs. */
void probe_container_host(struct facts *f, const struct probe_ctx *ctx);
void probe_kmod(struct facts *f, const struct probe_ctx *ctx);
void probe_devnodes(struct facts *f, const struct probe_ctx *ctx);
/* What the NVIDIA driver wrote to the kernel log since this boot (live /dev/kmsg, else the syslog files). */
void probe_kernlog(struct facts *f, const struct probe_ctx *ctx);
/* Slurm's gres.conf: the GPUs it promises this node. */
void probe_gres(struct facts *f, const struct probe_ctx *ctx);
void probe_libs(struct facts *f, const struct probe_ctx *ctx);
void probe_toolkits(struct facts *f, const struct probe_ctx *ctx);
void probe_cudnn(struct facts *f, const struct probe_ctx *ctx);
/* Python interpreters and their torch (static), then the optional deep probe. */
void probe_python(struct facts *f, const struct probe_ctx *ctx);
void probe_torch(struct facts *f, const struct probe_ctx *ctx);
void probe_torch_deep(struct facts *f, const struct probe_ctx *ctx);
/* Calls NVML and the CUDA driver API in a helper process with a deadline. */
void probe_runtime(struct facts *f, const struct probe_ctx *ctx);
/* The owners and command lines of the processes NVML listed, from /proc (not inside a container). */
void probe_gpu_processes(struct facts *f, const struct probe_ctx *ctx);

/* Run every probe in dependency order, the driver calls and the deep probe last (they follow
 * --static, --fast and --deep); ctx->loader is set up and
 * released inside. */
void probe_all(struct facts *f, struct probe_ctx *ctx);

/*
 * The NVML library the driver probe would load, after probe_libs, as this process names it (the soname
 * live; the file inside the root under --root), into out. Returns NULL, or why there is none to call
 * (out is then ""): no library, or an image's own library without load_root_libs.
 */
const char *probe_nvml_file(const struct facts *f, const struct rootfs *fs, bool load_root_libs, char *out,
			    size_t outsz);

/*
 * Join NVML's processes with /proc: the owner and command line of each pid visible here (gpu_procs.c).
 * Inside a container the pids are the host's and are left alone: returns true then.
 */
bool probe_join_processes(struct nvml_device *devs, int ndev, bool in_container, const struct rootfs *fs);

#endif
