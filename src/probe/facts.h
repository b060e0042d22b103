/*
 * facts.h - the model every probe fills and every rule and renderer reads.
 *
 * One struct facts describes one machine. Each section carries a status:
 * a value that could not be read is never silently zero, it is
 * FACT_UNKNOWN or FACT_ERROR with a reason a person can act on.
 *
 * Sizes are fixed so that the model is a single allocation with one owner
 * (facts_new/facts_free); strings that would not fit are cut and the cut is
 * recorded as a probe note rather than overrunning anything.
 */
#ifndef GD_PROBE_FACTS_H
#define GD_PROBE_FACTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define FACT_PATH 512
#define FACT_TEXT 128
#define FACT_VER 32

#define MAX_PCI_GPUS 32
#define MAX_DEVNODES 48
#define MAX_LIB_CANDIDATES 16
#define MAX_TOOLKITS 16
#define MAX_CUDNN 16
#define MAX_ENV_VARS 48
#define MAX_GROUPS 64
#define MAX_NOTES 16
#define MAX_DKMS 8

enum fact_state {
	FACT_OK,	/* read and understood */
	FACT_ABSENT,	/* looked for and not there: itself a fact */
	FACT_UNKNOWN,	/* could not be determined (not applicable, not permitted) */
	FACT_ERROR,	/* there, but unreadable or malformed */
};

struct fact_status {
	enum fact_state state;
	bool denied;		/* UNKNOWN because files it needs could not be read (permission) */
	char reason[FACT_TEXT * 2];
	/* reason in the report's language when a translation is active and it reads otherwise, else "" */
	char reason_local[FACT_TEXT * 3];
};

/* 1. the operating system and the user we run as */
struct user_facts {
	char name[64];
	uid_t uid;
	gid_t gids[MAX_GROUPS];	/* primary group first */
	int ngids;
	int gids_dropped;	/* groups beyond MAX_GROUPS */
	bool is_root;
	char source[FACT_PATH];	/* where uid and groups came from */
};

struct system_facts {
	struct fact_status status;
	char os_id[32], os_id_like[64], os_version_id[32], os_pretty[FACT_TEXT];
	char hostname[72];		/* HOST_NAME_MAX is 64; "" when unknown */
	char kernel_release[FACT_TEXT];
	char arch[32];
	char glibc_version[FACT_VER];
	char cpu_model[FACT_TEXT];
	int cpu_count;
	uint64_t mem_total_kib, mem_available_kib;
	struct user_facts user;
};

/* 2. NVIDIA display/3D controllers on the PCI bus */
struct pci_gpu {
	char address[32];		/* 0000:01:00.0 */
	uint16_t vendor, device, subsys_vendor, subsys_device;
	uint32_t class_code;
	char driver[32];		/* bound kernel driver, "" when none */
	char name[FACT_TEXT];		/* from pci.ids, "" when unknown */
	char kb_name[FACT_TEXT];	/* from the built-in GPU table, "" when not listed */
	char cc[8];			/* compute capability from the GPU table, "" when unknown */
	char arch[16];			/* architecture family from the GPU table */
	char link_speed[32], max_link_speed[32];
	int link_width, max_link_width;	/* -1 when unknown */
	int numa_node;
	bool config_readable;
	bool fallen_off_bus;		/* config space reads all ones */
	uint64_t aer_fatal;		/* fatal AER errors, 0 when unknown */
	char sysfs_path[FACT_PATH];
};

struct pci_facts {
	struct fact_status status;
	int count;
	struct pci_gpu gpus[MAX_PCI_GPUS];
	int other_display_count;	/* non-NVIDIA display controllers */
	char other_display[FACT_TEXT];	/* e.g. "8086:46a6 (i915)" */
	char ids_source[FACT_PATH];	/* the pci.ids used for names */
};

/* 3. the kernel driver */
struct devnode {
	char path[64];
	bool present;
	bool is_char_device;
	unsigned mode;			/* permission bits */
	char owner[32], group[32];
	int major, minor;
	bool can_read, can_write;	/* for the user we diagnose */
	bool from_standin;		/* described by a scenario stand-in file */
};

