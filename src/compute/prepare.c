#include "compute/prepare.h"

#include <stdlib.h>
#include <string.h>

#include "util/str.h"

#define DEFAULT_CALL_S 10
#define DEFAULT_TEST_BUDGET_S 300
#define DEFAULT_BENCH_BUDGET_S 600
#define DEFAULT_STABILITY_S 2.0

/* Add the host path of a machine path to the cuBLAS candidates; false when it does not map. */
static void add_cublas(struct compute_run *run, const struct rootfs *fs, const char *machine_path)
{
	if (run->ncublas < COMPUTE_MAX_CUBLAS &&
	    rootfs_host_path(fs, machine_path, true, run->cublas[run->ncublas], sizeof(run->cublas[0]), NULL) == 0)
		run->ncublas++;
}

/*
 * See prepare.h. Under --root, fails without a libcuda the loader would choose. For bench, the cuBLAS
 * candidates are the active toolkit's and those every torch install links, mapped but not checked to exist.
 */
int compute_prepare(struct compute_run *run, const struct rootfs *fs, const struct facts *f,
		    const struct compute_request *req, struct error *err)
{
	const struct lib_candidate *cuda = lib_choice_chosen(&f->libs.cuda);

	memset(run, 0, sizeof(*run));
	if (fs->live)
		str_copy(run->libcuda, sizeof(run->libcuda), "libcuda.so.1");
	else if (!cuda)
		return error_set(err, "no libcuda.so.1 under the root to compute with");
	else if (rootfs_host_path(fs, cuda->resolved, true, run->libcuda, sizeof(run->libcuda), err) < 0)
		return -1;
	run->bench = req->bench;
	run->seeds_compat = req->seeds_compat;
	run->stability_s = req->stability_s > 0 ? req->stability_s : DEFAULT_STABILITY_S;
	run->call_s = req->call_s > 0 ? req->call_s : DEFAULT_CALL_S;
	run->total_s = req->total_s > 0 ? req->total_s : req->bench ? DEFAULT_BENCH_BUDGET_S : DEFAULT_TEST_BUDGET_S;
	run->cublas_search = fs->live;	/* under --root, nothing outside it is loaded */
	run->only_gpu = -1;
	if (!req->bench)
		return 0;
	if (f->toolkits.active >= 0) {
		const struct toolkit *t = &f->toolkits.items[f->toolkits.active];
		int major = atoi(t->version);
		char path[FACT_PATH + 32];

		if (major > 0 && str_printf(path, sizeof(path), "%s/lib64/libcublas.so.%d", t->real_path, major) == 0)
			add_cublas(run, fs, path);
	}
	for (int i = 0; i < f->python.ntorch; i++) {
		const struct torch_install *t = &f->python.torches[i];

		for (int k = 0; k < t->nlibs; k++)
			if (str_starts_with(t->libs[k].soname, "libcublas.so.") && t->libs[k].path[0])
				add_cublas(run, fs, t->libs[k].path);
	}
	return 0;
}
