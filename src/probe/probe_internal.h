/*
 * probe_internal.h - helpers shared between probe files, and the parsers
 * exposed for unit tests. Not for rules or renderers.
 */
#ifndef GD_PROBE_INTERNAL_H
#define GD_PROBE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "probe/probe.h"

void probe_user(struct facts *f, const struct probe_ctx *ctx);
/* Group name (or number) -> gid in the diagnosed machine's /etc/group. */
int user_group_id(const struct rootfs *fs, const char *group, gid_t *out);

/* The name of a uid ("/etc/passwd") or gid ("/etc/group"); -1 if not listed. */
int user_id_name(const struct rootfs *fs, const char *file, unsigned id, char *out, size_t outsz);

void pciids_lookup(const struct rootfs *fs, uint16_t vendor, uint16_t device,
		   char *name, size_t namesz, char *source, size_t sourcesz);

/* The file system type of the last mount at / in a /proc/PID/mountinfo text; -1 when none. */
int mountinfo_root_fstype(const char *text, char *out, size_t outsz);
/* Whether a kernel command line blacklists module (any of the list forms) or turns its modesetting off. */
bool cmdline_blacklists(const char *cmdline, const char *module);

/* The dotted version in a /proc/driver/nvidia/version line. */
int nvrm_parse_version(const char *line, char *out, size_t outsz);
/* "#define CUDA_VERSION 12040" in a cuda.h -> "12.4". */
int cuda_h_version(const struct rootfs *fs, const char *path, char *out, size_t outsz);

/* The first PATH directory (of the diagnosed environment) holding a regular file name. */
bool probe_find_on_path(const struct facts *f, const struct rootfs *fs, const char *name, char *out, size_t outsz);

/* libtorch_cuda.so's CUDA libraries and fat-binary architectures, into t. */
void probe_torch_libs(struct facts *f, const struct probe_ctx *ctx, struct torch_install *t);

/*
 * The CUDA major each cuDNN library in c was built for (cuda_major, cuda_major_source), from the DT_NEEDED
 * of its sub-libraries, the name of the archive directory it sits in, or the Debian package that installed
 * it (/var/lib/dpkg/status, at most DPKG_STATUS_MAX_LINES lines); left 0 when none says.
 */
void cudnn_cuda_builds(struct cudnn_facts *c, const struct rootfs *fs);

struct elf_dynamic;

/* A new, empty entry of t->libs named soname; NULL when the list is full (the drop is recorded in f). */
struct torch_lib *torch_lib_add(struct facts *f, struct torch_install *t, const char *soname);

/*
 * The first directory of a DT_RPATH/DT_RUNPATH list (origin standing for $ORIGIN) holding soname: its path,
 * links and ".." resolved, into out. False when none does.
 */
bool torch_rpath_find(const struct rootfs *fs, const char *list, const char *origin, const char *soname, char *out,
		      size_t outsz);

/*
 * The loader's search after the DT_RPATH step, into l: LD_PRELOAD and LD_LIBRARY_PATH (ctx->loader), then
 * runpath_copy (the copy the DT_RUNPATH step finds, "" none), then the cache and default directories. Sets
 * shadows_runpath when LD_LIBRARY_PATH or LD_PRELOAD wins over a different runpath_copy.
 */
void torch_resolve_after_rpath(const struct probe_ctx *ctx, const char *runpath_copy, struct torch_lib *l);

/*
 * The libraries that t's resolved CUDA libraries load themselves (data/cuda_sublibs.tsv), appended to t->libs
 * with loaded_by set, each resolved as the loader searches from its parent; torch is libtorch_cuda.so's
 * dynamic section and origin its directory (the parent's loader, whose DT_RPATH the search may inherit).
 */
void probe_torch_sublibs(struct facts *f, const struct probe_ctx *ctx, struct torch_install *t,
			 const struct elf_dynamic *torch, const char *origin);

/*
 * os.path.abspath(os.path.join(base, path)) without the working directory: lexical, "." and ".." removed,
 * links not followed. base may be NULL for an absolute path; -1 for a relative one without base, or no room.
 */
int path_normalize(const char *base, const char *path, char *out, size_t outsz);

