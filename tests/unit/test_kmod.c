/* Unit tests for src/probe/kmod.c: nvrm_parse_version, and read_nvrm through probe_kmod. */
#include "testutil.h"

#include "probe/probe_internal.h"
#include "util/str.h"

#define PROPRIETARY "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023"
#define OPEN_KM \
	"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  " \
	"(dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024"

static void expect_version(const char *line, const char *want)
{
	char out[FACT_VER];

	memset(out, 'z', sizeof(out));
	if (nvrm_parse_version(line, out, sizeof(out)) != 0)
		fail_msg("nvrm_parse_version(\"%.80s\") failed, want \"%s\"", line, want);
	if (strcmp(out, want) != 0)
		fail_msg("nvrm_parse_version(\"%.80s\") = \"%s\", want \"%s\"", line, out, want);
}

static void expect_none(const char *line)
{
	char out[FACT_VER] = "untouched";

	if (nvrm_parse_version(line, out, sizeof(out)) != -1)
		fail_msg("nvrm_parse_version(\"%.80s\") = \"%s\", want failure", line, out);
}

static void test_nvrm_proprietary(void **state)
{
	(void)state;
	expect_version(PROPRIETARY, "535.104.05");
	expect_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01  Wed Oct 27 21:21:55 UTC 2021",
		       "470.82.01");
	expect_version("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023",
		       "535.104.05");
	expect_version("NVRM version: NVIDIA UNIX Kernel Module for x86_64  384.81  Sat Sep  2 02:43:11 PDT 2017",
		       "384.81");
	expect_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module\t570.26\tThu Jan 23 2025", "570.26");
}

static void test_nvrm_open(void **state)
{
	(void)state;
	expect_version(OPEN_KM, "550.54.14");
	expect_version("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.65.06  Release Build  "
		       "(dvs-builder@U22-I3-AE18-09-1)  Sun Jul 27 06:54:38 UTC 2025", "580.65.06");
}

static void test_nvrm_garbage(void **state)
{
	(void)state;
	expect_none("");
	expect_none("   \t  ");
	expect_none("hello world");
	expect_none("NVRM version: NVIDIA UNIX x86_64 Kernel Module");
	expect_none("NVRM version: 535");		/* no dot: not a version */
	expect_none("NVRM version: 535. 104.05x");
	expect_none("v535.104.05 .5 5.");
	expect_none("\xff\xfe\x01\x02");
	/* the first dotted token wins, not a later one */
	expect_version("a.b 1.2 3.4", "1.2");
}

static void test_nvrm_trailing_newline(void **state)
{
	(void)state;
	/* a caller passing the raw file keeps its newline: still parsed */
	expect_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05\n", "535.104.05");
	expect_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05\r\n", "535.104.05");
}

static void test_nvrm_out_too_small(void **state)
{
	char out[6] = "";

	(void)state;
	assert_int_equal(nvrm_parse_version(PROPRIETARY, out, sizeof(out)), -1);
	assert_int_equal(nvrm_parse_version(PROPRIETARY, out, 0), -1);
}

/*
 * The parser copied the line into a 512-byte buffer: a version beyond it was
 * lost, and one straddling the cut came back shortened ("535.1") as if valid.
 */