struct kmod_facts {
	struct fact_status status;
	/* /proc/driver/nvidia/version */
	char nvrm_version[FACT_VER];
	char nvrm_line[FACT_TEXT * 2];
	bool open_kernel_module;
	char sys_module_version[FACT_VER];	/* /sys/module/nvidia/version */
	/* /proc/modules */
	struct fact_status modules_status;
	bool nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nouveau;
	/* /lib/modules/<release> */
	struct fact_status on_disk_status;
	bool module_on_disk;
	char module_path[FACT_PATH];
	bool module_signed;			/* signature appended; false if unknown */
	bool module_signature_known;
	char module_license[32];		/* its .modinfo license: "Dual MIT/GPL" (open flavour), "NVIDIA"; "" unknown */
	char dkms_versions[MAX_DKMS][FACT_VER];	/* /var/lib/dkms/nvidia/<ver> */
	int dkms_count;
	bool dkms_built_for_kernel;
	/* configuration */
	bool nouveau_blacklisted;
	char blacklist_source[FACT_PATH];
	int secure_boot;			/* 1 on, 0 off, -1 unknown */
	char secure_boot_source[FACT_PATH];
	bool nvidia_modprobe;			/* /usr/bin/nvidia-modprobe exists */
	bool nvidia_smi;			/* nvidia-smi in a standard place */
	char nvidia_smi_path[FACT_PATH];
	/* /dev */
	struct devnode nodes[MAX_DEVNODES];
	int node_count;
};

/* 4. user-space driver libraries, as the dynamic loader would find them */
enum lib_origin {
	LIB_FROM_PRELOAD,
	LIB_FROM_LD_LIBRARY_PATH,
	LIB_FROM_LDCACHE,
	LIB_FROM_LDCONF,	/* in an ld.so.conf directory, no cache read */
	LIB_FROM_DEFAULT_DIR,
	LIB_FROM_WSL,
};

struct lib_candidate {
	char soname[48];
	char path[FACT_PATH];		/* the name the loader opens */
	char resolved[FACT_PATH];	/* after following links */
	char version[FACT_VER];		/* from the resolved file name */
	enum lib_origin origin;
	bool is_stub;
	bool in_cache_dir_only;		/* present in a conf dir, missing from the cache */
};

struct lib_choice {
	struct fact_status status;	/* ABSENT when the loader would find nothing */
	int chosen;			/* index into candidates, -1 for none */
	struct lib_candidate candidates[MAX_LIB_CANDIDATES];
	int count;
};

struct libs_facts {
	struct fact_status ldcache_status;
	char ldcache_source[FACT_PATH];
	int ldcache_entries;
	struct lib_choice cuda;		/* libcuda.so.1 */
	struct lib_choice nvml;		/* libnvidia-ml.so.1 */
	bool stubs_on_search_path;	/* a stubs/ dir with libcuda on a search path */
	char stubs_dir[FACT_PATH];
};

/* 5. CUDA toolkits */
enum toolkit_origin_bits {
	TK_FROM_SCAN = 1 << 0,		/* /usr/local/cuda-*, /opt/cuda* */
	TK_FROM_DEFAULT_LINK = 1 << 1,	/* /usr/local/cuda */
	TK_FROM_CUDA_HOME = 1 << 2,
	TK_FROM_CUDA_PATH = 1 << 3,
	TK_FROM_CUDA_ROOT = 1 << 4,
	TK_FROM_NVCC_PATH = 1 << 5,	/* the nvcc found on PATH */
};

struct toolkit {
	char path[FACT_PATH];		/* as found (may be a link) */
	char real_path[FACT_PATH];	/* resolved */
	bool exists;
	char version[FACT_VER];		/* 12.4.131, 11.2.67, 12.4 */
	char version_source[FACT_PATH];
	bool has_nvcc;
	unsigned origins;
	bool active;
};

struct toolkit_facts {
	struct fact_status status;
	struct toolkit items[MAX_TOOLKITS];
	int count;
	int active;			/* index, -1 when none */
	char active_reason[FACT_TEXT];
	char nvcc_on_path[FACT_PATH];	/* resolved nvcc found on PATH, "" if none */
	char cwd[FACT_PATH];		/* the working directory diagnosed (PWD), "" when unknown */
	char extension_build[FACT_PATH];	/* setup.py/pyproject.toml there building a CUDAExtension, "" none */
};

/* 6. cuDNN */
enum cudnn_kind { CUDNN_HEADER, CUDNN_LIBRARY };

struct cudnn_item {
	enum cudnn_kind kind;
	char path[FACT_PATH];
	char version[FACT_VER];
	char where[48];			/* "toolkit", "system", "LD_LIBRARY_PATH", "ld.so.cache" */
	int cuda_major;			/* library: the CUDA major it was built for, 0 when unknown */
	char cuda_major_source[FACT_PATH];	/* what says so */
};

