/*
 * Unit tests for src/probe/interpreter.c: what --python may name, checked
 * statically under a temp root (links followed inside it, nothing run).
 */
#include "testutil.h"

#include "probe/interpreter.h"

/* The first bytes of Debian 12's /usr/bin/python3 (an x86-64 ELF executable, ET_EXEC). */
static const unsigned char elf_head[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0 };
/* The start of a pyenv shim (pyenv's libexec/pyenv-rehash writes it). */
static const char pyenv_shim[] = "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n";

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
};

static void make_exec(const char *root, const char *rel, mode_t mode)
{
	char p[TU_PATH];

	tu_path(p, root, rel);
	assert_int_equal(chmod(p, mode), 0);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };
	const char *r;

	assert_non_null(fx);
	tu_mkdtemp(fx->dir, sizeof(fx->dir));
	r = fx->dir;
	tu_write_bytes(r, "usr/bin/python3.11", elf_head, sizeof(elf_head));
	make_exec(r, "usr/bin/python3.11", 0755);
	tu_symlink(r, "usr/bin/python3", "python3.11");
	tu_symlink(r, "opt/venv/bin/python", "/usr/bin/python3");	/* absolute: re-rooted */
	tu_write(r, "home/a/.pyenv/shims/python3", pyenv_shim);
	make_exec(r, "home/a/.pyenv/shims/python3", 0755);
	tu_write(r, "srv/train.py", "import torch\n");
	make_exec(r, "srv/train.py", 0755);
	tu_write_bytes(r, "usr/bin/python-noexec", elf_head, sizeof(elf_head));
	make_exec(r, "usr/bin/python-noexec", 0644);
	tu_write(r, "usr/bin/empty", "");
	make_exec(r, "usr/bin/empty", 0755);
	tu_symlink(r, "usr/bin/python-gone", "/usr/bin/python3.99");
	tu_mkdir(r, "usr/lib/python3");
	assert_int_equal(rootfs_init(&fx->fs, fx->dir, &err), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	rootfs_release(&fx->fs);
	tu_rmrf(fx->dir);
	free(fx);
	return 0;
}

/* 0, or -1 with the reason in why. */
static int find(struct fixture *fx, const char *name, const char *path_var, const char *cwd, char *out, char *why)
{
	struct error err = { 0 };
	int rc = interpreter_find(&fx->fs, name, path_var, cwd, out, TU_PATH, &err);

	strcpy(why, rc < 0 ? err.msg : "");
	return rc;
}

static void elf_links_and_scripts_are_interpreters(void **state)
{
	char out[TU_PATH], why[ERROR_MSG_MAX];

	assert_int_equal(find(*state, "/usr/bin/python3.11", NULL, NULL, out, why), 0);
	assert_string_equal(out, "/usr/bin/python3.11");
	assert_int_equal(find(*state, "/usr/bin/python3", NULL, NULL, out, why), 0);
	assert_string_equal(out, "/usr/bin/python3");	/* as named: the probe follows the link itself */
	assert_int_equal(find(*state, "/opt/venv/bin/python", NULL, NULL, out, why), 0);
	assert_int_equal(find(*state, "/home/a/.pyenv/shims/python3", NULL, NULL, out, why), 0);
}

static void a_bare_name_is_looked_up_on_path(void **state)
{
	char out[TU_PATH], why[ERROR_MSG_MAX];

	assert_int_equal(find(*state, "python3", "relative:/nowhere::/home/a/.pyenv/shims:/usr/bin", NULL, out, why), 0);
	assert_string_equal(out, "/home/a/.pyenv/shims/python3");
	assert_int_equal(find(*state, "python3", "/usr/bin", NULL, out, why), 0);
	assert_string_equal(out, "/usr/bin/python3");
	assert_int_equal(find(*state, "python3", NULL, NULL, out, why), -1);
	assert_string_equal(why, "not found in any directory of PATH");
	assert_int_equal(find(*state, "python9", "/usr/bin", NULL, out, why), -1);
	assert_string_equal(why, "not found in any directory of PATH");
}

static void a_relative_path_is_under_cwd(void **state)
{
	char out[TU_PATH], why[ERROR_MSG_MAX];

	assert_int_equal(find(*state, "bin/python3", NULL, "/usr", out, why), 0);
	assert_string_equal(out, "/usr/bin/python3");
	assert_int_equal(find(*state, "bin/python3", NULL, "/opt", out, why), -1);
	assert_string_equal(why, "no such file");
}

static void other_files_are_refused_with_the_reason(void **state)
{
	char out[TU_PATH], why[ERROR_MSG_MAX];

	assert_int_equal(find(*state, "/nonexistent", NULL, NULL, out, why), -1);
	assert_string_equal(why, "no such file");
	assert_int_equal(find(*state, "/usr/bin/python3.11/x", NULL, NULL, out, why), -1);
	assert_string_equal(why, "no such file");	/* ENOTDIR: a file in the middle */
	assert_int_equal(find(*state, "/usr/lib/python3", NULL, NULL, out, why), -1);
	assert_string_equal(why, "a directory");
	assert_int_equal(find(*state, "/srv/train.py", NULL, NULL, out, why), -1);
	assert_string_equal(why, "neither an ELF executable nor a #! script");
	assert_int_equal(find(*state, "/usr/bin/empty", NULL, NULL, out, why), -1);
	assert_string_equal(why, "neither an ELF executable nor a #! script");
	assert_int_equal(find(*state, "/usr/bin/python-noexec", NULL, NULL, out, why), -1);
	assert_string_equal(why, "not executable (no execute permission)");
	assert_int_equal(find(*state, "/usr/bin/python-gone", NULL, NULL, out, why), -1);
	assert_string_equal(why, "a symbolic link to something that does not exist");
	assert_int_equal(find(*state, "", NULL, NULL, out, why), -1);
	assert_string_equal(why, "an empty name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(elf_links_and_scripts_are_interpreters, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bare_name_is_looked_up_on_path, setup, teardown),
		cmocka_unit_test_setup_teardown(a_relative_path_is_under_cwd, setup, teardown),
		cmocka_unit_test_setup_teardown(other_files_are_refused_with_the_reason, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