static void test_nvrm_very_long_line(void **state)
{
	char line[4096];
	char out[FACT_VER];

	(void)state;
	for (size_t pad = 480; pad < 530; pad++) {
		memset(line, 'x', pad);
		snprintf(line + pad, sizeof(line) - pad, " 535.104.05 Sat Aug 19");
		if (nvrm_parse_version(line, out, sizeof(out)) == 0 && strcmp(out, "535.104.05") != 0)
			fail_msg("padding %zu: got the cut version \"%s\"", pad, out);
		expect_version(line, "535.104.05");
	}
	memset(line, 'y', 3000);
	strcpy(line + 3000, "  Open Kernel Module  550.54.14  Release Build");
	expect_version(line, "550.54.14");
	/* a 4000-byte token is not a version and must not overflow anything */
	memset(line, '1', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	line[1] = '.';
	expect_none(line);
}

/* read_nvrm through probe_kmod against a temp root. */
static void run_kmod(const char *version_file, const char *modules, struct facts *f, char *dir)
{
	struct probe_ctx ctx;
	struct rootfs fs;
	struct error err = { 0 };
	char *const envp[] = { NULL };

	tu_mkdtemp(dir, TU_PATH);
	if (version_file)
		tu_write(dir, "proc/driver/nvidia/version", version_file);
	if (modules)
		tu_write(dir, "proc/modules", modules);
	memset(&ctx, 0, sizeof(ctx));
	assert_int_equal(rootfs_init(&fs, dir, &err), 0);
	ctx.fs = &fs;
	ctx.envp = envp;
	str_copy(f->system.kernel_release, sizeof(f->system.kernel_release), "6.1.0-test");
	probe_kmod(f, &ctx);
}

static void test_probe_kmod_versions(void **state)
{
	char dir[TU_PATH];
	struct facts *f;

	(void)state;
	f = facts_new();
	run_kmod(OPEN_KM "\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n",
		 "nvidia_uvm 1777664 0 - Live 0x0000000000000000\n"
		 "nvidia_drm 86016 2 - Live 0x0000000000000000\n"
		 "nvidia 56713216 31 nvidia_uvm, Live 0x0000000000000000 (POE)\n", f, dir);
	assert_int_equal(f->kmod.status.state, FACT_OK);
	assert_string_equal(f->kmod.nvrm_version, "550.54.14");
	assert_true(f->kmod.open_kernel_module);
	assert_string_equal(f->kmod.nvrm_line, OPEN_KM);	/* first line only */
	assert_int_equal(f->kmod.modules_status.state, FACT_OK);
	assert_true(f->kmod.nvidia);
	assert_true(f->kmod.nvidia_uvm);
	assert_true(f->kmod.nvidia_drm);
	assert_false(f->kmod.nvidia_modeset);
	assert_false(f->kmod.nouveau);
	tu_rmrf(dir);
	facts_free(f);

	f = facts_new();
	run_kmod(PROPRIETARY "\n", "nouveau 2322432 1 - Live 0x0\nnvidia_something 1 0 - Live 0x0\n", f, dir);
	assert_string_equal(f->kmod.nvrm_version, "535.104.05");
	assert_false(f->kmod.open_kernel_module);
	assert_true(f->kmod.nouveau);
	assert_false(f->kmod.nvidia);	/* a prefix is not the module */
	tu_rmrf(dir);
	facts_free(f);

	f = facts_new();
	run_kmod("NVRM: garbage here\n", NULL, f, dir);
	assert_int_equal(f->kmod.status.state, FACT_ERROR);
	assert_string_equal(f->kmod.nvrm_version, "");
	assert_int_equal(f->kmod.modules_status.state, FACT_UNKNOWN);
	tu_rmrf(dir);
	facts_free(f);

	f = facts_new();
	run_kmod(NULL, "", f, dir);
	assert_int_equal(f->kmod.status.state, FACT_ABSENT);
	assert_int_equal(f->kmod.modules_status.state, FACT_OK);
	assert_false(f->kmod.nvidia);
	tu_rmrf(dir);
	facts_free(f);

	f = facts_new();
	run_kmod("", NULL, f, dir);	/* empty version file */
	assert_int_equal(f->kmod.status.state, FACT_ERROR);
	tu_rmrf(dir);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvrm_proprietary),
		cmocka_unit_test(test_nvrm_open),
		cmocka_unit_test(test_nvrm_garbage),
		cmocka_unit_test(test_nvrm_trailing_newline),
		cmocka_unit_test(test_nvrm_out_too_small),
		cmocka_unit_test(test_nvrm_very_long_line),
		cmocka_unit_test(test_probe_kmod_versions),
	};

	return cmocka_run_group_tests_name("kmod", tests, NULL, NULL);
}
