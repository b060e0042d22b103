/* Unit tests for src/util/path.c */
#include "testutil.h"

#include "util/path.h"

static void test_path_join(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(path_join(out, sizeof(out), "/usr", "lib"), 0);
	assert_string_equal(out, "/usr/lib");
	assert_int_equal(path_join(out, sizeof(out), "/usr/", "lib"), 0);
	assert_string_equal(out, "/usr/lib");
	assert_int_equal(path_join(out, sizeof(out), "/usr", "/lib"), 0);
	assert_string_equal(out, "/usr/lib");
	assert_int_equal(path_join(out, sizeof(out), "/usr/", "///lib"), 0);
	assert_string_equal(out, "/usr/lib");
	assert_int_equal(path_join(out, sizeof(out), "/", "etc"), 0);
	assert_string_equal(out, "/etc");
	assert_int_equal(path_join(out, sizeof(out), "", "etc"), 0);
	assert_string_equal(out, "/etc");
	assert_int_equal(path_join(out, sizeof(out), "rel", "x/y"), 0);
	assert_string_equal(out, "rel/x/y");
	assert_int_equal(path_join(out, sizeof(out), "/a", ""), 0);
	assert_string_equal(out, "/a/");
}

static void test_path_join_overflow(void **state)
{
	char out[11];

	(void)state;
	assert_int_equal(path_join(out, sizeof(out), "/usr", "lib64"), 0);	/* 10 + NUL */
	assert_string_equal(out, "/usr/lib64");
	assert_int_equal(path_join(out, sizeof(out), "/usr", "lib64x"), -1);
	assert_string_equal(out, "/usr/lib64");	/* cut, but terminated */
	assert_int_equal(path_join(out, sizeof(out), "/usr/", "lib64x"), -1);
}

static void test_path_basename(void **state)
{
	const char *p = "/usr/lib/libcuda.so.1";

	(void)state;
	assert_ptr_equal(path_basename(p), p + 9);
	assert_string_equal(path_basename(p), "libcuda.so.1");
	assert_string_equal(path_basename("libcuda.so.1"), "libcuda.so.1");
	assert_string_equal(path_basename("/x"), "x");
	assert_string_equal(path_basename("/a/b/"), "");
	assert_string_equal(path_basename("/"), "");
	assert_string_equal(path_basename(""), "");
}

static void test_path_dirname(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(path_dirname("/usr/lib/libcuda.so.1", out, sizeof(out)), 0);
	assert_string_equal(out, "/usr/lib");
	assert_int_equal(path_dirname("/x", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(path_dirname("/", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(path_dirname("x", out, sizeof(out)), 0);
	assert_string_equal(out, ".");
	assert_int_equal(path_dirname("", out, sizeof(out)), 0);
	assert_string_equal(out, ".");
	assert_int_equal(path_dirname("a/b", out, sizeof(out)), 0);
	assert_string_equal(out, "a");
	assert_int_equal(path_dirname("/a/b/", out, sizeof(out)), 0);
	assert_string_equal(out, "/a/b");
	/* "/usr/lib" needs 9 bytes */
	assert_int_equal(path_dirname("/usr/lib/x", out, 9), 0);
	assert_string_equal(out, "/usr/lib");
	assert_int_equal(path_dirname("/usr/lib/x", out, 8), -1);
	assert_int_equal(path_dirname("x", out, 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_join),
		cmocka_unit_test(test_path_join_overflow),
		cmocka_unit_test(test_path_basename),
		cmocka_unit_test(test_path_dirname),
	};

	return cmocka_run_group_tests_name("path", tests, NULL, NULL);
}
