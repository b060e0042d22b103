/*
 * fuzz_conda_envs.c - ~/.conda/environments.txt through probe_python: each
 * line is a conda environment's prefix whose bin/python is looked at.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static int made;

	if (!made++)
		harness_make_venv();
	harness_write("/home/u/.conda/environments.txt", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
