/*
 * Unit tests for src/probe/kernlog.c: /dev/kmsg records, syslog lines, telling this boot from earlier ones, and
 * the NVIDIA driver's messages. Messages are real ones: the dev-kmsg ABI document's example
 * (Documentation/ABI/testing/dev-kmsg), the open module's GSP refusal as osapi.c prints it and as
 * negativo17/nvidia-driver#158 and NVIDIA/open-gpu-kernel-modules#696 quote it, Xid lines from
 * NVIDIA/NVSentinel#155, a legacy-branch refusal from a kern.log quoted on Ubuntu Forums.
 */
#include "testutil.h"

#include "probe/probe_internal.h"
#include "util/str.h"

static struct facts *fresh(void)
{
	struct facts *f = facts_new();

	assert_non_null(f);
	return f;
}

static void test_kmsg_record_doc_example(void **state)
{
	static const char rec[] = "7,160,424069,-;pci_root PNP0A03:00: host bridge window [io  0x0000-0x0cf7] (ignored)\n"
				  " SUBSYSTEM=acpi\n DEVICE=+acpi:PNP0A03:00\n";
	char msg[256];
	double s;

	(void)state;
	assert_int_equal(kmsg_parse_record(rec, strlen(rec), &s, msg, sizeof(msg)), 0);
	assert_true(s > 0.424068 && s < 0.424070);
	assert_string_equal(msg, "pci_root PNP0A03:00: host bridge window [io  0x0000-0x0cf7] (ignored)");
}

static void test_kmsg_record_escapes_and_fields(void **state)
{
	/* a multi-line printk: its newlines come escaped; a later kernel may add fields before ';' */
	static const char rec[] = "3,812,6097203,-,caller=T1;NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:1b82)\\x0a"
				  "NVRM: installed in this system is not supported by open\\x0a"
				  "NVRM: nvidia.ko because it does not include the required GPU\\x0aNVRM: System Processor (GSP).\n";
	char msg[512];
	double s;

	(void)state;
	assert_int_equal(kmsg_parse_record(rec, strlen(rec), &s, msg, sizeof(msg)), 0);
	assert_true(s > 6.0972 && s < 6.0973);
	assert_non_null(strstr(msg, "(PCI ID: 10de:1b82)\nNVRM: installed"));
	assert_int_equal(kmsg_parse_record("no semicolon", 12, &s, msg, sizeof(msg)), -1);
	assert_int_equal(kmsg_parse_record("6,1;x", 5, &s, msg, sizeof(msg)), -1);
	/* cut, never overrun */
	assert_int_equal(kmsg_parse_record(rec, strlen(rec), &s, msg, 8), 0);
	assert_string_equal(msg, "NVRM: T");
}

static void take_all(struct kernlog_facts *k, struct kernlog_scan *s, const char *const *lines, double secs)
{
	for (int i = 0; lines[i]; i++)
		kernlog_take_line(k, s, lines[i], secs);
}

static void test_gsp_refusal_and_probe(void **state)
{
	static const char *const lines[] = {
		"NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01)",
		"NVRM: installed in this system is not supported by open",
		"NVRM: nvidia.ko because it does not include the required GPU",
		"NVRM: System Processor (GSP).",
		"NVRM: Please see the 'Open Linux Kernel Modules' and 'GSP",
		"NVRM: Firmware' sections in the driver README, available on",
		"NVRM: the Linux graphics driver download page at",
		"NVRM: www.nvidia.com.",
		"nvidia 0000:09:00.0: probe with driver nvidia failed with error -1",
		"NVRM: The NVIDIA probe routine failed for 1 device(s).",
		"NVRM: None of the NVIDIA devices were initialized.",
		NULL,
	};
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	take_all(&f->kernlog, &s, lines, 12.5);
	assert_true(f->kernlog.gsp_refused);
	assert_string_equal(f->kernlog.gsp_bus_id, "0000:09:00.0");
	assert_string_equal(f->kernlog.gsp_pci_id, "10de:1d01");
	assert_true(f->kernlog.probe_failed);
	assert_string_equal(f->kernlog.probe_failed_bus_id, "0000:09:00.0");
	assert_int_equal(f->kernlog.nxids, 0);
	facts_free(f);
}

static void test_old_kernel_probe_line(void **state)
{
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	kernlog_take_line(&f->kernlog, &s, "nvidia: probe of 0000:01:00.0 failed with error -1", -1);
	assert_true(f->kernlog.probe_failed);
	assert_string_equal(f->kernlog.probe_failed_bus_id, "0000:01:00.0");
	facts_free(f);
}

