/*
 * fuzz_kern_log.c - /var/log/kern.log through probe_kernlog: syslog stamps (RFC 3339 and classic), the kernel's
 * [seconds], this boot told apart by "Linux version" and stamps starting over, and the NVIDIA driver's messages
 * (Xid lines, the open module's GSP refusal, failed probes, legacy branches) spread over lines and #012.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_kernlog, NULL };

	harness_write("/var/log/kern.log", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
