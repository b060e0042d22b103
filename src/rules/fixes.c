#include "rules/fixes.h"

#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

static bool id_is(const struct facts *facts, const char *id)
{
	return strcmp(facts->system.os_id, id) == 0 || strstr(facts->system.os_id_like, id) != NULL;
}

/*
 * From os-release's ID, then ID_LIKE as a substring, Ubuntu and its derivatives tested first (they are
 * also debian-like). Never fails: DISTRO_UNKNOWN gets text-only steps.
 */
enum distro distro_of(const struct facts *facts)
{
	if (strcmp(facts->system.os_id, "ubuntu") == 0 || strcmp(facts->system.os_id, "pop") == 0 ||
	    strcmp(facts->system.os_id, "linuxmint") == 0 || id_is(facts, "ubuntu"))
		return DISTRO_UBUNTU;
	if (id_is(facts, "debian"))
		return DISTRO_DEBIAN;
	if (strcmp(facts->system.os_id, "fedora") == 0)
		return DISTRO_FEDORA;
	if (id_is(facts, "rhel") || id_is(facts, "centos") || id_is(facts, "rocky") || id_is(facts, "almalinux"))
		return DISTRO_RHEL;
	if (id_is(facts, "arch"))
		return DISTRO_ARCH;
	if (id_is(facts, "suse") || id_is(facts, "opensuse"))
		return DISTRO_SUSE;
	return DISTRO_UNKNOWN;
}

/*
 * Appends the distribution's install steps (text only when the distribution is unknown), then a reboot.
 * Only adds fix steps: f may be NULL, as finding_fix allows; nothing is run.
 */
void fix_install_driver(struct finding *f, const struct facts *facts)
{
	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
		finding_fix(f, "sudo ubuntu-drivers install", "install the recommended NVIDIA driver for this GPU");
		break;
	case DISTRO_DEBIAN:
		finding_fix(f, NULL, "enable the contrib, non-free and non-free-firmware components in /etc/apt/sources.list");
		finding_fix(f, "sudo apt-get update && sudo apt-get install nvidia-driver firmware-misc-nonfree",
			    "install Debian's NVIDIA driver (DKMS builds the module for the running kernel)");
		break;
	case DISTRO_FEDORA:
		finding_fix(f, "sudo dnf install akmod-nvidia xorg-x11-drv-nvidia-cuda",
			    "with the RPM Fusion non-free repository enabled, install the driver and its CUDA libraries");
		break;
	case DISTRO_RHEL:
		finding_fix(f, "sudo dnf module install nvidia-driver:latest-dkms",
			    "with NVIDIA's CUDA repository for this release enabled, install the DKMS driver");
		break;
	case DISTRO_ARCH:
		finding_fix(f, "sudo pacman -S nvidia-open nvidia-utils", "install the driver (nvidia for GPUs before Turing)");
		break;
	case DISTRO_SUSE:
		finding_fix(f, "sudo zypper install-new-recommends --repo NVIDIA",
			    "with NVIDIA's repository added, install the recommended driver packages");
		break;
	case DISTRO_UNKNOWN:
		finding_fix(f, NULL, "install the NVIDIA driver from your distribution, or NVIDIA's installer from https://www.nvidia.com/Download/index.aspx");
		break;
	}
	finding_fix(f, "sudo reboot", "reboot so the new kernel module loads");
}

/* Appends one step: the distribution's initramfs tool, or a text-only step when it is unknown. */
void fix_rebuild_initramfs(struct finding *f, const struct facts *facts)
{
	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
	case DISTRO_DEBIAN:
		finding_fix(f, "sudo update-initramfs -u", "rebuild the initramfs so the change applies at boot");
		break;
	case DISTRO_FEDORA:
	case DISTRO_RHEL:
	case DISTRO_SUSE:
		finding_fix(f, "sudo dracut --force", "rebuild the initramfs so the change applies at boot");
		break;
	case DISTRO_ARCH:
		finding_fix(f, "sudo mkinitcpio -P", "rebuild the initramfs so the change applies at boot");
		break;
	case DISTRO_UNKNOWN:
		finding_fix(f, NULL, "rebuild the initramfs with your distribution's tool");
		break;
	}
}

/* Appends the modprobe.d blacklist, the initramfs rebuild and a reboot, in that order. */
void fix_blacklist_nouveau(struct finding *f, const struct facts *facts)
{
	finding_fix(f, "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf",
		    "stop the open-source nouveau driver from claiming the GPU");
	fix_rebuild_initramfs(f, facts);
	finding_fix(f, "sudo reboot", "reboot; the nvidia module can then bind the GPU");
}

/*
 * Appends headers, DKMS build and modprobe steps for the running kernel; with its release unknown the
 * commands say "$(uname -r)", for the user's shell to expand. Text only for headers on other distributions.
 */
void fix_rebuild_module(struct finding *f, const struct facts *facts)
{
	const char *rel = facts->system.kernel_release[0] ? facts->system.kernel_release : "$(uname -r)";
	char cmd[256];

	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
	case DISTRO_DEBIAN:
		str_printf(cmd, sizeof(cmd), "sudo apt-get install linux-headers-%s", rel);
		break;
	case DISTRO_FEDORA:
	case DISTRO_RHEL:
		str_printf(cmd, sizeof(cmd), "sudo dnf install kernel-devel-%s", rel);
		break;
	default:
		str_printf(cmd, sizeof(cmd), "install the kernel headers for %s", rel);
		break;
	}
	finding_fix(f, strncmp(cmd, "sudo", 4) == 0 ? cmd : NULL, "%s", strncmp(cmd, "sudo", 4) == 0 ?
		    "install the headers of the running kernel, which DKMS needs" : cmd);
	str_printf(cmd, sizeof(cmd), "sudo dkms autoinstall -k %s", rel);
	finding_fix(f, cmd, "build the NVIDIA module for the running kernel");
	finding_fix(f, "sudo modprobe nvidia", "load it (or reboot)");
}

/*
 * See fixes.h. Judges by the first PCI GPU's compute capability and the selected interpreter's Python,
 * either ignored when unknown. Adds nothing when no build fits or the command does not fit 512 bytes.
 */
void fix_torch_for_driver(struct finding *f, const struct facts *facts, const char *driver)
{
	const char *cc = facts->pci.count > 0 && facts->pci.gpus[0].cc[0] ? facts->pci.gpus[0].cc : NULL;
	const char *python = facts->python.selected >= 0 && facts->python.envs[facts->python.selected].version[0] ?
			     facts->python.envs[facts->python.selected].version : NULL;
	struct kb_torch_choice ch;
	char cmd[512];

	if (kb_torch_for(driver, cc, python, &ch) < 0 || kb_torch_pip_command(&ch.variant, cmd, sizeof(cmd)) < 0)
		return;
	finding_fix(f, cmd, "or keep driver %s: the newest PyTorch build that runs on it%s is %s with %s (CUDA %s)",
		    driver, cc ? " and this GPU" : "", ch.release.version, ch.variant.variant, ch.variant.cuda);
}
