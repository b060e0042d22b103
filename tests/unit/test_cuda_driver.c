/*
 * Unit tests for src/kb/cuda_driver.c and the table compiled from
 * data/cuda_driver.tsv. Expected values were checked by hand against the
 * TSV rows (NVIDIA's CUDA Toolkit release notes, Table 3).
 */
#include "testutil.h"

#include "kb/kb.h"
#include "util/str.h"

static void expect_min(const char *cuda, const char *want, const char *release)
{
	struct kb_answer a;

	memset(&a, 0, sizeof(a));
	if (kb_cuda_min_driver(cuda, &a) != 0)
		fail_msg("kb_cuda_min_driver(\"%s\") failed, want %s", cuda, want);
	if (strcmp(a.value, want) != 0)
		fail_msg("kb_cuda_min_driver(\"%s\") = %s, want %s", cuda, a.value, want);
	assert_non_null(a.source);
	assert_true(str_starts_with(a.source, "https://"));
	assert_non_null(a.release);
	assert_string_equal(a.release, release);
}

static void expect_max(const char *driver, const char *want)
{
	struct kb_answer a;

	memset(&a, 0, sizeof(a));
	if (kb_cuda_max_for_driver(driver, &a) != 0)
		fail_msg("kb_cuda_max_for_driver(\"%s\") failed, want %s", driver, want);
	if (strcmp(a.value, want) != 0)
		fail_msg("kb_cuda_max_for_driver(\"%s\") = %s, want %s", driver, a.value, want);
	assert_true(a.source && a.source[0]);
}

static void test_min_driver(void **state)
{
	(void)state;
	expect_min("12.4", "550.54.14", "12.4 GA");
	expect_min("12.4.131", "550.54.14", "12.4 GA");
	expect_min("12.4.1", "550.54.14", "12.4 GA");
	/* 11.0: the RC row comes first; the GA row is the answer */
	expect_min("11.0", "450.51.05", "11.0.2 GA");
	expect_min("11.0.3", "450.51.05", "11.0.2 GA");
	expect_min("12.2", "535.54.03", "12.2 GA");
	expect_min("11.8", "520.61.05", "11.8 GA");
	expect_min("12.0", "525.60.13", "12.0 GA");
	expect_min("13.0", "580.65.06", "13.0 GA");
	/* rows without "GA": the first row of that version */
	expect_min("9.0", "384.81", "9.0 (9.0.76)");
	expect_min("10.1", "418.39", "10.1 (10.1.105 general release, and updates)");
	expect_min("9.2", "396.26", "9.2 (9.2.88)");
}

static void expect_release_min(const char *cuda, const char *want, const char *release)
{
	struct kb_answer a;

	memset(&a, 0, sizeof(a));
	if (kb_cuda_release_min_driver(cuda, &a) != 0)
		fail_msg("kb_cuda_release_min_driver(\"%s\") failed, want %s", cuda, want);
	if (strcmp(a.value, want) != 0 || strcmp(a.release, release) != 0)
		fail_msg("kb_cuda_release_min_driver(\"%s\") = %s (%s), want %s (%s)", cuda, a.value, a.release, want,
			 release);
}

/* An installed toolkit's exact release: its update's row (Table 3), the GA row when the version names none. */
static void test_release_min_driver(void **state)
{
	struct kb_answer a;

	(void)state;
	expect_release_min("12.4.1", "550.54.15", "12.4 Update 1");
	expect_release_min("12.4.0", "550.54.14", "12.4 GA");
	expect_release_min("12.4", "550.54.14", "12.4 GA");
	expect_release_min("12.4.131", "550.54.14", "12.4 GA");	/* nvcc's build number, not an update */
	expect_release_min("12.6.3", "560.35.05", "12.6 Update 3");
	expect_release_min("11.4.4", "470.82.01", "11.4 Update 4");
	expect_release_min("12.2.2", "535.104.05", "12.2 Update 2");
	/* 11.0: the rows name their versions, and 11.0.3 is Update 1 */
	expect_release_min("11.0.3", "450.51.06", "11.0.3 Update 1");
	expect_release_min("11.0.2", "450.51.05", "11.0.2 GA");
	expect_release_min("11.0", "450.51.05", "11.0.2 GA");
	expect_release_min("9.2.148", "396.37", "9.2 (9.2.148 Update 1)");
	expect_release_min("9.2.14", "396.26", "9.2 (9.2.88)");	/* not 9.2.148 */
	expect_release_min("11.8.0", "520.61.05", "11.8 GA");
	expect_release_min("11.8.9", "520.61.05", "11.8 GA");	/* no such update: the GA row */
	assert_int_equal(kb_cuda_release_min_driver("12.7.1", &a), -1);
	assert_int_equal(kb_cuda_release_min_driver("garbage", &a), -1);
	assert_int_equal(kb_cuda_release_min_driver("", &a), -1);
}

