/*
 * Unit tests for src/probe/devnodes.c: /dev/nvidia* stand-in files under a
 * temp root, read with probe_user then probe_devnodes as probe_all does.
 */
#include "testutil.h"

#include "probe/probe_internal.h"

static const char passwd[] =
	"root:x:0:0:root:/root:/bin/bash\n"
	"alice:x:1000:1000::/home/alice:/bin/bash\n"
	"bob:x:1001:1001::/home/bob:/bin/sh\n";

static const char group[] =
	"root:x:0:\n"
	"video:x:44:alice,bob\n"
	"render:x:109:alice\n"
	"alice:x:1000:\n"
	"bob:x:1001:\n";

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
	struct probe_ctx ctx;
	struct facts *f;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };
	const char *r;

	tu_mkdtemp(fx->dir, sizeof(fx->dir));
	r = fx->dir;
	tu_write(r, "etc/passwd", passwd);
	tu_write(r, "etc/group", group);
	tu_write(r, "dev/nvidiactl", "crw-rw-rw- root root 195 255\n");
	tu_write(r, "dev/nvidia0", "crw-rw---- root video 195 0\n");
	tu_write(r, "dev/nvidia1", "crw-rw----  root  render  195  1");
	tu_write(r, "dev/nvidia-uvm", "");				/* empty: crw-rw-rw- root root */
	tu_write(r, "dev/nvidia-uvm-tools", "   \n");		/* blank counts as empty */
	tu_write(r, "dev/nvidia-modeset", "crw------- alice alice 195 254\n");
	tu_write(r, "dev/nvidia2", "-rw-rw-r-- root 44 195 2\n");	/* numeric group, not a char device */
	tu_write(r, "dev/nvidia3", "crwxrwx--- root video\n");	/* no major/minor */
	tu_write(r, "dev/nvidia4", "crw-rw----+ root video 195 4\n");	/* ACL marker */
	tu_write(r, "dev/nvidia5", "Crw-rw-rw- root root 195 5\n");	/* bad type */
	tu_write(r, "dev/nvidia6", "crw-rw-r root root\n");		/* too short */
	tu_write(r, "dev/nvidia7", "crw-rw-rwz root root 195 7\n");	/* bad permission letter */
	tu_write(r, "dev/nvidia8", "crw-rw---- root nosuchgroup 195 8\n");
	tu_write(r, "dev/nvidia-caps/nvidia-cap1", "cr--r--r-- root root 234 1\n");
	tu_write(r, "dev/nvidia-caps/other", "crw-rw-rw- root root 234 9\n");	/* wrong prefix */
	tu_write(r, "dev/null", "crw-rw-rw- root root 1 3\n");			/* not NVIDIA */
	tu_mkdir(r, "dev/nvidia-dir");					/* directories are skipped */
	assert_int_equal(rootfs_init(&fx->fs, fx->dir, &err), 0);
	fx->ctx.fs = &fx->fs;
	fx->f = facts_new();
	*state = fx;
	return 0;
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

static void run(struct fixture *fx, char *const *envp)
{
	fx->ctx.envp = envp;
	probe_user(fx->f, &fx->ctx);
	probe_devnodes(fx->f, &fx->ctx);
}

static const struct devnode *node(struct fixture *fx, const char *path)
{
	const struct devnode *n = facts_devnode(fx->f, path);

	if (!n)
		fail_msg("no node %s", path);
	return n;
}

static void expect_access(struct fixture *fx, const char *path, bool r, bool w)
{
	const struct devnode *n = node(fx, path);

	if (n->can_read != r || n->can_write != w)
		fail_msg("%s (mode %03o %s:%s) for %s: read %d write %d, want %d %d", path, n->mode, n->owner,
			 n->group, fx->f->system.user.name, n->can_read, n->can_write, r, w);
}

static bool has_note(struct fixture *fx, const char *a, const char *b)
{
	for (int i = 0; i < fx->f->note_count; i++)
		if (strstr(fx->f->notes[i], a) && strstr(fx->f->notes[i], b))
			return true;
	return false;
}

static void test_scan_and_order(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=alice", NULL };
	const struct kmod_facts *k;

	run(fx, envp);
	k = &fx->f->kmod;
	/* 13 in /dev, 1 in /dev/nvidia-caps; no directory, no "other", no null */
	assert_int_equal(k->node_count, 14);
	for (int i = 1; i < k->node_count; i++)
		assert_true(strcmp(k->nodes[i - 1].path, k->nodes[i].path) < 0);	/* sorted */
	assert_null(facts_devnode(fx->f, "/dev/nvidia-dir"));
	assert_null(facts_devnode(fx->f, "/dev/null"));
	assert_null(facts_devnode(fx->f, "/dev/nvidia-caps/other"));
	assert_non_null(facts_devnode(fx->f, "/dev/nvidia-caps/nvidia-cap1"));
	for (int i = 0; i < k->node_count; i++) {
		assert_true(k->nodes[i].present);
		assert_true(k->nodes[i].from_standin);
	}
}

