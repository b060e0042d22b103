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

/* A field of torch/version.py: the quoted value, "" for None; -1 if absent. */
int torch_version_field(const char *text, const char *key, char *out, size_t outsz);

#endif
