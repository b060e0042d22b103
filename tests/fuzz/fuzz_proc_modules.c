/*
 * fuzz_proc_modules.c - /proc/modules through probe_kmod: which of nvidia,
 * nvidia_uvm, nvidia_drm, nvidia_modeset and nouveau are loaded.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_kmod, NULL };

	harness_write("/proc/modules", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