static void test_min_driver_unknown(void **state)
{
	struct kb_answer a;

	(void)state;
	assert_int_equal(kb_cuda_min_driver("12.7", &a), -1);	/* Table 3 has no 12.7 */
	assert_int_equal(kb_cuda_min_driver("8.0", &a), -1);
	assert_int_equal(kb_cuda_min_driver("99.9", &a), -1);
	assert_int_equal(kb_cuda_min_driver("12", &a), -1);
	assert_int_equal(kb_cuda_min_driver("", &a), -1);
	assert_int_equal(kb_cuda_min_driver("garbage", &a), -1);
	assert_int_equal(kb_cuda_min_driver("12.40", &a), -1);	/* not 12.4 */
	assert_int_equal(kb_cuda_min_driver("1234567890123456789.4", &a), -1);	/* prefix too long */
}

static void test_max_for_driver(void **state)
{
	struct kb_answer a;

	(void)state;
	expect_max("535.104.05", "12.2");
	expect_max("535.54.03", "12.2");
	expect_max("535.54.02", "12.1");
	expect_max("550.54.15", "12.4");
	expect_max("550.54.14", "12.4");
	expect_max("550.54.13", "12.3");
	expect_max("384.81", "9.0");
	expect_max("390.46", "9.1");
	expect_max("525.60.13", "12.0");
	expect_max("570.26", "12.8");
	expect_max("575.57.08", "12.9");
	expect_max("580.65.06", "13.0");
	expect_max("999.99.99", "13.2");
	assert_int_equal(kb_cuda_max_for_driver("300.00", &a), -1);
	assert_int_equal(kb_cuda_max_for_driver("384.80", &a), -1);
	assert_int_equal(kb_cuda_max_for_driver("", &a), -1);
	assert_int_equal(kb_cuda_max_for_driver(NULL, &a), -1);
	assert_int_equal(kb_cuda_max_for_driver("535.104.05-open", &a), -1);
	assert_int_equal(kb_cuda_max_for_driver("abc", &a), -1);
}

static void test_minor_compat(void **state)
{
	struct kb_answer a;

	(void)state;
	assert_int_equal(kb_cuda_minor_compat_driver(12, &a), 0);
	assert_string_equal(a.value, "525.60.13");
	assert_string_equal(a.release, "12.x");
	assert_true(a.source[0] != '\0');
	assert_int_equal(kb_cuda_minor_compat_driver(11, &a), 0);
	assert_string_equal(a.value, "450.80.02");
	assert_int_equal(kb_cuda_minor_compat_driver(13, &a), 0);
	assert_string_equal(a.value, "580");
	assert_int_equal(kb_cuda_minor_compat_driver(10, &a), -1);
	assert_int_equal(kb_cuda_minor_compat_driver(0, &a), -1);
	assert_int_equal(kb_cuda_minor_compat_driver(-1, &a), -1);
	assert_int_equal(kb_cuda_oldest_compat_major(), 11);
}

static void test_table_shape(void **state)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	static const char *const cols[] = { "kind", "cuda", "release", "linux_min_driver",
					    "windows_min_driver", "note", "source" };

	(void)state;
	assert_string_equal(t->name, "cuda_driver");
	assert_int_equal(t->ncolumns, 7);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(kb_column(t, cols[i]), (int)i);
	assert_int_equal(kb_column(t, "nope"), -1);
	assert_true(t->nrows >= 60);
	/* out of range cells read as "" */
	assert_string_equal(kb_cell(t, t->nrows, 0), "");
	assert_string_equal(kb_cell(t, 0, -1), "");
	assert_string_equal(kb_cell(t, 0, 7), "");
	/* line numbers point into the TSV, increasing */
	for (size_t r = 1; r < t->nrows; r++)
		assert_true(t->lines[r] > t->lines[r - 1]);
	assert_ptr_equal(&kb_table_cuda_driver, t);
}