static void test_legacy_branch(void **state)
{
	static const char *const lines[] = {
		"NVRM: The NVIDIA GeForce GT 1030 GPU installed in this system is",
		"NVRM:   supported through the NVIDIA 580.xx Legacy drivers. Please",
		"NVRM:   visit http://www.nvidia.com/object/unix.html for more",
		"NVRM:   information.  The 610.43.02 NVIDIA driver will ignore this GPU.",
		"NVRM: No NVIDIA GPU found.",
		NULL,
	};
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	take_all(&f->kernlog, &s, lines, -1);
	assert_string_equal(f->kernlog.legacy_gpu, "GeForce GT 1030");
	assert_string_equal(f->kernlog.legacy_branch, "580.xx");
	assert_string_equal(f->kernlog.legacy_ignoring, "610.43.02");
	assert_true(f->kernlog.no_gpu_found);
	assert_false(f->kernlog.gsp_refused);
	facts_free(f);
}

/* osapi.c's message for a GPU the driver's branch does not know (a GPU newer than the driver). */
static void test_release_refused(void **state)
{
	static const char *const lines[] = {
		"NVRM: The NVIDIA GPU 0000:0a:00.0 (PCI ID: 10de:2684)",
		"NVRM: installed in this system is not supported by the",
		"NVRM: NVIDIA 470.223.02 driver release.",
		"NVRM: Please see 'Appendix A - Supported NVIDIA GPU Products'",
		NULL,
	};
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	take_all(&f->kernlog, &s, lines, 3.0);
	assert_true(f->kernlog.release_refused);
	assert_string_equal(f->kernlog.release_refused_bus_id, "0000:0a:00.0");
	assert_false(f->kernlog.gsp_refused);
	facts_free(f);
}

static void test_xids_keep_latest(void **state)
{
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };
	char line[160];

	(void)state;
	kernlog_take_line(&f->kernlog, &s, "NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus.", 1843.3);
	assert_int_equal(f->kernlog.nxids, 1);
	assert_string_equal(f->kernlog.xids[0].bus_id, "0000:44:00");
	assert_int_equal(f->kernlog.xids[0].xid, 79);
	assert_true(f->kernlog.xids[0].seconds > 1843.2);
	assert_string_equal(f->kernlog.xids[0].text, "NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus.");
	/* an older driver's form, without "PCI:" */
	kernlog_take_line(&f->kernlog, &s, "NVRM: Xid (0000:01:00): 13, 0003 00000000 0000a1c0 000002bc", -1);
	assert_string_equal(f->kernlog.xids[1].bus_id, "0000:01:00");
	assert_int_equal(f->kernlog.xids[1].xid, 13);
	for (int i = 0; i < MAX_KLOG_XIDS + 3; i++) {
		str_printf(line, sizeof(line), "NVRM: Xid (PCI:0000:0f:00): %d, pid=1234, name=python3, Ch 00000008", 100 + i);
		kernlog_take_line(&f->kernlog, &s, line, i);
	}
	assert_int_equal(f->kernlog.nxids, MAX_KLOG_XIDS);
	assert_int_equal(f->kernlog.xids[MAX_KLOG_XIDS - 1].xid, 100 + MAX_KLOG_XIDS + 2);
	assert_int_equal(f->kernlog.xids[0].xid, 103);
	assert_int_equal(s.xids_dropped, 5);
	kernlog_take_line(&f->kernlog, &s, "NVRM: Xid (PCI:0000:0f:00): garbage", -1);
	assert_int_equal(f->kernlog.nxids, MAX_KLOG_XIDS);
	facts_free(f);
}

static void test_rfc3339(void **state)
{
	long long t;
	const char *end;

	(void)state;
	assert_int_equal(rfc3339_epoch("1970-01-01T00:00:00Z", &t, NULL), 0);
	assert_int_equal(t, 0);
	assert_int_equal(rfc3339_epoch("2024-08-14T10:00:00.123456+02:00 host", &t, &end), 0);
	assert_int_equal(t, 1723622400LL);	/* 2024-08-14T08:00:00Z */
	assert_string_equal(end, " host");
	assert_int_equal(rfc3339_epoch("2000-03-01T00:00:00-05:30", &t, NULL), 0);
	assert_int_equal(t, 951868800LL + 5 * 3600 + 1800);
	assert_int_equal(rfc3339_epoch("Dec  3 13:05:26 host", &t, NULL), -1);
	assert_int_equal(rfc3339_epoch("2024-13-01T00:00:00Z", &t, NULL), -1);
	assert_int_equal(rfc3339_epoch("2024-08-14T10:00:00", &t, NULL), -1);
}

