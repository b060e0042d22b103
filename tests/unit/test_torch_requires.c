/*
 * Unit tests for src/probe/torch_requires.c: Requires-Dist values and their
 * markers, as torch's wheels write them. The lines are PyPI's, verbatim:
 * torch 2.6.0 (https://pypi.org/pypi/torch/2.6.0/json, info.requires_dist),
 * whose python_version bounds (setuptools; python_version >= "3.12") are
 * also combined with its platform markers here.
 */
#include "testutil.h"

#include "probe/probe_internal.h"

static const struct marker_env x86_310 = { "3.10", "x86_64" };
static const struct marker_env x86_313 = { "3.13", "x86_64" };
static const struct marker_env arm_311 = { "3.11", "aarch64" };
static const struct marker_env unknown_arch = { "3.11", "" };

static void test_normalize(void **state)
{
	char out[48];

	(void)state;
	assert_int_equal(python_name_normalize("nvidia_cudnn_cu12", 17, out, sizeof(out)), 0);
	assert_string_equal(out, "nvidia-cudnn-cu12");
	assert_int_equal(python_name_normalize("Nvidia.CUDNN__cu12", 18, out, sizeof(out)), 0);
	assert_string_equal(out, "nvidia-cudnn-cu12");
	assert_int_equal(python_name_normalize("torch-2.6.0", 5, out, sizeof(out)), 0);
	assert_string_equal(out, "torch");
	assert_int_equal(python_name_normalize("nvidia_cudnn_cu12", 17, out, 8), -1);
	assert_int_equal(python_name_normalize("", 0, out, sizeof(out)), -1);
}

static void test_parse_pin(void **state)
{
	struct torch_requirement r;
	const char *marker;

	(void)state;
	assert_int_equal(requires_dist_parse("nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and "
					     "platform_machine == \"x86_64\"", &r, &marker), 0);
	assert_string_equal(r.name, "nvidia-cudnn-cu12");
	assert_string_equal(r.op, "==");
	assert_string_equal(r.version, "9.1.0.70");
	assert_string_equal(marker, " platform_system == \"Linux\" and platform_machine == \"x86_64\"");
	assert_int_equal(requires_dist_parse("typing-extensions>=4.10.0", &r, &marker), 0);
	assert_string_equal(r.op, ">=");
	assert_string_equal(r.version, "4.10.0");
	assert_string_equal(marker, "");
	assert_int_equal(requires_dist_parse("filelock", &r, &marker), 0);
	assert_string_equal(r.op, "");
	/* the older parenthesised form, and extras */
	assert_int_equal(requires_dist_parse("nvidia_nccl_cu12 (==2.21.5)", &r, &marker), 0);
	assert_string_equal(r.name, "nvidia-nccl-cu12");
	assert_string_equal(r.version, "2.21.5");
	assert_int_equal(requires_dist_parse("nvidia-cudnn-cu12[extra]==9.1.0.70", &r, &marker), 0);
	assert_string_equal(r.version, "9.1.0.70");
	/* ranges and URLs are not compared */
	assert_int_equal(requires_dist_parse("nvidia-cublas-cu12>=12.1,<13", &r, &marker), -1);
	assert_int_equal(requires_dist_parse("x @ https://example.org/x.whl", &r, &marker), -1);
}

static void test_markers_torch(void **state)
{
	const char *linux_x86 = "platform_system == \"Linux\" and platform_machine == \"x86_64\"";
	const char *triton = "platform_system == \"Linux\" and platform_machine == \"x86_64\" and python_version < \"3.13\"";

	(void)state;
	assert_int_equal(marker_eval(linux_x86, &x86_310), 1);
	assert_int_equal(marker_eval(linux_x86, &arm_311), 0);
	assert_int_equal(marker_eval(linux_x86, &unknown_arch), -1);
	assert_int_equal(marker_eval(triton, &x86_310), 1);
	assert_int_equal(marker_eval(triton, &x86_313), 0);
	assert_int_equal(marker_eval("python_version >= \"3.12\"", &x86_313), 1);
	assert_int_equal(marker_eval("python_version >= \"3.12\"", &x86_310), 0);
	/* 3.10 is newer than 3.9: versions, not text */
	assert_int_equal(marker_eval("python_version >= \"3.9\"", &x86_310), 1);
	assert_int_equal(marker_eval("extra == \"opt-einsum\"", &x86_310), 0);
	assert_int_equal(marker_eval("", &x86_310), 1);
}

static void test_markers_logic(void **state)
{
	(void)state;
	/* and binds tighter than or; a known false wins over an unknown in "and", a true in "or" */
	assert_int_equal(marker_eval("sys_platform == 'darwin' or platform_machine == 'aarch64'", &arm_311), 1);
	assert_int_equal(marker_eval("platform_machine == 'aarch64' and platform_release == '6.1'", &x86_310), 0);
	assert_int_equal(marker_eval("platform_machine == 'x86_64' and platform_release == '6.1'", &x86_310), -1);
	assert_int_equal(marker_eval("platform_release == '6.1' or os_name == 'posix'", &x86_310), 1);
	assert_int_equal(marker_eval("(platform_machine == 'x86_64' or platform_machine == 'AMD64') and "
				     "platform_system != 'Darwin'", &x86_310), 1);
	assert_int_equal(marker_eval("'linux' in sys_platform", &x86_310), 1);
	assert_int_equal(marker_eval("platform_machine not in 'aarch64 arm64'", &x86_310), 1);
	/* malformed or beyond the model: unknown, never true */
	assert_int_equal(marker_eval("platform_machine ==", &x86_310), -1);
	assert_int_equal(marker_eval("(platform_machine == 'x86_64'", &x86_310), -1);
	assert_int_equal(marker_eval("python_full_version >= '3.10.1'", &x86_310), -1);
	assert_int_equal(marker_eval("platform_machine == 'x86_64' junk", &x86_310), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_parse_pin),
		cmocka_unit_test(test_markers_torch),
		cmocka_unit_test(test_markers_logic),
	};

	return cmocka_run_group_tests_name("torch_requires", tests, NULL, NULL);
}
