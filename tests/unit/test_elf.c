/*
 * Unit tests for src/util/elf.c and src/util/fatbin.c: small ELF files built
 * byte by byte (ELF header, program headers, .shstrtab, .dynstr, .dynamic,
 * .nv_fatbin, section headers), read back exactly, then cut at every
 * length, fuzzed and given absurd sizes. The readers work on files, so each
 * image is written into a temporary root and read through a rooted rootfs.
 * An optional last test compiles a real kernel with nvcc when there is one.
 */
#include "testutil.h"

#include <sys/wait.h>

#include "util/elf.h"
#include "util/fatbin.h"
#include "util/str.h"

#define BASE_VADDR 0x400000u
#define LIB "/lib/libfoo.so"

/* ---- a growable byte image ---------------------------------------------- */

struct img {
	unsigned char *p;
	size_t len, cap;
};

static void img_grow(struct img *im, size_t n)
{
	if (im->len + n <= im->cap)
		return;
	while (im->len + n > im->cap)
		im->cap = im->cap ? im->cap * 2 : 4096;
	im->p = realloc(im->p, im->cap);
	assert_non_null(im->p);
}

/* Append n bytes (zeros when data is NULL); returns their offset. */
static size_t img_add(struct img *im, const void *data, size_t n)
{
	size_t off = im->len;

	img_grow(im, n);
	if (data)
		memcpy(im->p + off, data, n);
	else
		memset(im->p + off, 0, n);
	im->len += n;
	return off;
}

static void img_align(struct img *im, size_t a)
{
	while (im->len % a)
		img_add(im, NULL, 1);
}