static void test_syslog_lines(void **state)
{
	struct syslog_line sl;

	(void)state;
	assert_int_equal(syslog_parse_line("Oct 16 22:58:02 localhost kernel: [   27.177056] NVRM: The NVIDIA Quadro FX 1400 "
					   "GPU installed in this system is", &sl), 0);
	assert_int_equal(sl.epoch, -1);
	assert_true(sl.seconds > 27.177055 && sl.seconds < 27.177057);
	assert_string_equal(sl.msg, "NVRM: The NVIDIA Quadro FX 1400 GPU installed in this system is");
	assert_int_equal(syslog_parse_line("Dec  3 13:05:26 gpu1 kernel: NVRM: No NVIDIA GPU found.", &sl), 0);
	assert_true(sl.seconds < 0);
	assert_string_equal(sl.msg, "NVRM: No NVIDIA GPU found.");
	assert_int_equal(syslog_parse_line("2026-12-03T13:05:26.123456+00:00 gpu1 kernel: NVRM: Xid (PCI:0000:86:00): 79, "
					   "GPU has fallen off the bus.", &sl), 0);
	assert_true(sl.epoch > 0);
	assert_string_equal(sl.msg, "NVRM: Xid (PCI:0000:86:00): 79, GPU has fallen off the bus.");
	assert_int_equal(syslog_parse_line("Dec  3 13:05:26 gpu1 systemd[1]: Started Journal Service.", &sl), -1);
	assert_int_equal(syslog_parse_line("kernel: NVRM: hello", &sl), -1);
	assert_int_equal(syslog_parse_line("", &sl), -1);
}

/* Two boots in a classic kern.log: the earlier one's Xid is not this boot's. */
static void test_syslog_boots_by_restart(void **state)
{
	static const char text[] =
		"Dec  2 09:00:00 gpu1 kernel: [    0.000000] Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075)\n"
		"Dec  2 10:00:00 gpu1 kernel: [ 3600.123456] NVRM: Xid (PCI:0000:86:00): 79, pid=2211, GPU has fallen off the bus.\n"
		"Dec  2 10:00:01 gpu1 systemd[1]: Stopping user@1000.service\n"
		"Dec  3 13:05:20 gpu1 kernel: [    5.100000] nvidia: loading out-of-tree module taints kernel.\n"
		"Dec  3 13:05:26 gpu1 kernel: [   11.500000] NVRM: Xid (PCI:0000:86:00): 48, pid=3001, DBE (0x1,0x0)\n";
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	kernlog_read_syslog(&f->kernlog, &s, text, 0);
	assert_true(f->kernlog.this_boot_only);
	assert_int_equal(f->kernlog.nxids, 1);
	assert_int_equal(f->kernlog.xids[0].xid, 48);
	assert_int_equal(f->kernlog.lines, 2);
	facts_free(f);
}

/* RFC 3339 stamps against btime, and rsyslog's #012 for the newlines of a multi-line message. */
static void test_syslog_boots_by_btime(void **state)
{
	static const char text[] =
		"2026-12-02T10:00:00.000001+00:00 gpu1 kernel: NVRM: Xid (PCI:0000:86:00): 79, GPU has fallen off the bus.\n"
		"2026-12-03T13:05:26.000001+01:00 gpu1 kernel: NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1d01)#012"
		"NVRM: installed in this system is not supported by open#012NVRM: nvidia.ko because it does not include "
		"the required GPU#012NVRM: System Processor (GSP).\n";
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };
	long long btime;

	(void)state;
	assert_int_equal(rfc3339_epoch("2026-12-03T12:04:00Z", &btime, NULL), 0);
	kernlog_read_syslog(&f->kernlog, &s, text, btime);
	assert_true(f->kernlog.this_boot_only);
	assert_string_equal(f->kernlog.boot_by, "btime in /proc/stat");
	assert_int_equal(f->kernlog.nxids, 0);
	assert_true(f->kernlog.gsp_refused);
	assert_string_equal(f->kernlog.gsp_bus_id, "0000:09:00.0");
	facts_free(f);
}

/* /var/log/messages as RHEL's rsyslog writes it (classic stamps, no [seconds], every program's lines): the last
 * "Linux version" line starts this boot. */
static void test_syslog_boots_by_linux_version(void **state)
{
	static const char text[] =
		"Dec  2 09:00:00 node7 kernel: Linux version 5.14.0-427.13.1.el9_4.x86_64 (mockbuild@x86-64-01.build.eng.rdu2.redhat.com)\n"
		"Dec  2 10:00:00 node7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n"
		"Dec  2 10:00:02 node7 systemd[1]: Stopping Session 3 of User alice...\n"
		"Dec  3 13:05:20 node7 kernel: Linux version 5.14.0-427.13.1.el9_4.x86_64 (mockbuild@x86-64-01.build.eng.rdu2.redhat.com)\n"
		"Dec  3 13:05:40 node7 systemd[1]: Started Journal Service.\n"
		"Dec  3 13:06:02 node7 kernel: NVRM: Xid (PCI:0000:3b:00): 31, pid=4012, name=python3, Ch 00000010\n";
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	kernlog_read_syslog(&f->kernlog, &s, text, 0);
	assert_true(f->kernlog.this_boot_only);
	assert_int_equal(f->kernlog.nxids, 1);
	assert_int_equal(f->kernlog.xids[0].xid, 31);
	assert_true(f->kernlog.xids[0].seconds < 0);
	facts_free(f);
}

