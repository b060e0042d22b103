/*
 * Unit tests for src/util/ldcache.c: ld.so.cache images built in memory,
 * then cut, corrupted and fuzzed. Every image handed to the parser lives in
 * a buffer of exactly its size, so AddressSanitizer catches any read past it.
 */
#include "testutil.h"

#include "util/ldcache.h"
#include "util/str.h"

#define NEW_MAGIC "glibc-ld.so.cache"
#define HDR 48
#define ENT 24

struct lib {
	int32_t flags;
	const char *name, *path;
};

static const struct lib sample[] = {
	{ 0x0303, "libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1" },
	{ 0x0303, "libnvidia-ml.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1" },
	{ 0x0003, "libc.so.6", "/lib/i386-linux-gnu/libc.so.6" },
	{ 0x0a03, "libm.so.6", "/usr/lib/aarch64-linux-gnu/libm.so.6" },
};
#define NSAMPLE (sizeof(sample) / sizeof(sample[0]))

static void put_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/*
 * Build a new-format image at offset base of buf (which must be big enough):
 * header, entries, then the strings. Returns the end offset.
 */
static size_t build_new(unsigned char *buf, size_t base, const struct lib *libs, size_t n)
{
	unsigned char *h = buf + base;
	size_t strings = HDR + n * ENT, off = strings;

	memset(h, 0, HDR);
	memcpy(h, NEW_MAGIC "1.1", 20);
	put_u32(h + 20, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		unsigned char *e = h + HDR + i * ENT;
		size_t nl = strlen(libs[i].name) + 1, pl = strlen(libs[i].path) + 1;

		memset(e, 0, ENT);
		memcpy(e, &libs[i].flags, 4);
		put_u32(e + 4, (uint32_t)off);
		memcpy(h + off, libs[i].name, nl);
		off += nl;
		put_u32(e + 8, (uint32_t)off);
		memcpy(h + off, libs[i].path, pl);
		off += pl;
	}
	put_u32(h + 24, (uint32_t)(off - strings));
	return base + off;
}

/* An image in exactly-sized heap memory. */
static unsigned char *image_new(size_t *size)
{
	unsigned char tmp[4096];
	size_t n = build_new(tmp, 0, sample, NSAMPLE);
	unsigned char *img = malloc(n);

	memcpy(img, tmp, n);
	*size = n;
	return img;
}

/* The compat layout: "ld.so-1.7.0", nlibs, 12-byte old entries, then a new image 8-aligned. */
static unsigned char *image_compat(size_t *size, size_t old_n)
{
	unsigned char tmp[8192];
	size_t off = 16 + old_n * 12, end;
	unsigned char *img;

	memset(tmp, 0, sizeof(tmp));
	memcpy(tmp, "ld.so-1.7.0", 11);
	put_u32(tmp + 12, (uint32_t)old_n);
	for (size_t i = 0; i < old_n; i++) {
		int32_t fl = 1;

		memcpy(tmp + 16 + i * 12, &fl, 4);
	}
	off = (off + 7) & ~(size_t)7;
	end = build_new(tmp, off, sample, NSAMPLE);
	img = malloc(end);
	memcpy(img, tmp, end);
	*size = end;
	return img;
}

static unsigned char *dup_bytes(const unsigned char *p, size_t n)
{
	unsigned char *d = malloc(n ? n : 1);

	assert_non_null(d);
	if (n)
		memcpy(d, p, n);
	return d;
}

/* Every returned entry's strings lie wholly inside the image. */
static void check_in_bounds(const struct ldcache *c)
{
	for (size_t i = 0; i < c->count; i++) {
		const char *s[2] = { c->entries[i].name, c->entries[i].path };

		for (int k = 0; k < 2; k++) {
			assert_non_null(s[k]);
			assert_true(s[k] >= c->data && s[k] < c->data + c->size);
			assert_non_null(memchr(s[k], '\0', (size_t)(c->data + c->size - s[k])));
		}
	}
}

static void check_sample(const struct ldcache *c)
{
	assert_int_equal(c->count, NSAMPLE);
	for (size_t i = 0; i < NSAMPLE; i++) {
		assert_string_equal(c->entries[i].name, sample[i].name);
		assert_string_equal(c->entries[i].path, sample[i].path);
		assert_int_equal(c->entries[i].flags, sample[i].flags);
	}
	check_in_bounds(c);
}

