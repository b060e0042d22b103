/*
 * kmod.c - the NVIDIA kernel driver: loaded or not, which version, whether a
 * module exists for the running kernel, and what could keep it from loading
 * (nouveau, Secure Boot, a DKMS build missing for this kernel).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/elf.h"
#include "util/i18n.h"
#include "util/kv.h"
#include "util/str.h"

#define PROC_TEXT_MAX (1024 * 1024)
#define MODULES_DEP_MAX (16 * 1024 * 1024)
/*
 * SecureBoot lives under EFI_GLOBAL_VARIABLE, {0x8BE4DF61, 0x93CA, 0x11D2, {0xAA, 0x0D, 0x00, 0xE0, 0x98,
 * 0x03, 0x2B, 0x8C}} (UEFI Specification 2.10, section 3.3 "Globally Defined Variables"; edk2's
 * MdePkg/Include/Guid/GlobalVariable.h); efivarfs names each file Name-guid in lower case.
 */
#define SECURE_BOOT_VAR "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define MODULE_SIG_MAGIC "~Module signature appended~\n"

/*
 * "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 ..."
 * "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build ..."
 * The version is the first token that parses as a dotted version.
 */
int nvrm_parse_version(const char *line, char *out, size_t outsz)
{
	/* Walk the tokens in place: copying the line into a fixed buffer first
	 * lost a version beyond it, or returned one cut in half. */
	for (const char *p = line + strspn(line, " \t\r\n"); *p; p += strspn(p, " \t\r\n")) {
		size_t n = strcspn(p, " \t\r\n");
		char tok[64];

		if (n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if (strchr(tok, '.') && version_is_valid(tok))
				return str_copy(out, outsz, tok);
		}
		p += n;
	}
	return -1;
}

static void read_nvrm(struct kmod_facts *k, const struct rootfs *fs)
{
	char *text = NULL;
	struct error err;

	if (rootfs_read(fs, "/proc/driver/nvidia/version", 64 * 1024, &text, NULL, NULL, &err) < 0) {
		/* missing means no driver loaded; anything else (a FIFO, refused) is not that */
		if (err.code == ENOENT)
			fact_status_set(&k->status, FACT_ABSENT, "/proc/driver/nvidia/version is missing");
		else
			fact_status_set(&k->status, FACT_ERROR, "%s", err.msg);
		return;
	}
	text[strcspn(text, "\n")] = '\0';
	str_copy(k->nvrm_line, sizeof(k->nvrm_line), text);
	if (nvrm_parse_version(text, k->nvrm_version, sizeof(k->nvrm_version)) < 0)
		fact_status_set(&k->status, FACT_ERROR, "no version in /proc/driver/nvidia/version");
	else
		k->status.state = FACT_OK;
	k->open_kernel_module = strstr(text, "Open Kernel Module") != NULL;
	free(text);
}

static void read_proc_modules(struct kmod_facts *k, const struct rootfs *fs)
{
	char *text = NULL, *cur, *line;

	if (rootfs_read(fs, "/proc/modules", PROC_TEXT_MAX, &text, NULL, NULL, NULL) < 0) {
		fact_status_set(&k->modules_status, FACT_UNKNOWN, "cannot read /proc/modules");
		return;
	}
	k->modules_status.state = FACT_OK;
	cur = text;
	while ((line = line_next(&cur))) {
		line[strcspn(line, " ")] = '\0';
		if (strcmp(line, "nvidia") == 0)
			k->nvidia = true;
		else if (strcmp(line, "nvidia_uvm") == 0)
			k->nvidia_uvm = true;
		else if (strcmp(line, "nvidia_drm") == 0)
			k->nvidia_drm = true;
		else if (strcmp(line, "nvidia_modeset") == 0)
			k->nvidia_modeset = true;
		else if (strcmp(line, "nouveau") == 0)
			k->nouveau = true;
	}
	free(text);
}

/* Check the module's tail for the kernel's signature marker. */
static void read_signature(struct kmod_facts *k, const struct rootfs *fs)
{
	char tail[sizeof(MODULE_SIG_MAGIC)];
	struct stat st;
	long want = (long)strlen(MODULE_SIG_MAGIC);

	if (!str_ends_with(k->module_path, ".ko") || rootfs_stat(fs, k->module_path, &st) < 0 ||
	    st.st_size < want)
		return;	/* compressed modules hide the marker; leave it unknown */
	if (rootfs_pread(fs, k->module_path, tail, (size_t)want, (long)st.st_size - want) != want)
		return;
	tail[want] = '\0';
	k->module_signature_known = true;
	k->module_signed = strcmp(tail, MODULE_SIG_MAGIC) == 0;
}

/*
 * The license in the module's .modinfo section: "Dual MIT/GPL" for the open flavour
 * (MODULE_LICENSE in open-gpu-kernel-modules' kernel-open/nvidia/nv.c), "NVIDIA" for the proprietary one.
 * It tells the flavour when the module is not loaded (the open one refuses a GPU without GSP and does
 * not load). Compressed modules (.ko.xz, .ko.zst) are not unpacked: left "".
 */