/*
 * py's import path besides its site directories (py->site_dirs, version set): PYTHONPATH's directories
 * and those its site directories' .pth files add, into py->path_dirs; .pth files with import lines into
 * py->pth_imports.
 */
void python_import_path(struct facts *f, const struct rootfs *fs, struct python_env *py);

/* A field of torch/version.py: the quoted value, "" for None; -1 if absent. */
int torch_version_field(const char *text, const char *key, char *out, size_t outsz);

/* The kernel log (kernlog.c): state carried across the lines of one multi-line driver message. */
struct kernlog_scan {
	char gpu_bus[32], gpu_pci[16];	/* from "NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01)" */
	int gpu_window;			/* lines left in which a reason applies to that GPU */
	char legacy_gpu[64];		/* from "NVRM: The NVIDIA GeForce GT 1030 GPU installed in this system is" */
	int legacy_window;
	int xids_dropped;		/* older Xid lines pushed out of the kept ones */
};

/* One syslog file line from the kernel: its stamp and where the message starts. */
struct syslog_line {
	long long epoch;	/* seconds since the epoch of an RFC 3339 stamp; -1 for a classic one (no year, no zone) */
	double seconds;		/* the kernel's [seconds since boot] stamp; -1 when the line has none */
	const char *msg;	/* into the parsed line */
};

/* One line of a kernel message into k (Xid, GSP refusal, failed probe, legacy branch); s spans lines. */
void kernlog_take_line(struct kernlog_facts *k, struct kernlog_scan *s, const char *line, double seconds);
/* A /dev/kmsg record (Documentation/ABI/testing/dev-kmsg): its time and its unescaped message; -1 if malformed. */
int kmsg_parse_record(const char *rec, size_t len, double *seconds, char *msg, size_t msgsz);
/* A syslog file line, when it is the kernel's: 0 and out filled, else -1. */
int syslog_parse_line(const char *line, struct syslog_line *out);
/* An RFC 3339 date-time to seconds since the epoch; *end (may be NULL) after it. -1 if not one. */
int rfc3339_epoch(const char *s, long long *out, const char **end);
/* The lines of a syslog file's tail that belong to this boot (btime: its start, 0 unknown) into k. */
void kernlog_read_syslog(struct kernlog_facts *k, struct kernlog_scan *s, const char *text, long long btime);

/* What a PEP 508 environment marker is evaluated against; the rest is Linux and CPython. */
struct marker_env {
	const char *python_version;	/* "3.11"; NULL or "" unknown */
	const char *platform_machine;	/* "x86_64", "aarch64"; NULL or "" unknown */
};

/*
 * PEP 503 normalisation of the first len bytes of in: lower case, each run of '-', '_' and '.' one '-'
 * ("nvidia_cudnn_cu12" -> "nvidia-cudnn-cu12"). -1 when empty or out is too small.
 */
int python_name_normalize(const char *in, size_t len, char *out, size_t outsz);

/*
 * A PEP 508 marker (platform_system == "Linux" and python_version < "3.13") evaluated for env:
 * 1 holds, 0 does not, -1 cannot tell (a variable this model does not know, a form it does not read).
 * and/or/parentheses, ==, !=, <, <=, >, >= (versions for python_version), in / not in; extra is "".
 * An empty marker holds.
 */
int marker_eval(const char *marker, const struct marker_env *env);

/*
 * A Requires-Dist value ("nvidia-cudnn-cu12==9.1.0.70; platform_system == ...") into req's name
 * (normalised), op and version, and *marker pointing into value after ';' ("" when none). -1 for what this
 * model does not compare: a range ("a>=1,<2"), a URL, a malformed name.
 */
int requires_dist_parse(const char *value, struct torch_requirement *req, const char **marker);

/*
 * torch's METADATA (t->metadata, cleared when unreadable): the nvidia-* Requires-Dist whose markers hold
 * for env, into t->reqs; those it cannot evaluate are counted in t->reqs_skipped.
 */
void torch_requires_read(struct facts *f, const struct rootfs *fs, const struct marker_env *env,
			 struct torch_install *t);

/* The installed version of each of t->reqs from py's site directories' .dist-info names; sets met. */
void torch_requires_check(const struct rootfs *fs, const struct python_env *py, struct torch_install *t);

#endif
