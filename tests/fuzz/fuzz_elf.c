/*
 * fuzz_elf.c - the bounded ELF reader (dynamic section and section lookup)
 * on an arbitrary file inside a temporary root, as probe_torch_libs reads
 * libtorch_cuda.so.
 */
#include "harness.h"
#include "util/elf.h"

#define ELF_PATH "/lib/libfuzz.so"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rootfs *fs = harness_fs();
	struct elf_dynamic dyn;
	struct error err;
	uint64_t off, len;

	harness_write(ELF_PATH, data, size);
	elf_read_dynamic(fs, ELF_PATH, &dyn, &err);
	elf_find_section(fs, ELF_PATH, ".nv_fatbin", &off, &len, &err);
	return 0;
}
