/*
 * ldconfig.c - `ldconfig -p` lines for the driver's libraries: "libcuda.so.1
 * (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1", in the cache's
 * order (the loader's). 32-bit entries ("(libc6)") are not what a 64-bit
 * Python loads and are left out.
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

bool paste_read_ldconfig(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *arrow = strstr(line, " => "), *flags = strstr(line, " (libc6");
	struct libs_facts *libs = &p->facts->libs;
	struct lib_choice *choice;
	struct lib_candidate *cand;
	char soname[48], path[FACT_PATH];

	if (!arrow || !flags || flags > arrow)
		return false;
	paste_word(soname, sizeof(soname), line);
	if (strcmp(soname, "libcuda.so.1") == 0)
		choice = &libs->cuda;
	else if (strcmp(soname, "libnvidia-ml.so.1") == 0)
		choice = &libs->nvml;
	else
		return str_starts_with(soname, "lib");	/* another library of the listing */
	paste_mark(p, PASTE_LIBS, at);
	if (str_starts_with(flags, " (libc6)"))
		return true;
	paste_word(path, sizeof(path), arrow + 4);
	for (int i = 0; i < choice->count; i++)
		if (strcmp(choice->candidates[i].path, path) == 0)
			return true;
	if (choice->count >= MAX_LIB_CANDIDATES) {
		facts_dropped(p->facts, "driver library candidates in the paste", MAX_LIB_CANDIDATES, 1);
		return true;
	}
	cand = &choice->candidates[choice->count++];
	str_copy(cand->soname, sizeof(cand->soname), soname);
	str_copy(cand->path, sizeof(cand->path), path);
	str_copy(cand->resolved, sizeof(cand->resolved), path);
	cand->origin = str_starts_with(path, "/usr/lib/wsl/") ? LIB_FROM_WSL : LIB_FROM_LDCACHE;
	cand->is_stub = strstr(path, "/stubs/") != NULL;
	if (choice->chosen < 0)
		choice->chosen = 0;	/* the first in the cache is the one the loader takes */
	return true;
}
