#include "util/ldcache.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC_OLD "ld.so-1.7.0"
#define MAGIC_NEW "glibc-ld.so.cache"
#define VERSION_NEW "1.1"
#define HEADER_NEW_SIZE 48	/* magic 17, version 3, nlibs, len_strings, flags+pad, ext, unused[3] */
#define ENTRY_NEW_SIZE 24	/* flags, key, value, osversion, hwcap (u64) */
#define ENTRY_OLD_SIZE 12
#define LDCACHE_MAX (64 * 1024 * 1024)

static uint32_t load_u32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A string at offset off (relative to base) that ends inside the image. */
static const char *string_at(const char *data, size_t size, size_t base, uint32_t off)
{
	size_t start = base + off;

	if (start < base || start >= size || !memchr(data + start, '\0', size - start))
		return NULL;
	return data + start;
}

static int find_new_header(const char *data, size_t size, size_t *offset)
{
	size_t nlibs, off;

	if (size >= strlen(MAGIC_NEW) && memcmp(data, MAGIC_NEW, strlen(MAGIC_NEW)) == 0) {
		*offset = 0;
		return 0;
	}
	if (size < 16 || memcmp(data, MAGIC_OLD, strlen(MAGIC_OLD)) != 0)
		return -1;
	/* Old header: 12 bytes of magic, a u32 count, then 12-byte entries. */
	nlibs = load_u32(data + 12);
	if (nlibs > size / ENTRY_OLD_SIZE)
		return -1;
	off = 16 + nlibs * ENTRY_OLD_SIZE;
	off = (off + 7) & ~(size_t)7;
	for (size_t o = off - (off >= 8 ? 8 : 0); o <= off + 8 && o + strlen(MAGIC_NEW) <= size; o += 4) {
		if (memcmp(data + o, MAGIC_NEW, strlen(MAGIC_NEW)) == 0) {
			*offset = o;
			return 0;
		}
	}
	return -1;
}

/*
 * See ldcache.h. On success the cache owns data and every entry points into it; entries whose strings lie
 * outside the image are skipped silently. On failure cache is zeroed (ldcache_release is safe).
 */
int ldcache_parse(struct ldcache *cache, char *data, size_t size, struct error *err)
{
	size_t base, nlibs;

	memset(cache, 0, sizeof(*cache));
	if (find_new_header(data, size, &base) < 0) {
		free(data);
		return error_set(err, "not a glibc ld.so.cache (unknown magic)");
	}
	if (size - base < HEADER_NEW_SIZE ||
	    memcmp(data + base + strlen(MAGIC_NEW), VERSION_NEW, strlen(VERSION_NEW)) != 0) {
		free(data);
		return error_set(err, "unsupported ld.so.cache version");
	}
	nlibs = load_u32(data + base + 20);
	if (nlibs > (size - base - HEADER_NEW_SIZE) / ENTRY_NEW_SIZE) {
		free(data);
		return error_set(err, "truncated ld.so.cache: %zu entries do not fit", nlibs);
	}
	cache->entries = calloc(nlibs ? nlibs : 1, sizeof(*cache->entries));
	if (!cache->entries) {
		free(data);
		return error_set(err, "out of memory reading ld.so.cache");
	}
	cache->data = data;
	cache->size = size;
	for (size_t i = 0; i < nlibs; i++) {
		const char *e = data + base + HEADER_NEW_SIZE + i * ENTRY_NEW_SIZE;
		struct ldcache_entry *out = &cache->entries[cache->count];

		out->name = string_at(data, size, base, load_u32(e + 4));
		out->path = string_at(data, size, base, load_u32(e + 8));
		memcpy(&out->flags, e, sizeof(out->flags));
		if (out->name && out->path)
			cache->count++;	/* skip entries whose strings point outside */
	}
	return 0;
}

/*
 * Read path through the rootfs (at most 64 MiB, a larger file is an error, not a partial cache) and parse
 * it. On failure cache is zeroed and nothing is left to free.
 */
int ldcache_load(struct ldcache *cache, const struct rootfs *fs, const char *path, struct error *err)
{
	char *data;
	size_t len;
	bool truncated;

	memset(cache, 0, sizeof(*cache));
	if (rootfs_read(fs, path, LDCACHE_MAX, &data, &len, &truncated, err) < 0)
		return -1;
	if (truncated) {
		free(data);
		return error_set(err, "'%s' is larger than %d MiB", path, LDCACHE_MAX >> 20);
	}
	if (ldcache_parse(cache, data, len, err) < 0)
		return -1;
	return 0;
}

/* Free the image and the entry array; every name and path of the cache dies with it. Idempotent. */
void ldcache_release(struct ldcache *cache)
{
	free(cache->entries);
	free(cache->data);
	memset(cache, 0, sizeof(*cache));
}
