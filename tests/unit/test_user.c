/* Unit tests for src/probe/user.c: probe_user and user_group_id under a temp root. */
#include "testutil.h"

#include "probe/probe_internal.h"

static const char passwd[] =
	"root:x:0:0:root:/root:/bin/bash\n"
	"# a comment line\n"
	"broken-line-without-fields\n"
	"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
	"alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\n"
	"bob:x:1001:1001::/home/bob:/bin/sh\n"
	"mallory:x:notanumber:1002::/:/bin/sh\n";

static const char group[] =
	"root:x:0:\n"
	"video:x:44:alice,bob,carol\n"
	"render:x:109: alice \n"
	"alice:x:1000:\n"
	"bob:x:1001:\n"
	"docker:x:999:bob\n"
	"alicia:x:2000:alicia\n"
	"bad:x:nan:alice\n"
	"short:x\n"
	"0day:x:3000:\n";

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
	struct probe_ctx ctx;
	struct facts *f;
};

static int setup_root(void **state, bool with_files)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };

	tu_mkdtemp(fx->dir, sizeof(fx->dir));
	if (with_files) {
		tu_write(fx->dir, "etc/passwd", passwd);
		tu_write(fx->dir, "etc/group", group);
	}
	assert_int_equal(rootfs_init(&fx->fs, fx->dir, &err), 0);
	fx->ctx.fs = &fx->fs;
	fx->f = facts_new();
	*state = fx;
	return 0;
}

static int setup(void **state)
{
	return setup_root(state, true);
}

static int setup_empty(void **state)
{
	return setup_root(state, false);
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	rootfs_release(&fx->fs);
	facts_free(fx->f);
	tu_rmrf(fx->dir);
	free(fx);
	return 0;
}

static const struct user_facts *run(struct fixture *fx, char *const *envp)
{
	fx->ctx.envp = envp;
	probe_user(fx->f, &fx->ctx);
	return &fx->f->system.user;
}

static bool has_gid(const struct user_facts *u, gid_t g)
{
	for (int i = 0; i < u->ngids; i++)
		if (u->gids[i] == g)
			return true;
	return false;
}

static void test_alice(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "HOME=/home/alice", "USERNAME=nobody", "USER=alice", NULL };
	const struct user_facts *u = run(fx, envp);

	assert_string_equal(u->name, "alice");
	assert_int_equal(u->uid, 1000);
	assert_false(u->is_root);
	assert_int_equal(u->ngids, 3);
	assert_int_equal(u->gids[0], 1000);	/* primary group first */
	assert_true(has_gid(u, 44));		/* video */
	assert_true(has_gid(u, 109));		/* render, " alice " trimmed */
	assert_false(has_gid(u, 999));		/* docker is bob's */
	assert_false(has_gid(u, 2000));		/* "alicia" is not "alice" */
	assert_false(has_gid(u, 0));
	assert_int_equal(fx->f->note_count, 0);
	assert_non_null(strstr(u->source, "/etc/group"));
}

static void test_bob(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=bob", NULL };
	const struct user_facts *u = run(fx, envp);

	assert_int_equal(u->uid, 1001);
	assert_int_equal(u->gids[0], 1001);
	assert_true(has_gid(u, 44));
	assert_true(has_gid(u, 999));
	assert_false(has_gid(u, 109));
	assert_int_equal(u->ngids, 3);
}

static void test_root_default_and_explicit(void **state)
{
	struct fixture *fx = *state;
	char *const none[] = { "PATH=/usr/bin", NULL };
	const struct user_facts *u = run(fx, none);

	/* no USER under --root: the root user */
	assert_string_equal(u->name, "root");
	assert_int_equal(u->uid, 0);
	assert_true(u->is_root);
	assert_int_equal(u->gids[0], 0);
	assert_int_equal(fx->f->note_count, 0);
}

static void test_root_explicit(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=root", NULL };
	const struct user_facts *u = run(fx, envp);

	assert_true(u->is_root);
	assert_int_equal(u->uid, 0);
}