static void test_table_consistency(void **state)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda"), rel = kb_column(t, "release");
	int drv = kb_column(t, "linux_min_driver"), src = kb_column(t, "source");
	long prev = -1;
	size_t toolkit_rows = 0, compat_rows = 0;

	(void)state;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = kb_cell(t, r, kind);

		if (!kb_cell(t, r, src)[0])
			fail_msg("row %zu (line %d) has no source", r, t->lines[r]);
		if (!kb_cell(t, r, rel)[0])
			fail_msg("row %zu (line %d) has no release", r, t->lines[r]);
		if (strcmp(k, "toolkit") != 0 && strcmp(k, "minor_compat") != 0)
			fail_msg("row %zu (line %d): unknown kind '%s'", r, t->lines[r], k);
		if (!version_is_valid(kb_cell(t, r, drv)))
			fail_msg("line %d: linux_min_driver '%s' is not a version", t->lines[r], kb_cell(t, r, drv));
		if (!version_is_valid(kb_cell(t, r, cuda)))
			fail_msg("line %d: cuda '%s' is not a version", t->lines[r], kb_cell(t, r, cuda));
		/* no duplicate (kind, release) */
		for (size_t q = 0; q < r; q++)
			if (strcmp(kb_cell(t, q, kind), k) == 0 && strcmp(kb_cell(t, q, rel), kb_cell(t, r, rel)) == 0)
				fail_msg("lines %d and %d: duplicate (%s, %s)", t->lines[q], t->lines[r], k,
					 kb_cell(t, r, rel));
		if (strcmp(k, "minor_compat") == 0) {
			compat_rows++;
			assert_true(str_is_digits(kb_cell(t, r, cuda)));
			continue;
		}
		toolkit_rows++;
		/* the release names the version it belongs to */
		if (!str_starts_with(kb_cell(t, r, rel), kb_cell(t, r, cuda)))
			fail_msg("line %d: release '%s' does not start with cuda '%s'", t->lines[r],
				 kb_cell(t, r, rel), kb_cell(t, r, cuda));
		if (prev >= 0) {
			const char *pc = kb_cell(t, (size_t)prev, cuda), *c = kb_cell(t, r, cuda);

			/* toolkit rows are sorted by CUDA version */
			if (version_compare(pc, c) > 0)
				fail_msg("line %d: cuda %s after %s", t->lines[r], c, pc);
			/* within a major, minimum drivers never decrease */
			if (atoi(pc) == atoi(c) &&
			    version_compare(kb_cell(t, (size_t)prev, drv), kb_cell(t, r, drv)) > 0)
				fail_msg("line %d: driver %s after %s within CUDA %d", t->lines[r],
					 kb_cell(t, r, drv), kb_cell(t, (size_t)prev, drv), atoi(c));
		}
		prev = (long)r;
	}
	assert_true(toolkit_rows >= 50);
	assert_int_equal(compat_rows, 3);
}

/* Every toolkit version the table knows answers kb_cuda_min_driver, and
 * a driver at exactly that minimum supports at least that version. */
static void test_round_trip(void **state)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda");

	(void)state;
	for (size_t r = 0; r < t->nrows; r++) {
		struct kb_answer min, max;

		if (strcmp(kb_cell(t, r, kind), "toolkit") != 0)
			continue;
		assert_int_equal(kb_cuda_min_driver(kb_cell(t, r, cuda), &min), 0);
		assert_int_equal(kb_cuda_max_for_driver(min.value, &max), 0);
		if (version_compare(max.value, kb_cell(t, r, cuda)) < 0)
			fail_msg("driver %s (min for %s) supports only %s", min.value, kb_cell(t, r, cuda), max.value);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_driver),
		cmocka_unit_test(test_release_min_driver),
		cmocka_unit_test(test_min_driver_unknown),
		cmocka_unit_test(test_max_for_driver),
		cmocka_unit_test(test_minor_compat),
		cmocka_unit_test(test_table_shape),
		cmocka_unit_test(test_table_consistency),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests_name("cuda_driver", tests, NULL, NULL);
}
