/*
 * libs.c - which libcuda.so.1 and libnvidia-ml.so.1 a program would load.
 *
 * These user-space halves of the driver must match the kernel module to
 * the last digit; the toolkit's stubs/libcuda.so only links, it never runs.
 */
#include <string.h>

#include "probe/loader.h"
#include "probe/probe.h"
#include "util/str.h"

static void choose(struct facts *f, struct lib_choice *choice, const struct loader *ld, const char *soname)
{
	int dropped = 0;

	choice->count = loader_find(ld, soname, choice->candidates, MAX_LIB_CANDIDATES, &dropped);
	facts_dropped(f, "places the loader could take a driver library from", MAX_LIB_CANDIDATES, dropped);
	choice->chosen = -1;
	for (int i = 0; i < choice->count; i++) {
		if (!choice->candidates[i].in_cache_dir_only) {
			choice->chosen = i;
			break;
		}
	}
	if (choice->chosen >= 0)
		choice->status.state = FACT_OK;
	else if (choice->count > 0)
		fact_status_set(&choice->status, FACT_ABSENT,
				"%s exists but is not in /etc/ld.so.cache", soname);
	else
		fact_status_set(&choice->status, FACT_ABSENT, "the loader finds no %s", soname);
}

static int note_stub(const char *path, enum lib_origin origin, void *arg)
{
	struct libs_facts *libs = arg;
	char dir[FACT_PATH];

	(void)origin;
	if (path_dirname(path, dir, sizeof(dir)) == 0 && str_ends_with(dir, "/stubs")) {
		libs->stubs_on_search_path = true;
		str_copy(libs->stubs_dir, sizeof(libs->stubs_dir), dir);
		return 1;
	}
	return 0;
}

/*
 * Which libcuda.so.1 and libnvidia-ml.so.1 the loader would take, and whether a stubs/ directory is on the
 * search path. Needs ctx->loader; borrows nothing from it after returning.
 */
void probe_libs(struct facts *f, const struct probe_ctx *ctx)
{
	struct libs_facts *libs = &f->libs;
	const struct loader *ld = ctx->loader;

	libs->ldcache_status = ld->cache_status;
	str_copy(libs->ldcache_source, sizeof(libs->ldcache_source),
		 ld->have_cache ? "/etc/ld.so.cache" : "/etc/ld.so.conf");
	libs->ldcache_entries = (int)ld->cache.count;
	choose(f, &libs->cuda, ld, "libcuda.so.1");
	choose(f, &libs->nvml, ld, "libnvidia-ml.so.1");
	facts_dropped(f, "library search directories", LOADER_MAX_DIRS, ld->dropped_dirs);
	loader_scan_prefix(ld, "libcuda.so", note_stub, libs);
}