struct cudnn_facts {
	struct fact_status status;
	struct cudnn_item items[MAX_CUDNN];
	int count;
	int dropped;			/* found beyond MAX_CUDNN */
};

/* 7. environment variables that steer CUDA */
enum env_kind {
	ENV_PATHS,		/* PATH, LD_LIBRARY_PATH, CUDA_HOME ... */
	ENV_VISIBILITY,		/* CUDA_VISIBLE_DEVICES ... */
	ENV_TUNING,		/* PYTORCH_CUDA_ALLOC_CONF ... */
	ENV_DEBUG,		/* slows or breaks CUDA programs when left set */
	ENV_CONTAINER,		/* NVIDIA container toolkit and image variables */
};

struct env_var {
	const char *name;	/* static string from the known-variables table */
	enum env_kind kind;
	char *value;		/* owned by the facts */
};

enum visible_kind {
	VISIBLE_UNSET,
	VISIBLE_EMPTY,		/* set to "": hides every GPU */
	VISIBLE_NONE,		/* "-1", "none", "NoDevFiles" */
	VISIBLE_INDICES,
	VISIBLE_UUIDS,
	VISIBLE_MIG,
	VISIBLE_MIXED,
	VISIBLE_INVALID,
};

struct env_facts {
	struct env_var vars[MAX_ENV_VARS];	/* only the ones that are set */
	int count;
	enum visible_kind visible;
	int visible_indices[MAX_PCI_GPUS];
	int visible_index_count;
	char visible_invalid[64];		/* the first token CUDA would stop at */
	char visible_origin[FACT_PATH];		/* who set CUDA_VISIBLE_DEVICES: "Slurm job N" or a file, "" unknown */
	char visible_origin_detail[FACT_TEXT];	/* the scheduler's variable, or the file's line */
};

/* 8. containers and WSL */
struct container_facts {
	bool in_container;
	char runtime[32];		/* docker, podman, kubernetes, lxc, containerd, unknown */
	char evidence[FACT_TEXT * 2];
	int cgroup_version;		/* 1, 2, or 0 when unknown */
	bool nvidia_mounts;		/* mountinfo shows injected NVIDIA libraries/devices */
	bool nvidia_image;		/* NVIDIA_REQUIRE_CUDA / CUDA_VERSION / NV_* set */
	bool wsl;
	int wsl_version;		/* 1, 2, or 0 when unknown */
	char wsl_evidence[FACT_TEXT];
	bool dev_dxg;
	bool wsl_lib_dir;		/* /usr/lib/wsl/lib exists */
	bool wsl_libcuda;		/* /usr/lib/wsl/lib/libcuda.so.1 exists */
};

/* 8b. a host's container engines and the NVIDIA Container Toolkit (only outside containers) */
#define MAX_CDI_SPECS 8

struct cdi_spec {
	char path[FACT_PATH];
	char kind[64];			/* nvidia.com/gpu */
	char driver_version[FACT_VER];	/* from its libcuda/libnvidia-ml host paths, "" when none */
	int checked;			/* host paths looked at (at most 512) */
	int missing;			/* of those, not on this machine */
	char missing_example[FACT_PATH];	/* the first missing one */
};

struct container_host_facts {
	struct fact_status status;	/* UNKNOWN: not applicable; ABSENT: no container engine */
	bool engine;
	char engines[FACT_TEXT * 2];	/* "docker (/usr/bin/dockerd), containerd (/usr/bin/containerd)" */
	bool docker, containerd;
	/* the NVIDIA Container Toolkit's parts, "" when not found */
	char nvidia_ctk[FACT_PATH], nvidia_container_cli[FACT_PATH], nvidia_container_runtime[FACT_PATH];
	char nvidia_container_runtime_hook[FACT_PATH];
	char libnvidia_container[FACT_PATH];
	bool toolkit_config;		/* /etc/nvidia-container-runtime/config.toml */
	/* Docker's /etc/docker/daemon.json: 1 read, 0 absent, -1 unreadable or not a JSON object */
	int docker_config;
	char docker_runtime[32];	/* the runtime whose path is nvidia-container-runtime, "" none */
	char docker_default_runtime[32];
	bool containerd_runtime;	/* /etc/containerd/config.toml names nvidia-container-runtime */
	struct cdi_spec cdi[MAX_CDI_SPECS];
	int ncdi;
};

/* 9. the driver at run time: NVML and the CUDA driver API, called in an isolated child */
#define MAX_RT_DEVICES 16
#define MAX_RT_PROCS 8

