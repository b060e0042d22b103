#include "util/bytes.h"
#include "util/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/*
 * Field offsets are spelled out instead of using <elf.h>'s structs: the
 * file is decoded byte by byte as little-endian, so neither the host's
 * byte order nor the alignment of a read buffer matters.
 */
#define EI_NIDENT 16
#define EHDR32_SIZE 52
#define EHDR64_SIZE 64
#define SHDR32_SIZE 40
#define SHDR64_SIZE 64
#define PHDR32_SIZE 32
#define PHDR64_SIZE 56
#define DYN32_SIZE 8
#define DYN64_SIZE 16

#define SHT_STRTAB 3
#define SHT_DYNAMIC 6
#define SHT_NOBITS 8
#define SHN_XINDEX 0xffff
#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PN_XNUM 0xffff

#define DT_NULL 0
#define DT_NEEDED 1
#define DT_STRTAB 5
#define DT_STRSZ 10
#define DT_SONAME 14
#define DT_RPATH 15
#define DT_RUNPATH 29

/*
 * Caps. Real shared objects have tens of sections, about ten program
 * headers and well under a thousand dynamic entries; these are far above
 * that and small enough that a hostile count costs little.
 */
#define MAX_SECTIONS 65536
#define MAX_PHDRS 4096
#define MAX_DYN 8192
#define MAX_NAME 256		/* longest section name elf_section looks for */
#define STR_SCAN 4096		/* a dynamic string must end within this many bytes */
#define CHUNK 4096		/* bytes of a table read at a time */

#define NO_VALUE UINT64_MAX

struct shdr {
	uint32_t name, type, link;
	uint64_t offset, size;
};

