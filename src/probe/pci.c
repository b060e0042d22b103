/*
 * pci.c - NVIDIA display and 3D controllers on the PCI bus, from sysfs.
 *
 * This is the bottom of the causal chain: no device here means no amount of
 * driver or PyTorch work will help. We read sysfs only (never config space
 * beyond its first dword, which tells a device that fell off the bus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "probe/probe_internal.h"
#include "util/str.h"

#define PCI_DEVICES "/sys/bus/pci/devices"
#define VENDOR_NVIDIA 0x10de
#define CLASS_DISPLAY 0x03

static int read_hex(const struct rootfs *fs, const char *dir, const char *name, uint64_t *out)
{
	char path[FACT_PATH + 64], line[64];

	if (path_join(path, sizeof(path), dir, name) < 0 ||
	    rootfs_read_line(fs, path, line, sizeof(line)) < 0)
		return -1;
	return str_to_u64(line, out);
}

static void read_text(const struct rootfs *fs, const char *dir, const char *name, char *out, size_t outsz)
{
	char path[FACT_PATH + 64];

	if (path_join(path, sizeof(path), dir, name) == 0)
		rootfs_read_line(fs, path, out, outsz);
}

static void read_driver(const struct rootfs *fs, const char *dir, char *out, size_t outsz)
{
	char path[FACT_PATH + 64], target[FACT_PATH];

	if (path_join(path, sizeof(path), dir, "driver") == 0 &&
	    rootfs_readlink(fs, path, target, sizeof(target)) == 0)
		str_copy(out, outsz, path_basename(target));
}

/* A device that dropped off the bus answers every config read with ones. */
static void read_config_space(const struct rootfs *fs, const char *dir, struct pci_gpu *gpu)
{
	char path[FACT_PATH + 64];
	unsigned char b[4];

	if (path_join(path, sizeof(path), dir, "config") < 0)
		return;
	if (rootfs_pread(fs, path, b, sizeof(b), 0) == (long)sizeof(b)) {
		gpu->config_readable = true;
		gpu->fallen_off_bus = b[0] == 0xff && b[1] == 0xff && b[2] == 0xff && b[3] == 0xff;
	}
}

/* Sum of the last "TOTAL_ERR_FATAL n" style line of aer_dev_fatal. */
static void read_aer(const struct rootfs *fs, const char *dir, struct pci_gpu *gpu)
{
	char path[FACT_PATH + 64], *text = NULL;
	const char *p;

	if (path_join(path, sizeof(path), dir, "aer_dev_fatal") < 0 ||
	    rootfs_read(fs, path, 64 * 1024, &text, NULL, NULL, NULL) < 0)
		return;
	p = strstr(text, "TOTAL_ERR_FATAL");
	if (p) {
		uint64_t v;
		char num[32];

		p += strlen("TOTAL_ERR_FATAL");
		str_copy(num, sizeof(num), p);
		num[strcspn(num, "\n")] = '\0';
		if (str_to_u64(num, &v) == 0)
			gpu->aer_fatal = v;
	}
	free(text);
}

static int read_int(const struct rootfs *fs, const char *dir, const char *name, int fallback)
{
	uint64_t v;
	char path[FACT_PATH + 64], line[64];

	if (path_join(path, sizeof(path), dir, name) < 0 ||
	    rootfs_read_line(fs, path, line, sizeof(line)) < 0)
		return fallback;
	if (line[0] == '-')
		return fallback;
	/* current_link_width is decimal; "0x10" style is not used there. */
	if (str_is_digits(str_trim(line)) && str_to_u64(line, &v) == 0 && v < 1000000)
		return (int)v;
	return fallback;
}

static void note_other_display(struct pci_facts *pci, uint64_t vendor, uint64_t device, const char *driver)
{
	char item[64];
	size_t len = strlen(pci->other_display);

	pci->other_display_count++;
	snprintf(item, sizeof(item), "%s%04x:%04x (%s)", len ? ", " : "", (unsigned)vendor,
		 (unsigned)device, driver[0] ? driver : "no driver");
	if (len + strlen(item) < sizeof(pci->other_display))
		strcat(pci->other_display, item);
}

