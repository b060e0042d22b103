/*
 * test_dlib.c - util/dlib.h against the C library itself: symbols found,
 * optional ones missing listed by name, and a list too long for its buffer
 * ending with how many names did not fit instead of losing them silently.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/dlib.h"

struct libc_fns {
	void *strlen_fn;
	void *absent[6];
};

static const struct dlib_symbol symbols[] = {
	DLIB_SYMBOL(struct libc_fns, strlen_fn, "strlen", true),
	DLIB_SYMBOL(struct libc_fns, absent[0], "gpudoctor_absent_symbol_one", false),
	DLIB_SYMBOL(struct libc_fns, absent[1], "gpudoctor_absent_symbol_two", false),
	DLIB_SYMBOL(struct libc_fns, absent[2], "gpudoctor_absent_symbol_three", false),
	DLIB_SYMBOL(struct libc_fns, absent[3], "gpudoctor_absent_symbol_four", false),
	DLIB_SYMBOL(struct libc_fns, absent[4], "gpudoctor_absent_symbol_five", false),
	DLIB_SYMBOL(struct libc_fns, absent[5], "gpudoctor_absent_symbol_six", false),
};

static void test_all_missing_names_fit(void **state)
{
	struct libc_fns fns;
	struct error err = { 0 };
	char path[256], missing[512];
	void *handle = NULL;

	(void)state;
	assert_int_equal(dlib_open("libc.so.6", symbols, 3, &fns, &handle, path, sizeof(path), missing,
				   sizeof(missing), &err), 0);
	assert_non_null(fns.strlen_fn);
	assert_null(fns.absent[0]);
	assert_string_equal(missing, "gpudoctor_absent_symbol_one gpudoctor_absent_symbol_two");
	assert_non_null(strstr(path, "libc"));
}

static void test_names_that_do_not_fit_are_counted(void **state)
{
	struct libc_fns fns;
	struct error err = { 0 };
	char path[256], missing[96];
	void *handle = NULL;

	(void)state;
	assert_int_equal(dlib_open("libc.so.6", symbols, sizeof(symbols) / sizeof(symbols[0]), &fns, &handle, path,
				   sizeof(path), missing, sizeof(missing), &err), 0);
	/* 96 - 32 kept back leaves room for two names (27 bytes each and a space) */
	assert_string_equal(missing, "gpudoctor_absent_symbol_one gpudoctor_absent_symbol_two (+4 more)");
}

static void test_required_symbol_missing_fails(void **state)
{
	static const struct dlib_symbol required[] = {
		DLIB_SYMBOL(struct libc_fns, absent[0], "gpudoctor_absent_symbol_one", true),
	};
	struct libc_fns fns;
	struct error err = { 0 };
	char path[256], missing[64];
	void *handle = NULL;

	(void)state;
	assert_int_not_equal(dlib_open("libc.so.6", required, 1, &fns, &handle, path, sizeof(path), missing,
				       sizeof(missing), &err), 0);
	assert_non_null(strstr(err.msg, "gpudoctor_absent_symbol_one"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_missing_names_fit),
		cmocka_unit_test(test_names_that_do_not_fit_are_counted),
		cmocka_unit_test(test_required_symbol_missing_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
