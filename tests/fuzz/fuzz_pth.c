/*
 * fuzz_pth.c - a .pth file in a site directory through probe_python: the
 * lines site.py reads (comments, import lines, relative and absolute
 * directories, normalised by path_normalize), for the interpreter on PATH,
 * with PYTHONPATH set; then probe_torch walks the import path that gives.
 */
#include "harness.h"

#define DIST "/usr/local/lib/python3.11/dist-packages"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static char pythonpath[] = "PYTHONPATH=/home/u/src:/home/u/src/../src/./lib::relative";
	static char *const env[] = { pythonpath, NULL };
	static int made;

	if (!made++) {
		harness_make_venv();
		harness_mkdir("/home/u/src/pytorch/torch");
		harness_write("/home/u/src/pytorch/torch/version.py", "__version__ = '2.7.0a0'\n", 24);
		harness_mkdir("/home/u/src/lib");
	}
	harness_write(DIST "/conda.pth", data, size);
	harness_run_probes(env, probes);
	return 0;
}
