/*
 * fuzz_profile.c - a shell profile (~/.bashrc and /etc/profile.d/gpu.sh) through probe_env_origin (the
 * static reader of CUDA_VISIBLE_DEVICES assignments), with CUDA_VISIBLE_DEVICES=0 in the environment.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_env_origin, NULL };
	static char *extra[] = { "CUDA_VISIBLE_DEVICES=0", NULL };

	harness_write("/home/u/.bashrc", data, size);
	harness_write("/etc/profile.d/gpu.sh", data, size);
	harness_run_probes(extra, probes);
	return 0;
}
