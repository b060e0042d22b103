/*
 * fuzz_dpkg_status.c - /var/lib/dpkg/status through cudnn_cuda_builds (the stanza reader that finds
 * installed libcudnn packages and their CUDA major), for a cuDNN 8 and a cuDNN 9 library under /usr/lib.
 */
#include "harness.h"

#include "probe/probe_internal.h"
#include "util/str.h"

static void cudnn_builds(struct facts *f, const struct probe_ctx *ctx)
{
	static const char *const libs[][2] = { { "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7", "8.9.7" },
					       { "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0", "9.1.0" } };

	for (size_t i = 0; i < 2; i++) {
		struct cudnn_item *it = &f->cudnn.items[f->cudnn.count++];

		it->kind = CUDNN_LIBRARY;
		str_copy(it->path, sizeof(it->path), libs[i][0]);
		str_copy(it->version, sizeof(it->version), libs[i][1]);
	}
	cudnn_cuda_builds(&f->cudnn, ctx->fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { cudnn_builds, NULL };

	harness_write("/var/lib/dpkg/status", data, size);
	harness_run_probes(NULL, probes);
	return 0;
}
