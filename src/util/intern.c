/*
 * intern.c - a set of strings named by ids (see intern.h): an open-addressing hash table of ids
 * over an array of copies.
 */
#include "util/intern.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a: short keys, no adversary to fear here but a slow table. */
static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot that holds s, or the free slot where it would go. */
static size_t find(const struct intern *in, const char *s)
{
	size_t mask = in->nslots - 1, i = (size_t)hash(s) & mask;

	while (in->slots[i] && strcmp(in->strings[in->slots[i] - 1], s) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Double the table (or make the first one); -1 when out of memory. */
static int grow(struct intern *in)
{
	size_t n = in->nslots ? in->nslots * 2 : 64;
	uint32_t *old = in->slots;
	size_t oldn = in->nslots;

	in->slots = calloc(n, sizeof(*in->slots));
	if (!in->slots) {
		in->slots = old;
		return -1;
	}
	in->nslots = n;
	for (size_t i = 0; i < oldn; i++)
		if (old[i])
			in->slots[find(in, in->strings[old[i] - 1])] = old[i];
	free(old);
	return 0;
}

uint32_t intern_add(struct intern *in, const char *s)
{
	size_t slot;
	char *copy;

	if (!s || !*s)
		return 0;
	if (!in->count)
		in->count = 1;	/* id 0 is "" */
	if (((size_t)in->count + 1) * 2 > in->nslots && grow(in) < 0)
		return UINT32_MAX;
	slot = find(in, s);
	if (in->slots[slot])
		return in->slots[slot] - 1;
	if (in->count == UINT32_MAX - 1)
		return UINT32_MAX;
	if (in->count >= in->cap) {
		uint32_t cap = in->cap ? in->cap * 2 : 64;
		char **strings = realloc(in->strings, cap * sizeof(*strings));

		if (!strings)
			return UINT32_MAX;
		in->strings = strings;
		in->cap = cap;
	}
	if (!(copy = strdup(s)))
		return UINT32_MAX;
	in->strings[in->count] = copy;
	in->slots[slot] = in->count + 1;
	return in->count++;
}

const char *intern_get(const struct intern *in, uint32_t id)
{
	return id && id < in->count ? in->strings[id] : "";
}

void intern_release(struct intern *in)
{
	for (uint32_t i = 1; i < in->count; i++)
		free(in->strings[i]);
	free(in->strings);
	free(in->slots);
	memset(in, 0, sizeof(*in));
}
