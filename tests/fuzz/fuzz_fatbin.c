/*
 * fuzz_fatbin.c - the fat-binary scanner on an arbitrary file inside a
 * temporary root: once with a small entry cap (the truncation path) and
 * once with 0, the default cap.
 */
#include "harness.h"
#include "util/fatbin.h"

#define FATBIN_PATH "/lib/libfuzz_cuda.so"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rootfs *fs = harness_fs();
	struct fatbin_archs fa;
	struct error err;

	harness_write(FATBIN_PATH, data, size);
	fatbin_scan(fs, FATBIN_PATH, 3, &fa, &err);
	fatbin_scan(fs, FATBIN_PATH, 0, &fa, &err);
	return 0;
}
