#include "util/bytes.h"
#include "util/fatbin.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/elf.h"

/*
 * The layout, little-endian, as reverse-engineered and widely reimplemented
 * (NVIDIA documents no stable format). A fat binary section holds
 * consecutive containers, each 8-byte aligned:
 *
 *   container header, 16 bytes:
 *     0  u32 magic 0xBA55ED50
 *     4  u16 version (1)
 *     6  u16 header_size (16)
 *     8  u64 fat_size: bytes of entries after the header
 *
 *   then entries back to back, each a header followed by its payload:
 *     0  u16 kind: 1 = PTX, 2 = ELF (SASS cubin); other kinds are skipped
 *     2  u16 version (0x0101)
 *     4  u32 header_size (64 to 112 seen; the tail holds names and flags)
 *     8  u64 payload_size (padded; compressed payloads are no bigger)
 *    16  u32 compressed_size, u32 unknown
 *    24  u16 minor, u16 major (of the entry format)
 *    28  u32 arch: the sm or compute number, e.g. 86
 *
 * The next entry starts at header + header_size + payload_size, the next
 * container at the 8-aligned end of the previous one's entries.
 */
#define FATBIN_MAGIC 0xBA55ED50u
#define CONTAINER_HEADER 16
#define ENTRY_HEADER_MIN 32	/* through the arch field, all we read */
#define KIND_PTX 1
#define KIND_ELF 2

/*
 * Headers are walked inside a window of the file. Where entries are small
 * a 64 KiB window holds dozens of headers; after a jump over a big payload
 * the next one is likely big too, so only 256 bytes (any entry header) are
 * read there: copying 4 KiB per jump cost more than the jump. On
 * libcublasLt.so (139 MB of fat binary, 8,500 headers) this makes about
 * 1,000 reads.
 */
#define WINDOW 65536
#define SMALL_READ 256

struct window {
	const struct elf_file *ef;
	unsigned char *buf;	/* WINDOW bytes */
	uint64_t start, len;	/* file offset and length of what buf holds */
};

struct scan {
	struct window w;
	struct fatbin_archs *out;
	unsigned long max;	/* cap on entries, and separately on containers */
};

/*
 * need bytes at file offset off, all before limit; NULL when they are not
 * there or cannot be read. The caller guarantees off + need <= limit.
 */
static const unsigned char *window_get(struct window *w, uint64_t off, uint64_t need, uint64_t limit)
{
	uint64_t want;

	if (w->len > 0 && off >= w->start && off - w->start <= w->len &&
	    need <= w->len - (off - w->start))
		return w->buf + (off - w->start);
	/* Dense when the next header was within a window's length of the last. */
	want = w->len > 0 && off >= w->start && off - w->start <= WINDOW ? WINDOW : SMALL_READ;
	if (want > limit - off)
		want = limit - off;
	if (want < need)
		return NULL;
	w->len = 0;
	if (elf_pread(w->ef, off, w->buf, want) < 0)
		return NULL;
	w->start = off;
	w->len = want;
	return w->buf;
}

/* Insert v into the sorted set arr of *n; a full set drops newcomers and says so in *full. */
static void add_arch(unsigned *arr, int *n, unsigned v, bool *full)
{
	int i = 0;

	while (i < *n && arr[i] < v)
		i++;
	if (i < *n && arr[i] == v)
		return;
	if (*n >= FATBIN_MAX_ARCHS) {
		*full = true;
		return;
	}
	memmove(arr + i + 1, arr + i, (size_t)(*n - i) * sizeof(*arr));
	arr[i] = v;
	(*n)++;
}

/* Walk the entries in [pos, end). Returns -1 when the entry cap stops it. */
static int scan_entries(struct scan *s, uint64_t pos, uint64_t end)
{
	struct fatbin_archs *out = s->out;

	/* Fewer bytes than a header left: padding, the container is done. */
	while (end - pos >= ENTRY_HEADER_MIN) {
		const unsigned char *e;
		uint64_t hsize, psize;

		if (out->entries >= s->max) {
			out->truncated = true;
			return -1;
		}
		e = window_get(&s->w, pos, ENTRY_HEADER_MIN, end);
		if (!e)
			return 0;
		hsize = le32(e + 4);
		psize = le64(e + 8);
		/* header_size >= 32 also guarantees progress on empty payloads. */
		if (hsize < ENTRY_HEADER_MIN || hsize > end - pos || psize > end - pos - hsize)
			return 0;
		out->entries++;
		if (le16(e) == KIND_ELF)
			add_arch(out->sass, &out->nsass, le32(e + 28), &out->archs_full);
		else if (le16(e) == KIND_PTX)
			add_arch(out->ptx, &out->nptx, le32(e + 28), &out->archs_full);
		pos += hsize + psize;
	}
	return 0;
}

/* Walk the containers of the section at [off, off + size) of the file. */
static void scan_section(struct scan *s, uint64_t off, uint64_t size)
{
	uint64_t pos = off, end = off + size;

	while (end - pos >= CONTAINER_HEADER) {
		const unsigned char *h;
		uint64_t hsize, fat, body, body_end;

		if (s->out->containers >= s->max) {
			s->out->truncated = true;
			return;
		}
		h = window_get(&s->w, pos, CONTAINER_HEADER, end);
		if (!h || le32(h) != FATBIN_MAGIC)
			return;
		hsize = le16(h + 6);
		fat = le64(h + 8);
		if (hsize < CONTAINER_HEADER || hsize > end - pos)
			return;
		s->out->containers++;
		body = pos + hsize;
		/* A container claiming more than the section: read what is there, then stop. */
		body_end = fat <= end - body ? body + fat : end;
		if (scan_entries(s, body, body_end) < 0 || body_end == end)
			return;
		pos = off + ((body_end - off + 7) & ~(uint64_t)7);
		if (pos > end)
			return;
	}
}

static const char *const sections[] = { ".nv_fatbin", "__nv_relfatbin" };

/*
 * See fatbin.h. out is zeroed first; max_entries 0 means FATBIN_DEFAULT_MAX_ENTRIES. A damaged file whose
 * sections cannot be read reports that damage rather than ENOENT. Nothing is kept open or allocated after.
 */
int fatbin_scan(const struct rootfs *fs, const char *path, unsigned long max_entries,
		struct fatbin_archs *out, struct error *err)
{
	struct elf_file ef;
	struct scan s = { .out = out, .max = max_entries ? max_entries : FATBIN_DEFAULT_MAX_ENTRIES };
	struct error broken = { 0 };
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (elf_open(&ef, fs, path, err) < 0)
		return -1;
	s.w.ef = &ef;
	s.w.buf = malloc(WINDOW);
	if (!s.w.buf) {
		elf_close(&ef);
		return error_set(err, "out of memory scanning '%s'", path);
	}
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]) && !out->truncated; i++) {
		uint64_t off, size;
		struct error e = { 0 };

		if (elf_section(&ef, sections[i], &off, &size, &e) < 0) {
			if (e.code != ENOENT && !broken.msg[0])
				broken = e;	/* a damaged file says more than "absent" */
			continue;
		}
		found++;
		s.w.len = 0;
		scan_section(&s, off, size);
	}
	free(s.w.buf);
	elf_close(&ef);
	if (!found && broken.msg[0]) {
		if (err)
			*err = broken;
		return -1;
	}
	if (!found) {
		error_set(err, "'%s' has no CUDA fat binary section", path);
		if (err)
			err->code = ENOENT;
		return -1;
	}
	if (out->containers == 0)
		return error_set(err, "no readable CUDA fat binary in '%s'", path);
	return 0;
}
