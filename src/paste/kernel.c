/*
 * kernel.c - kernel log lines as dmesg or journalctl print them ("[
 * 123.456789] NVRM: Xid (PCI:0000:01:00): 79, ...", read by the probe's own
 * line reader, kernlog.c) and lspci lines ("01:00.0 VGA compatible
 * controller: NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)", with
 * -nn: "... [10de:2204] (rev a1)").
 */
#include "paste/paste_internal.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "probe/probe_internal.h"
#include "util/str.h"

/*
 * See paste_internal.h. Offered every line; never takes one. A kernel command line (dmesg's "Command line:",
 * /proc/cmdline, GRUB_CMDLINE_LINUX) with modprobe.blacklist=nouveau, rd.driver.blacklist=nouveau or
 * nouveau.modeset=0, or a modprobe.d line "blacklist nouveau": what NVIDIA's installer and driver packages
 * set up, and what install guides have users write before installing the driver.
 */
void paste_note_nouveau_blacklist(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *b;
	bool named = false;

	if (p->nouveau_blacklist_named[0] || !(b = strstr(line, "nouveau")))
		return;
	if (str_starts_with(line, "blacklist nouveau") || strstr(line, "nouveau.modeset=0"))
		named = true;
	for (b = strstr(line, "blacklist="); b && !named; b = strstr(b + 1, "blacklist=")) {
		size_t n = strcspn(b, " \t\"'");
		const char *hit = strstr(b, "nouveau");

		named = hit && hit < b + n;
	}
	if (named)
		str_printf(p->nouveau_blacklist_named, sizeof(p->nouveau_blacklist_named), "line %lu blacklists nouveau",
			   at->number);
}

static bool take_dmesg(struct paste *p, const char *line, const struct paste_at *at)
{
	struct kernlog_facts *k = &p->facts->kernlog;
	double seconds = -1;
	const char *s = line;

	if (!strstr(line, "NVRM") && !strstr(line, "nvidia"))
		return false;
	if (!strstr(line, "NVRM:") && !strstr(line, "probe with driver nvidia") && !strstr(line, "nvidia: probe of"))
		return false;
	if (s[0] == '[') {
		/* dmesg's "[ 1843.300000] ": seconds since boot, read without the locale */
		char stamp[32];
		const char *close = strchr(s, ']');

		if (close && (size_t)(close - s) < sizeof(stamp)) {
			str_printf(stamp, sizeof(stamp), "%.*s", (int)(close - s - 1), s + 1);
			if (str_to_decimal(str_trim(stamp), &seconds) < 0)
				seconds = -1;
		}
	}
	kernlog_take_line(k, (struct kernlog_scan *)p->klog, line, seconds);
	paste_mark(p, PASTE_KERNLOG, at);
	return true;
}

/* "01:00.0 VGA compatible controller: NVIDIA Corporation GA102 [GeForce RTX 3090] (rev a1)" */
static bool take_lspci(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *nv = strstr(line, ": NVIDIA Corporation "), *id, *name, *close;
	char bus[32], title[FACT_TEXT] = "";
	unsigned device = 0;
	struct kb_gpu kb;

	if (!nv || !(strstr(line, "VGA compatible controller") || strstr(line, "3D controller")))
		return false;
	paste_word(bus, sizeof(bus), line);
	if (strlen(bus) < 7 || bus[2] != ':')
		return false;
	name = nv + strlen(": NVIDIA Corporation ");
	/* the marketing name is the first bracketed text that is not the [10de:xxxx] id */
	if ((id = strstr(name, "[10de:")))
		device = (unsigned)strtoul(id + 6, NULL, 16);
	if ((name = strchr(name, '[')) && name != id && (close = strchr(name, ']')))
		str_printf(title, sizeof(title), "%.*s", (int)(close - name - 1), name + 1);
	if (device && kb_gpu_by_pci_id(device, &kb) == 0 && !title[0])
		str_copy(title, sizeof(title), kb.name);
	if (strlen(bus) == 7) {	/* lspci without -D leaves out the domain */
		char full[32];

		str_printf(full, sizeof(full), "0000:%s", bus);
		str_copy(bus, sizeof(bus), full);
	}
	paste_gpu(p, p->facts->pci.count, title[0] ? title : "NVIDIA GPU", bus, at);
	for (int i = 0; i < p->facts->pci.count; i++) {
		struct pci_gpu *g = &p->facts->pci.gpus[i];

		if (strcmp(g->address, bus) != 0)
			continue;
		g->device = (uint16_t)device;
		if (device && kb_gpu_by_pci_id(device, &kb) == 0 && kb.cc) {
			str_copy(g->cc, sizeof(g->cc), kb.cc);
			str_copy(g->kb_name, sizeof(g->kb_name), kb.name);
			str_copy(g->arch, sizeof(g->arch), kb.arch);
		}
	}
	return true;
}

bool paste_read_kernel(struct paste *p, const char *line, const struct paste_at *at)
{
	return take_dmesg(p, line, at) || take_lspci(p, line, at);
}
