/* Unit tests for src/probe/toolkits.c: cuda_h_version through a temp rootfs. */
#include "testutil.h"

#include "probe/probe_internal.h"

static const char real_head[] =
	"/*\n"
	" * Copyright 1993-2023 NVIDIA Corporation.  All rights reserved.\n"
	" *\n"
	" * NOTICE TO LICENSEE: ... #define CUDA_VERSION 99999 in prose is not a define\n"
	" */\n"
	"\n"
	"#ifndef __cuda_cuda_h__\n"
	"#define __cuda_cuda_h__\n"
	"\n"
	"#include <stdlib.h>\n"
	"#ifdef _MSC_VER\n"
	"typedef unsigned __int32 cuuint32_t;\n"
	"#endif\n"
	"\n"
	"/**\n"
	" * CUDA API version number\n"
	" */\n";

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };

	tu_mkdtemp(fx->dir, sizeof(fx->dir));
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

/* Write text as /cuda.h in the root and parse it. */
static int parse(struct fixture *fx, const char *text, char *out, size_t outsz)
{
	tu_write(fx->dir, "cuda.h", text);
	return cuda_h_version(&fx->fs, "/cuda.h", out, outsz);
}

static void expect(struct fixture *fx, const char *text, const char *want)
{
	char out[FACT_VER];

	memset(out, 0, sizeof(out));
	if (parse(fx, text, out, sizeof(out)) != 0)
		fail_msg("cuda.h \"%.60s\": failed, want %s", text, want);
	if (strcmp(out, want) != 0)
		fail_msg("cuda.h \"%.60s\": got %s, want %s", text, out, want);
}

static void expect_none(struct fixture *fx, const char *text)
{
	char out[FACT_VER] = "";

	if (parse(fx, text, out, sizeof(out)) != -1)
		fail_msg("cuda.h \"%.60s\": got %s, want failure", text, out);
}

static void test_normal(void **state)
{
	struct fixture *fx = *state;
	char text[2048];

	expect(fx, "#define CUDA_VERSION 12040\n", "12.4");
	expect(fx, "#define CUDA_VERSION 11080\n", "11.8");
	expect(fx, "#define CUDA_VERSION 12000", "12.0");	/* no newline */
	expect(fx, "#define CUDA_VERSION 9020\n", "9.2");
	expect(fx, "#define CUDA_VERSION 10010\n", "10.1");
	expect(fx, "#define CUDA_VERSION 13000\n", "13.0");
	snprintf(text, sizeof(text), "%s#define CUDA_VERSION 12060\n\n#endif\n", real_head);
	expect(fx, text, "12.6");
}

static void test_comments_and_spacing(void **state)
{
	struct fixture *fx = *state;

	expect(fx, "#define CUDA_VERSION 12010 /* 12.1 */\n", "12.1");
	expect(fx, "#define CUDA_VERSION 12020 // CUDA 12.2\n", "12.2");
	expect(fx, "#define CUDA_VERSION\t12030\t\n", "12.3");
	expect(fx, "   #define CUDA_VERSION   12050\r\n", "12.5");
	/* a commented-out define is skipped; the real one below is used */
	expect(fx, "// #define CUDA_VERSION 10000\n/* #define CUDA_VERSION 10000 */\n#define CUDA_VERSION 12080\n",
	       "12.8");
	/* other macros sharing the prefix are not it */
	expect(fx, "#define CUDA_VERSION_MAJOR 99\n#define CUDA_VERSIONS 99000\n#define CUDA_VERSION 12090\n",
	       "12.9");
	/* the first definition wins */
	expect(fx, "#define CUDA_VERSION 11000\n#define CUDA_VERSION 12000\n", "11.0");
}

static void test_missing(void **state)
{
	struct fixture *fx = *state;
	char out[FACT_VER] = "";

	assert_int_equal(cuda_h_version(&fx->fs, "/no/such/cuda.h", out, sizeof(out)), -1);
	tu_mkdir(fx->dir, "include/cuda.h");	/* a directory named cuda.h */
	assert_int_equal(cuda_h_version(&fx->fs, "/include/cuda.h", out, sizeof(out)), -1);
	expect_none(fx, "");
	expect_none(fx, real_head);	/* no define at all */
}

static void test_malformed(void **state)
{
	struct fixture *fx = *state;

	expect_none(fx, "#define CUDA_VERSION\n");
	expect_none(fx, "#define CUDA_VERSION \n");
	expect_none(fx, "#define CUDA_VERSION abc\n");
	expect_none(fx, "#define CUDA_VERSION 12040abc\n");
	expect_none(fx, "#define CUDA_VERSION -12040\n");
	expect_none(fx, "#define CUDA_VERSION 12.4\n");
	expect_none(fx, "#define CUDA_VERSION12040\n");
}

static void test_huge_numbers(void **state)
{
	struct fixture *fx = *state;

	expect_none(fx, "#define CUDA_VERSION 100000\n");
	expect_none(fx, "#define CUDA_VERSION 4294967296\n");
	expect_none(fx, "#define CUDA_VERSION 18446744073709551615\n");
	expect_none(fx, "#define CUDA_VERSION 99999999999999999999999999\n");
	expect_none(fx, "#define CUDA_VERSION 999\n");
	expect_none(fx, "#define CUDA_VERSION 0\n");
	expect(fx, "#define CUDA_VERSION 99990\n", "99.99");	/* the largest accepted */
	expect(fx, "#define CUDA_VERSION 1000\n", "1.0");
}

static void test_out_too_small(void **state)
{
	struct fixture *fx = *state;
	char out[4];

	assert_int_equal(parse(fx, "#define CUDA_VERSION 12040\n", out, sizeof(out)), -1);
	assert_int_equal(parse(fx, "#define CUDA_VERSION 9020\n", out, sizeof(out)), 0);
	assert_string_equal(out, "9.2");
}

static void test_long_lines_before(void **state)
{
	struct fixture *fx = *state;
	char *text = malloc(20000);

	/* lines longer than the reader's line buffer come in pieces */
	memset(text, '*', 5000);
	text[0] = '/';
	text[1] = '*';
	strcpy(text + 5000, "*/\n#define CUDA_VERSION 12040\n");
	expect(fx, text, "12.4");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_normal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comments_and_spacing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_too_small, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_lines_before, setup, teardown),
	};

	return cmocka_run_group_tests_name("toolkits", tests, NULL, NULL);
}