static void test_parse_valid_new(void **state)
{
	struct ldcache c;
	struct error err = { 0 };
	size_t size;
	unsigned char *img = image_new(&size);

	(void)state;
	assert_int_equal(ldcache_parse(&c, (char *)img, size, &err), 0);
	check_sample(&c);
	assert_int_equal(c.entries[0].flags & LDCACHE_FLAG_TYPE_MASK, LDCACHE_FLAG_ELF_LIBC6);
	assert_int_equal(c.entries[0].flags & LDCACHE_FLAG_ARCH_MASK, LDCACHE_FLAG_X8664_LIB64);
	assert_int_equal(c.entries[3].flags & LDCACHE_FLAG_ARCH_MASK, LDCACHE_FLAG_AARCH64_LIB64);
	assert_ptr_equal(c.data, img);	/* ownership taken */
	assert_int_equal(c.size, size);
	ldcache_release(&c);
	assert_null(c.data);
	assert_null(c.entries);
	assert_int_equal(c.count, 0);
}

static void test_parse_valid_compat(void **state)
{
	static const size_t olds[] = { 0, 1, 2, 3, 4, 5, 17 };

	(void)state;
	for (size_t k = 0; k < sizeof(olds) / sizeof(olds[0]); k++) {
		struct ldcache c;
		struct error err = { 0 };
		size_t size;
		unsigned char *img = image_compat(&size, olds[k]);

		if (ldcache_parse(&c, (char *)img, size, &err) != 0)
			fail_msg("compat image with %zu old entries: %s", olds[k], err.msg);
		check_sample(&c);
		ldcache_release(&c);
	}
}

static void test_parse_empty_table(void **state)
{
	unsigned char tmp[HDR];
	struct ldcache c;
	struct error err = { 0 };

	(void)state;
	assert_int_equal(build_new(tmp, 0, NULL, 0), HDR);
	assert_int_equal(ldcache_parse(&c, (char *)dup_bytes(tmp, HDR), HDR, &err), 0);
	assert_int_equal(c.count, 0);
	ldcache_release(&c);
}

static void test_parse_bad_magic_and_version(void **state)
{
	struct ldcache c;
	struct error err = { 0 };
	size_t size;
	unsigned char *img;

	(void)state;
	img = image_new(&size);
	img[0] = 'G';
	assert_int_equal(ldcache_parse(&c, (char *)img, size, &err), -1);
	assert_non_null(strstr(err.msg, "magic"));
	assert_null(c.entries);
	assert_int_equal(c.count, 0);

	img = image_new(&size);
	memcpy(img + 17, "1.0", 3);
	assert_int_equal(ldcache_parse(&c, (char *)img, size, &err), -1);
	assert_non_null(strstr(err.msg, "version"));

	assert_int_equal(ldcache_parse(&c, (char *)dup_bytes((const unsigned char *)"", 0), 0, &err), -1);
	assert_int_equal(ldcache_parse(&c, NULL, 0, &err), -1);
}

/* Cut the image at every length: never a crash; success only with in-bounds strings. */
static void truncate_all(unsigned char *img, size_t size)
{
	size_t ok = 0;

	for (size_t len = 0; len <= size; len++) {
		struct ldcache c;
		struct error err = { 0 };

		if (ldcache_parse(&c, (char *)dup_bytes(img, len), len, &err) == 0) {
			assert_true(c.count <= NSAMPLE);
			check_in_bounds(&c);
			for (size_t i = 0; i < c.count; i++) {
				/* what is returned is a prefix of the real table, intact */
				assert_string_equal(c.entries[i].name, sample[i].name);
				assert_string_equal(c.entries[i].path, sample[i].path);
			}
			if (len == size)
				assert_int_equal(c.count, NSAMPLE);
			ok++;
			ldcache_release(&c);
		} else {
			assert_true(err.msg[0] != '\0');
			assert_true(len < size);
		}
	}
	assert_true(ok >= 1);
	free(img);
}