static void test_mode_parsing(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=alice", NULL };
	const struct devnode *n;

	run(fx, envp);
	n = node(fx, "/dev/nvidiactl");
	assert_int_equal(n->mode, 0666);
	assert_true(n->is_char_device);
	assert_string_equal(n->owner, "root");
	assert_string_equal(n->group, "root");
	assert_int_equal(n->major, 195);
	assert_int_equal(n->minor, 255);

	n = node(fx, "/dev/nvidia0");
	assert_int_equal(n->mode, 0660);
	assert_string_equal(n->group, "video");
	assert_int_equal(n->minor, 0);

	n = node(fx, "/dev/nvidia1");	/* runs of blanks, no newline */
	assert_int_equal(n->mode, 0660);
	assert_string_equal(n->group, "render");
	assert_int_equal(n->minor, 1);

	n = node(fx, "/dev/nvidia-modeset");
	assert_int_equal(n->mode, 0600);
	assert_string_equal(n->owner, "alice");

	n = node(fx, "/dev/nvidia2");
	assert_int_equal(n->mode, 0664);
	assert_false(n->is_char_device);

	n = node(fx, "/dev/nvidia3");
	assert_int_equal(n->mode, 0770);
	assert_int_equal(n->major, -1);
	assert_int_equal(n->minor, -1);

	n = node(fx, "/dev/nvidia4");
	assert_int_equal(n->mode, 0660);

	n = node(fx, "/dev/nvidia-caps/nvidia-cap1");
	assert_int_equal(n->mode, 0444);
	assert_int_equal(n->major, 234);
}

static void test_empty_standin(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=bob", NULL };
	const char *paths[] = { "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools" };

	run(fx, envp);
	for (int i = 0; i < 2; i++) {
		const struct devnode *n = node(fx, paths[i]);

		assert_int_equal(n->mode, 0666);
		assert_true(n->is_char_device);
		assert_string_equal(n->owner, "root");
		assert_string_equal(n->group, "root");
		assert_int_equal(n->major, -1);
		expect_access(fx, paths[i], true, true);
	}
}

static void test_garbage_modes_become_notes(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=alice", NULL };

	run(fx, envp);
	assert_true(has_note(fx, "/dev/nvidia5", "Crw-rw-rw-"));
	assert_true(has_note(fx, "/dev/nvidia6", "crw-rw-r"));
	assert_true(has_note(fx, "/dev/nvidia7", "crw-rw-rwz"));
	assert_false(has_note(fx, "/dev/nvidia0", ""));
	assert_false(has_note(fx, "/dev/nvidia-uvm", ""));
	assert_int_equal(fx->f->note_count, 3);
}

static void test_access_alice(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=alice", NULL };

	run(fx, envp);
	expect_access(fx, "/dev/nvidiactl", true, true);	/* other rw */
	expect_access(fx, "/dev/nvidia0", true, true);		/* group video */
	expect_access(fx, "/dev/nvidia1", true, true);		/* group render */
	expect_access(fx, "/dev/nvidia-modeset", true, true);	/* owner */
	expect_access(fx, "/dev/nvidia2", true, true);		/* group 44 by number */
	expect_access(fx, "/dev/nvidia3", true, true);
	expect_access(fx, "/dev/nvidia8", false, false);	/* unknown group: other bits */
	expect_access(fx, "/dev/nvidia-caps/nvidia-cap1", true, false);
}

static void test_access_bob(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=bob", NULL };

	run(fx, envp);
	expect_access(fx, "/dev/nvidiactl", true, true);
	expect_access(fx, "/dev/nvidia0", true, true);		/* video */
	expect_access(fx, "/dev/nvidia1", false, false);	/* not in render */
	expect_access(fx, "/dev/nvidia-modeset", false, false);	/* alice's, 0600 */
	expect_access(fx, "/dev/nvidia2", true, true);		/* 0664, bob in group 44 */
	expect_access(fx, "/dev/nvidia-caps/nvidia-cap1", true, false);
}

static void test_access_root(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "LANG=C", NULL };	/* no USER: root */
	const struct kmod_facts *k;

	run(fx, envp);
	assert_true(fx->f->system.user.is_root);
	k = &fx->f->kmod;
	for (int i = 0; i < k->node_count; i++) {
		assert_true(k->nodes[i].can_read);
		assert_true(k->nodes[i].can_write);
	}
}

/* An owner given as a uid (as `ls -ln` prints it) is the user with that uid. */
static void test_numeric_owner(void **state)
{
	struct fixture *fx = *state;
	char *const envp[] = { "USER=alice", NULL };

	tu_write(fx->dir, "dev/nvidia9", "crw------- 1000 0 195 9\n");
	run(fx, envp);
	expect_access(fx, "/dev/nvidia9", true, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan_and_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_parsing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_standin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage_modes_become_notes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_access_alice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_access_bob, setup, teardown),
		cmocka_unit_test_setup_teardown(test_access_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_numeric_owner, setup, teardown),
	};

	return cmocka_run_group_tests_name("devnodes", tests, NULL, NULL);
}
