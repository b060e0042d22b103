/*
 * harness.h - what the libFuzzer harnesses in tests/fuzz/ share: a
 * throw-away machine root, made once per process, that a harness writes
 * its input into before running the real probe or reader on it.
 *
 * Paths given here are machine paths ("/etc/os-release"), as the probes
 * name them; they land under the temporary root. Every helper aborts the
 * process when the file system refuses: a harness that silently ran on a
 * half-built root would fuzz nothing and report success.
 */
#ifndef GD_TESTS_FUZZ_HARNESS_H
#define GD_TESTS_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

/* libFuzzer's entry point, declared here for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The temporary root (created on first use, removed at exit) as a rootfs. */
const struct rootfs *harness_fs(void);

/* mkdir -p of a machine path inside the root. */
void harness_mkdir(const char *path);
/* Write data to a machine path, replacing what was there; parents are made. */
void harness_write(const char *path, const void *data, size_t size);
/* A symbolic link at path whose text is target (as ln -s target path). */
void harness_symlink(const char *target, const char *path);
/* rm -rf of a machine path inside the root; a missing path is fine. */
void harness_remove(const char *path);

/*
 * The fixed environment the probe harnesses diagnose: HOME=/home/u,
 * PATH=/usr/bin:/bin and USER=u, plus extra (NULL-terminated, may be NULL).
 */
typedef void (*harness_probe_fn)(struct facts *f, const struct probe_ctx *ctx);

/*
 * Run probe_env and then each probe of the NULL-terminated list on a
 * zeroed struct facts over the temporary root, then free the facts. Only
 * static probes belong here: never the driver or the deep torch probe.
 */
void harness_run_probes(char *const *extra_env, const harness_probe_fn *probes);

/*
 * A venv at /home/u/venv as `python3 -m venv` lays it out on Debian
 * (bin/python -> python3 -> /usr/bin/python3 -> python3.11), with its
 * pyvenv.cfg and its site-packages directory.
 */
void harness_make_venv(void);
#define HARNESS_VENV "/home/u/venv"
#define HARNESS_SITE HARNESS_VENV "/lib/python3.11/site-packages"

#endif