struct nvml_device {
	char name[96], uuid[96], bus_id[32];
	unsigned pci_device_id;			/* 0 when unknown */
	long long mem_total_mib, mem_used_mib;	/* -1 when unknown, as every field below */
	int utilization, temperature_c;
	double power_w, power_limit_w;		/* < 0 when unknown */
	int persistence, compute_mode;		/* compute_mode: NVML_COMPUTEMODE_* */
	int mig_current, mig_pending, mig_instances;
	long long ecc_uncorrected;
	int retired_pending, remap_pending, remap_failure;
	int cc_major, cc_minor;
	int fan_percent;			/* of its maximum speed; -1 unknown or fanless */
	int pstate;				/* performance state 0 (fastest) .. 15; -1 unknown */
	int temp_slowdown_c;			/* where the GPU starts slowing itself down */
	long long clock_events;			/* nvmlClocksEventReason* bits holding clocks down; -1 unknown */
	int retired_sbe, retired_dbe;		/* pages retired (or pending) for single-/double-bit errors */
	int mem_utilization;			/* % of the last sample period the memory was read or written */
	int sm_clock_mhz, sm_clock_max_mhz;	/* now and the most it may run at */
	int mem_clock_mhz, mem_clock_max_mhz;
	int link_gen, link_width;		/* the PCIe link now (it drops at idle to save power) */
	int link_gen_max, link_width_max;	/* the most the GPU and its slot can both do */
	long long pcie_tx_kbps, pcie_rx_kbps;	/* PCIe throughput over NVML's last 20 ms window */
	long long ecc_corrected;		/* volatile count since the driver loaded */
	bool lost;				/* a call answered NVML_ERROR_GPU_IS_LOST: fallen off the bus */
	int nprocs;
	int procs_total;			/* when more than MAX_RT_PROCS: how many NVML has, none listed */
	struct gpu_process {
		unsigned pid;
		long long used_mib;
		/* joined from /proc by the parent: the helper only asks the driver */
		bool seen;			/* /proc/PID was readable here */
		long long uid;			/* -1 unknown */
		char user[32];			/* "" when the uid has no name */
		char command[FACT_TEXT];	/* cmdline, arguments joined by spaces */
	} procs[MAX_RT_PROCS];
};

/* nvmlClocksEventReason* bits (nvml.h, NVML_API_VERSION 13): why clocks are held below their maximum. */
#define GPU_CLOCKS_IDLE 0x1ULL
#define GPU_CLOCKS_APP_SETTING 0x2ULL
#define GPU_CLOCKS_SW_POWER_CAP 0x4ULL
#define GPU_CLOCKS_HW_SLOWDOWN 0x8ULL
#define GPU_CLOCKS_SYNC_BOOST 0x10ULL
#define GPU_CLOCKS_SW_THERMAL 0x20ULL
#define GPU_CLOCKS_HW_THERMAL 0x40ULL
#define GPU_CLOCKS_HW_POWER_BRAKE 0x80ULL
#define GPU_CLOCKS_DISPLAY_SETTING 0x100ULL
/* The reasons that slow a busy GPU down (idle, application clocks, sync boost and display settings do not). */
#define GPU_CLOCKS_SLOWDOWNS (GPU_CLOCKS_SW_POWER_CAP | GPU_CLOCKS_HW_SLOWDOWN | GPU_CLOCKS_SW_THERMAL | \
			      GPU_CLOCKS_HW_THERMAL | GPU_CLOCKS_HW_POWER_BRAKE)

struct cuda_device {
	char name[96], bus_id[32];
	int cc_major, cc_minor;
	long long mem_total_mib;
	int sm_count, clock_mhz, mem_clock_mhz, bus_width;
};

struct rt_library {
	bool attempted;			/* a library was there to load */
	bool loaded;
	char path[FACT_PATH];		/* the file dlopen() loaded, as the diagnosed machine names it */
	char host_path[4096];		/* the same file as this process opened it (under --root: inside DIR) */
	char load_error[FACT_TEXT * 2];
	char missing[FACT_TEXT];	/* optional symbols this driver lacks */
	bool init_done;			/* the init call returned */
	int init;			/* its result code */
	char init_name[64];		/* CUDA_ERROR_..., NVML_ERROR_... */
};