static void img_free(struct img *im)
{
	free(im->p);
	memset(im, 0, sizeof(*im));
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put_word(int cls, unsigned char *p, uint64_t v)
{
	if (cls == 64)
		put64(p, v);
	else
		put32(p, (uint32_t)v);
}

/* ---- fat binaries --------------------------------------------------------- */

struct fent {
	uint16_t kind;		/* 1 PTX, 2 ELF */
	uint32_t arch;
	uint32_t hsize;		/* 0: 64 */
	uint64_t psize;		/* payload bytes actually written */
};

/* One container: 16-byte header, then the entries; 8-aligned start. */
static size_t fb_container(struct img *im, const struct fent *e, size_t n)
{
	size_t start;

	img_align(im, 8);
	start = img_add(im, NULL, 16);
	put32(im->p + start, 0xBA55ED50u);
	put16(im->p + start + 4, 1);
	put16(im->p + start + 6, 16);
	for (size_t i = 0; i < n; i++) {
		uint32_t hsize = e[i].hsize ? e[i].hsize : 64;
		size_t h = img_add(im, NULL, hsize);

		put16(im->p + h, e[i].kind);
		put16(im->p + h + 2, 0x0101);
		put32(im->p + h + 4, hsize);
		put64(im->p + h + 8, e[i].psize);
		put32(im->p + h + 16, (uint32_t)e[i].psize);
		put16(im->p + h + 24, 8);
		put16(im->p + h + 26, 1);
		put32(im->p + h + 28, e[i].arch);
		for (uint64_t b = 0; b < e[i].psize; b++)
			img_add(im, (const unsigned char[]){ (unsigned char)(0xA0 + b) }, 1);
	}
	put64(im->p + start + 8, im->len - start - 16);
	return start;
}

/*
 * The standard fat binary: two containers, the first ending unaligned so
 * the second starts after padding, with SASS 75/86/90, PTX 86/90 and one
 * entry of an unknown kind. 7 entries in all.
 */
static const struct fent fat_a[] = {
	{ 2, 86, 0, 40 }, { 2, 75, 0, 24 }, { 1, 86, 80, 12 },
};
static const struct fent fat_b[] = {
	{ 2, 90, 112, 32 }, { 2, 75, 0, 0 }, { 4, 999, 0, 8 }, { 1, 90, 0, 16 },
};

static void fb_standard(struct img *fat)
{
	fb_container(fat, fat_a, 3);
	fb_container(fat, fat_b, 4);
}

/* ---- ELF files ------------------------------------------------------------ */

struct spec {
	int cls;				/* 32 or 64 */
	uint16_t machine;
	const char *needed[80];
	int nneeded;
	const char *soname, *rpath, *runpath;	/* NULL: no such entry */
	const struct img *fat;			/* .nv_fatbin contents, NULL: none */
	const struct img *relfat;		/* __nv_relfatbin contents, NULL: none */
};

/* Where build_elf put things, for tests that patch them. */
struct layout {
	size_t phoff, shoff, shstr, dynstr, dyn, fat, relfat, len;
	size_t shstr_size, dynstr_size, dyn_size, fat_size;
	int shnum, shsize, phsize;
	int sh_dynstr, sh_dyn, sh_fat;		/* section indices */
	size_t dt_runpath_str;			/* runpath's offset in .dynstr */
};

static void write_shdr(int cls, unsigned char *p, uint32_t name, uint32_t type,
		       uint64_t off, uint64_t size, uint32_t link)
{
	put32(p, name);
	put32(p + 4, type);
	if (cls == 64) {
		put64(p + 24, off);
		put64(p + 32, size);
		put32(p + 40, link);
		put64(p + 48, 8);
	} else {
		put32(p + 16, (uint32_t)off);
		put32(p + 20, (uint32_t)size);
		put32(p + 24, link);
		put32(p + 32, 4);
	}
}

static void write_phdr(int cls, unsigned char *p, uint32_t type, uint64_t off, uint64_t size)
{
	put32(p, type);
	if (cls == 64) {
		put64(p + 8, off);
		put64(p + 16, BASE_VADDR + off);
		put64(p + 32, size);
		put64(p + 40, size);
	} else {
		put32(p + 4, (uint32_t)off);
		put32(p + 8, (uint32_t)(BASE_VADDR + off));
		put32(p + 16, (uint32_t)size);
		put32(p + 20, (uint32_t)size);
	}
}

static void write_ehdr(int cls, unsigned char *h, const struct spec *s, const struct layout *l)
{
	memcpy(h, "\177ELF", 4);
	h[4] = cls == 64 ? 2 : 1;
	h[5] = 1;
	h[6] = 1;
	put16(h + 16, 3);		/* ET_DYN */
	put16(h + 18, s->machine);
	put32(h + 20, 1);
	if (cls == 64) {
		put64(h + 32, l->phoff);
		put64(h + 40, l->shoff);
		put16(h + 52, 64);
		put16(h + 54, (uint16_t)l->phsize);
		put16(h + 56, 2);
		put16(h + 58, (uint16_t)l->shsize);
		put16(h + 60, (uint16_t)l->shnum);
		put16(h + 62, 1);
	} else {
		put32(h + 28, (uint32_t)l->phoff);
		put32(h + 32, (uint32_t)l->shoff);
		put16(h + 40, 52);
		put16(h + 42, (uint16_t)l->phsize);
		put16(h + 44, 2);
		put16(h + 46, (uint16_t)l->shsize);
		put16(h + 48, (uint16_t)l->shnum);
		put16(h + 50, 1);
	}
}

static size_t add_str(struct img *im, const char *s)
{
	return img_add(im, s, strlen(s) + 1);
}

static void add_dyn(struct img *im, int cls, uint64_t tag, uint64_t val)
{
	size_t w = cls == 64 ? 8 : 4, off = img_add(im, NULL, 2 * w);

	put_word(cls, im->p + off, tag);
	put_word(cls, im->p + off + w, val);
}

/* The .dynstr and .dynamic sections. */
static void build_dynamic(struct img *im, const struct spec *s, struct layout *l)
{
	size_t needed[80], soname = 0, rpath = 0, runpath = 0;

	l->dynstr = img_add(im, "", 1);
	for (int i = 0; i < s->nneeded; i++)
		needed[i] = add_str(im, s->needed[i]) - l->dynstr;
	if (s->soname)
		soname = add_str(im, s->soname) - l->dynstr;
	if (s->rpath)
		rpath = add_str(im, s->rpath) - l->dynstr;
	if (s->runpath)
		runpath = add_str(im, s->runpath) - l->dynstr;	/* last: tests cut its NUL */
	l->dt_runpath_str = runpath;
	l->dynstr_size = im->len - l->dynstr;
	img_align(im, 8);
	l->dyn = im->len;
	for (int i = 0; i < s->nneeded; i++)
		add_dyn(im, s->cls, 1, needed[i]);
	if (s->soname)
		add_dyn(im, s->cls, 14, soname);
	if (s->rpath)
		add_dyn(im, s->cls, 15, rpath);
	if (s->runpath)
		add_dyn(im, s->cls, 29, runpath);
	add_dyn(im, s->cls, 5, BASE_VADDR + l->dynstr);
	add_dyn(im, s->cls, 10, l->dynstr_size);
	add_dyn(im, s->cls, 0x6ffffffb, 0);	/* DT_FLAGS_1: ignored */
	add_dyn(im, s->cls, 0, 0);
	add_dyn(im, s->cls, 1, 0);		/* after DT_NULL: must be ignored */
	l->dyn_size = im->len - l->dyn;
}

static size_t add_section_bytes(struct img *im, const struct img *data)
{
	img_align(im, 8);
	return img_add(im, data->p, data->len);
}

/*
 * Sections: [0] NULL, [1] .shstrtab, [2] .dynstr, [3] .dynamic, then
 * .nv_fatbin and __nv_relfatbin when given; the fat binary's name is the
 * last string of .shstrtab so a test can cut its NUL off.
 */
static void build_elf(struct img *im, const struct spec *s, struct layout *l)
{
	int cls = s->cls;
	size_t n_dynstr, n_dyn, n_fat = 0, n_rel = 0, sh;

	memset(im, 0, sizeof(*im));
	memset(l, 0, sizeof(*l));
	l->shsize = cls == 64 ? 64 : 40;
	l->phsize = cls == 64 ? 56 : 32;
	img_add(im, NULL, cls == 64 ? 64 : 52);
	l->phoff = img_add(im, NULL, 2 * (size_t)l->phsize);
	l->shstr = img_add(im, "", 1);
	add_str(im, ".shstrtab");
	n_dynstr = add_str(im, ".dynstr") - l->shstr;
	n_dyn = add_str(im, ".dynamic") - l->shstr;
	if (s->relfat)
		n_rel = add_str(im, "__nv_relfatbin") - l->shstr;
	if (s->fat)
		n_fat = add_str(im, ".nv_fatbin") - l->shstr;
	l->shstr_size = im->len - l->shstr;
	build_dynamic(im, s, l);
	if (s->fat) {
		l->fat = add_section_bytes(im, s->fat);
		l->fat_size = s->fat->len;
	}
	if (s->relfat)
		l->relfat = add_section_bytes(im, s->relfat);
	img_align(im, 8);
	l->shnum = 4 + !!s->fat + !!s->relfat;
	l->shoff = img_add(im, NULL, (size_t)l->shnum * (size_t)l->shsize);
	sh = l->shoff + (size_t)l->shsize;
	write_shdr(cls, im->p + sh, 1, 3, l->shstr, l->shstr_size, 0);
	sh += (size_t)l->shsize;
	l->sh_dynstr = 2;
	write_shdr(cls, im->p + sh, (uint32_t)n_dynstr, 3, l->dynstr, l->dynstr_size, 0);
	sh += (size_t)l->shsize;
	l->sh_dyn = 3;
	write_shdr(cls, im->p + sh, (uint32_t)n_dyn, 6, l->dyn, l->dyn_size, 2);
	sh += (size_t)l->shsize;
	if (s->fat) {
		l->sh_fat = 4;
		write_shdr(cls, im->p + sh, (uint32_t)n_fat, 1, l->fat, s->fat->len, 0);
		sh += (size_t)l->shsize;
	}
	if (s->relfat)
		write_shdr(cls, im->p + sh, (uint32_t)n_rel, 1, l->relfat, s->relfat->len, 0);
	l->len = im->len;
	write_phdr(cls, im->p + l->phoff, 1, 0, l->len);
	write_phdr(cls, im->p + l->phoff + l->phsize, 2, l->dyn, l->dyn_size);
	write_ehdr(cls, im->p, s, l);
}

static void spec_standard(struct spec *s, int cls, const struct img *fat)
{
	memset(s, 0, sizeof(*s));
	s->cls = cls;
	s->machine = cls == 64 ? 62 : 3;
	s->needed[s->nneeded++] = "libcudart.so.13";
	s->needed[s->nneeded++] = "libtorch_cpu.so";
	s->needed[s->nneeded++] = "libc.so.6";
	s->soname = "libfoo.so.1";
	s->runpath = "$ORIGIN:$ORIGIN/../lib";
	s->fat = fat;
}

/* ---- fixture and checks ----------------------------------------------------- */

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };

	assert_non_null(fx);
	tu_mkdtemp(fx->dir, sizeof(fx->dir));
	tu_mkdir(fx->dir, "lib");
	assert_int_equal(rootfs_init(&fx->fs, fx->dir, &err), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	tu_rmrf(fx->dir);
	free(fx);
	return 0;
}