static void read_license(struct kmod_facts *k, const struct rootfs *fs)
{
	char info[64 * 1024];
	struct elf_file ef;
	struct error err;
	uint64_t off, size;

	if (!str_ends_with(k->module_path, ".ko") || elf_open(&ef, fs, k->module_path, &err) < 0)
		return;
	if (elf_section(&ef, ".modinfo", &off, &size, &err) == 0 && size > 0) {
		if (size > sizeof(info) - 1)
			size = sizeof(info) - 1;
		if (elf_pread(&ef, off, info, size) == 0) {
			info[size] = '\0';
			for (size_t i = 0; i < size; i += strlen(info + i) + 1)
				if (str_starts_with(info + i, "license="))
					str_copy(k->module_license, sizeof(k->module_license), info + i + strlen("license="));
		}
	}
	elf_close(&ef);
}

/* modules.dep lines look like "updates/dkms/nvidia.ko.zst: deps...". */
static bool find_in_modules_dep(struct kmod_facts *k, const struct rootfs *fs, const char *moddir)
{
	char path[FACT_PATH + 32];
	FILE *fp;
	char line[1024];
	bool found = false;

	if (path_join(path, sizeof(path), moddir, "modules.dep") < 0 || !(fp = rootfs_fopen(fs, path)))
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');
		const char *base;

		if (!colon)
			continue;
		*colon = '\0';
		base = path_basename(line);
		if (strcmp(base, "nvidia.ko") == 0 || str_starts_with(base, "nvidia.ko.")) {
			found = true;
			str_printf(k->module_path, sizeof(k->module_path), "%s/%s", moddir, line);
		}
	}
	fclose(fp);
	return found;
}

static void find_module_on_disk(struct kmod_facts *k, const struct rootfs *fs, const char *release)
{
	static const char *const subdirs[] = { "updates/dkms", "extra", "kernel/drivers/video",
					       "updates", "misc", "kernel/drivers/gpu/drm/nvidia" };
	static const char *const suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	char moddir[FACT_PATH];

	if (!release[0]) {
		fact_status_set(&k->on_disk_status, FACT_UNKNOWN, "kernel release unknown");
		return;
	}
	str_printf(moddir, sizeof(moddir), "/lib/modules/%s", release);
	if (!rootfs_is_dir(fs, moddir)) {
		fact_status_set(&k->on_disk_status, FACT_ABSENT, "%s does not exist", moddir);
		return;
	}
	k->on_disk_status.state = FACT_OK;
	k->module_on_disk = find_in_modules_dep(k, fs, moddir);
	for (size_t i = 0; !k->module_on_disk && i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		for (size_t j = 0; j < sizeof(suffixes) / sizeof(suffixes[0]); j++) {
			char path[FACT_PATH];

			str_printf(path, sizeof(path), "%s/%s/nvidia%s", moddir, subdirs[i], suffixes[j]);
			if (rootfs_exists(fs, path)) {
				k->module_on_disk = true;
				str_copy(k->module_path, sizeof(k->module_path), path);
				break;
			}
		}
	}
	if (k->module_on_disk) {
		read_signature(k, fs);
		read_license(k, fs);
	}
}

/* /var/lib/dkms/nvidia/<version>/<kernel>/<arch>/module/ */
static void read_dkms(struct facts *f, struct kmod_facts *k, const struct rootfs *fs, const char *release)
{
	DIR *d = rootfs_opendir(fs, "/var/lib/dkms/nvidia");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[FACT_PATH];

		if (de->d_name[0] == '.' || !version_is_valid(de->d_name))
			continue;
		if (k->dkms_count >= MAX_DKMS) {
			facts_dropped(f, "DKMS driver versions", MAX_DKMS, 1);
			continue;
		}
		str_copy(k->dkms_versions[k->dkms_count++], FACT_VER, de->d_name);
		str_printf(path, sizeof(path), "/var/lib/dkms/nvidia/%s/%s", de->d_name, release);
		if (release[0] && rootfs_is_dir(fs, path))
			k->dkms_built_for_kernel = true;
	}
	closedir(d);
}

/*
 * Whether the kernel command line keeps module from loading: modprobe.blacklist= (kmod), module_blacklist=
 * (the kernel's kernel-parameters.txt) and rd.driver.blacklist= (dracut.cmdline(7)) each take a
 * comma-separated list; nouveau.modeset=0 leaves nouveau loaded but unable to drive the GPU.
 */
bool cmdline_blacklists(const char *cmdline, const char *module)
{
	static const char *const keys[] = { "modprobe.blacklist=", "module_blacklist=", "rd.driver.blacklist=" };
	char buf[4096], *save = NULL, modeset[64];

	snprintf(modeset, sizeof(modeset), "%s.modeset=0", module);
	str_copy(buf, sizeof(buf), cmdline);
	for (char *word = strtok_r(buf, " \t\n", &save); word; word = strtok_r(NULL, " \t\n", &save)) {
		if (strcmp(word, modeset) == 0)
			return true;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t n = strlen(keys[i]);
			char *list, *lsave = NULL;

			if (strncmp(word, keys[i], n) != 0)
				continue;
			list = word + n;
			for (char *m = strtok_r(list, ",", &lsave); m; m = strtok_r(NULL, ",", &lsave))
				if (strcmp(m, module) == 0)
					return true;
		}
	}
	return false;
}

