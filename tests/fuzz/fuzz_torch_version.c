/*
 * fuzz_torch_version.c - torch/version.py through probe_python: the file
 * the static torch probe reads for __version__, cuda, hip and debug
 * (torch_version_field), for a torch installed in the venv that
 * VIRTUAL_ENV names, beside its dist-info and INSTALLER.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static char venv[] = "VIRTUAL_ENV=" HARNESS_VENV;
	static char *const env[] = { venv, NULL };
	static int made;

	if (!made++) {
		harness_make_venv();
		harness_write(HARNESS_SITE "/torch-2.4.1.dist-info/INSTALLER", "pip\n", 4);
	}
	harness_write(HARNESS_SITE "/torch/version.py", data, size);
	harness_run_probes(env, probes);
	return 0;
}
