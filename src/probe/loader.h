/*
 * loader.h - a model of the dynamic loader's search for a library, rooted.
 *
 * Order, as in ld.so(8): LD_PRELOAD, LD_LIBRARY_PATH, /etc/ld.so.cache,
 * then the default directories. When the machine has no cache (a minimal
 * image, a scenario) the directories of /etc/ld.so.conf stand in for it,
 * which is what the cache would hold after running ldconfig.
 */
#ifndef GD_PROBE_LOADER_H
#define GD_PROBE_LOADER_H

#include "probe/facts.h"
#include "util/ldcache.h"
#include "util/rootfs.h"

#define LOADER_MAX_DIRS 64
#define LOADER_MAX_PRELOAD 16

struct loader {
	const struct rootfs *fs;	/* borrowed */
	char *preload[LOADER_MAX_PRELOAD];	/* owned strings */
	int npreload;
	char *env_dirs[LOADER_MAX_DIRS];	/* LD_LIBRARY_PATH, owned */
	int nenv;
	char *conf_dirs[LOADER_MAX_DIRS];	/* from ld.so.conf, owned */
	int nconf;
	struct ldcache cache;
	bool have_cache;
	struct fact_status cache_status;
	int32_t arch_flags;		/* expected ABI bits, 0 = accept any */
	int dropped_dirs;		/* directories, preloads or ld.so.conf.d files beyond the bounds */
};

int loader_init(struct loader *ld, const struct rootfs *fs, const char *ld_library_path,
		const char *ld_preload, const char *arch);
void loader_release(struct loader *ld);

/*
 * Every place the loader could take soname from, in its search order,
 * duplicates removed. The first one not flagged in_cache_dir_only is what
 * dlopen(soname) loads. Returns the number written to out; *dropped (may
 * be NULL) counts the places found beyond max.
 */
int loader_find(const struct loader *ld, const char *soname, struct lib_candidate *out, int max, int *dropped);

/* Fill resolved/version/is_stub of a candidate from its path. */
void loader_describe(const struct loader *ld, struct lib_candidate *cand);

/*
 * Visit every library whose file name starts with prefix in all search
 * directories and cache entries (a path can be visited twice when both name it). Stops when visit returns
 * non-zero.
 */
typedef int (*loader_visit_fn)(const char *path, enum lib_origin origin, void *arg);
void loader_scan_prefix(const struct loader *ld, const char *prefix, loader_visit_fn visit, void *arg);

#endif
