/*
 * fuzz_kernel_json.c - a Jupyter kernelspec's kernel.json through
 * probe_python: the JSON is parsed with Jansson and argv[0], when it is an
 * absolute path, becomes an interpreter to look at. The root holds a venv
 * at /home/u/venv so that a kernel naming its python goes the whole way.
 */
#include "harness.h"

#define KERNEL_JSON "/home/u/.local/share/jupyter/kernels/k/kernel.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static int made;

	if (!made++)
		harness_make_venv();
	harness_write(KERNEL_JSON, data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
