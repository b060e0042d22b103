/*
 * Unit tests for src/probe/python_path.c: path_normalize, which stands in
 * for site.py's makepath (os.path.abspath(os.path.join(sitedir, line))).
 */
#include "testutil.h"

#include "probe/probe_internal.h"

static void test_normalize_pth_lines(void **state)
{
	const char *site = "/home/alice/venv/lib/python3.11/site-packages";
	char out[256];

	(void)state;
	/* conda.pth and easy-install.pth lines are absolute */
	assert_int_equal(path_normalize(site, "/home/alice/src/pytorch", out, sizeof(out)), 0);
	assert_string_equal(out, "/home/alice/src/pytorch");
	/* relative lines are relative to the site directory */
	assert_int_equal(path_normalize(site, "../../../../src/./pytorch/", out, sizeof(out)), 0);
	assert_string_equal(out, "/home/alice/src/pytorch");
	assert_int_equal(path_normalize(site, "vendored", out, sizeof(out)), 0);
	assert_string_equal(out, "/home/alice/venv/lib/python3.11/site-packages/vendored");
	/* abspath collapses repeated slashes and stops at the root */
	assert_int_equal(path_normalize(NULL, "//opt//x/../../../y", out, sizeof(out)), 0);
	assert_string_equal(out, "/y");
	assert_int_equal(path_normalize(NULL, "/", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
}

static void test_normalize_refuses(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(path_normalize(NULL, "relative/dir", out, sizeof(out)), -1);
	assert_int_equal(path_normalize("relative", "x", out, sizeof(out)), -1);
	assert_int_equal(path_normalize(NULL, "/a/very/long/path/indeed", out, sizeof(out)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize_pth_lines),
		cmocka_unit_test(test_normalize_refuses),
	};

	return cmocka_run_group_tests_name("python_path", tests, NULL, NULL);
}