struct runtime_facts {
	struct fact_status status;	/* ABSENT: nothing to call; ERROR: hung or crashed */
	bool ran;
	double timeout_s;
	double elapsed_ms;
	bool hung, crashed;
	int signal;			/* that killed the helper */
	bool helper_stuck;		/* it did not exit when killed: asleep in the kernel, in the driver */
	int helper_pid;
	char last_call[64];		/* the driver function in progress when it hung or died */
	struct rt_library nvml_lib, cuda_lib;
	/* NVML */
	char nvml_driver_version[FACT_VER];
	int nvml_cuda_version;		/* 12020 = 12.2; 0 when unknown */
	int nvml_count;			/* -1 when unknown */
	int nvml_lost;			/* of those, how many NVML answered NVML_ERROR_GPU_IS_LOST for (not listed) */
	struct nvml_device nvml[MAX_RT_DEVICES];
	int nvml_ndev;
	bool procs_foreign_pids;	/* in a container: NVML's pids are the host's, not joined with /proc */
	/* CUDA driver API */
	int cuda_driver_version;	/* cuDriverGetVersion, 0 when unknown */
	int cuda_count;			/* -1 when unknown */
	struct cuda_device cuda[MAX_RT_DEVICES];
	int cuda_ndev;
};

/* 10. Python interpreters and the PyTorch each one imports */
#define MAX_PYTHONS 64
#define MAX_TORCHES 32
#define MAX_SITE_DIRS 6

enum python_kind { PY_SYSTEM, PY_VENV, PY_CONDA, PY_PYENV, PY_OTHER };

#define MAX_PATH_DIRS 8
#define MAX_PTH_IMPORTS 4

/* A directory on an interpreter's import path that is not one of its site directories. */
struct path_dir {
	char dir[FACT_PATH];
	char pth[64];			/* the .pth file (in site_dirs[after_site]) that adds it; "" for PYTHONPATH */
	int after_site;			/* the site directory it follows; -1: before them all (PYTHONPATH);
					   PATH_AFTER_ALL: a package an editable install's import hook maps, tried after
					   the whole path */
};
#define PATH_AFTER_ALL (-2)

/* A .pth file with import lines: site.py runs them at start-up (gpudoctor never does). */
struct pth_import {
	int site;			/* index into site_dirs */
	char name[64];
};

struct python_env {
	char exe[FACT_PATH];		/* as found: /usr/bin/python3, $VIRTUAL_ENV/bin/python */
	char real_exe[FACT_PATH];	/* after links and pyenv shims */
	char version[16];		/* 3.11 */
	char prefix[FACT_PATH];		/* sys.prefix */
	enum python_kind kind;
	char found_by[96];		/* PATH, VIRTUAL_ENV, CONDA_PREFIX, conda envs, pyenv, system, jupyter kernel NAME */
	bool on_path;			/* what a plain `python3` runs */
	char site_dirs[MAX_SITE_DIRS][FACT_PATH];	/* in import order */
	int nsite;
	int nsite_dropped;		/* site directories beyond MAX_SITE_DIRS */
	char project[FACT_PATH];	/* the project whose .venv this is (pyproject.toml beside it), "" none */
	char project_tool[16];		/* uv (uv.lock or [tool.uv]), poetry (poetry.lock or [tool.poetry]), pip, "" */
	char venv_tool[16];		/* what made the venv (pyvenv.cfg): uv, virtualenv, venv; "" when not a venv */
	bool pip;			/* pip is importable from its site directories (uv's venvs have none) */
	bool externally_managed;	/* PEP 668: an EXTERNALLY-MANAGED file marks the distribution's interpreter */
	/* its import path besides site_dirs, as site.py builds it (see python_path.c) */
	struct path_dir path_dirs[MAX_PATH_DIRS];
	int npath_dirs;
	struct pth_import pth_imports[MAX_PTH_IMPORTS];
	int npth_imports;
	int torch;			/* index into torches of the torch it imports, -1 for none */
	int torch_shadowed;		/* a second torch later on its path, hidden by the first; -1 */
	char torch_from[80];		/* how its directory is on the path: "site", "PYTHONPATH", "NAME.pth" */
	char torch_shadowed_from[80];
};

#define MAX_TORCH_LIBS 40
#define MAX_TORCH_WHEELS 16
#define MAX_TORCH_PACKAGES 16
#define MAX_TORCH_ARCHS 24
#define MAX_TORCH_REQS 24

/*
 * One nvidia-* requirement of torch's METADATA (Requires-Dist) whose environment marker holds on this
 * machine, and what the interpreter has installed for it.
 */
struct torch_requirement {
	char name[48];			/* PEP 503 normalised: nvidia-cudnn-cu12 */
	char op[4];			/* "==", ">=", ...; "" for any version */
	char version[32];		/* "9.1.0.70", "" with no op */
	char installed[32];		/* the installed version (from its .dist-info), "" when not installed */
	bool met;
};

