/*
 * fuzz_daemon_json.c - /etc/docker/daemon.json through probe_container_host (Jansson, the runtimes
 * object and default-runtime) on a host with an NVIDIA GPU.
 */
#include "harness.h"

static void host_probe(struct facts *f, const struct probe_ctx *ctx)
{
	f->pci.count = 1;
	probe_container_host(f, ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { host_probe, NULL };

	harness_write("/etc/docker/daemon.json", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