struct phdr {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

/* The word-sized field of the file's class at p. */
static uint64_t leword(const struct elf_file *ef, const unsigned char *p)
{
	return ef->elf_class == 64 ? le64(p) : le32(p);
}

/* Does [off, off + len) lie inside the file? Written so nothing overflows. */
static bool in_file(const struct elf_file *ef, uint64_t off, uint64_t len)
{
	return off <= ef->size && len <= ef->size - off;
}

/*
 * Exactly len bytes at off or -1 (no error detail): a range past the size seen at open fails before any
 * read, and a file that shrank fails at the short read. Retries EINTR only.
 */
int elf_pread(const struct elf_file *ef, uint64_t off, void *buf, uint64_t len)
{
	unsigned char *p = buf;

	if (!in_file(ef, off, len) || off > (uint64_t)INT64_MAX)
		return -1;
	while (len > 0) {
		ssize_t n = pread(ef->fd, p, (size_t)len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;	/* error, or the file shrank under us */
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

static void read_shdr(const struct elf_file *ef, const unsigned char *p, struct shdr *sh)
{
	sh->name = le32(p);
	sh->type = le32(p + 4);
	if (ef->elf_class == 64) {
		sh->offset = le64(p + 24);
		sh->size = le64(p + 32);
		sh->link = le32(p + 40);
	} else {
		sh->offset = le32(p + 16);
		sh->size = le32(p + 20);
		sh->link = le32(p + 24);
	}
}

static void read_phdr(const struct elf_file *ef, const unsigned char *p, struct phdr *ph)
{
	ph->type = le32(p);
	if (ef->elf_class == 64) {
		ph->offset = le64(p + 8);
		ph->vaddr = le64(p + 16);
		ph->filesz = le64(p + 32);
	} else {
		ph->offset = le32(p + 4);
		ph->vaddr = le32(p + 8);
		ph->filesz = le32(p + 16);
	}
}

/*
 * Section headers are read a chunk at a time through this little cache, so
 * a walk over all of them costs one read per CHUNK bytes, not one per header.
 */
struct shdr_cache {
	const struct elf_file *ef;
	unsigned char buf[CHUNK];
	uint32_t first, count;
};

static int get_shdr(struct shdr_cache *c, uint32_t idx, struct shdr *sh)
{
	const struct elf_file *ef = c->ef;

	if (idx >= ef->shnum)
		return -1;
	if (idx < c->first || idx >= c->first + c->count) {
		uint32_t per = CHUNK / ef->shentsize;
		uint32_t n = ef->shnum - idx < per ? ef->shnum - idx : per;

		c->count = 0;
		if (elf_pread(ef, ef->shoff + (uint64_t)idx * ef->shentsize, c->buf,
			      (uint64_t)n * ef->shentsize) < 0)
			return -1;
		c->first = idx;
		c->count = n;
	}
	read_shdr(ef, c->buf + (size_t)(idx - c->first) * ef->shentsize, sh);
	return 0;
}

static int check_ident(const unsigned char *id, const char *path, struct error *err)
{
	if (memcmp(id, "\177ELF", 4) != 0)
		return error_set(err, "'%s' is not an ELF file", path);
	if (id[4] != 1 && id[4] != 2)
		return error_set(err, "'%s' has an unknown ELF class %u", path, id[4]);
	if (id[5] == 2)
		return error_set(err, "'%s' is a big-endian ELF file, which is not supported", path);
	if (id[5] != 1)
		return error_set(err, "'%s' has an unknown ELF data encoding %u", path, id[5]);
	return 0;
}

/*
 * Validate the section header table, resolving extended numbering (more
 * than 0xff00 sections: the real count and string table index live in
 * section 0). A table that is absent, malformed or outside the file leaves
 * shnum 0 rather than failing: the program headers may still serve.
 */
static void setup_sections(struct elf_file *ef, uint32_t shnum, uint32_t shstrndx)
{
	uint32_t want = ef->elf_class == 64 ? SHDR64_SIZE : SHDR32_SIZE;
	unsigned char buf[SHDR64_SIZE];
	struct shdr sh0;

	ef->shnum = 0;
	if (ef->shoff == 0 || ef->shentsize != want || !in_file(ef, ef->shoff, want))
		return;
	if (elf_pread(ef, ef->shoff, buf, want) < 0)
		return;
	read_shdr(ef, buf, &sh0);
	if (shnum == 0)
		shnum = sh0.size > MAX_SECTIONS ? MAX_SECTIONS + 1 : (uint32_t)sh0.size;
	if (shstrndx == SHN_XINDEX)
		shstrndx = sh0.link;
	if (shnum == 0 || shnum > MAX_SECTIONS || !in_file(ef, ef->shoff, (uint64_t)shnum * want))
		return;
	ef->shnum = shnum;
	ef->shstrndx = shstrndx;
}

static void setup_segments(struct elf_file *ef, uint32_t phnum)
{
	uint32_t want = ef->elf_class == 64 ? PHDR64_SIZE : PHDR32_SIZE;

	ef->phnum = 0;
	if (ef->phoff == 0 || phnum == 0 || phnum == PN_XNUM || phnum > MAX_PHDRS ||
	    ef->phentsize != want || !in_file(ef, ef->phoff, (uint64_t)phnum * want))
		return;
	ef->phnum = phnum;
}

static int parse_header(struct elf_file *ef, struct error *err)
{
	unsigned char h[EHDR64_SIZE];
	uint32_t shnum, shstrndx, phnum;

	if (ef->size < EI_NIDENT || elf_pread(ef, 0, h, EI_NIDENT) < 0)
		return error_set(err, "'%s' is too short to be an ELF file", ef->path);
	if (check_ident(h, ef->path, err) < 0)
		return -1;
	ef->elf_class = h[4] == 2 ? 64 : 32;
	if (elf_pread(ef, 0, h, ef->elf_class == 64 ? EHDR64_SIZE : EHDR32_SIZE) < 0)
		return error_set(err, "'%s' has a truncated ELF header", ef->path);
	ef->machine = le16(h + 18);
	if (ef->elf_class == 64) {
		ef->phoff = le64(h + 32);
		ef->shoff = le64(h + 40);
		ef->phentsize = le16(h + 54);
		phnum = le16(h + 56);
		ef->shentsize = le16(h + 58);
		shnum = le16(h + 60);
		shstrndx = le16(h + 62);
	} else {
		ef->phoff = le32(h + 28);
		ef->shoff = le32(h + 32);
		ef->phentsize = le16(h + 42);
		phnum = le16(h + 44);
		ef->shentsize = le16(h + 46);
		shnum = le16(h + 48);
		shstrndx = le16(h + 50);
	}
	setup_sections(ef, shnum, shstrndx);
	setup_segments(ef, phnum);
	return 0;
}

/*
 * See elf.h. ef->path borrows path, which must outlive ef. A file whose section or program header table is
 * unusable still opens (shnum or phnum 0). On failure the descriptor is already closed.
 */
int elf_open(struct elf_file *ef, const struct rootfs *fs, const char *path, struct error *err)
{
	struct stat st;

	memset(ef, 0, sizeof(*ef));
	ef->path = path;
	/* Resolve once inside the root, then keep one descriptor for all reads. */
	ef->fd = rootfs_open(fs, path, err);
	if (ef->fd < 0)
		return -1;
	if (fstat(ef->fd, &st) != 0) {
		int e = errno;

		elf_close(ef);
		return error_errno(err, e, "cannot stat '%s'", path);
	}
	ef->size = (uint64_t)st.st_size;
	if (parse_header(ef, err) < 0) {
		elf_close(ef);
		return -1;
	}
	return 0;
}

/* Close the descriptor; idempotent. Only for an ef elf_open has seen: a zeroed ef would close fd 0. */
void elf_close(struct elf_file *ef)
{
	if (ef->fd >= 0)
		close(ef->fd);
	ef->fd = -1;
}

/* A string table: where it is and its first bytes, most names live there. */
struct strtab {
	uint64_t off, size;
	unsigned char head[CHUNK];
	uint64_t nhead;
};

static int load_strtab(const struct elf_file *ef, uint64_t off, uint64_t size, struct strtab *t)
{
	t->off = off;
	t->size = size;
	t->nhead = size < CHUNK ? size : CHUNK;
	if (!in_file(ef, off, size))
		return -1;
	return elf_pread(ef, off, t->head, t->nhead);
}

/*
 * Is the string at name_off exactly name, NUL included? The NUL has to lie
 * inside the table, so an unterminated name at its end never matches.
 */
static bool name_is(const struct elf_file *ef, const struct strtab *t, uint32_t name_off,
		    const char *name, size_t need)
{
	unsigned char buf[MAX_NAME + 1];

	if (name_off >= t->size || t->size - name_off < need)
		return false;
	if (name_off + need <= t->nhead)
		return memcmp(t->head + name_off, name, need) == 0;
	if (elf_pread(ef, t->off + name_off, buf, need) < 0)
		return false;
	return memcmp(buf, name, need) == 0;
}

/* Find the first section named name, or, with name NULL, of the given type. */
static int find_shdr(const struct elf_file *ef, const char *name, uint32_t type,
		     struct shdr *out, struct error *err)
{
	struct shdr_cache cache = { .ef = ef };
	struct strtab names;
	struct shdr sh;
	size_t need = name ? strlen(name) + 1 : 0;

	if (ef->shnum == 0)
		return error_set(err, "'%s' has no usable section header table", ef->path);
	if (name) {
		if (need > MAX_NAME)
			return error_set(err, "section name '%.32s...' is too long", name);
		if (get_shdr(&cache, ef->shstrndx, &sh) < 0 ||
		    load_strtab(ef, sh.offset, sh.size, &names) < 0)
			return error_set(err, "'%s' has no readable section name table", ef->path);
	}
	for (uint32_t i = 1; i < ef->shnum; i++) {
		if (get_shdr(&cache, i, &sh) < 0)
			return error_set(err, "cannot read the section headers of '%s'", ef->path);
		if (name ? name_is(ef, &names, sh.name, name, need) : sh.type == type) {
			*out = sh;
			return 0;
		}
	}
	if (name)
		error_set(err, "'%s' has no section %s", ef->path, name);
	else
		error_set(err, "'%s' has no dynamic section", ef->path);	/* the one type asked for */
	if (err)
		err->code = ENOENT;
	return -1;
}

/*
 * The first section with that name (at most 255 bytes); *offset and *size are checked to lie inside the
 * file, and written only on success. Absent: -1 with err->code ENOENT.
 */
int elf_section(const struct elf_file *ef, const char *name, uint64_t *offset, uint64_t *size,
		struct error *err)
{
	struct shdr sh;

	if (find_shdr(ef, name, 0, &sh, err) < 0)
		return -1;
	if (sh.type == SHT_NOBITS)
		sh.size = 0;
	else if (!in_file(ef, sh.offset, sh.size))
		return error_set(err, "section %s of '%s' lies outside the file", name, ef->path);
	*offset = sh.offset;
	*size = sh.size;
	return 0;
}

/* elf_section on a file opened and closed for this one call; see elf.h. */
int elf_find_section(const struct rootfs *fs, const char *path, const char *name,
		     uint64_t *offset, uint64_t *size, struct error *err)
{
	struct elf_file ef;
	int rc;

	if (elf_open(&ef, fs, path, err) < 0)
		return -1;
	rc = elf_section(&ef, name, offset, size, err);
	elf_close(&ef);
	return rc;
}

/* What the dynamic array says, before its strings are looked up. */
struct dyn_refs {
	uint64_t needed[ELF_MAX_NEEDED];
	int nneeded;
	bool more_needed;
	uint64_t soname, rpath, runpath;	/* string table offsets or NO_VALUE */
	uint64_t strtab, strsz;			/* DT_STRTAB address, DT_STRSZ */
};

static void note_dyn(struct dyn_refs *r, uint64_t tag, uint64_t val)
{
	switch (tag) {
	case DT_NEEDED:
		if (r->nneeded < ELF_MAX_NEEDED)
			r->needed[r->nneeded++] = val;
		else
			r->more_needed = true;
		break;
	case DT_SONAME:
		r->soname = val;
		break;
	case DT_RPATH:
		r->rpath = val;
		break;
	case DT_RUNPATH:
		r->runpath = val;
		break;
	case DT_STRTAB:
		r->strtab = val;
		break;
	case DT_STRSZ:
		r->strsz = val;
		break;
	default:
		break;
	}
}

/* Walk the dynamic array at [off, off + size) up to DT_NULL or the cap. */
static int read_dyn_array(const struct elf_file *ef, uint64_t off, uint64_t size,
			  struct dyn_refs *r, struct error *err)
{
	unsigned char buf[CHUNK];
	uint64_t ent = ef->elf_class == 64 ? DYN64_SIZE : DYN32_SIZE;
	uint64_t count = size / ent, done = 0;

	memset(r, 0, sizeof(*r));
	r->soname = r->rpath = r->runpath = r->strtab = r->strsz = NO_VALUE;
	if (!in_file(ef, off, size))
		return error_set(err, "the dynamic section of '%s' lies outside the file", ef->path);
	if (count > MAX_DYN)
		count = MAX_DYN;
	while (done < count) {
		uint64_t n = count - done < CHUNK / ent ? count - done : CHUNK / ent;

		if (elf_pread(ef, off + done * ent, buf, n * ent) < 0)
			return error_set(err, "cannot read the dynamic section of '%s'", ef->path);
		for (uint64_t i = 0; i < n; i++) {
			const unsigned char *d = buf + i * ent;
			uint64_t tag = leword(ef, d);

			if (tag == DT_NULL)
				return 0;
			note_dyn(r, tag, leword(ef, d + ent / 2));
		}
		done += n;
	}
	return 0;
}

/*
 * Copy the string at str_off of the table into dst. It must end with a NUL
 * inside the table and within STR_SCAN bytes; else it is skipped (-1). One
 * that ends but does not fit dst is cut and *cut set.
 */
static int copy_string(const struct elf_file *ef, uint64_t tab_off, uint64_t tab_size,
		       uint64_t str_off, char *dst, size_t dstsz, bool *cut)
{
	char buf[STR_SCAN];
	uint64_t n;
	const char *nul;
	size_t len;

	if (str_off >= tab_size)
		return -1;
	n = tab_size - str_off < STR_SCAN ? tab_size - str_off : STR_SCAN;
	if (elf_pread(ef, tab_off + str_off, buf, n) < 0)
		return -1;
	nul = memchr(buf, '\0', n);
	if (!nul)
		return -1;
	len = (size_t)(nul - buf);
	if (len >= dstsz) {
		len = dstsz - 1;
		*cut = true;
	}
	memcpy(dst, buf, len);
	dst[len] = '\0';
	return 0;
}

static void copy_strings(const struct elf_file *ef, uint64_t tab_off, uint64_t tab_size,
			 const struct dyn_refs *r, struct elf_dynamic *out)
{
	bool *cut = &out->truncated;

	for (int i = 0; i < r->nneeded; i++) {
		char *dst = out->needed[out->nneeded];

		if (copy_string(ef, tab_off, tab_size, r->needed[i], dst, ELF_STR_MAX, cut) == 0)
			out->nneeded++;
	}
	if (r->more_needed)
		*cut = true;
	if (r->soname != NO_VALUE)
		copy_string(ef, tab_off, tab_size, r->soname, out->soname, sizeof(out->soname), cut);
	if (r->rpath != NO_VALUE)
		copy_string(ef, tab_off, tab_size, r->rpath, out->rpath, sizeof(out->rpath), cut);
	if (r->runpath != NO_VALUE)
		copy_string(ef, tab_off, tab_size, r->runpath, out->runpath, sizeof(out->runpath), cut);
}

/* The usual case: SHT_DYNAMIC, and the string table named by its sh_link. */
static int dynamic_from_sections(const struct elf_file *ef, struct elf_dynamic *out,
				 struct error *err)
{
	struct shdr_cache cache = { .ef = ef };
	struct shdr dyn, str;
	struct dyn_refs r;

	if (find_shdr(ef, NULL, SHT_DYNAMIC, &dyn, err) < 0)
		return -1;
	if (get_shdr(&cache, dyn.link, &str) < 0 || str.type != SHT_STRTAB ||
	    !in_file(ef, str.offset, str.size))
		return error_set(err, "the dynamic section of '%s' has no valid string table", ef->path);
	if (read_dyn_array(ef, dyn.offset, dyn.size, &r, err) < 0)
		return -1;
	copy_strings(ef, str.offset, str.size, &r, out);
	return 0;
}

/*
 * Map a virtual address to a file offset through the PT_LOAD segments;
 * *avail gets how many bytes from there the segment holds in the file.
 */
static int vaddr_to_offset(const struct elf_file *ef, uint64_t addr, uint64_t *off, uint64_t *avail)
{
	unsigned char buf[PHDR64_SIZE];
	struct phdr ph;

	for (uint32_t i = 0; i < ef->phnum; i++) {
		if (elf_pread(ef, ef->phoff + (uint64_t)i * ef->phentsize, buf, ef->phentsize) < 0)
			return -1;
		read_phdr(ef, buf, &ph);
		if (ph.type != PT_LOAD || addr < ph.vaddr || addr - ph.vaddr >= ph.filesz)
			continue;
		if (ph.offset > UINT64_MAX - (addr - ph.vaddr))
			continue;
		*off = ph.offset + (addr - ph.vaddr);
		*avail = ph.filesz - (addr - ph.vaddr);
		return 0;
	}
	return -1;
}

static int find_phdr(const struct elf_file *ef, uint32_t type, struct phdr *out)
{
	unsigned char buf[PHDR64_SIZE];

	for (uint32_t i = 0; i < ef->phnum; i++) {
		if (elf_pread(ef, ef->phoff + (uint64_t)i * ef->phentsize, buf, ef->phentsize) < 0)
			return -1;
		read_phdr(ef, buf, out);
		if (out->type == type)
			return 0;
	}
	return -1;
}

/* For files stripped of section headers: PT_DYNAMIC, DT_STRTAB via PT_LOAD. */
static int dynamic_from_segments(const struct elf_file *ef, struct elf_dynamic *out,
				 struct error *err)
{
	struct phdr dyn;
	struct dyn_refs r;
	uint64_t off, avail;

	if (find_phdr(ef, PT_DYNAMIC, &dyn) < 0) {
		error_set(err, "'%s' has no dynamic section", ef->path);
		if (err)
			err->code = ENOENT;
		return -1;
	}
	if (read_dyn_array(ef, dyn.offset, dyn.filesz, &r, err) < 0)
		return -1;
	if (r.strtab == NO_VALUE || vaddr_to_offset(ef, r.strtab, &off, &avail) < 0)
		return error_set(err, "the dynamic string table of '%s' is not in the file", ef->path);
	if (r.strsz != NO_VALUE && r.strsz < avail)
		avail = r.strsz;
	if (!in_file(ef, off, avail))
		return error_set(err, "the dynamic string table of '%s' lies outside the file", ef->path);
	copy_strings(ef, off, avail, &r, out);
	return 0;
}

/*
 * See elf.h. out is zeroed first, so a failure leaves "" strings and nneeded 0. When the program headers
 * stand in for broken sections, success may leave the sections' message in err.
 */
int elf_read_dynamic(const struct rootfs *fs, const char *path, struct elf_dynamic *out,
		     struct error *err)
{
	struct elf_file ef;
	int rc;

	memset(out, 0, sizeof(*out));
	if (elf_open(&ef, fs, path, err) < 0)
		return -1;
	out->elf_class = ef.elf_class;
	out->machine = ef.machine;
	rc = dynamic_from_sections(&ef, out, err);
	if (rc < 0 && ef.phnum > 0) {
		/*
		 * No section headers, or broken ones: the loader itself only
		 * uses the program headers, so they may still serve. The
		 * section error stands unless there were no usable sections
		 * to begin with.
		 */
		struct error seg_err = { 0 };
		bool no_sections = ef.shnum == 0 || (err && err->code == ENOENT);

		rc = dynamic_from_segments(&ef, out, &seg_err);
		if (rc < 0 && err && no_sections)
			*err = seg_err;
	}
	elf_close(&ef);
	return rc;
}