/*
 * A CUDA library libtorch_cuda.so needs, or one such a library loads itself, and where the loader would
 * take it from.
 */
struct torch_lib {
	char soname[64];
	char loaded_by[64];		/* "" for libtorch_cuda.so's own; else the library that loads it: libcudnn.so.8 */
	bool dlopen;			/* loaded by name at run time (dlopen), not through DT_NEEDED */
	char path[FACT_PATH];		/* "" when it resolves nowhere */
	char origin[24];		/* RPATH, LD_LIBRARY_PATH, RUNPATH, ld.so.cache, ... */
	bool shadows_runpath;		/* LD_LIBRARY_PATH wins over the copy the RUNPATH names (the wheel's own) */
	char runpath_copy[FACT_PATH];	/* that copy */
};

struct torch_install {
	char dir[FACT_PATH];		/* .../site-packages/torch */
	/* read from lib/libtorch_cuda.so when the build has one */
	char libtorch_cuda[FACT_PATH];
	struct fact_status elf_status;
	struct torch_lib libs[MAX_TORCH_LIBS];
	int nlibs;
	unsigned sass[MAX_TORCH_ARCHS], ptx[MAX_TORCH_ARCHS];	/* sm numbers from the fat binaries */
	int nsass, nptx;
	bool archs_known;
	bool archs_truncated;
	/* the nvidia-* wheels beside it: "nvidia_cudnn_cu12 9.1.0.70" */
	char wheels[MAX_TORCH_WHEELS][64];
	int nwheels;
	/* packages beside it that move with torch: its companions, and builds against its ABI ("torchvision 0.20.1+cpu") */
	char packages[MAX_TORCH_PACKAGES][64];
	int npackages;
	/* conda's records in the environment's conda-meta */
	char conda_pytorch[64];		/* the pytorch package file: pytorch-2.3.1-py3.10_cpu_0 */
	char conda_pytorch_cuda[16];	/* pytorch-cuda version, "" if none */
	char conda_cudatoolkit[16];	/* cudatoolkit version, "" if none */
	bool conda_cpuonly;
	bool conda_vision, conda_audio;	/* torchvision / torchaudio records in conda-meta */
	char version[48];		/* 2.1.0+cu121 */
	char cuda[16];			/* torch.version.cuda, "" for None (a CPU or ROCm build) */
	char hip[32];			/* torch.version.hip, "" for None */
	bool debug;
	char installer[16];		/* pip, conda, debian, unknown */
	char dist_version[48];		/* from the dist-info directory name */
	char metadata[FACT_PATH];	/* the dist-info's METADATA when read, "" otherwise */
	/* its nvidia-* Requires-Dist that apply here; installed versions looked up only for the selected torch */
	struct torch_requirement reqs[MAX_TORCH_REQS];
	int nreqs;
	bool reqs_checked;		/* installed versions were looked up */
	int reqs_skipped;	/* nvidia-* requirements skipped: a marker or range this model does not read */
	bool user_site;			/* under ~/.local */
};

/* Devices the deep probe reports one by one; its script stops at the same number. */
#define MAX_DEEP_DEVICES 16

struct torch_deep {
	bool ran;
	bool ok;			/* the script ran and reported */
	char error[FACT_TEXT * 2];	/* why not */
	char version[48], cuda[16];
	int available;			/* torch.cuda.is_available(): 1, 0, -1 unknown */
	int device_count;
	char arch_list[FACT_TEXT];
	char cudnn[16];			/* torch.backends.cudnn.version(), "" for None */
	char cudnn_error[FACT_TEXT * 2];	/* what asking for that version raised (a version incompatibility) */
	int cudnn_enabled;		/* torch.backends.cudnn.enabled: 1, 0, -1 unknown */
	char warning[FACT_TEXT * 2];	/* the first warning torch printed initialising CUDA */
	char tensor_test[FACT_TEXT];	/* "ok" or the first device's error of a small GPU computation */
	char file[FACT_PATH];		/* torch.__file__: which copy the import loaded */
	struct {
		char name[64];
		char cc[8];		/* "8.6" */
		char test[FACT_TEXT];	/* "ok" or the error */
	} devices[MAX_DEEP_DEVICES];
	int ndevices;
	double elapsed_ms;
};

