/*
 * elf.h - a bounded reader for the few ELF tables gpudoctor needs.
 *
 * The libraries we look at (libtorch_cuda.so, libcublasLt.so) are hundreds
 * of MB to GB, so nothing here reads a whole file: the ELF header, the
 * section or program header table and the one table asked for are read
 * with pread, each offset and size checked against the file's size first
 * and each count capped. A corrupt or hostile file gives an error or a
 * partial answer, never a crash or an unbounded read.
 *
 * Little-endian ELF32 and ELF64 are understood (every Linux target NVIDIA
 * ships for); a big-endian file is refused with an error.
 */
#ifndef GD_UTIL_ELF_H
#define GD_UTIL_ELF_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"
#include "util/rootfs.h"

#define ELF_MAX_NEEDED 64
#define ELF_STR_MAX 128
#define ELF_PATH_STR_MAX 1024

#define ELF_MACHINE_X86_64 62
#define ELF_MACHINE_AARCH64 183

struct elf_dynamic {
	int elf_class;				/* 32 or 64 */
	unsigned machine;			/* e_machine: 62 = x86-64, 183 = aarch64 */
	char soname[ELF_STR_MAX];		/* DT_SONAME, "" if none */
	char needed[ELF_MAX_NEEDED][ELF_STR_MAX];	/* DT_NEEDED in order */
	int nneeded;
	char rpath[ELF_PATH_STR_MAX];		/* DT_RPATH, "" if none */
	char runpath[ELF_PATH_STR_MAX];		/* DT_RUNPATH, "" if none */
	bool truncated;				/* a string or the DT_NEEDED list did not fit */
};

/*
 * Read the dynamic section: found through the section headers (SHT_DYNAMIC
 * and the string table its sh_link names), or, in a file stripped of them,
 * through PT_DYNAMIC and the PT_LOAD segments. Strings that are not
 * NUL-terminated inside the string table are skipped. A file without a
 * dynamic section fails with err->code ENOENT; elf_class and machine are
 * filled in all the same.
 */
int elf_read_dynamic(const struct rootfs *fs, const char *path, struct elf_dynamic *out,
		     struct error *err);

/*
 * Find a section by name; *offset and *size in the file (size 0 for SHT_NOBITS).
 * -1 if absent (err->code ENOENT) or if the file is not a readable ELF.
 */
int elf_find_section(const struct rootfs *fs, const char *path, const char *name,
		     uint64_t *offset, uint64_t *size, struct error *err);

/*
 * The open-file layer under both calls, for readers of section contents
 * (fatbin.c): one descriptor for many reads, the path resolved inside the
 * root once. elf_open checks the ELF header; elf_pread reads exactly len
 * bytes at off or fails, never past the size seen at open.
 */
struct elf_file {
	int fd;
	uint64_t size;		/* file size at open; every read is checked against it */
	const char *path;	/* machine path, for messages (the caller's string) */
	int elf_class;		/* 32 or 64 */
	unsigned machine;
	uint64_t phoff, shoff;
	uint32_t phnum, shnum;	/* shnum after extended numbering, capped */
	uint32_t phentsize, shentsize;
	uint32_t shstrndx;
};

int elf_open(struct elf_file *ef, const struct rootfs *fs, const char *path, struct error *err);
int elf_pread(const struct elf_file *ef, uint64_t off, void *buf, uint64_t len);
int elf_section(const struct elf_file *ef, const char *name, uint64_t *offset, uint64_t *size,
		struct error *err);
void elf_close(struct elf_file *ef);

#endif