static void put_file(const struct fixture *fx, const void *p, size_t len)
{
	tu_write_bytes(fx->dir, LIB, p, len);
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* What must hold of any result, whatever the input. */
static void check_dynamic_sane(int rc, const struct elf_dynamic *d, const struct error *err)
{
	assert_true(rc == 0 || rc == -1);
	if (rc < 0)
		assert_true(err->msg[0] != '\0');
	assert_in_range(d->nneeded, 0, ELF_MAX_NEEDED);
	for (int i = 0; i < ELF_MAX_NEEDED; i++)
		assert_true(terminated(d->needed[i], sizeof(d->needed[i])));
	assert_true(terminated(d->soname, sizeof(d->soname)));
	assert_true(terminated(d->rpath, sizeof(d->rpath)));
	assert_true(terminated(d->runpath, sizeof(d->runpath)));
}

static void check_set_sane(const unsigned *a, int n)
{
	assert_in_range(n, 0, FATBIN_MAX_ARCHS);
	for (int i = 1; i < n; i++)
		assert_true(a[i - 1] < a[i]);
}

static void check_archs_sane(int rc, const struct fatbin_archs *a, const struct error *err,
			     unsigned long max)
{
	assert_true(rc == 0 || rc == -1);
	if (rc < 0)
		assert_true(err->msg[0] != '\0');
	else
		assert_true(a->containers > 0);
	check_set_sane(a->sass, a->nsass);
	check_set_sane(a->ptx, a->nptx);
	assert_true(a->entries <= max && a->containers <= max);
}

static void expect_set(const unsigned *a, int n, const unsigned *want, int nwant)
{
	assert_int_equal(n, nwant);
	for (int i = 0; i < n; i++)
		assert_int_equal(a[i], want[i]);
}

/* Run every reader on the file; all must stay sane and terminate. */
static void run_all(const struct fixture *fx, unsigned long max)
{
	struct elf_dynamic d;
	struct fatbin_archs a;
	struct error err = { 0 };
	uint64_t off = 0, size = 0;
	int rc;

	rc = elf_read_dynamic(&fx->fs, LIB, &d, &err);
	check_dynamic_sane(rc, &d, &err);
	rc = fatbin_scan(&fx->fs, LIB, max, &a, &err);
	check_archs_sane(rc, &a, &err, max);
	rc = elf_find_section(&fx->fs, LIB, ".nv_fatbin", &off, &size, &err);
	assert_true(rc == 0 || rc == -1);
}

static void expect_standard_dynamic(const struct elf_dynamic *d, int cls)
{
	assert_int_equal(d->elf_class, cls);
	assert_int_equal(d->machine, cls == 64 ? 62 : 3);
	assert_string_equal(d->soname, "libfoo.so.1");
	assert_int_equal(d->nneeded, 3);
	assert_string_equal(d->needed[0], "libcudart.so.13");
	assert_string_equal(d->needed[1], "libtorch_cpu.so");
	assert_string_equal(d->needed[2], "libc.so.6");
	assert_string_equal(d->rpath, "");
	assert_string_equal(d->runpath, "$ORIGIN:$ORIGIN/../lib");
	assert_false(d->truncated);
}

static void expect_standard_fatbin(const struct fatbin_archs *a)
{
	static const unsigned sass[] = { 75, 86, 90 }, ptx[] = { 86, 90 };

	expect_set(a->sass, a->nsass, sass, 3);
	expect_set(a->ptx, a->nptx, ptx, 2);
	assert_int_equal(a->containers, 2);
	assert_int_equal(a->entries, 7);
	assert_false(a->truncated);
}

/* Build the standard file of class cls, write it, return its image. */
static void write_standard(const struct fixture *fx, int cls, struct img *im, struct layout *l,
			   struct img *fat)
{
	struct spec s;

	memset(fat, 0, sizeof(*fat));
	fb_standard(fat);
	spec_standard(&s, cls, fat);
	build_elf(im, &s, l);
	put_file(fx, im->p, im->len);
}

/* ---- exact results -------------------------------------------------------- */

static void test_dynamic_exact(void **state)
{
	struct fixture *fx = *state;
	static const int classes[] = { 64, 32 };

	for (size_t i = 0; i < 2; i++) {
		struct img im, fat;
		struct layout l;
		struct elf_dynamic d;
		struct error err = { 0 };

		write_standard(fx, classes[i], &im, &l, &fat);
		if (elf_read_dynamic(&fx->fs, LIB, &d, &err) != 0)
			fail_msg("ELF%d: %s", classes[i], err.msg);
		expect_standard_dynamic(&d, classes[i]);
		/* Through a symbolic link inside the root, absolute target. */
		tu_symlink(fx->dir, "lib/libfoo.so.1", LIB);
		assert_int_equal(elf_read_dynamic(&fx->fs, "/lib/libfoo.so.1", &d, &err), 0);
		expect_standard_dynamic(&d, classes[i]);
		{
			char link[TU_PATH];

			tu_path(link, fx->dir, "lib/libfoo.so.1");
			unlink(link);
		}
		img_free(&im);
		img_free(&fat);
	}
}

/* Without section headers the program headers lead to the same answer. */
static void test_dynamic_from_segments(void **state)
{
	struct fixture *fx = *state;
	static const int classes[] = { 64, 32 };

	for (size_t i = 0; i < 2; i++) {
		int cls = classes[i];
		struct img im, fat;
		struct layout l;
		struct elf_dynamic d;
		struct error err = { 0 };
		uint64_t off, size;

		write_standard(fx, cls, &im, &l, &fat);
		/* e_shoff = 0, e_shnum = 0 */
		put_word(cls, im.p + (cls == 64 ? 40 : 32), 0);
		put16(im.p + (cls == 64 ? 60 : 48), 0);
		put_file(fx, im.p, im.len);
		if (elf_read_dynamic(&fx->fs, LIB, &d, &err) != 0)
			fail_msg("ELF%d: %s", cls, err.msg);
		expect_standard_dynamic(&d, cls);
		assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv_fatbin", &off, &size, &err), -1);

		/* Section headers present but pointing outside the file: same. */
		put_word(cls, im.p + (cls == 64 ? 40 : 32), 0xfffffff0u);
		put16(im.p + (cls == 64 ? 60 : 48), (uint16_t)l.shnum);
		put_file(fx, im.p, im.len);
		assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
		expect_standard_dynamic(&d, cls);

		/* No PT_DYNAMIC either: a clean "no dynamic section". */
		put32(im.p + l.phoff + l.phsize, 4);	/* PT_NOTE */
		put_file(fx, im.p, im.len);
		assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), -1);
		assert_int_equal(err.code, ENOENT);
		assert_int_equal(d.elf_class, cls);
		img_free(&im);
		img_free(&fat);
	}
}

