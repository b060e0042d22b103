/*
 * ldcache.h - a reader for glibc's /etc/ld.so.cache.
 *
 * The dynamic loader consults this cache, not the directories, so it is
 * the truth about what dlopen("libcuda.so.1") finds: a library copied into
 * /usr/lib without running ldconfig is invisible until ldconfig runs.
 * Both the new format ("glibc-ld.so.cache1.1") and the compat layout that
 * prefixes it with the old "ld.so-1.7.0" table are understood; every offset
 * is bounds-checked, so a corrupt cache is an error, never a crash.
 */
#ifndef GD_UTIL_LDCACHE_H
#define GD_UTIL_LDCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/rootfs.h"

/* Entry flags: the low byte is the ELF type, the next names the ABI. */
#define LDCACHE_FLAG_TYPE_MASK 0x00ff
#define LDCACHE_FLAG_ELF_LIBC6 0x0003
#define LDCACHE_FLAG_ARCH_MASK 0xff00
#define LDCACHE_FLAG_X8664_LIB64 0x0300
#define LDCACHE_FLAG_AARCH64_LIB64 0x0a00

struct ldcache_entry {
	const char *name;	/* soname, e.g. "libcuda.so.1" (points into data) */
	const char *path;	/* full path as stored */
	int32_t flags;
};

struct ldcache {
	char *data;			/* the file, owned */
	size_t size;
	struct ldcache_entry *entries;	/* owned array, in cache (lookup) order */
	size_t count;
};

/* Parse a cache image; takes ownership of data (freed on failure too). */
int ldcache_parse(struct ldcache *cache, char *data, size_t size, struct error *err);
int ldcache_load(struct ldcache *cache, const struct rootfs *fs, const char *path, struct error *err);
void ldcache_release(struct ldcache *cache);

#endif
