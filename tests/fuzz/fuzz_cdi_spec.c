/*
 * fuzz_cdi_spec.c - a CDI specification at /etc/cdi/nvidia.yaml and the same bytes at
 * /etc/cdi/nvidia.json, through probe_container_host (the bounded YAML line reader and the Jansson
 * reader of kind and hostPath values) on a host with Docker and an NVIDIA GPU.
 */
#include "harness.h"

/* The probe examines only a host with a GPU on the bus; the harness's zeroed facts have none. */
static void host_probe(struct facts *f, const struct probe_ctx *ctx)
{
	f->pci.count = 1;
	probe_container_host(f, ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { host_probe, NULL };
	static int ready;

	if (!ready) {
		harness_write("/usr/bin/dockerd", "", 0);
		ready = 1;
	}
	harness_write("/etc/cdi/nvidia.yaml", data, size);
	harness_write("/etc/cdi/nvidia.json", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
