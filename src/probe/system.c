/*
 * system.c - operating system, kernel, CPU, memory and the user we run as.
 */
#include <gnu/libc-version.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probe/probe_internal.h"
#include "util/kv.h"
#include "util/str.h"

#define SMALL_FILE_MAX (64 * 1024)
#define CPUINFO_MAX (4 * 1024 * 1024)

static void read_os_release(struct system_facts *sys, const struct rootfs *fs)
{
	char *text = NULL;

	if (rootfs_read(fs, "/etc/os-release", SMALL_FILE_MAX, &text, NULL, NULL, NULL) < 0 &&
	    rootfs_read(fs, "/usr/lib/os-release", SMALL_FILE_MAX, &text, NULL, NULL, NULL) < 0) {
		fact_status_set(&sys->status, FACT_UNKNOWN, "no /etc/os-release");
		return;
	}
	kv_shell_get(text, "ID", sys->os_id, sizeof(sys->os_id));
	kv_shell_get(text, "ID_LIKE", sys->os_id_like, sizeof(sys->os_id_like));
	kv_shell_get(text, "VERSION_ID", sys->os_version_id, sizeof(sys->os_version_id));
	kv_shell_get(text, "PRETTY_NAME", sys->os_pretty, sizeof(sys->os_pretty));
	free(text);
}

/*
 * The glibc of a rooted machine: newer glibc installs name no version in
 * any file name, so we look for the classic libc-X.Y.so first and otherwise
 * leave it unknown rather than guess.
 */
static void read_glibc(struct system_facts *sys, const struct rootfs *fs)
{
	static const char *const dirs[] = { "/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
					    "/lib/aarch64-linux-gnu", "/lib" };
	if (fs->live) {
		str_copy(sys->glibc_version, sizeof(sys->glibc_version), gnu_get_libc_version());
		return;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = rootfs_opendir(fs, dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			const char *n = de->d_name;

			if (str_starts_with(n, "libc-") && str_ends_with(n, ".so")) {
				char v[FACT_VER];
				size_t len = strlen(n) - 8;

				if (len < sizeof(v)) {
					memcpy(v, n + 5, len);
					v[len] = '\0';
					if (version_is_valid(v))
						str_copy(sys->glibc_version, sizeof(sys->glibc_version), v);
				}
			}
		}
		closedir(d);
		if (sys->glibc_version[0])
			return;
	}
}

static void read_cpu_and_memory(struct system_facts *sys, const struct rootfs *fs)
{
	char *text = NULL;
	char value[64];

	if (rootfs_read(fs, "/proc/cpuinfo", CPUINFO_MAX, &text, NULL, NULL, NULL) == 0) {
		const char *p = text;

		kv_colon_get(text, "model name", sys->cpu_model, sizeof(sys->cpu_model));
		if (!sys->cpu_model[0])	/* arm64 names no model */
			kv_colon_get(text, "Hardware", sys->cpu_model, sizeof(sys->cpu_model));
		while ((p = strstr(p, "processor")) != NULL) {
			if (p == text || p[-1] == '\n')
				sys->cpu_count++;
			p += 9;
		}
		free(text);
	}
	if (rootfs_read(fs, "/proc/meminfo", SMALL_FILE_MAX, &text, NULL, NULL, NULL) == 0) {
		uint64_t v;

		if (kv_colon_get(text, "MemTotal", value, sizeof(value)) == 0) {
			value[strcspn(value, " ")] = '\0';
			if (str_to_u64(value, &v) == 0)
				sys->mem_total_kib = v;
		}
		if (kv_colon_get(text, "MemAvailable", value, sizeof(value)) == 0) {
			value[strcspn(value, " ")] = '\0';
			if (str_to_u64(value, &v) == 0)
				sys->mem_available_kib = v;
		}
		free(text);
	}
}


/*
 * The node's name, as a fleet of reports names it: the kernel's (/proc/sys/kernel/hostname), else
 * /etc/hostname (hostname(5): the name alone on its first line) for an image without /proc, else, live,
 * uname's nodename. Left "" when none says.
 */
static void read_hostname(struct system_facts *sys, const struct rootfs *fs)
{
	struct utsname uts;
	char *name = sys->hostname;

	if (rootfs_read_line(fs, "/proc/sys/kernel/hostname", name, sizeof(sys->hostname)) < 0 &&
	    rootfs_read_line(fs, "/etc/hostname", name, sizeof(sys->hostname)) < 0) {
		name[0] = '\0';
		if (fs->live && uname(&uts) == 0)
			str_copy(name, sizeof(sys->hostname), uts.nodename);
	}
	/* hostname(5) allows surrounding blanks and comment lines; a comment or blank first line says nothing */
	str_trim(name);
	if (name[0] == '#')
		name[0] = '\0';
}

/*
 * FACT_OK unless no os-release is readable (UNKNOWN); every other field is read on its own and left "" or 0
 * when unreadable. Live, uname(2) stands in for unreadable /proc files and glibc is our own; under --root
 * neither is. Ends with probe_user.
 */
void probe_system(struct facts *f, const struct probe_ctx *ctx)
{
	struct system_facts *sys = &f->system;
	const struct rootfs *fs = ctx->fs;
	struct utsname uts;

	sys->status.state = FACT_OK;
	read_os_release(sys, fs);
	if (rootfs_read_line(fs, "/proc/sys/kernel/osrelease", sys->kernel_release,
			     sizeof(sys->kernel_release)) < 0 && fs->live && uname(&uts) == 0)
		str_copy(sys->kernel_release, sizeof(sys->kernel_release), uts.release);
	if (rootfs_read_line(fs, "/proc/sys/kernel/arch", sys->arch, sizeof(sys->arch)) < 0 &&
	    fs->live && uname(&uts) == 0)
		str_copy(sys->arch, sizeof(sys->arch), uts.machine);
	read_hostname(sys, fs);
	read_glibc(sys, fs);
	read_cpu_and_memory(sys, fs);
	probe_user(f, ctx);
}
