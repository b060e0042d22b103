#include "util/path.h"

#include <string.h>

#include "util/str.h"

int path_join(char *out, size_t outsz, const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	while (*name == '/')
		name++;
	if (dl > 0 && dir[dl - 1] == '/')
		return str_printf(out, outsz, "%s%s", dir, name);
	return str_printf(out, outsz, "%s/%s", dir, name);
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

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
