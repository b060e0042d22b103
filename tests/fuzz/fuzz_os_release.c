/*
 * fuzz_os_release.c - /etc/os-release through probe_system (the kv_shell_get
 * reader of ID, ID_LIKE, VERSION_ID and PRETTY_NAME).
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_system, NULL };

	harness_write("/etc/os-release", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