/* More than 0xff00 sections moves the count and .shstrtab index to section 0. */
static void test_extended_numbering(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	struct elf_dynamic d;
	struct fatbin_archs a;
	struct error err = { 0 };

	write_standard(fx, 64, &im, &l, &fat);
	put16(im.p + 60, 0);
	put16(im.p + 62, 0xffff);
	put64(im.p + l.shoff + 32, (uint64_t)l.shnum);
	put32(im.p + l.shoff + 40, 1);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	expect_standard_dynamic(&d, 64);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	expect_standard_fatbin(&a);
	img_free(&im);
	img_free(&fat);
}

static void test_find_section(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	struct error err = { 0 };
	uint64_t off = 1, size = 1;

	write_standard(fx, 64, &im, &l, &fat);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv_fatbin", &off, &size, &err), 0);
	assert_int_equal(off, l.fat);
	assert_int_equal(size, l.fat_size);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".dynstr", &off, &size, &err), 0);
	assert_int_equal(off, l.dynstr);
	assert_int_equal(size, l.dynstr_size);
	/* Prefixes and extensions of a name are other names. */
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv", &off, &size, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv_fatbinX", &off, &size, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(elf_find_section(&fx->fs, LIB, "", &off, &size, &err), -1);
	assert_int_equal(elf_find_section(&fx->fs, LIB, "__nv_relfatbin", &off, &size, &err), -1);
	assert_int_equal(err.code, ENOENT);
	/* A section claiming bytes past the end of the file is an error. */
	put64(im.p + l.shoff + 4 * 64 + 32, (uint64_t)im.len);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv_fatbin", &off, &size, &err), -1);
	assert_true(err.code != ENOENT);
	/* SHT_NOBITS occupies nothing in the file. */
	put32(im.p + l.shoff + 4 * 64 + 4, 8);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv_fatbin", &off, &size, &err), 0);
	assert_int_equal(size, 0);
	img_free(&im);
	img_free(&fat);
}

