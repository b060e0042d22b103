/*
 * fatbin.h - which GPU architectures a CUDA fat binary was built for.
 *
 * nvcc embeds the device code of a library in its ELF file as a fat
 * binary: SASS (machine code for one sm_XX) and PTX (portable code the
 * driver can compile for newer GPUs). Listing them answers "does this
 * libtorch_cuda.so have kernels for my GPU?" without loading it. Only the
 * entry headers are read, never the code itself, and every size is checked
 * against the section it claims to lie in; see fatbin.c for the layout.
 */
#ifndef GD_UTIL_FATBIN_H
#define GD_UTIL_FATBIN_H

#include <stdbool.h>

#include "util/error.h"
#include "util/rootfs.h"

#define FATBIN_MAX_ARCHS 32
#define FATBIN_DEFAULT_MAX_ENTRIES (1UL << 20)	/* what max_entries 0 means */

struct fatbin_archs {
	unsigned sass[FATBIN_MAX_ARCHS];	/* sm numbers with compiled code, e.g. 80, 86, 90, sorted, unique */
	int nsass;
	unsigned ptx[FATBIN_MAX_ARCHS];		/* compute_XX with PTX, sorted, unique */
	int nptx;
	unsigned long containers, entries;	/* how many were read */
	bool truncated;				/* stopped at the entry cap */
	bool archs_full;			/* more architectures than FATBIN_MAX_ARCHS: some not listed */
};

/*
 * Scan the fat binaries in the ELF file's ".nv_fatbin" and "__nv_relfatbin"
 * sections, reading at most max_entries entry headers (and as many
 * containers). Damage ends the scan of the container (or section) it is
 * in; what was read before stands. Fails only when there is no such
 * section (err->code ENOENT) or not one container in them could be read.
 */
int fatbin_scan(const struct rootfs *fs, const char *path, unsigned long max_entries,
		struct fatbin_archs *out, struct error *err);

#endif