static void test_truncated_new(void **state)
{
	size_t size;
	unsigned char *img = image_new(&size);

	(void)state;
	/* too short to hold the header and all the entries: must fail */
	for (size_t len = 0; len < HDR + NSAMPLE * ENT; len++) {
		struct ldcache c;

		assert_int_equal(ldcache_parse(&c, (char *)dup_bytes(img, len), len, NULL), -1);
	}
	truncate_all(img, size);
}

static void test_truncated_compat(void **state)
{
	size_t size;
	unsigned char *img;

	(void)state;
	img = image_compat(&size, 3);
	truncate_all(img, size);
	img = image_compat(&size, 0);
	truncate_all(img, size);
}

static void test_offsets_outside(void **state)
{
	struct ldcache c;
	struct error err = { 0 };
	size_t size;
	unsigned char *img = image_new(&size);

	(void)state;
	put_u32(img + HDR + 0 * ENT + 4, 0xffffffffu);		/* name far outside */
	put_u32(img + HDR + 1 * ENT + 8, (uint32_t)size);	/* path exactly at the end */
	put_u32(img + HDR + 2 * ENT + 4, (uint32_t)size - 1);	/* last byte: NUL, in bounds */
	assert_int_equal(ldcache_parse(&c, (char *)img, size, &err), 0);
	check_in_bounds(&c);
	/* entries 0 and 1 are skipped; 2 keeps an empty name (the final NUL) */
	assert_int_equal(c.count, 2);
	assert_string_equal(c.entries[0].name, "");
	assert_string_equal(c.entries[0].path, sample[2].path);
	assert_string_equal(c.entries[1].name, sample[3].name);
	ldcache_release(&c);
}

static void test_string_without_nul(void **state)
{
	struct ldcache c;
	struct error err = { 0 };
	size_t size;
	unsigned char *img = image_new(&size);

	(void)state;
	/* the last string (entry 3's path) loses its terminator */
	img[size - 1] = 'X';
	assert_int_equal(ldcache_parse(&c, (char *)img, size, &err), 0);
	check_in_bounds(&c);
	assert_int_equal(c.count, NSAMPLE - 1);
	for (size_t i = 0; i < c.count; i++)
		assert_string_equal(c.entries[i].name, sample[i].name);
	ldcache_release(&c);
}

static void test_huge_nlibs(void **state)
{
	static const uint32_t counts[] = { 0xffffffffu, 0x80000000u, 0x0aaaaaabu, NSAMPLE + 1 };

	(void)state;
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		struct ldcache c;
		struct error err = { 0 };
		size_t size;
		unsigned char *img = image_new(&size);

		put_u32(img + 20, counts[k]);
		/* NSAMPLE + 1 might fit in the string area: then parse, bounded */
		if (ldcache_parse(&c, (char *)img, size, &err) == 0) {
			assert_true(counts[k] == NSAMPLE + 1);
			assert_true(c.count <= NSAMPLE + 1);
			check_in_bounds(&c);
			ldcache_release(&c);
		} else {
			assert_non_null(strstr(err.msg, "truncated"));
		}
	}
	/* the old header's count too */
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		struct ldcache c;
		struct error err = { 0 };
		size_t size;
		unsigned char *img = image_compat(&size, 2);

		put_u32(img + 12, counts[k]);
		if (ldcache_parse(&c, (char *)img, size, &err) == 0) {
			check_in_bounds(&c);
			ldcache_release(&c);
		}
	}
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

static void parse_and_check(unsigned char *buf, size_t len)
{
	struct ldcache c;
	struct error err = { 0 };

	if (ldcache_parse(&c, (char *)buf, len, &err) == 0) {
		check_in_bounds(&c);
		ldcache_release(&c);
	}
}

static void test_fuzz_random_garbage(void **state)
{
	(void)state;
	rng_state = 0x2545f4914f6cdd1dULL;
	for (int it = 0; it < 20000; it++) {
		size_t len = rng() % 600;
		unsigned char *buf = malloc(len ? len : 1);
		int kind = it % 3;

		for (size_t i = 0; i < len; i++)
			buf[i] = (unsigned char)rng();
		/* give most inputs a valid magic so the parser gets past it */
		if (kind == 1 && len >= 20)
			memcpy(buf, NEW_MAGIC "1.1", 20);
		if (kind == 2 && len >= 12)
			memcpy(buf, "ld.so-1.7.0", 11);
		if (kind == 2 && len >= 16)
			put_u32(buf + 12, rng() % 8);
		/* small counts and offsets make string lookups actually happen */
		if (kind == 1 && len >= 24)
			put_u32(buf + 20, rng() % 24);
		if (kind == 1)
			for (size_t e = HDR; e + ENT <= len; e += ENT) {
				put_u32(buf + e + 4, rng() % (uint32_t)(len + 8));
				put_u32(buf + e + 8, rng() % (uint32_t)(len + 8));
			}
		parse_and_check(buf, len);
	}
}

