/*
 * pciids.c - device names from the system's pci.ids database.
 *
 * The file is about 1.3 MB; we stream it line by line and stop as soon as
 * the vendor's block ends, so a lookup reads only what it must.
 */
#include <stdio.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/rootfs.h"
#include "util/str.h"

static const char *const pciids_paths[] = {
	"/usr/share/misc/pci.ids",
	"/usr/share/hwdata/pci.ids",
	"/usr/share/pci.ids",
};

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int c = char_lower((unsigned char)s[i]);

		if (char_is_digit(c))
			v = v * 16 + (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned)(c - 'a' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/*
 * Format: "vvvv  Vendor" at column 0, "\tdddd  Device" under it,
 * "\t\tssss ssss  Subsystem" below that; '#' starts a comment.
 */
void pciids_lookup(const struct rootfs *fs, uint16_t vendor, uint16_t device,
		   char *name, size_t namesz, char *source, size_t sourcesz)
{
	for (size_t i = 0; i < sizeof(pciids_paths) / sizeof(pciids_paths[0]); i++) {
		FILE *fp = rootfs_fopen(fs, pciids_paths[i]);
		char line[512];
		bool in_vendor = false;
		unsigned v;

		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp)) {
			if (line[0] == '#' || line[0] == '\n')
				continue;
			if (line[0] != '\t') {
				if (in_vendor)
					break;
				in_vendor = hex4(line, &v) == 0 && v == vendor;
				continue;
			}
			if (in_vendor && line[1] != '\t' && hex4(line + 1, &v) == 0 && v == device) {
				char *text = line + 5;

				text[strcspn(text, "\n")] = '\0';
				str_copy(name, namesz, str_trim(text));
				str_copy(source, sourcesz, pciids_paths[i]);
				break;
			}
		}
		fclose(fp);
		return;
	}
}
