/* dlinfo() and struct link_map are GNU extensions of glibc's dynamic loader. */
#define _GNU_SOURCE
#include "util/dlib.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "util/str.h"

/* Kept free at the end of missing for " (+N more)": a space, 20 digits, the words, the NUL. */
#define DLIB_MORE_ROOM 32

/*
 * See dlib.h. missing must be a buffer (missingsz > 0). Names that do not fit are counted, and the
 * list ends with "(+N more)" for them: room for that tail is kept back from the start, so a full
 * buffer never hides that names are missing. A missing required symbol fails with *handle already set
 * and the library left loaded; fns is then partial.
 */
int dlib_open(const char *file, const struct dlib_symbol *table, size_t n, void *fns, void **handle,
	      char *path, size_t pathsz, char *missing, size_t missingsz, struct error *err)
{
	struct link_map *map = NULL;
	size_t dropped = 0;
	void *h;

	dlerror();
	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();

		return error_set(err, "%s", why ? why : "dlopen failed");
	}
	*handle = h;
	if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
		str_copy(path, pathsz, map->l_name);
	else
		str_copy(path, pathsz, file);
	if (missingsz)
		missing[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		void *sym = dlsym(h, table[i].name);

		memcpy((char *)fns + table[i].offset, &sym, sizeof(sym));
		if (sym)
			continue;
		if (table[i].required)
			return error_set(err, "'%s' has no symbol %s", path, table[i].name);
		if (missingsz > DLIB_MORE_ROOM && strlen(missing) + strlen(table[i].name) + 2 + DLIB_MORE_ROOM < missingsz) {
			if (missing[0])
				strcat(missing, " ");
			strcat(missing, table[i].name);
		} else {
			dropped++;
		}
	}
	if (dropped && missingsz) {
		size_t len = strlen(missing);

		snprintf(missing + len, missingsz - len, "%s(+%zu more)", len ? " " : "", dropped);
	}
	return 0;
}
