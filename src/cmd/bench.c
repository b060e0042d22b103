/*
 * bench.c - `gpudoctor bench`: measure each GPU against its peak.
 */
#include "cmd/compute_cmd.h"
#include "util/i18n.h"

static int run_bench(const struct cmd_options *opts)
{
	return cmd_compute(opts, true);
}

static const struct cmd_option bench_only[] = {
	{ "seeds-compat", 0, NULL, OPT_SEEDS_COMPAT, N_("also time the common 100 x 1024x1024 matmul loop the way "
	  "guides do (host clock, no warm-up) to show why it misleads") },
};
static CMD_OPTION_GROUP(bench_options, bench_only);

static const struct cmd_option_group *const groups[] = {
	&cmd_machine_options, &cmd_compute_options, &bench_options, NULL,
};

const struct command cmd_bench = {
	.name = "bench",
	.run = run_bench,
	/* xgettext:no-c-format */
	.summary = N_("measure each GPU: bandwidth, FP32, GEMM as % of its peak"),
	.usage = "gpudoctor bench [options]",
	.description = "Runs the test first, then per GPU: host <-> device bandwidth (pinned and pageable), "
		       "device copy bandwidth, FP32 FMA throughput from a PTX kernel, and GEMM in FP32, TF32, FP16 "
		       "and BF16 through a cuBLAS found on the machine - each the median of 9 timed runs (CUDA "
		       "events, after a warm-up, random data) with its spread, as a percentage of the GPU's "
		       "datasheet peak (or a peak computed from its clocks).",
	.epilogue = "Exit status as for test.\n",
	.groups = groups,
};
