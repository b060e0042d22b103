/* Unit tests for src/util/str.c */
#include "testutil.h"

#include "util/str.h"

static void test_str_copy(void **state)
{
	char buf[6];

	(void)state;
	assert_int_equal(str_copy(buf, sizeof(buf), "hello"), 0);
	assert_string_equal(buf, "hello");
	assert_int_equal(str_copy(buf, sizeof(buf), "hello!"), -1);
	assert_string_equal(buf, "hello");
	assert_int_equal(str_copy(buf, sizeof(buf), "a much longer string"), -1);
	assert_string_equal(buf, "a muc");
	assert_int_equal(str_copy(buf, 1, "x"), -1);
	assert_string_equal(buf, "");
	memcpy(buf, "zzzzz", 6);
	assert_int_equal(str_copy(buf, 0, "x"), -1);
	assert_string_equal(buf, "zzzzz");	/* n == 0 writes nothing */
	assert_int_equal(str_copy(buf, sizeof(buf), NULL), 0);
	assert_string_equal(buf, "");
	assert_int_equal(str_copy(buf, sizeof(buf), ""), 0);
	assert_string_equal(buf, "");
}

static void test_str_printf(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(str_printf(buf, sizeof(buf), "%d-%s", 12, "ab"), 0);
	assert_string_equal(buf, "12-ab");
	assert_int_equal(str_printf(buf, sizeof(buf), "%s", "1234567"), 0);
	assert_int_equal(str_printf(buf, sizeof(buf), "%s", "12345678"), -1);
	assert_string_equal(buf, "1234567");
}

static void test_str_trim(void **state)
{
	char a[] = "  \t hello world \r\n\v\f";
	char b[] = "";
	char c[] = " \t\n ";
	char d[] = "x";
	char e[] = "no-trim";
	char f[] = "\xa0x\xa0";	/* NBSP is not ASCII whitespace: untouched */

	(void)state;
	assert_ptr_equal(str_trim(a), a);
	assert_string_equal(a, "hello world");
	assert_string_equal(str_trim(b), "");
	assert_string_equal(str_trim(c), "");
	assert_string_equal(str_trim(d), "x");
	assert_string_equal(str_trim(e), "no-trim");
	assert_string_equal(str_trim(f), "\xa0x\xa0");
}

static void test_str_predicates(void **state)
{
	(void)state;
	assert_true(str_starts_with("nvidia_uvm", "nvidia"));
	assert_true(str_starts_with("abc", ""));
	assert_false(str_starts_with("nv", "nvidia"));
	assert_true(str_ends_with("nvidia.ko", ".ko"));
	assert_false(str_ends_with("ko", ".ko"));
	assert_true(str_ends_with("x", ""));
	assert_true(str_is_digits("0123456789"));
	assert_false(str_is_digits(""));
	assert_false(str_is_digits("12a"));
	assert_false(str_is_digits("-1"));
	assert_false(str_is_digits(" 1"));
	assert_true(char_is_space('\v'));
	assert_false(char_is_space('\0'));
	assert_false(char_is_space(0xa0));
	assert_true(char_is_alnum('a') && char_is_alnum('Z') && char_is_alnum('7'));
	assert_false(char_is_alnum('_'));
	assert_false(char_is_alnum('-'));
	assert_false(char_is_alnum(0xc4));
	assert_int_equal(char_lower('Q'), 'q');
	assert_int_equal(char_lower('q'), 'q');
	assert_int_equal(char_lower('@'), '@');
	assert_int_equal(char_lower(0xc4), 0xc4);
}

