/*
 * fuzz_ldcache.c - ldcache_parse on arbitrary bytes: the loader cache of a
 * --root image is as untrusted as any other file in it.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "util/ldcache.h"

/* Where the string lengths go, so that reading every string is not optimised away. */
static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ldcache cache;
	struct error err;
	char *copy = malloc(size ? size : 1);	/* ldcache_parse takes ownership */
	size_t total = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (ldcache_parse(&cache, copy, size, &err) < 0)
		return 0;
	/* Touch every string handed out: each must lie inside the image, NUL included. */
	for (size_t i = 0; i < cache.count; i++)
		total += strlen(cache.entries[i].name) + strlen(cache.entries[i].path);
	ldcache_release(&cache);
	sink = total;
	return 0;
}
