/*
 * fuzz_pyvenv_cfg.c - a venv's pyvenv.cfg through probe_python, with
 * VIRTUAL_ENV naming the venv: the key = value reader, the version taken
 * from "version" (venv) or "version_info" (uv), and the site directories
 * derived from "home" and "include-system-site-packages".
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static char venv[] = "VIRTUAL_ENV=" HARNESS_VENV;
	static char *const env[] = { venv, NULL };
	static int made;

	if (!made++)
		harness_make_venv();
	harness_write(HARNESS_VENV "/pyvenv.cfg", data, size);
	harness_run_probes(env, probes);
	return 0;
}