static void test_unknown_user(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=carol", NULL };
	const struct user_facts *u = run(fx, envp);

	assert_string_equal(u->name, "carol");
	assert_int_equal(u->uid, 65534);
	assert_false(u->is_root);
	assert_int_equal(u->gids[0], 65534);
	assert_true(has_gid(u, 44));	/* still a member of video by name */
	assert_int_equal(fx->f->note_count, 1);
	assert_non_null(strstr(fx->f->notes[0], "carol"));
}

static void test_user_with_bad_uid_field(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=mallory", NULL };
	const struct user_facts *u = run(fx, envp);

	/* a passwd line with a non-numeric uid is skipped, never uid 0 */
	assert_int_equal(u->uid, 65534);
	assert_false(u->is_root);
}

static void test_no_account_files(void **state)
{
	struct fixture *fx = *state;
	char *const alice[] = { "USER=alice", NULL };
	const struct user_facts *u = run(fx, alice);

	assert_int_equal(u->uid, 65534);
	assert_false(u->is_root);
	assert_int_equal(u->ngids, 1);
	assert_int_equal(fx->f->note_count, 1);
}

static void test_no_account_files_root(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=root", NULL };
	const struct user_facts *u = run(fx, envp);

	assert_int_equal(u->uid, 0);
	assert_true(u->is_root);
}

static void test_group_id(void **state)
{
	struct fixture *fx = *state;
	gid_t g = 12345;

	assert_int_equal(user_group_id(&fx->fs, "video", &g), 0);
	assert_int_equal(g, 44);
	assert_int_equal(user_group_id(&fx->fs, "render", &g), 0);
	assert_int_equal(g, 109);
	assert_int_equal(user_group_id(&fx->fs, "root", &g), 0);
	assert_int_equal(g, 0);
	assert_int_equal(user_group_id(&fx->fs, "0day", &g), 0);
	assert_int_equal(g, 3000);
	/* numbers are taken as ids without a lookup */
	assert_int_equal(user_group_id(&fx->fs, "4242", &g), 0);
	assert_int_equal(g, 4242);
	g = 12345;
	assert_int_equal(user_group_id(&fx->fs, "nosuch", &g), -1);
	assert_int_equal(user_group_id(&fx->fs, "bad", &g), -1);	/* gid "nan" */
	assert_int_equal(user_group_id(&fx->fs, "short", &g), -1);
	assert_int_equal(user_group_id(&fx->fs, "vid", &g), -1);
	assert_int_equal(user_group_id(&fx->fs, "", &g), -1);
	assert_int_equal(g, 12345);
}

static void test_group_id_no_file(void **state)
{
	struct fixture *fx = *state;
	gid_t g = 7;

	assert_int_equal(user_group_id(&fx->fs, "video", &g), -1);
	assert_int_equal(g, 7);
	assert_int_equal(user_group_id(&fx->fs, "44", &g), 0);
	assert_int_equal(g, 44);
}

static void test_id_name(void **state)
{
	struct fixture *fx = *state;
	char out[32] = "", tiny[3];

	assert_int_equal(user_id_name(&fx->fs, "/etc/passwd", 1000, out, sizeof(out)), 0);
	assert_string_equal(out, "alice");
	assert_int_equal(user_id_name(&fx->fs, "/etc/passwd", 0, out, sizeof(out)), 0);
	assert_string_equal(out, "root");
	assert_int_equal(user_id_name(&fx->fs, "/etc/group", 44, out, sizeof(out)), 0);
	assert_string_equal(out, "video");
	assert_int_equal(user_id_name(&fx->fs, "/etc/group", 3000, out, sizeof(out)), 0);
	assert_string_equal(out, "0day");
	assert_int_equal(user_id_name(&fx->fs, "/etc/group", 4242, out, sizeof(out)), -1);
	assert_int_equal(user_id_name(&fx->fs, "/etc/passwd", 1002, out, sizeof(out)), -1);
	assert_int_equal(user_id_name(&fx->fs, "/etc/shadow", 0, out, sizeof(out)), -1);
	assert_int_equal(user_id_name(&fx->fs, "/etc/group", 44, tiny, sizeof(tiny)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bob, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_default_and_explicit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_explicit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_user, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_with_bad_uid_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_account_files, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_no_account_files_root, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_group_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_id_no_file, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_id_name, setup, teardown),
	};

	return cmocka_run_group_tests_name("user", tests, NULL, NULL);
}
