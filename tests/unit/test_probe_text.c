/*
 * test_probe_text.c - small parsers of kernel text files: the kernel
 * command line's blacklists and mountinfo's root file system.
 */
#include "testutil.h"

#include "probe/probe_internal.h"

static void test_cmdline_blacklists(void **state)
{
	(void)state;
	/* kmod, the kernel and dracut all take comma-separated lists */
	assert_true(cmdline_blacklists("BOOT_IMAGE=/vmlinuz ro modprobe.blacklist=nouveau quiet", "nouveau"));
	assert_true(cmdline_blacklists("ro modprobe.blacklist=pcspkr,nouveau", "nouveau"));
	assert_true(cmdline_blacklists("ro module_blacklist=nouveau\n", "nouveau"));
	assert_true(cmdline_blacklists("rd.driver.blacklist=nouveau,radeon ro", "nouveau"));
	assert_true(cmdline_blacklists("quiet nouveau.modeset=0", "nouveau"));
	assert_false(cmdline_blacklists("ro modprobe.blacklist=nouveau2 quiet", "nouveau"));
	assert_false(cmdline_blacklists("ro nouveau.modeset=1 splash", "nouveau"));
	assert_false(cmdline_blacklists("ro xmodprobe.blacklist=nouveau", "nouveau"));
}

static void test_mountinfo_root_fstype(void **state)
{
	/* proc(5)'s field order; the first line as in a Docker container, the second as on a host */
	const char *docker = "1374 1285 0:330 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/var/lib/docker/"
			     "overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/u,workdir=/w\n"
			     "1375 1374 0:333 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n";
	const char *host = "26 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
			   "27 26 0:26 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n";
	const char *remounted = "26 1 259:2 / / rw - ext4 /dev/sda1 rw\n40 26 0:44 / / rw - overlay overlay rw\n";
	char type[32];

	(void)state;
	assert_int_equal(mountinfo_root_fstype(docker, type, sizeof(type)), 0);
	assert_string_equal(type, "overlay");
	assert_int_equal(mountinfo_root_fstype(host, type, sizeof(type)), 0);
	assert_string_equal(type, "ext4");
	assert_int_equal(mountinfo_root_fstype(remounted, type, sizeof(type)), 0);
	assert_string_equal(type, "overlay");
	assert_int_equal(mountinfo_root_fstype("27 26 0:26 / /sys rw - sysfs sysfs rw\n", type, sizeof(type)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_blacklists),
		cmocka_unit_test(test_mountinfo_root_fstype),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