static void test_fatbin_exact(void **state)
{
	struct fixture *fx = *state;
	static const int classes[] = { 64, 32 };

	for (size_t i = 0; i < 2; i++) {
		struct img im, fat;
		struct layout l;
		struct fatbin_archs a;
		struct error err = { 0 };

		write_standard(fx, classes[i], &im, &l, &fat);
		if (fatbin_scan(&fx->fs, LIB, 0, &a, &err) != 0)
			fail_msg("ELF%d: %s", classes[i], err.msg);
		expect_standard_fatbin(&a);
		assert_int_equal(fatbin_scan(&fx->fs, LIB, 1000, &a, &err), 0);
		expect_standard_fatbin(&a);
		img_free(&im);
		img_free(&fat);
	}
}

/* Both section names are scanned and their archs merged. */
static void test_fatbin_relfatbin(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat, rel = { 0 };
	struct layout l;
	struct spec s;
	struct fatbin_archs a;
	struct error err = { 0 };
	static const struct fent r[] = { { 2, 80, 0, 8 }, { 1, 75, 0, 8 } };
	static const unsigned sass[] = { 75, 80, 86, 90 }, ptx[] = { 75, 86, 90 };

	memset(&fat, 0, sizeof(fat));
	fb_standard(&fat);
	fb_container(&rel, r, 2);
	spec_standard(&s, 64, &fat);
	s.relfat = &rel;
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	expect_set(a.sass, a.nsass, sass, 4);
	expect_set(a.ptx, a.nptx, ptx, 3);
	assert_int_equal(a.containers, 3);
	assert_int_equal(a.entries, 9);
	img_free(&im);

	/* Only __nv_relfatbin. */
	s.fat = NULL;
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	assert_int_equal(a.containers, 1);
	assert_int_equal(a.nsass, 1);
	assert_int_equal(a.sass[0], 80);
	img_free(&im);
	img_free(&fat);
	img_free(&rel);
}

static void test_fatbin_cap(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	struct fatbin_archs a;
	struct error err = { 0 };
	static const unsigned first_two[] = { 75, 86 };

	write_standard(fx, 64, &im, &l, &fat);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 2, &a, &err), 0);
	assert_int_equal(a.entries, 2);
	assert_true(a.truncated);
	expect_set(a.sass, a.nsass, first_two, 2);
	assert_int_equal(a.nptx, 0);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 6, &a, &err), 0);
	assert_int_equal(a.entries, 6);
	assert_true(a.truncated);
	/* Exactly as many entries as the cap is not truncation. */
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 7, &a, &err), 0);
	expect_standard_fatbin(&a);
	/* The cap also bounds containers (empty ones cost a read each). */
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 1, &a, &err), 0);
	assert_int_equal(a.containers, 1);
	assert_int_equal(a.entries, 1);
	assert_true(a.truncated);
	img_free(&im);
	img_free(&fat);
}

/* ---- malformed and hostile files ------------------------------------------- */

static void test_not_elf(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	struct elf_dynamic d;
	struct fatbin_archs a;
	struct error err = { 0 };
	uint64_t off, size;
	char fifo[TU_PATH];

	assert_int_equal(elf_read_dynamic(&fx->fs, "/lib/missing.so", &d, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(fatbin_scan(&fx->fs, "/lib/missing.so", 0, &a, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(elf_read_dynamic(&fx->fs, "/lib", &d, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	tu_path(fifo, fx->dir, "lib/fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(elf_read_dynamic(&fx->fs, "/lib/fifo", &d, &err), -1);
	put_file(fx, "", 0);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), -1);
	put_file(fx, "#!/bin/sh\necho not an ELF file at all, but long enough\n", 56);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), -1);
	assert_non_null(strstr(err.msg, "not an ELF file"));
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".text", &off, &size, &err), -1);

	write_standard(fx, 64, &im, &l, &fat);
	im.p[5] = 2;	/* big-endian */
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), -1);
	assert_non_null(strstr(err.msg, "big-endian"));
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), -1);
	assert_non_null(strstr(err.msg, "big-endian"));
	im.p[5] = 1;
	im.p[4] = 3;	/* no such class */
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), -1);
	img_free(&im);
	img_free(&fat);

	/* A valid ELF file without any fat binary. */
	{
		struct spec s;

		spec_standard(&s, 64, NULL);
		build_elf(&im, &s, &l);
		put_file(fx, im.p, im.len);
		assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), -1);
		assert_int_equal(err.code, ENOENT);
		assert_int_equal(a.containers, 0);
		img_free(&im);
	}
}

