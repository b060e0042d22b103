/*
 * prepare.h - what a test or bench run loads, decided from the machine's
 * facts: the libcuda the loader would choose, and the cuBLAS copies to try
 * (the active toolkit's, torch's wheel's), each as the host path of the
 * machine path, mapped by the machine's rootfs. On the live machine libcuda
 * is opened by its soname, as any program would.
 */
#ifndef GD_COMPUTE_PREPARE_H
#define GD_COMPUTE_PREPARE_H

#include "compute/compute.h"
#include "probe/facts.h"
#include "util/rootfs.h"

struct compute_request {
	bool bench, seeds_compat;
	double stability_s;	/* the stability loop per GPU; 0: the default, 2 s */
	double call_s;		/* the deadline of one driver call; 0: the default, 10 s */
	double total_s;		/* the whole run's budget; 0: the default, 300 s (test) or 600 s (bench) */
};

/* Fill run (zeroed here) for the machine fs whose facts are f. */
int compute_prepare(struct compute_run *run, const struct rootfs *fs, const struct facts *f,
		    const struct compute_request *req, struct error *err);

#endif
