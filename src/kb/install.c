/*
 * install.c - how software gets onto a machine: the driver per distribution
 * (data/driver_install.tsv) and NVIDIA's CUDA container images
 * (data/cuda_images.tsv). The planner chooses among these rows; nothing
 * here decides which one fits a machine.
 */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

static void fill_driver_row(size_t r, struct kb_driver_install *out)
{
	const struct kb_table *t = &kb_table_driver_install;

	out->row = r;
	out->distro = kb_field(t, r, "distro");
	out->releases = kb_field(t, r, "releases");
	out->flavour = kb_field(t, r, "flavour");
	out->branch = kb_field(t, r, "branch");
	out->serves = kb_field(t, r, "serves");
	out->kernel = kb_field(t, r, "kernel");
	out->steps = kb_field(t, r, "steps");
	out->setup = kb_field(t, r, "setup");
	out->note = kb_field(t, r, "note");
	out->source = kb_field(t, r, "source");
}

/* See kb.h: rows of one distribution family in file order (its order of preference). */
int kb_driver_install_rows(const char *distro, struct kb_driver_install *out, int max)
{
	const struct kb_table *t = &kb_table_driver_install;
	int n = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++)
		if (strcmp(kb_field(t, r, "distro"), distro) == 0)
			fill_driver_row(r, &out[n++]);
	return n;
}

/* See kb.h: "*" matches anything; "9" matches "9" and "9.4"; "22.04" only "22.04" and "22.04.x". */
bool kb_release_matches(const char *list, const char *version_id)
{
	char buf[128], *save = NULL;

	if (strcmp(list, "*") == 0)
		return true;
	if (!version_id || !version_id[0] || str_copy(buf, sizeof(buf), list) < 0)
		return false;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(item);

		if (strncmp(version_id, item, n) == 0 && (version_id[n] == '\0' || version_id[n] == '.'))
			return true;
	}
	return false;
}

/* "8.6" -> 86, "12.0" -> 120; -1 when not a compute capability. */
static int cc_number(const char *cc)
{
	const char *dot = strchr(cc, '.');

	if (!dot || dot == cc || dot - cc > 2 || !dot[1] || dot[2] || !str_is_digits(dot + 1))
		return -1;
	for (const char *c = cc; c < dot; c++)
		if (*c < '0' || *c > '9')
			return -1;
	return atoi(cc) * 10 + atoi(dot + 1);
}

/* See kb.h: "5.0-9.0" holds 5.0 to 9.0, "7.5-" 7.5 and above, "-" anything. */
bool kb_cc_in_range(const char *range, const char *cc)
{
	char lo[16] = "", hi[16] = "";
	const char *dash = strchr(range, '-');
	int n = cc_number(cc);

	if (!dash || n < 0)
		return false;
	if ((size_t)(dash - range) >= sizeof(lo) || str_copy(hi, sizeof(hi), dash + 1) < 0)
		return false;
	memcpy(lo, range, (size_t)(dash - range));
	lo[dash - range] = '\0';
	if (lo[0] && (cc_number(lo) < 0 || n < cc_number(lo)))
		return false;
	if (hi[0] && (cc_number(hi) < 0 || n > cc_number(hi)))
		return false;
	return true;
}

/* See kb.h: deleted tags make the newest point release of each major.minor the one to use. */
int kb_cuda_image_at_most(const char *os, int major, const char *limit, struct kb_cuda_image *out)
{
	const struct kb_table *t = &kb_table_cuda_images;
	int found = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		const char *v = kb_field(t, r, "cuda");
		char mm[16];

		if (strcmp(kb_field(t, r, "os"), os) != 0 || atoi(v) != major || !strstr(kb_field(t, r, "flavours"), "base") ||
		    version_prefix(v, 2, mm, sizeof(mm)) < 0 || (limit && version_compare(mm, limit) > 0) ||
		    (found == 0 && version_compare(v, out->cuda) <= 0))
			continue;
		found = 0;
		out->row = r;
		out->cuda = v;
		out->os = kb_field(t, r, "os");
		out->flavours = kb_field(t, r, "flavours");
		out->example_tag = kb_field(t, r, "example_tag");
		out->note = kb_field(t, r, "note");
		out->source = kb_field(t, r, "source");
	}
	return found;
}
