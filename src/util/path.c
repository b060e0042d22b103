#include "util/path.h"

#include <string.h>

#include "util/str.h"

/*
 * Leading slashes of name are dropped; an empty dir gives "/name". Returns -1 when the result does not
 * fit in outsz (out then holds a truncated copy).
 */
int path_join(char *out, size_t outsz, const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	while (*name == '/')
		name++;
	if (dl > 0 && dir[dl - 1] == '/')
		return str_printf(out, outsz, "%s%s", dir, name);
	return str_printf(out, outsz, "%s/%s", dir, name);
}

/* Never NULL: "" for a path ending in a slash, path itself when it has none. */
const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * "." for a name without a slash, "/" for a file in the root; only the last slash counts, so "a/b/"
 * gives "a/b". -1 when out is too small.
 */
int path_dirname(const char *path, char *out, size_t outsz)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return str_copy(out, outsz, ".");
	if (slash == path)
		return str_copy(out, outsz, "/");
	if ((size_t)(slash - path) >= outsz)
		return -1;
	memcpy(out, path, (size_t)(slash - path));
	out[slash - path] = '\0';
	return 0;
}
