/*
 * judge.h - a test or bench run judged: a verdict per GPU, named by index,
 * UUID and bus id, and its peaks for the percentages.
 */
#ifndef GD_COMPUTE_JUDGE_H
#define GD_COMPUTE_JUDGE_H

#include "compute/compute.h"
#include "probe/facts.h"

struct gpu_peaks {
	double fp32, tf32, fp16, bf16;	/* dense TFLOPS, 0 when unknown */
	double mem_bw;			/* GB/s, 0 when unknown */
	bool computed;			/* from clocks and SMs, not a datasheet */
	const char *source;		/* static */
	char name[96];			/* the GPU table's name, "" when computed */
};

struct compute_view {
	const struct compute_gpu *gpu;
	char uuid[96];			/* from NVML, "" when unknown */
	struct gpu_peaks peaks;
	long long ecc_before, ecc_after;	/* uncorrectable ECC count, -1 unknown */
	int remap_pending_before, remap_pending_after;
	bool pass;
	char verdict[256];		/* English: JSON, and the text report in English */
	char verdict_local[512];	/* the same in the report's language, "" when it reads the same */
};

struct compute_report {
	const struct compute_run *run;
	struct isolate_outcome how;
	struct compute_view views[COMPUTE_MAX_GPUS];
	int n;
	char xids[8][256];		/* kernel Xid lines logged during the run */
	int nxids;
	char xid_note[160];		/* why they were not watched, "" when they were */
	bool pass;
	char failure[480];		/* the run as a whole failed, "" when not; English as verdict */
	char failure_local[960];	/* the same in the report's language, "" when it reads the same */
};

/* The GPU's peaks: the datasheet table by its PCI identity in facts, else computed. */
void compute_peaks(const struct compute_gpu *g, const struct facts *f, struct gpu_peaks *out);
/* Judge a run; before/after are the facts read around it (after may be NULL). */
void compute_judge(const struct compute_run *run, const struct isolate_outcome *how, const struct facts *before,
		   const struct facts *after, struct compute_report *out);

#endif
