/*
 * sublibs.c - the libraries CUDA libraries load themselves
 * (data/cuda_sublibs.tsv).
 */
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

/* "libnvrtc.so.*" matches every soname starting "libnvrtc.so."; anything else only itself. */
static bool parent_matches(const char *pattern, const char *soname)
{
	size_t n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, soname, n - 1) == 0;
	return strcmp(pattern, soname) == 0;
}

/* See kb.h. */
int kb_cuda_sublibs(const char *parent, struct kb_sublib *out, int max)
{
	const struct kb_table *t = &kb_table_cuda_sublibs;
	int n = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		const char *runpath = kb_field(t, r, "runpath");

		if (!parent_matches(kb_field(t, r, "parent"), parent))
			continue;
		out[n].child = kb_field(t, r, "child");
		out[n].dlopen = strcmp(kb_field(t, r, "how"), "dlopen") == 0;
		out[n].runpath = strcmp(runpath, "-") == 0 ? "" : runpath;
		out[n].source = kb_field(t, r, "source");
		n++;
	}
	return n;
}