struct python_facts {
	struct fact_status status;
	struct python_env envs[MAX_PYTHONS];
	int count;
	int selected;			/* the interpreter diagnosed, -1 when none */
	char selected_reason[64];
	struct torch_install torches[MAX_TORCHES];
	int ntorch;
	struct torch_deep deep;
	int unlisted;			/* environments found and looked into, without torch, not listed */
	char uv[FACT_PATH];		/* uv on PATH, "" when none: fixes then offer `uv pip` too */
	char conda[FACT_PATH];		/* conda (or mamba) on PATH or in the diagnosed conda install, "" */
	char poetry[FACT_PATH];		/* poetry on PATH, "" */
};

/* 11. the kernel log: what the NVIDIA driver said since this boot */
#define MAX_KLOG_XIDS 32
struct klog_xid {
	char bus_id[32];	/* as the line names it, e.g. "0000:86:00" from "NVRM: Xid (PCI:0000:86:00): 79, ..."; "" when not given */
	int xid;
	double seconds;		/* kernel timestamp, seconds since boot; -1 when unknown */
	char text[200];		/* the message, cut */
};

struct kernlog_facts {
	struct fact_status status;	/* OK: read; ABSENT: no log found; UNKNOWN (+denied): not permitted */
	char source[FACT_PATH];		/* /dev/kmsg, /var/log/kern.log, ... */
	bool this_boot_only;		/* the lines kept are known to be from the current boot */
	char boot_by[48];		/* how the current boot was told apart: "btime", "kernel timestamps restart", ... */
	struct klog_xid xids[MAX_KLOG_XIDS];	/* the latest ones when there are more (facts_dropped) */
	int nxids;
	int lines;			/* kernel messages examined */
	/* "NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01) installed in this system is not supported by open
	 * nvidia.ko because it does not include the required GPU System Processor (GSP)." */
	bool gsp_refused;
	char gsp_bus_id[32];		/* the GPU it names, 0000:09:00.0; "" when not seen */
	char gsp_pci_id[16];		/* 10de:1d01 */
	/* "nvidia 0000:09:00.0: probe with driver nvidia failed with error -1" (older kernels: "nvidia: probe of
	 * 0000:09:00.0 failed with error -1") */
	bool probe_failed;
	char probe_failed_bus_id[32];
	/* "NVRM: The NVIDIA GeForce GT 1030 GPU installed in this system is supported through the NVIDIA 580.xx
	 * Legacy drivers. ... The 610.43.02 NVIDIA driver will ignore this GPU." */
	char legacy_gpu[64];		/* GeForce GT 1030 */
	char legacy_branch[16];		/* 580.xx */
	char legacy_ignoring[FACT_VER];	/* 610.43.02: the driver that ignores it */
	bool no_gpu_found;		/* "NVRM: No NVIDIA GPU found." (older: "No NVIDIA graphics adapter found!") */
	/* a GPU newer than the driver: "NVRM: The NVIDIA GPU 0000:0a:00.0 (PCI ID: 10de:2684) installed in this system
	 * is not supported by the NVIDIA 470.223.02 driver release." */
	bool release_refused;
	char release_refused_bus_id[32];
};

/* A bound that dropped data: what, the bound, and how many were left out. */
#define MAX_LIMITS 24
struct fact_limit {
	const char *what;		/* static: "Python interpreters" */
	int limit;
	int dropped;			/* -1: some, how many unknown */
};

/*
 * Slurm's gres.conf: the GPUs it promises this node (Name=gpu lines whose NodeName, when given, names this
 * node: File= device files, else Count=). AutoDetect=nvml promises nothing: Slurm asks NVML itself.
 */
struct gres_facts {
	struct fact_status status;	/* ABSENT: no gres.conf */
	char path[FACT_PATH];
	char node[128];			/* the name matched: SLURMD_NODENAME, else the short host name */
	int gpus;			/* promised to this node; -1 none promised (no line for it, or autodetect) */
	bool autodetect;
	char files[FACT_TEXT];		/* the first File= value that counted */
	unsigned long line;		/* its line */
};

/*
 * A watcher's view over time (probe/live.h), set only while `watch` or `metrics` samples: what one sample
 * cannot show, counted over the samples so far. The doctor leaves it off.
 */
#define MAX_LIVE_XIDS 16

struct live_gpu {
	long long ecc_corrected_first;	/* the counts the watch began with; -1 unknown */
	long long ecc_uncorrected_first;
	long long ecc_corrected_rise;	/* since the watch began; -1 unknown */
	long long ecc_uncorrected_rise;
	int idle_held_samples;		/* consecutive samples at 0 % while a process holds memory */
	int link_down_samples;		/* consecutive busy samples on a link below its generation or width */
	int lost_seq;			/* the sample it was first seen lost in, -1 never */
	long xid_events;		/* Xid events NVML named this GPU in, since the watch began */
};