/* Without btime or a restart, everything is kept and said to be so. */
static void test_syslog_boots_unknown(void **state)
{
	static const char text[] = "Dec  3 13:05:26 gpu1 kernel: NVRM: Xid (PCI:0000:86:00): 31, pid=1, name=x, Ch 00000001\n";
	struct facts *f = fresh();
	struct kernlog_scan s = { 0 };

	(void)state;
	kernlog_read_syslog(&f->kernlog, &s, text, 0);
	assert_false(f->kernlog.this_boot_only);
	assert_int_equal(f->kernlog.nxids, 1);
	facts_free(f);
}

/* probe_kernlog under a root: kern.log read, refused or missing. */
static void run_probe_file(const char *file, const char *kernlog, mode_t mode, struct facts *f)
{
	char dir[TU_PATH];
	struct probe_ctx ctx;
	struct rootfs fs;
	struct error err = { 0 };
	char *const envp[] = { NULL };

	tu_mkdtemp(dir, TU_PATH);
	tu_mkdir(dir, "var/log");
	if (kernlog) {
		char path[TU_PATH];

		tu_write(dir, file, kernlog);
		tu_path(path, dir, file);
		assert_int_equal(chmod(path, mode), 0);
	}
	memset(&ctx, 0, sizeof(ctx));
	assert_int_equal(rootfs_init(&fs, dir, &err), 0);
	ctx.fs = &fs;
	ctx.envp = envp;
	probe_kernlog(f, &ctx);
	rootfs_release(&fs);
	tu_rmrf(dir);
}

static void run_probe(const char *kernlog, mode_t mode, struct facts *f)
{
	run_probe_file("var/log/kern.log", kernlog, mode, f);
}

static void test_probe_states(void **state)
{
	struct facts *f = fresh();

	(void)state;
	run_probe("Dec  3 13:05:26 gpu1 kernel: [   11.5] NVRM: Xid (PCI:0000:86:00): 79, GPU has fallen off the bus.\n", 0644, f);
	assert_int_equal(f->kernlog.status.state, FACT_OK);
	assert_string_equal(f->kernlog.source, "/var/log/kern.log");
	assert_int_equal(f->kernlog.nxids, 1);
	facts_free(f);

	f = fresh();
	run_probe_file("var/log/messages", "Dec  3 13:06:02 node7 kernel: NVRM: Xid (PCI:0000:3b:00): 31, pid=4012\n", 0644, f);
	assert_int_equal(f->kernlog.status.state, FACT_OK);
	assert_string_equal(f->kernlog.source, "/var/log/messages");
	assert_int_equal(f->kernlog.nxids, 1);
	facts_free(f);

	f = fresh();
	run_probe(NULL, 0, f);
	assert_int_equal(f->kernlog.status.state, FACT_ABSENT);
	assert_false(f->kernlog.status.denied);
	facts_free(f);

	if (geteuid() != 0) {	/* root reads a mode-000 file all the same */
		f = fresh();
		run_probe("Dec  3 13:05:26 gpu1 kernel: hello\n", 0, f);
		assert_int_equal(f->kernlog.status.state, FACT_UNKNOWN);
		assert_true(f->kernlog.status.denied);
		assert_int_equal(f->kernlog.nxids, 0);
		facts_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmsg_record_doc_example),
		cmocka_unit_test(test_kmsg_record_escapes_and_fields),
		cmocka_unit_test(test_gsp_refusal_and_probe),
		cmocka_unit_test(test_old_kernel_probe_line),
		cmocka_unit_test(test_legacy_branch),
		cmocka_unit_test(test_release_refused),
		cmocka_unit_test(test_xids_keep_latest),
		cmocka_unit_test(test_rfc3339),
		cmocka_unit_test(test_syslog_lines),
		cmocka_unit_test(test_syslog_boots_by_restart),
		cmocka_unit_test(test_syslog_boots_by_btime),
		cmocka_unit_test(test_syslog_boots_by_linux_version),
		cmocka_unit_test(test_syslog_boots_unknown),
		cmocka_unit_test(test_probe_states),
	};

	return cmocka_run_group_tests_name("kernlog", tests, NULL, NULL);
}
