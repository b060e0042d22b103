/*
 * intern.h - a set of strings, each kept once and named by a small id.
 *
 * For data where many records share few texts (ten thousand machines, a
 * handful of driver versions): records hold ids, the set holds the bytes.
 */
#ifndef GD_UTIL_INTERN_H
#define GD_UTIL_INTERN_H

#include <stddef.h>
#include <stdint.h>

/* Zero-initialised is empty; id 0 is always "". */
struct intern {
	char **strings;		/* by id; strings[0] unused */
	uint32_t count;		/* ids handed out, 0 included */
	uint32_t cap;		/* of strings */
	uint32_t *slots;	/* open addressing: id + 1, 0 = free */
	size_t nslots;		/* a power of two */
};

/* The id of s (copied on first sight); 0 for "" or NULL. UINT32_MAX when out of memory. */
uint32_t intern_add(struct intern *in, const char *s);
/* The string of id (borrowed); "" for 0 or an id never handed out. */
const char *intern_get(const struct intern *in, uint32_t id);
/* Free everything; in is empty again. */
void intern_release(struct intern *in);

#endif