static void test_str_to_u64_decimal(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(str_to_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(str_to_u64("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(str_to_u64("007", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(str_to_u64("  1234 ", &v), 0);
	assert_int_equal(v, 1234);
	assert_int_equal(str_to_u64("\t99\n", &v), 0);
	assert_int_equal(v, 99);
	assert_int_equal(str_to_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(str_to_u64("18446744073709551614", &v), 0);
	assert_true(v == UINT64_MAX - 1);
}

static void test_str_to_u64_hex(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(str_to_u64("0x10de", &v), 0);
	assert_int_equal(v, 0x10de);
	assert_int_equal(str_to_u64("0X1F", &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(str_to_u64("0xaBcD", &v), 0);
	assert_int_equal(v, 0xabcd);
	assert_int_equal(str_to_u64(" 0x0 ", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(str_to_u64("0xffffffffffffffff", &v), 0);
	assert_true(v == UINT64_MAX);
	/* hex digits without the prefix are not decimal */
	assert_int_equal(str_to_u64("ff", &v), -1);
	assert_int_equal(str_to_u64("10de", &v), -1);
}

static void test_str_to_u64_rejects(void **state)
{
	static const char *const bad[] = {
		"", " ", "\t\n", "0x", "0x ", "x10", "-1", "+1", "12a", "a12", "1 2", "1.5", "0x1g",
		"18446744073709551616",		/* UINT64_MAX + 1 */
		"18446744073709551620",
		"99999999999999999999999",
		"0x10000000000000000",		/* 2^64 */
		"0x1ffffffffffffffff",
		"１２",				/* full-width digits */
	};
	uint64_t v = 12345;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (str_to_u64(bad[i], &v) != -1)
			fail_msg("str_to_u64(\"%s\") accepted garbage (%llu)", bad[i], (unsigned long long)v);
		assert_int_equal(v, 12345);	/* out untouched on failure */
	}
}

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void test_version_compare(void **state)
{
	static const struct {
		const char *a, *b;
		int want;
	} cases[] = {
		{ "535.104.05", "535.54.03", 1 },
		{ "535.54.03", "535.104.05", -1 },
		{ "12.10", "12.9", 1 },
		{ "12.9", "12.10", -1 },
		{ "12.4", "12.4", 0 },
		{ "535.104.05", "535.104.5", 0 },	/* leading zeros do not matter */
		{ "007", "7", 0 },
		{ "0", "00", 0 },
		{ "550.54.14", "550.54.15", -1 },
		{ "570.26", "570.124.06", -1 },
		{ "12.4", "12.4.0", -1 },		/* more components sort later */
		{ "12.4.1", "12.4", 1 },
		{ "1.0-rc1", "1.0", 1 },		/* suffixes compare as text after the numbers */
		{ "1.0a", "1.0b", -1 },
		{ "1.0beta", "1.0alpha", 1 },
		{ "1.2rc", "1.10", -1 },
		{ "", "", 0 },
		{ "", "1", -1 },
		{ "1", "", 1 },
		{ "abc", "abd", -1 },
		{ "100000000001", "100000000000", 1 },	/* 12 digits still exact */
		{ "4294967296", "4294967295", 1 },	/* beyond 32 bits */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = sign(version_compare(cases[i].a, cases[i].b));
		int rev = sign(version_compare(cases[i].b, cases[i].a));

		if (got != cases[i].want || rev != -cases[i].want)
			fail_msg("version_compare(\"%s\", \"%s\") = %d (reverse %d), want %d", cases[i].a, cases[i].b,
				 got, rev, cases[i].want);
	}
}

static void test_version_compare_huge_no_overflow(void **state)
{
	char a[200], b[200];

	(void)state;
	memset(a, '9', sizeof(a) - 1);
	a[sizeof(a) - 1] = '\0';
	memcpy(b, a, sizeof(b));
	/* Numbers far beyond 64 bits must not overflow (UBSan would abort). */
	assert_int_equal(version_compare(a, b), 0);
	assert_true(version_compare(a, "1") > 0);
	assert_true(version_compare("1", a) < 0);
}

static void test_version_is_valid(void **state)
{
	(void)state;
	assert_true(version_is_valid("535.104.05"));
	assert_true(version_is_valid("12"));
	assert_true(version_is_valid("12.4"));
	assert_true(version_is_valid("0.0.0.0"));
	assert_false(version_is_valid(""));
	assert_false(version_is_valid("."));
	assert_false(version_is_valid("1."));
	assert_false(version_is_valid(".1"));
	assert_false(version_is_valid("1..2"));
	assert_false(version_is_valid("1.a"));
	assert_false(version_is_valid("v1.2"));
	assert_false(version_is_valid("1.2 "));
	assert_false(version_is_valid(" 1.2"));
	assert_false(version_is_valid("1,2"));
	assert_false(version_is_valid("1.2-rc1"));
}

static void test_version_prefix(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(version_prefix("12.4.131", 2, out, sizeof(out)), 0);
	assert_string_equal(out, "12.4");
	assert_int_equal(version_prefix("12.4.131", 1, out, sizeof(out)), 0);
	assert_string_equal(out, "12");
	assert_int_equal(version_prefix("12.4.131", 3, out, sizeof(out)), 0);
	assert_string_equal(out, "12.4.131");
	assert_int_equal(version_prefix("12.4.131", 9, out, sizeof(out)), 0);
	assert_string_equal(out, "12.4.131");
	assert_int_equal(version_prefix("12.4", 2, out, sizeof(out)), 0);
	assert_string_equal(out, "12.4");
	assert_int_equal(version_prefix("12", 2, out, sizeof(out)), 0);
	assert_string_equal(out, "12");
	assert_int_equal(version_prefix("", 2, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* "12.4" needs 5 bytes */
	assert_int_equal(version_prefix("12.4.131", 2, out, 5), 0);
	assert_string_equal(out, "12.4");
	assert_int_equal(version_prefix("12.4.131", 2, out, 4), -1);
	assert_int_equal(version_prefix("12.4.131", 2, out, 0), -1);
}

static void test_strbuf_growth(void **state)
{
	struct strbuf sb = { 0 };
	static const char piece[] = "abcdefg";	/* 7 bytes: never a power of two */
	const size_t target = 1024 * 1024;
	size_t n = 0;
	char *s;

	(void)state;
	while (sb.len < target) {
		strbuf_add(&sb, piece);
		n++;
		assert_int_equal(sb.len, n * 7);
		assert_true(sb.cap > sb.len);
		assert_int_equal(sb.buf[sb.len], '\0');
	}
	assert_int_equal(strlen(sb.buf), n * 7);
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] != piece[i % 7])
			fail_msg("byte %zu is '%c', want '%c'", i, sb.buf[i], piece[i % 7]);
	strbuf_addf(&sb, "|%d|%s|", 42, "end");
	assert_int_equal(sb.len, n * 7 + 8);
	assert_string_equal(sb.buf + n * 7, "|42|end|");
	s = strbuf_detach(&sb);
	assert_null(sb.buf);
	assert_int_equal(sb.len, 0);
	assert_int_equal(sb.cap, 0);
	assert_int_equal(strlen(s), n * 7 + 8);
	free(s);
}

static void test_strbuf_empty_and_release(void **state)
{
	struct strbuf sb = { 0 };
	char *s;

	(void)state;
	s = strbuf_detach(&sb);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	strbuf_add(&sb, "");
	assert_int_equal(sb.len, 0);
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	strbuf_addf(&sb, "%s", "");
	assert_int_equal(sb.len, 0);
	strbuf_addf(&sb, "%05d", 42);
	assert_string_equal(sb.buf, "00042");
	strbuf_release(&sb);
	assert_null(sb.buf);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);	/* twice is fine */
}

static void test_str_dup(void **state)
{
	char *s;

	(void)state;
	assert_null(str_dup(NULL));
	s = str_dup("abc");
	assert_string_equal(s, "abc");
	free(s);
	s = str_dupf("%s-%03d", "x", 7);
	assert_string_equal(s, "x-007");
	free(s);
}

static void test_str_casestr(void **state)
{
	const char *h = "Hello World";

	(void)state;
	assert_ptr_equal(str_casestr(h, "WORLD"), h + 6);
	assert_ptr_equal(str_casestr(h, "hello"), h);
	assert_ptr_equal(str_casestr(h, "o w"), h + 4);
	assert_ptr_equal(str_casestr(h, ""), h);
	assert_null(str_casestr(h, "worlds"));
	assert_null(str_casestr(h, "xyz"));
	assert_null(str_casestr("", "a"));
	assert_ptr_equal(str_casestr("aaab", "AAB"), (const char *)"aaab" + 1);
	{
		const char *e = "";

		assert_ptr_equal(str_casestr(e, ""), e);
	}
	{
		const char *g = "NVIDIA GeForce RTX 4090";

		assert_ptr_equal(str_casestr(g, "geforce"), g + 7);
	}
	/* bytes >= 0x80 match only themselves */
	assert_null(str_casestr("\xc4", "\xe4"));
}

/* Decimals without the locale: what the knowledge tables and --timeout write, nothing else. */
static void test_str_to_decimal(void **state)
{
	double v = -1;

	(void)state;
	assert_int_equal(str_to_decimal("2", &v), 0);
	assert_true(v == 2.0);
	assert_int_equal(str_to_decimal("2.5", &v), 0);
	assert_true(v == 2.5);
	assert_int_equal(str_to_decimal(".5", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(str_to_decimal("989.4", &v), 0);
	assert_true(v > 989.39 && v < 989.41);
	v = -1;
	assert_int_equal(str_to_decimal("0x10", &v), -1);
	assert_int_equal(str_to_decimal("2,5", &v), -1);
	assert_int_equal(str_to_decimal("-1", &v), -1);
	assert_int_equal(str_to_decimal("1e3", &v), -1);
	assert_int_equal(str_to_decimal(" 2", &v), -1);
	assert_int_equal(str_to_decimal("", &v), -1);
	assert_int_equal(str_to_decimal(".", &v), -1);
	assert_int_equal(str_to_decimal("1.2.3", &v), -1);
	assert_int_equal(str_to_decimal("1.0000000001", &v), -1);	/* ten decimals */
	assert_true(v == -1);	/* untouched on failure */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_str_to_decimal),
		cmocka_unit_test(test_str_copy),
		cmocka_unit_test(test_str_printf),
		cmocka_unit_test(test_str_trim),
		cmocka_unit_test(test_str_predicates),
		cmocka_unit_test(test_str_to_u64_decimal),
		cmocka_unit_test(test_str_to_u64_hex),
		cmocka_unit_test(test_str_to_u64_rejects),
		cmocka_unit_test(test_version_compare),
		cmocka_unit_test(test_version_compare_huge_no_overflow),
		cmocka_unit_test(test_version_is_valid),
		cmocka_unit_test(test_version_prefix),
		cmocka_unit_test(test_strbuf_growth),
		cmocka_unit_test(test_strbuf_empty_and_release),
		cmocka_unit_test(test_str_dup),
		cmocka_unit_test(test_str_casestr),
	};

	return cmocka_run_group_tests_name("str", tests, NULL, NULL);
}