/* Every prefix of the file: nothing may crash, hang or read out of bounds. */
static void test_every_truncation(void **state)
{
	struct fixture *fx = *state;
	static const int classes[] = { 64, 32 };

	for (size_t c = 0; c < 2; c++) {
		struct img im, fat;
		struct layout l;

		write_standard(fx, classes[c], &im, &l, &fat);
		for (size_t len = 0; len < im.len; len++) {
			struct elf_dynamic d;
			struct error err = { 0 };

			put_file(fx, im.p, len);
			run_all(fx, 100);
			/* Cut before the section table: the program headers still serve. */
			if (len >= l.dyn + l.dyn_size && len < l.shoff && classes[c] == 64) {
				assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
				expect_standard_dynamic(&d, 64);
			}
			if (len < 52)
				assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), -1);
		}
		img_free(&im);
		img_free(&fat);
	}
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	/* xorshift64: the same sequence on every libc. */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random byte changes, aimed at the headers and tables half of the time. */
static void test_random_flips(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	unsigned char *copy;
	static const int classes[] = { 64, 32 };

	for (size_t c = 0; c < 2; c++) {
		write_standard(fx, classes[c], &im, &l, &fat);
		copy = malloc(im.len);
		assert_non_null(copy);
		for (int iter = 0; iter < 2500; iter++) {
			int flips = 1 + (int)(rng() % 8);

			memcpy(copy, im.p, im.len);
			for (int f = 0; f < flips; f++) {
				uint64_t r = rng();
				size_t pos;

				switch (r % 4) {
				case 0:		/* ELF and program headers */
					pos = (size_t)((r >> 8) % (l.phoff + 2 * (size_t)l.phsize));
					break;
				case 1:		/* section headers */
					pos = l.shoff + (size_t)((r >> 8) % (im.len - l.shoff));
					break;
				case 2:		/* the fat binary */
					pos = l.fat + (size_t)((r >> 8) % l.fat_size);
					break;
				default:	/* anywhere */
					pos = (size_t)((r >> 8) % im.len);
					break;
				}
				/* Small values, 0xff and random bytes all matter. */
				copy[pos] = (r >> 40) % 3 == 0 ? 0xff : (unsigned char)(r >> 48);
			}
			put_file(fx, copy, im.len);
			run_all(fx, 64);
		}
		free(copy);
		img_free(&im);
		img_free(&fat);
	}
}

struct patch {
	const char *what;
	size_t *base;		/* layout field the offset is relative to, NULL: 0 */
	size_t off;
	int width;		/* 2, 4 or 8 */
	uint64_t value;
};

/* Absurd counts, offsets and sizes in every field the readers trust. */
static void test_huge_values(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	size_t zero = 0, sh_dyn, sh_fat, sh_str, fat2;

	write_standard(fx, 64, &im, &l, &fat);
	sh_dyn = l.shoff + 3 * 64;
	sh_fat = l.shoff + 4 * 64;
	sh_str = l.shoff + 2 * 64;
	fat2 = l.fat + 16 + 64 + 40 + 64 + 24 + 80 + 12 + 4;	/* second container */
	assert_int_equal(get32(im.p + fat2), 0xBA55ED50u);
	{
		const struct patch patches[] = {
			{ "e_shoff", &zero, 40, 8, UINT64_MAX },
			{ "e_shoff near end", &zero, 40, 8, UINT64_MAX - 8 },
			{ "e_shnum", &zero, 60, 2, 0xfeff },
			{ "e_shentsize", &zero, 58, 2, 0xffff },
			{ "e_shstrndx", &zero, 62, 2, 0xfffe },
			{ "e_phoff", &zero, 32, 8, UINT64_MAX },
			{ "e_phnum", &zero, 56, 2, 0xffff },
			{ "e_phentsize", &zero, 54, 2, 0 },
			{ "sh0 extended count", &l.shoff, 32, 8, UINT64_MAX },
			{ "dynamic sh_offset", &sh_dyn, 24, 8, UINT64_MAX },
			{ "dynamic sh_size", &sh_dyn, 32, 8, UINT64_MAX },
			{ "dynamic sh_size large in file", &sh_dyn, 32, 8, 1u << 20 },
			{ "dynamic sh_link", &sh_dyn, 40, 4, 0xffffffffu },
			{ "dynamic sh_link self", &sh_dyn, 40, 4, 3 },
			{ "dynstr sh_offset", &sh_str, 24, 8, UINT64_MAX - 4 },
			{ "dynstr sh_size", &sh_str, 32, 8, UINT64_MAX },
			{ "fatbin sh_offset", &sh_fat, 24, 8, UINT64_MAX - 16 },
			{ "fatbin sh_size", &sh_fat, 32, 8, UINT64_MAX },
			{ "shstrtab sh_name", &sh_fat, 0, 4, 0xffffffffu },
			{ "DT_NEEDED offset", &l.dyn, 8, 8, UINT64_MAX },
			{ "DT_NEEDED offset 2", &l.dyn, 24, 8, 1u << 31 },
			{ "container header_size", &l.fat, 6, 2, 0xffff },
			{ "container header_size small", &l.fat, 6, 2, 0 },
			{ "container fat_size", &l.fat, 8, 8, UINT64_MAX },
			{ "container fat_size wrap", &l.fat, 8, 8, UINT64_MAX - 15 },
			{ "entry header_size", &l.fat, 16 + 4, 4, 0xffffffffu },
			{ "entry payload_size", &l.fat, 16 + 8, 8, UINT64_MAX },
			{ "entry payload_size wrap", &l.fat, 16 + 8, 8, UINT64_MAX - 63 },
			{ "entry arch", &l.fat, 16 + 28, 4, 0xffffffffu },
			{ "second fat_size", &fat2, 8, 8, UINT64_MAX },
		};

		for (size_t i = 0; i < sizeof(patches) / sizeof(patches[0]); i++) {
			const struct patch *p = &patches[i];
			unsigned char *copy = malloc(im.len);
			unsigned char *at;

			assert_non_null(copy);
			memcpy(copy, im.p, im.len);
			at = copy + *p->base + p->off;
			if (p->width == 2)
				put16(at, (uint16_t)p->value);
			else if (p->width == 4)
				put32(at, (uint32_t)p->value);
			else
				put64(at, p->value);
			put_file(fx, copy, im.len);
			run_all(fx, 1000);
			free(copy);
		}
	}
	img_free(&im);
	img_free(&fat);
}

