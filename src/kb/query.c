#include "kb/query.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

const char kb_query_usage[] =
	"  gpudoctor kb driver-for cuda VERSION     minimum NVIDIA driver for a CUDA toolkit\n"
	"  gpudoctor kb cuda-for driver VERSION     newest CUDA a driver supports\n";

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

json_t *kb_query(int argc, char *const *argv, struct error *err)
{
	if (argc == 3 && strcmp(argv[0], "driver-for") == 0 && strcmp(argv[1], "cuda") == 0)
		return driver_for_cuda(argv[2], err);
	if (argc == 3 && strcmp(argv[0], "cuda-for") == 0 && strcmp(argv[1], "driver") == 0)
		return cuda_for_driver(argv[2], err);
	error_set(err, argc ? "unknown kb query '%s'" : "kb needs a query%s", argc ? argv[0] : "");
	return NULL;
}