struct live_facts {
	bool on;
	long seq;			/* this sample's number, from 0 */
	double interval_s;		/* between samples */
	struct live_gpu gpu[MAX_RT_DEVICES];
	struct live_xid {
		int gpu;		/* NVML index */
		long long xid;		/* the code NVML's event carried (999: unknown to it) */
		long seq;		/* the sample it arrived in */
	} xid[MAX_LIVE_XIDS];		/* the latest, oldest first */
	int nxid;
	long xid_total;			/* every one seen, kept or not */
};

struct facts {
	char root[FACT_PATH];		/* "/" when live */
	struct fact_limit limits[MAX_LIMITS];	/* every bound that left something out says so */
	int nlimits;
	bool live;
	bool from_paste;		/* read from a pasted report: findings speak of "the pasted machine" */
	char notes[MAX_NOTES][FACT_TEXT * 2];	/* probe remarks worth showing */
	char notes_local[MAX_NOTES][FACT_TEXT * 3];	/* each in the report's language, "" when the same */
	int note_count;
	/* files the probes were refused (permission): the first few paths, and how many refusals */
	char unreadable[8][256];
	int unreadable_kept;
	int unreadable_count;
	struct system_facts system;
	struct pci_facts pci;
	struct kmod_facts kmod;
	struct libs_facts libs;
	struct toolkit_facts toolkits;
	struct cudnn_facts cudnn;
	struct env_facts env;
	struct container_facts container;
	struct container_host_facts container_host;
	struct runtime_facts runtime;
	struct kernlog_facts kernlog;
	struct gres_facts gres;
	struct python_facts python;
	struct live_facts watch;	/* while watched: what changed over the samples */
};

/* Allocate a zeroed model; NULL on allocation failure. */
struct facts *facts_new(void);
/* An NVML device of which nothing is known yet: every value -1 ("unknown"), as the rules expect. */
void nvml_device_unknown(struct nvml_device *d);
/* How findings name the machine the facts describe: "this machine", or "the pasted machine" (static). */
const char *facts_machine(const struct facts *facts);
/* Free the model and every string it owns. NULL is fine. */
void facts_free(struct facts *facts);

/*
 * Set st's state and its reason, formatted from fmt; when a translation is active also reason_local (the
 * catalog's fmt, util/i18n.h), which the text report shows. JSON keeps the English reason.
 */
void fact_status_set(struct fact_status *st, enum fact_state state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The reason a text report shows: reason_local when there is one, else reason looked up in the catalog. */
const char *fact_reason_shown(const struct fact_status *st);
/* A note for the report (and its translation, as for fact_status_set). */
void facts_note(struct facts *facts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Record that n items of what (a static plural noun phrase) were left out
 * at a bound of limit (n -1: some, uncounted). Every fixed-size table of the model calls this when
 * it is full, so the report can say what it did not examine.
 */
void facts_dropped(struct facts *facts, const char *what, int limit, int n);
/* "3 more Python interpreters not examined (the first 24 were)" */
void fact_limit_text(const struct fact_limit *l, char *out, size_t outsz);

const char *fact_state_name(enum fact_state state);
const char *lib_origin_name(enum lib_origin origin);
const char *visible_kind_name(enum visible_kind kind);
/* The name of one GPU_CLOCKS_* bit ("sw_thermal_slowdown", as DCGM and nvidia-smi -q name them), NULL for others. */
const char *gpu_clock_event_name(unsigned long long bit);
/* The names of the bits of events within mask, joined by ", " into out; false when none (or events < 0). */
bool gpu_clock_events_text(long long events, unsigned long long mask, char *out, size_t outsz);

/* Lookup helpers for rules and renderers. */
/* Whether a section's facts are incomplete because files were refused, e.g. &f->pci.status. */
static inline bool fact_denied(const struct fact_status *st)
{
	return st->denied;
}
/* Whether any section is: then nothing may be declared ready or absent wholesale. */
bool facts_any_denied(const struct facts *facts);
const char *facts_env(const struct facts *facts, const char *name);	/* NULL if unset */
bool facts_env_is_set(const struct facts *facts, const char *name);
const struct devnode *facts_devnode(const struct facts *facts, const char *path);
const struct lib_candidate *lib_choice_chosen(const struct lib_choice *choice);
/* The NVIDIA driver version known statically: NVRM first, else libcuda's. */
const char *facts_driver_version(const struct facts *facts);
/* Where facts_driver_version() took its answer from, for evidence. */
const char *facts_driver_version_source(const struct facts *facts);

#endif