/* Names that reach the end of their string table without a NUL. */
static void test_unterminated_strings(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat;
	struct layout l;
	struct elf_dynamic d;
	struct fatbin_archs a;
	struct error err = { 0 };
	uint64_t off, size;

	write_standard(fx, 64, &im, &l, &fat);
	/* ".nv_fatbin" is the last name; cut its NUL from .shstrtab. */
	put64(im.p + l.shoff + 64 + 32, l.shstr_size - 1);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".nv_fatbin", &off, &size, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), -1);
	assert_int_equal(elf_find_section(&fx->fs, LIB, ".dynamic", &off, &size, &err), 0);
	img_free(&im);
	img_free(&fat);

	/* The run path is the last string of .dynstr; cut its NUL. */
	write_standard(fx, 64, &im, &l, &fat);
	put64(im.p + l.shoff + 2 * 64 + 32, l.dynstr_size - 1);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_string_equal(d.runpath, "");
	assert_int_equal(d.nneeded, 3);
	assert_string_equal(d.soname, "libfoo.so.1");
	/* A needed entry pointing at the table's last byte, which is not NUL. */
	put64(im.p + l.dyn + 8, l.dynstr_size - 2);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_int_equal(d.nneeded, 2);
	assert_string_equal(d.needed[0], "libtorch_cpu.so");
	/*
	 * A string table that is not SHT_STRTAB is refused; the program
	 * headers then serve, with DT_STRSZ's (uncut) size.
	 */
	put32(im.p + l.shoff + 2 * 64 + 4, 1);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_string_equal(d.runpath, "$ORIGIN:$ORIGIN/../lib");
	img_free(&im);
	img_free(&fat);
}

/* Too many DT_NEEDED, and strings longer than their fields. */
static void test_dynamic_overflow(void **state)
{
	struct fixture *fx = *state;
	struct img im;
	struct layout l;
	struct spec s;
	struct elf_dynamic d;
	struct error err = { 0 };
	char names[70][16], longpath[2100], longname[5000];

	spec_standard(&s, 64, NULL);
	s.nneeded = 0;
	for (int i = 0; i < 70; i++) {
		snprintf(names[i], sizeof(names[i]), "libn%d.so", i);
		s.needed[s.nneeded++] = names[i];
	}
	memset(longpath, 'p', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	s.rpath = longpath;
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_int_equal(d.nneeded, ELF_MAX_NEEDED);
	assert_string_equal(d.needed[0], "libn0.so");
	assert_string_equal(d.needed[63], "libn63.so");
	assert_int_equal(strlen(d.rpath), sizeof(d.rpath) - 1);
	assert_true(d.truncated);
	img_free(&im);

	/* A soname longer than its field is cut, and says so. */
	spec_standard(&s, 64, NULL);
	memset(longname, 'x', 300);
	longname[300] = '\0';
	s.soname = longname;
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_int_equal(strlen(d.soname), sizeof(d.soname) - 1);
	assert_true(d.truncated);
	img_free(&im);

	/* At the edge: 127 characters fit a 128-byte field, 128 do not. */
	spec_standard(&s, 64, NULL);
	memset(longname, 'y', 127);
	longname[127] = '\0';
	s.needed[0] = longname;
	memset(longpath, 'z', 128);
	longpath[128] = '\0';
	s.soname = longpath;
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_string_equal(d.needed[0], longname);
	assert_int_equal(strlen(d.soname), 127);
	assert_string_equal(d.needed[1], "libtorch_cpu.so");
	assert_true(d.truncated);
	s.soname = "libfoo.so.1";
	img_free(&im);
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_false(d.truncated);
	img_free(&im);

	/* One with no NUL within the 4 KiB scan limit is skipped instead. */
	spec_standard(&s, 64, NULL);
	s.soname = longname;
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	build_elf(&im, &s, &l);
	put_file(fx, im.p, im.len);
	assert_int_equal(elf_read_dynamic(&fx->fs, LIB, &d, &err), 0);
	assert_string_equal(d.soname, "");
	assert_int_equal(d.nneeded, 3);
	assert_string_equal(d.runpath, "$ORIGIN:$ORIGIN/../lib");
	img_free(&im);
}

static void write_with_fat(const struct fixture *fx, const struct img *fat, struct img *im,
			   struct layout *l)
{
	struct spec s;

	spec_standard(&s, 64, fat);
	build_elf(im, &s, l);
	put_file(fx, im->p, im->len);
}

/* fat_size past the section: what lies inside still counts, then stop. */
static void test_fatbin_past_end(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat = { 0 };
	struct layout l;
	struct fatbin_archs a;
	struct error err = { 0 };
	size_t second;
	uint64_t fat_size_a;

	fb_container(&fat, fat_a, 3);
	second = fb_container(&fat, fat_b, 4);
	fat_size_a = get64(fat.p + 8);
	put64(fat.p + second + 8, 1u << 30);
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	expect_standard_fatbin(&a);
	img_free(&im);

	/* The first container too big: the second's header is no entry. */
	put64(fat.p + 8, UINT64_MAX);
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	assert_int_equal(a.containers, 1);
	assert_int_equal(a.entries, 3);
	img_free(&im);

	/* An entry payload past its container ends that container only. */
	put64(fat.p + 8, fat_size_a);
	put64(fat.p + 16 + 64 + 40 + 8, 1u << 20);	/* second entry of the first */
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	assert_int_equal(a.containers, 2);
	assert_int_equal(a.entries, 1 + 4);
	img_free(&im);

	/* Bad magic first: nothing at all could be read. */
	put32(fat.p, 0xBA55ED51u);
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), -1);
	assert_int_equal(a.containers, 0);
	img_free(&im);
	img_free(&fat);
}

