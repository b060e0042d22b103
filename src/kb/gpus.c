/*
 * gpus.c - NVIDIA GPUs: PCI device id -> name -> compute capability ->
 * architecture, and datasheet peak rates (data/gpus.tsv, data/gpu_peaks.tsv).
 */
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

static void fill_gpu(struct kb_gpu *g, size_t r)
{
	const struct kb_table *t = &kb_table_gpus;

	g->row = r;
	g->pci_id = kb_cell(t, r, kb_column(t, "pci_id"));
	g->name = kb_cell(t, r, kb_column(t, "name"));
	g->cc = kb_cell(t, r, kb_column(t, "cc"));
	g->arch = kb_cell(t, r, kb_column(t, "arch"));
	g->segment = kb_cell(t, r, kb_column(t, "segment"));
	g->source = kb_cell(t, r, kb_column(t, "source"));
}

/* The first data/gpus.tsv row with this device id (vendor assumed NVIDIA); static strings. -1 when absent. */
int kb_gpu_by_pci_id(unsigned device, struct kb_gpu *out)
{
	const struct kb_table *t = &kb_table_gpus;
	int col = kb_column(t, "pci_id");
	char id[8];

	if (device > 0xffff)
		return -1;
	str_printf(id, sizeof(id), "%04x", device);
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_cell(t, r, col), id) == 0) {
			fill_gpu(out, r);
			return 0;
		}
	}
	return -1;
}

/*
 * Does every space-separated word of the query appear in name as a whole
 * word? "RTX 4090" matches "GeForce RTX 4090" and its "Laptop GPU" and "D"
 * variants, but not "GeForce RTX 40900"; kb_gpu_find sorts the shortest
 * name first, so the plain card leads.
 */
static int words_match(const char *name, const char *query)
{
	char q[128], *save = NULL;
	int quality = 2;	/* 2: every word stands alone; 1: some sit inside a hyphenated name */

	str_copy(q, sizeof(q), query);
	for (char *w = strtok_r(q, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *p = name;
		int best = 0;
		size_t n = strlen(w);

		while ((p = str_casestr(p, w))) {
			bool start = p == name || p[-1] == ' ' || p[-1] == '-';
			bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '-';

			if (start && end) {
				int q2 = (p == name || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ') ? 2 : 1;

				best = best > q2 ? best : q2;
			}
			p++;
		}
		if (!best)
			return 0;
		quality = quality < best ? quality : best;
	}
	return quality;
}

/*
 * See kb.h. A "0x"-prefixed, "10de:"-prefixed or four-character query is tried as a PCI id first. At
 * most the first 64 matching rows are ranked, rows of the same name counted once. Returns how many of
 * out were filled (0..max); the strings are static.
 */
int kb_gpu_find(const char *query, struct kb_gpu *out, int max)
{
	const struct kb_table *t = &kb_table_gpus;
	int col = kb_column(t, "name"), n = 0;
	struct kb_gpu all[64];
	int quality[64];
	uint64_t id;

	/* "2684", "0x2684" or "10de:2684" name a PCI device. */
	if (str_starts_with(query, "10de:") || str_starts_with(query, "10DE:"))
		query += 5;
	if (str_starts_with(query, "0x") && str_to_u64(query, &id) == 0 && id <= 0xffff)
		return max > 0 && kb_gpu_by_pci_id((unsigned)id, out) == 0 ? 1 : 0;
	if (strlen(query) == 4 && max > 0) {
		char hex[8];

		str_printf(hex, sizeof(hex), "0x%s", query);
		if (str_to_u64(hex, &id) == 0 && kb_gpu_by_pci_id((unsigned)id, out) == 0)
			return 1;
	}
	/* Collect every match first: the best one may come late in the table. */
	for (size_t r = 0; r < t->nrows && n < (int)(sizeof(all) / sizeof(all[0])); r++) {
		const char *name = kb_cell(t, r, col);
		int q = words_match(name, query);
		bool dup = false;

		if (!q)
			continue;
		for (int i = 0; i < n; i++)
			dup |= strcmp(all[i].name, name) == 0;
		if (!dup) {
			quality[n] = q;
			fill_gpu(&all[n++], r);
		}
	}
	/*
	 * Whole-word matches first, then the shortest name: "GeForce RTX 4090"
	 * before its Laptop and D variants, "A100 SXM4 40GB" before "A100-SXM-64GB".
	 */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && (quality[j] > quality[j - 1] ||
					  (quality[j] == quality[j - 1] && strlen(all[j].name) < strlen(all[j - 1].name))); j--) {
			struct kb_gpu tmp = all[j];
			int tq = quality[j];

			all[j] = all[j - 1];
			all[j - 1] = tmp;
			quality[j] = quality[j - 1];
			quality[j - 1] = tq;
		}
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)(n > 0 ? n : 0) * sizeof(*out));
	return n;
}

/* The data/gpu_peaks.tsv row whose name equals name exactly (case-sensitive); static strings. -1 if none. */
int kb_gpu_peak_rates(const char *name, struct kb_gpu_peaks *out)
{
	const struct kb_table *t = &kb_table_gpu_peaks;
	int col = kb_column(t, "name");

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_cell(t, r, col), name) != 0)
			continue;
		out->fp32_tflops = kb_cell(t, r, kb_column(t, "fp32_tflops"));
		out->tf32_tflops = kb_cell(t, r, kb_column(t, "tf32_tflops"));
		out->fp16_tflops = kb_cell(t, r, kb_column(t, "fp16_tflops"));
		out->bf16_tflops = kb_cell(t, r, kb_column(t, "bf16_tflops"));
		out->mem_bw_gbs = kb_cell(t, r, kb_column(t, "mem_bw_gbs"));
		out->source = kb_cell(t, r, kb_column(t, "source"));
		return 0;
	}
	return -1;
}
