/*
 * fuzz_nvidia_version.c - /proc/driver/nvidia/version through probe_kmod,
 * and nvrm_parse_version on the same text directly, into an output buffer
 * of the size the probe uses and into one too small for most versions.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "probe/probe_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_kmod, NULL };
	char *line = malloc(size + 1);
	char version[FACT_VER], tiny[6];

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';	/* the parser takes a C string: it stops at the first NUL */
	nvrm_parse_version(line, version, sizeof(version));
	nvrm_parse_version(line, tiny, sizeof(tiny));
	free(line);

	harness_write("/proc/driver/nvidia/version", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