/* "blacklist nouveau" in any modprobe.d file, or a blacklist on the kernel command line. */
static void read_blacklist(struct kmod_facts *k, const struct rootfs *fs)
{
	/* modprobe.d(5)'s directories */
	static const char *const dirs[] = { "/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d",
					    "/usr/lib/modprobe.d", "/lib/modprobe.d" };
	char *text = NULL;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !k->nouveau_blacklisted; i++) {
		DIR *d = rootfs_opendir(fs, dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while (!k->nouveau_blacklisted && (de = readdir(d))) {
			char path[FACT_PATH], *cur, *line;

			if (!str_ends_with(de->d_name, ".conf") ||
			    path_join(path, sizeof(path), dirs[i], de->d_name) < 0 ||
			    rootfs_read(fs, path, 256 * 1024, &text, NULL, NULL, NULL) < 0)
				continue;
			cur = text;
			while ((line = line_next(&cur))) {
				char *save = NULL, *w1, *w2;

				w1 = strtok_r(line, " \t", &save);
				w2 = w1 ? strtok_r(NULL, " \t", &save) : NULL;
				if (w1 && w2 && strcmp(w1, "blacklist") == 0 && strcmp(w2, "nouveau") == 0) {
					k->nouveau_blacklisted = true;
					str_copy(k->blacklist_source, sizeof(k->blacklist_source), path);
					break;
				}
			}
			free(text);
			text = NULL;
		}
		closedir(d);
	}
	if (!k->nouveau_blacklisted &&
	    rootfs_read(fs, "/proc/cmdline", 64 * 1024, &text, NULL, NULL, NULL) == 0) {
		if (cmdline_blacklists(text, "nouveau")) {
			k->nouveau_blacklisted = true;
			str_copy(k->blacklist_source, sizeof(k->blacklist_source), "/proc/cmdline");
		}
		free(text);
	}
}

/*
 * An efivarfs file holds the variable's 4 attribute bytes, then its data (the kernel's
 * Documentation/filesystems/efivarfs.rst); SecureBoot's data is one byte, 1 when enforcing.
 */
static void read_secure_boot(struct kmod_facts *k, const struct rootfs *fs)
{
	unsigned char b[5];

	if (rootfs_pread(fs, SECURE_BOOT_VAR, b, sizeof(b), 0) == (long)sizeof(b)) {
		k->secure_boot = b[4] == 1;
		str_copy(k->secure_boot_source, sizeof(k->secure_boot_source), SECURE_BOOT_VAR);
	} else if (rootfs_is_dir(fs, "/sys/firmware/efi")) {
		k->secure_boot = -1;
	} else {
		k->secure_boot = 0;	/* legacy BIOS boot: no Secure Boot */
		str_copy(k->secure_boot_source, sizeof(k->secure_boot_source), "no /sys/firmware/efi");
	}
}

static void find_tools(struct kmod_facts *k, const struct rootfs *fs)
{
	static const char *const smi[] = { "/usr/bin/nvidia-smi", "/usr/local/bin/nvidia-smi",
					   "/usr/lib/wsl/lib/nvidia-smi", "/bin/nvidia-smi" };

	k->nvidia_modprobe = rootfs_exists(fs, "/usr/bin/nvidia-modprobe");
	for (size_t i = 0; i < sizeof(smi) / sizeof(smi[0]); i++) {
		if (rootfs_exists(fs, smi[i])) {
			k->nvidia_smi = true;
			str_copy(k->nvidia_smi_path, sizeof(k->nvidia_smi_path), smi[i]);
			break;
		}
	}
}

/*
 * Fills f->kmod apart from the device nodes. Needs probe_system and probe_container done: inside a container
 * the module on disk is UNKNOWN and Secure Boot is not read (stays -1). Only k->status says whether NVRM was
 * readable; the other parts carry their own statuses or stay false.
 */
void probe_kmod(struct facts *f, const struct probe_ctx *ctx)
{
	struct kmod_facts *k = &f->kmod;
	const struct rootfs *fs = ctx->fs;

	read_nvrm(k, fs);
	rootfs_read_line(fs, "/sys/module/nvidia/version", k->sys_module_version,
			 sizeof(k->sys_module_version));
	read_proc_modules(k, fs);
	if (f->container.in_container)
		fact_status_set(&k->on_disk_status, FACT_UNKNOWN, N_("kernel modules live on the host"));
	else
		find_module_on_disk(k, fs, f->system.kernel_release);
	read_dkms(f, k, fs, f->system.kernel_release);
	read_blacklist(k, fs);
	if (!f->container.in_container)
		read_secure_boot(k, fs);
	find_tools(k, fs);
}