static int compare_gpus(const void *a, const void *b)
{
	return strcmp(((const struct pci_gpu *)a)->address, ((const struct pci_gpu *)b)->address);
}

/*
 * NVIDIA display-class devices from sysfs, sorted by address, named from pci.ids and the built-in table.
 * No GPU is FACT_OK with count 0; only an unlistable /sys/bus/pci/devices is UNKNOWN. Other vendors'
 * display devices are summarised, not listed.
 */
void probe_pci(struct facts *f, const struct probe_ctx *ctx)
{
	struct pci_facts *pci = &f->pci;
	const struct rootfs *fs = ctx->fs;
	DIR *d = rootfs_opendir(fs, PCI_DEVICES);
	struct dirent *de;

	if (!d) {
		fact_status_set(&pci->status, FACT_UNKNOWN, "cannot list %s", PCI_DEVICES);
		return;
	}
	pci->status.state = FACT_OK;
	while ((de = readdir(d))) {
		char dir[FACT_PATH];
		uint64_t vendor, device, cls, v;
		struct pci_gpu *gpu;
		char driver[32] = "";

		if (de->d_name[0] == '.')
			continue;
		if (path_join(dir, sizeof(dir), PCI_DEVICES, de->d_name) < 0)
			continue;
		if (read_hex(fs, dir, "vendor", &vendor) < 0 || read_hex(fs, dir, "class", &cls) < 0 ||
		    read_hex(fs, dir, "device", &device) < 0)
			continue;
		if ((cls >> 16) != CLASS_DISPLAY)
			continue;
		read_driver(fs, dir, driver, sizeof(driver));
		if (vendor != VENDOR_NVIDIA) {
			note_other_display(pci, vendor, device, driver);
			continue;
		}
		if (pci->count >= MAX_PCI_GPUS) {
			facts_dropped(f, "NVIDIA GPUs on the PCI bus", MAX_PCI_GPUS, 1);
			continue;
		}
		gpu = &pci->gpus[pci->count++];
		str_copy(gpu->address, sizeof(gpu->address), de->d_name);
		str_copy(gpu->sysfs_path, sizeof(gpu->sysfs_path), dir);
		str_copy(gpu->driver, sizeof(gpu->driver), driver);
		gpu->vendor = (uint16_t)vendor;
		gpu->device = (uint16_t)device;
		gpu->class_code = (uint32_t)cls;
		if (read_hex(fs, dir, "subsystem_vendor", &v) == 0)
			gpu->subsys_vendor = (uint16_t)v;
		if (read_hex(fs, dir, "subsystem_device", &v) == 0)
			gpu->subsys_device = (uint16_t)v;
		read_text(fs, dir, "current_link_speed", gpu->link_speed, sizeof(gpu->link_speed));
		read_text(fs, dir, "max_link_speed", gpu->max_link_speed, sizeof(gpu->max_link_speed));
		gpu->link_width = read_int(fs, dir, "current_link_width", -1);
		gpu->max_link_width = read_int(fs, dir, "max_link_width", -1);
		gpu->numa_node = read_int(fs, dir, "numa_node", -1);
		read_config_space(fs, dir, gpu);
		read_aer(fs, dir, gpu);
	}
	closedir(d);
	qsort(pci->gpus, (size_t)pci->count, sizeof(pci->gpus[0]), compare_gpus);
	for (int i = 0; i < pci->count; i++) {
		struct pci_gpu *g = &pci->gpus[i];
		struct kb_gpu known;

		pciids_lookup(fs, g->vendor, g->device, g->name, sizeof(g->name), pci->ids_source,
			      sizeof(pci->ids_source));
		/* The built-in table names the GPU even where pci.ids is missing or old. */
		if (kb_gpu_by_pci_id(g->device, &known) == 0) {
			str_copy(g->kb_name, sizeof(g->kb_name), known.name);
			str_copy(g->cc, sizeof(g->cc), known.cc);
			str_copy(g->arch, sizeof(g->arch), known.arch);
		}
	}
}
