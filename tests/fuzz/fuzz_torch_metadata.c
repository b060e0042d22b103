/*
 * fuzz_torch_metadata.c - torch's dist-info METADATA through probe_python:
 * its Requires-Dist lines (requires_dist_parse, marker_eval) for the torch
 * the diagnosed interpreter (/usr/bin/python3 on PATH) imports from
 * /usr/local/lib/python3.11/dist-packages, checked against an nvidia-*
 * dist-info beside it (torch_requires_read, torch_requires_check).
 */
#include "harness.h"

#define DIST "/usr/local/lib/python3.11/dist-packages"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static const char version_py[] = "from typing import Optional\n\n"
					 "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
					 "__version__ = '2.6.0+cu124'\ndebug = False\n"
					 "cuda: Optional[str] = '12.4'\nhip: Optional[str] = None\n";
	static int made;

	if (!made++) {
		harness_make_venv();
		harness_write(DIST "/torch/version.py", version_py, sizeof(version_py) - 1);
		harness_write(DIST "/torch-2.6.0.dist-info/INSTALLER", "pip\n", 4);
		harness_write(DIST "/nvidia_cudnn_cu12-9.1.0.70.dist-info/INSTALLER", "pip\n", 4);
	}
	harness_write(DIST "/torch-2.6.0.dist-info/METADATA", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