/* Empty payloads must not loop; a header_size of 0 ends the container. */
static void test_fatbin_zero_sizes(void **state)
{
	struct fixture *fx = *state;
	struct img im, fat = { 0 };
	struct layout l;
	struct fatbin_archs a;
	struct error err = { 0 };
	struct fent *many = calloc(5000, sizeof(*many));
	size_t first;

	assert_non_null(many);
	/* 5000 empty entries, 320 KB: several 64 KiB windows. */
	for (int i = 0; i < 5000; i++)
		many[i] = (struct fent){ 2, (uint32_t)(50 + i % 40), 64, 0 };
	fb_container(&fat, many, 5000);
	fb_container(&fat, fat_b, 4);
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	assert_int_equal(a.entries, 5004);
	assert_int_equal(a.containers, 2);
	assert_int_equal(a.nsass, FATBIN_MAX_ARCHS);	/* 41 archs, the set holds 32 */
	assert_int_equal(a.sass[0], 50);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 4321, &a, &err), 0);
	assert_int_equal(a.entries, 4321);
	assert_true(a.truncated);
	img_free(&im);
	img_free(&fat);

	/* header_size 0 in the first container: the second is still read. */
	first = fb_container(&fat, fat_a, 3);
	put32(fat.p + first + 16 + 64 + 40 + 4, 0);
	fb_container(&fat, fat_b, 4);
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	assert_int_equal(a.containers, 2);
	assert_int_equal(a.entries, 1 + 4);
	img_free(&im);
	img_free(&fat);

	/* A container of zero bytes, then padding of zeros to the end. */
	fb_container(&fat, NULL, 0);
	img_add(&fat, NULL, 200);
	write_with_fat(fx, &fat, &im, &l);
	assert_int_equal(fatbin_scan(&fx->fs, LIB, 0, &a, &err), 0);
	assert_int_equal(a.containers, 1);
	assert_int_equal(a.entries, 0);
	img_free(&im);
	img_free(&fat);
	free(many);
}

/* ---- a real fat binary, when nvcc is installed ------------------------------ */

static int run_quiet(const char *cmd)
{
	int st = system(cmd);

	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_nvcc_fatbin(void **state)
{
	struct fixture *fx = *state;
	const char *nvcc = getenv("NVCC");
	char cmd[3 * TU_PATH], so[TU_PATH];
	struct rootfs live;
	struct fatbin_archs a;
	struct elf_dynamic d;
	struct error err = { 0 };
	static const unsigned sass[] = { 75, 86 }, ptx[] = { 86 };
	bool has_libc = false;

	if (!nvcc || !*nvcc)
		nvcc = "/usr/local/cuda/bin/nvcc";
	if (access(nvcc, X_OK) != 0) {
		print_message("  skipped: no nvcc at %s (set NVCC to use another)\n", nvcc);
		skip();
	}
	tu_write(fx->dir, "k.cu",
		 "__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n"
		 "void launch(float *x) { scale<<<1, 32>>>(x); }\n");
	tu_path(so, fx->dir, "k.so");
	snprintf(cmd, sizeof(cmd),
		 "'%s' -shared -Xcompiler -fPIC -gencode arch=compute_75,code=sm_75 "
		 "-gencode 'arch=compute_86,code=[sm_86,compute_86]' -o '%s' '%s/k.cu' >/dev/null 2>&1",
		 nvcc, so, fx->dir);
	if (run_quiet(cmd) != 0) {
		print_message("  skipped: %s could not compile a test kernel\n", nvcc);
		skip();
	}
	assert_int_equal(rootfs_init(&live, NULL, &err), 0);
	if (fatbin_scan(&live, so, 0, &a, &err) != 0)
		fail_msg("fatbin_scan on nvcc output: %s", err.msg);
	expect_set(a.sass, a.nsass, sass, 2);
	expect_set(a.ptx, a.nptx, ptx, 1);
	assert_false(a.truncated);
	assert_int_equal(elf_read_dynamic(&live, so, &d, &err), 0);
	assert_int_equal(d.elf_class, 64);
	for (int i = 0; i < d.nneeded; i++)
		has_libc |= strcmp(d.needed[i], "libc.so.6") == 0;
	assert_true(has_libc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dynamic_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dynamic_from_segments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_extended_numbering, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find_section, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fatbin_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fatbin_relfatbin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fatbin_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_elf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_truncation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_flips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unterminated_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dynamic_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fatbin_past_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fatbin_zero_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvcc_fatbin, setup, teardown),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