static void test_fuzz_mutated_images(void **state)
{
	size_t size, csize;
	unsigned char *good = image_new(&size), *cgood = image_compat(&csize, 3);

	(void)state;
	rng_state = 0x123456789abcdefULL;
	for (int it = 0; it < 20000; it++) {
		const unsigned char *src = (it & 1) ? cgood : good;
		size_t n = (it & 1) ? csize : size;
		size_t len = (rng() % 4 == 0) ? rng() % (n + 1) : n;
		unsigned char *buf = dup_bytes(src, len);
		int flips = 1 + (int)(rng() % 8);

		for (int f = 0; f < flips && len > 0; f++)
			buf[rng() % len] = (unsigned char)rng();
		parse_and_check(buf, len);
	}
	free(good);
	free(cgood);
}

static void test_load_from_rootfs(void **state)
{
	char dir[TU_PATH];
	struct rootfs fs;
	struct ldcache c;
	struct error err = { 0 };
	size_t size;
	unsigned char *img = image_new(&size);

	(void)state;
	tu_mkdtemp(dir, sizeof(dir));
	tu_write_bytes(dir, "etc/ld.so.cache", img, size);
	free(img);
	assert_int_equal(rootfs_init(&fs, dir, &err), 0);
	assert_int_equal(ldcache_load(&c, &fs, "/etc/ld.so.cache", &err), 0);
	check_sample(&c);
	ldcache_release(&c);
	assert_int_equal(ldcache_load(&c, &fs, "/etc/missing.cache", &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_null(c.entries);
	tu_write(dir, "etc/garbage", "this is not a cache at all, just some text\n");
	assert_int_equal(ldcache_load(&c, &fs, "/etc/garbage", &err), -1);
	tu_rmrf(dir);
}

static void test_real_ld_so_cache(void **state)
{
	struct rootfs fs;
	struct ldcache c;
	struct error err = { 0 };
	bool found = false;

	(void)state;
	if (access("/etc/ld.so.cache", R_OK) != 0)
		skip();
	assert_int_equal(rootfs_init(&fs, NULL, &err), 0);
	if (ldcache_load(&c, &fs, "/etc/ld.so.cache", &err) != 0)
		fail_msg("cannot parse this machine's /etc/ld.so.cache: %s", err.msg);
	assert_true(c.count > 0);
	check_in_bounds(&c);
	for (size_t i = 0; i < c.count; i++) {
		if (strcmp(c.entries[i].name, "libc.so.6") == 0) {
			found = true;
			assert_true(str_ends_with(c.entries[i].path, "/libc.so.6"));
			assert_int_equal(c.entries[i].path[0], '/');
			assert_int_equal(c.entries[i].flags & LDCACHE_FLAG_TYPE_MASK, LDCACHE_FLAG_ELF_LIBC6);
		}
	}
	assert_true(found);
	ldcache_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_valid_new),
		cmocka_unit_test(test_parse_valid_compat),
		cmocka_unit_test(test_parse_empty_table),
		cmocka_unit_test(test_parse_bad_magic_and_version),
		cmocka_unit_test(test_truncated_new),
		cmocka_unit_test(test_truncated_compat),
		cmocka_unit_test(test_offsets_outside),
		cmocka_unit_test(test_string_without_nul),
		cmocka_unit_test(test_huge_nlibs),
		cmocka_unit_test(test_fuzz_random_garbage),
		cmocka_unit_test(test_fuzz_mutated_images),
		cmocka_unit_test(test_load_from_rootfs),
		cmocka_unit_test(test_real_ld_so_cache),
	};

	return cmocka_run_group_tests_name("ldcache", tests, NULL, NULL);
}
