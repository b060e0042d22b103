/* Unit tests for src/probe/env.c via probe_env: the kept variables and CUDA_VISIBLE_DEVICES. */
#include "testutil.h"

#include "probe/probe.h"

static struct facts *run(char *const *envp)
{
	struct facts *f = facts_new();
	struct probe_ctx ctx;
	struct rootfs fs;
	struct error err = { 0 };

	memset(&ctx, 0, sizeof(ctx));
	assert_int_equal(rootfs_init(&fs, NULL, &err), 0);
	ctx.fs = &fs;
	ctx.envp = envp;
	probe_env(f, &ctx);
	return f;
}

/* probe_env with only CUDA_VISIBLE_DEVICES=value set (value NULL: unset). */
static struct facts *run_cvd(const char *value)
{
	static char buf[16384];
	static char *envp[4];
	int n = 0;

	envp[n++] = "HOME=/root";
	if (value) {
		assert_true(snprintf(buf, sizeof(buf), "CUDA_VISIBLE_DEVICES=%s", value) < (int)sizeof(buf));
		envp[n++] = buf;
	}
	envp[n] = NULL;
	return run(envp);
}

static void expect_indices(const struct env_facts *e, const int *want, int n)
{
	assert_int_equal(e->visible_index_count, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(e->visible_indices[i], want[i]);
}

static void test_kept_variables(void **state)
{
	char *const envp[] = {
		"SECRET_TOKEN=hunter2", "PATH=/usr/bin:/bin", "LD_LIBRARY_PATH=/usr/local/cuda/lib64",
		"CUDA_HOME=/usr/local/cuda", "CUDA_LAUNCH_BLOCKING=1", "CUDA_HOME_X=nope", "CUDA=nope",
		"PATHX=/nope", "NVIDIA_VISIBLE_DEVICES=all", "AWS_SECRET_ACCESS_KEY=xyz", "malformed", NULL,
	};
	struct facts *f = run(envp);

	(void)state;
	assert_int_equal(f->env.count, 5);
	assert_string_equal(facts_env(f, "PATH"), "/usr/bin:/bin");
	assert_string_equal(facts_env(f, "LD_LIBRARY_PATH"), "/usr/local/cuda/lib64");
	assert_string_equal(facts_env(f, "CUDA_HOME"), "/usr/local/cuda");
	assert_string_equal(facts_env(f, "CUDA_LAUNCH_BLOCKING"), "1");
	assert_string_equal(facts_env(f, "NVIDIA_VISIBLE_DEVICES"), "all");
	assert_null(facts_env(f, "SECRET_TOKEN"));	/* never kept: not CUDA's business */
	assert_null(facts_env(f, "AWS_SECRET_ACCESS_KEY"));
	assert_null(facts_env(f, "CUDA_HOME_X"));
	assert_false(facts_env_is_set(f, "CUDA_VISIBLE_DEVICES"));
	for (int i = 0; i < f->env.count; i++) {
		if (strcmp(f->env.vars[i].name, "PATH") == 0)
			assert_int_equal(f->env.vars[i].kind, ENV_PATHS);
		if (strcmp(f->env.vars[i].name, "CUDA_LAUNCH_BLOCKING") == 0)
			assert_int_equal(f->env.vars[i].kind, ENV_DEBUG);
		if (strcmp(f->env.vars[i].name, "NVIDIA_VISIBLE_DEVICES") == 0)
			assert_int_equal(f->env.vars[i].kind, ENV_CONTAINER);
	}
	assert_int_equal(f->env.visible, VISIBLE_UNSET);
	facts_free(f);
}

static void test_first_definition_wins(void **state)
{
	char *const envp[] = { "CUDA_HOME=/first", "CUDA_HOME=/second", "CUDA_HOME=", NULL };
	struct facts *f = run(envp);

	(void)state;
	assert_int_equal(f->env.count, 1);
	assert_string_equal(facts_env(f, "CUDA_HOME"), "/first");
	facts_free(f);
}

static void test_empty_and_null_env(void **state)
{
	char *const envp[] = { NULL };
	struct facts *f = run(envp);

	(void)state;
	assert_int_equal(f->env.count, 0);
	assert_int_equal(f->env.visible, VISIBLE_UNSET);
	facts_free(f);
	f = run(NULL);
	assert_int_equal(f->env.count, 0);
	facts_free(f);
}

static void test_cvd_unset_empty_none(void **state)
{
	struct facts *f;

	(void)state;
	f = run_cvd(NULL);
	assert_int_equal(f->env.visible, VISIBLE_UNSET);
	assert_int_equal(f->env.visible_index_count, 0);
	facts_free(f);

	f = run_cvd("");
	assert_int_equal(f->env.visible, VISIBLE_EMPTY);
	assert_true(facts_env_is_set(f, "CUDA_VISIBLE_DEVICES"));
	assert_string_equal(facts_env(f, "CUDA_VISIBLE_DEVICES"), "");
	facts_free(f);

	f = run_cvd("   ");
	assert_int_equal(f->env.visible, VISIBLE_EMPTY);
	facts_free(f);

	f = run_cvd("-1");
	assert_int_equal(f->env.visible, VISIBLE_NONE);
	assert_string_equal(f->env.visible_invalid, "-1");
	assert_int_equal(f->env.visible_index_count, 0);
	facts_free(f);

	f = run_cvd("NoDevFiles");
	assert_int_equal(f->env.visible, VISIBLE_NONE);
	assert_string_equal(f->env.visible_invalid, "NoDevFiles");
	facts_free(f);

	f = run_cvd("none");
	assert_int_equal(f->env.visible, VISIBLE_NONE);
	facts_free(f);
}

static void test_cvd_indices(void **state)
{
	static const int a[] = { 0, 1 }, b[] = { 1 }, c[] = { 3, 0, 2 };
	struct facts *f;

	(void)state;
	f = run_cvd("0,1");
	assert_int_equal(f->env.visible, VISIBLE_INDICES);
	expect_indices(&f->env, a, 2);
	assert_string_equal(f->env.visible_invalid, "");
	facts_free(f);

	/* CUDA stops at the first entry it cannot use */
	f = run_cvd("1,-1,0");
	assert_int_equal(f->env.visible, VISIBLE_INDICES);
	expect_indices(&f->env, b, 1);
	assert_string_equal(f->env.visible_invalid, "-1");
	facts_free(f);

	f = run_cvd(" 0 , 1 ");
	assert_int_equal(f->env.visible, VISIBLE_INDICES);
	expect_indices(&f->env, a, 2);
	facts_free(f);

	f = run_cvd("3,0,2");
	expect_indices(&f->env, c, 3);
	facts_free(f);

	/*
	 * Indices beyond int must stay out of range: atoi("4294967296") gave 0
	 * and atoi of a 23-digit number -1, both of which look like real GPUs
	 * to a rule comparing "index < GPU count".
	 */
	f = run_cvd("4294967296");
	assert_int_equal(f->env.visible, VISIBLE_INDICES);
	assert_int_equal(f->env.visible_index_count, 1);
	assert_int_equal(f->env.visible_indices[0], INT_MAX);
	facts_free(f);
	f = run_cvd("0,99999999999999999999999");
	assert_int_equal(f->env.visible_index_count, 2);
	assert_int_equal(f->env.visible_indices[0], 0);
	assert_int_equal(f->env.visible_indices[1], INT_MAX);
	facts_free(f);
	f = run_cvd("2147483647,007");
	assert_int_equal(f->env.visible_indices[0], INT_MAX);
	assert_int_equal(f->env.visible_indices[1], 7);
	facts_free(f);

	f = run_cvd("1,foo,2");
	assert_int_equal(f->env.visible, VISIBLE_INDICES);
	expect_indices(&f->env, b, 1);
	assert_string_equal(f->env.visible_invalid, "foo");
	facts_free(f);
}

static void test_cvd_uuids_mig_mixed_invalid(void **state)
{
	struct facts *f;

	(void)state;
	f = run_cvd("GPU-abc");
	assert_int_equal(f->env.visible, VISIBLE_UUIDS);
	assert_int_equal(f->env.visible_index_count, 0);
	facts_free(f);

	f = run_cvd("GPU-8ed3a2f6-3c79-2a3b-b0c5-4b1d0c3e0f11,GPU-1b2c3d4e-5f60-7182-93a4-b5c6d7e8f901");
	assert_int_equal(f->env.visible, VISIBLE_UUIDS);
	facts_free(f);

	f = run_cvd("MIG-GPU-8ed3a2f6-3c79-2a3b-b0c5-4b1d0c3e0f11/1/0");
	assert_int_equal(f->env.visible, VISIBLE_MIG);
	facts_free(f);

	f = run_cvd("MIG-4f1e8b5a-1f0e-5c1d-9a8b-7c6d5e4f3a2b");
	assert_int_equal(f->env.visible, VISIBLE_MIG);
	facts_free(f);

	f = run_cvd("0,GPU-abc");
	assert_int_equal(f->env.visible, VISIBLE_MIXED);
	assert_int_equal(f->env.visible_index_count, 1);
	facts_free(f);

	f = run_cvd("abc");
	assert_int_equal(f->env.visible, VISIBLE_INVALID);
	assert_string_equal(f->env.visible_invalid, "abc");
	facts_free(f);

	f = run_cvd("gpu-abc");	/* prefixes are case-sensitive */
	assert_int_equal(f->env.visible, VISIBLE_INVALID);
	facts_free(f);
}

static void test_cvd_10kb(void **state)
{
	char *v = malloc(10 * 1024 + 1);
	struct facts *f;
	size_t n = 0;

	(void)state;
	/* "0,1,2,...": far more indices than MAX_PCI_GPUS */
	while (n < 10 * 1024 - 8)
		n += (size_t)sprintf(v + n, "%zu,", n % 7);
	v[n] = '\0';
	f = run_cvd(v);
	assert_int_equal(f->env.visible, VISIBLE_INDICES);
	assert_int_equal(f->env.visible_index_count, MAX_PCI_GPUS);
	assert_string_equal(facts_env(f, "CUDA_VISIBLE_DEVICES"), v);	/* the value is kept whole */
	facts_free(f);

	/* one 10 KB garbage token: invalid, remembered cut to fit */
	memset(v, 'x', 10 * 1024);
	v[10 * 1024] = '\0';
	f = run_cvd(v);
	assert_int_equal(f->env.visible, VISIBLE_INVALID);
	assert_int_equal(strlen(f->env.visible_invalid), sizeof(f->env.visible_invalid) - 1);
	assert_int_equal(strlen(facts_env(f, "CUDA_VISIBLE_DEVICES")), 10 * 1024);
	facts_free(f);

	/* a 10 KB UUID-looking token */
	memcpy(v, "GPU-", 4);
	f = run_cvd(v);
	assert_int_equal(f->env.visible, VISIBLE_UUIDS);
	facts_free(f);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_variables),
		cmocka_unit_test(test_first_definition_wins),
		cmocka_unit_test(test_empty_and_null_env),
		cmocka_unit_test(test_cvd_unset_empty_none),
		cmocka_unit_test(test_cvd_indices),
		cmocka_unit_test(test_cvd_uuids_mig_mixed_invalid),
		cmocka_unit_test(test_cvd_10kb),
	};

	return cmocka_run_group_tests_name("env", tests, NULL, NULL);
}
