#include "kb/query.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

const char kb_query_usage[] =
	"  gpudoctor kb driver-for cuda VERSION     minimum NVIDIA driver for a CUDA toolkit\n"
	"  gpudoctor kb cuda-for driver VERSION     newest CUDA a driver supports\n"
	"  gpudoctor kb gpu NAME|PCI-ID             compute capability and architecture of a GPU\n";

static json_t *row_json(const struct kb_table *t, size_t r)
{
	json_t *o = json_object();

	for (size_t c = 0; c < t->ncolumns; c++) {
		const char *v = kb_cell(t, r, (int)c);

		if (v[0])
			json_object_set_new(o, t->columns[c], json_string(v));
	}
	json_object_set_new(o, "table", json_string(t->name));
	return o;
}

static json_t *answer_new(const char *query, const char *answer, const char *summary)
{
	return json_pack("{s:s, s:s, s:s, s:[]}", "query", query, "answer", answer, "summary", summary, "rows");
}

static void add_rows_where(json_t *ans, const struct kb_table *t, const char *column, const char *value,
			   const char *kind)
{
	int col = kb_column(t, column), kcol = kb_column(t, "kind");

	for (size_t r = 0; r < t->nrows; r++)
		if (strcmp(kb_cell(t, r, col), value) == 0 && (!kind || strcmp(kb_cell(t, r, kcol), kind) == 0))
			json_array_append_new(json_object_get(ans, "rows"), row_json(t, r));
}

static json_t *driver_for_cuda(const char *version, struct error *err)
{
	const struct kb_table *t = &kb_cuda_driver;
	struct kb_answer need, compat;
	char mm[16], summary[512], major[8];
	json_t *ans;

	if (!version_is_valid(version) || version_prefix(version, 2, mm, sizeof(mm)) < 0 || !strchr(mm, '.')) {
		error_set(err, "'%s' is not a CUDA version (like 12.4)", version);
		return NULL;
	}
	if (kb_cuda_min_driver(mm, &need) < 0) {
		error_set(err, "CUDA %s is not in the driver table", mm);
		return NULL;
	}
	str_printf(major, sizeof(major), "%d", atoi(mm));
	if (kb_cuda_minor_compat_driver(atoi(mm), &compat) == 0)
		str_printf(summary, sizeof(summary), "CUDA %s (%s) needs NVIDIA driver >= %s on Linux; with minor-version "
			   "compatibility CUDA %s.x programs run on >= %s (except PTX JIT of newer PTX)",
			   mm, need.release, need.value, major, compat.value);
	else
		str_printf(summary, sizeof(summary), "CUDA %s (%s) needs NVIDIA driver >= %s on Linux", mm, need.release,
			   need.value);
	ans = answer_new("driver-for cuda", need.value, summary);
	json_object_set_new(ans, "cuda", json_string(mm));
	add_rows_where(ans, t, "cuda", mm, "toolkit");
	add_rows_where(ans, t, "cuda", major, "minor_compat");
	return ans;
}

static json_t *cuda_for_driver(const char *driver, struct error *err)
{
	const struct kb_table *t = &kb_cuda_driver;
	struct kb_answer max;
	char summary[512];
	json_t *ans;
	int major;

	if (!version_is_valid(driver)) {
		error_set(err, "'%s' is not a driver version (like 535.104.05)", driver);
		return NULL;
	}
	if (kb_cuda_max_for_driver(driver, &max) < 0) {
		error_set(err, "driver %s is older than every CUDA release in the table", driver);
		return NULL;
	}
	major = atoi(max.value);
	{
		struct kb_answer compat, ga;
		bool mvc = kb_cuda_minor_compat_driver(major, &compat) == 0 && version_compare(driver, compat.value) >= 0;

		if (kb_cuda_min_driver(max.value, &ga) < 0)
			ga = max;
		str_printf(summary, sizeof(summary), "driver %s supports CUDA up to %s (CUDA %s needs >= %s)", driver,
			   max.value, ga.release, ga.value);
		if (mvc)
			str_printf(summary + strlen(summary), sizeof(summary) - strlen(summary),
				   "; through minor-version compatibility, programs built with any CUDA %d.x also run "
				   "(except PTX JIT of newer PTX)", major);
	}
	ans = answer_new("cuda-for driver", max.value, summary);
	json_object_set_new(ans, "driver", json_string(driver));
	add_rows_where(ans, t, "cuda", max.value, "toolkit");
	return ans;
}

static json_t *gpu_json(const struct kb_gpu *g)
{
	struct kb_gpu_peaks pk;
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "pci_id", g->pci_id, "name", g->name, "cc", g->cc,
			      "arch", g->arch, "segment", g->segment, "source", g->source);

	if (kb_gpu_peak_rates(g->name, &pk) == 0)
		json_object_set_new(o, "peaks", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "fp32_tflops", pk.fp32_tflops,
							 "tf32_tflops", pk.tf32_tflops, "fp16_tflops", pk.fp16_tflops,
							 "bf16_tflops", pk.bf16_tflops, "mem_bw_gbs", pk.mem_bw_gbs,
							 "source", pk.source));
	return o;
}

static json_t *gpu_query(const char *query, struct error *err)
{
	struct kb_gpu found[16];
	int n = kb_gpu_find(query, found, 16);
	char summary[512];
	json_t *ans;

	if (n <= 0) {
		error_set(err, "no GPU in the table matches '%s'", query);
		return NULL;
	}
	str_printf(summary, sizeof(summary), "%s: compute capability %s (sm_%.*s%s), %s%s%s", found[0].name,
		   found[0].cc[0] ? found[0].cc : "unknown", (int)strcspn(found[0].cc, "."), found[0].cc,
		   strchr(found[0].cc, '.') ? strchr(found[0].cc, '.') + 1 : "", found[0].arch,
		   n > 1 ? "; also matches " : "", n > 1 ? found[1].name : "");
	ans = answer_new("gpu", found[0].cc, summary);
	json_object_set_new(ans, "gpus", json_array());
	for (int i = 0; i < n; i++)
		json_array_append_new(json_object_get(ans, "gpus"), gpu_json(&found[i]));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_gpus, found[0].row));
	return ans;
}

json_t *kb_query(int argc, char *const *argv, struct error *err)
{
	if (argc == 2 && strcmp(argv[0], "gpu") == 0)
		return gpu_query(argv[1], err);
	if (argc == 3 && strcmp(argv[0], "driver-for") == 0 && strcmp(argv[1], "cuda") == 0)
		return driver_for_cuda(argv[2], err);
	if (argc == 3 && strcmp(argv[0], "cuda-for") == 0 && strcmp(argv[1], "driver") == 0)
		return cuda_for_driver(argv[2], err);
	error_set(err, argc ? "unknown kb query '%s'" : "kb needs a query%s", argc ? argv[0] : "");
	return NULL;
}
