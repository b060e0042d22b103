#include "kb/query.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

const char kb_query_usage[] =
	"queries:\n"
	"  driver-for cuda VERSION   minimum NVIDIA driver for a CUDA toolkit\n"
	"  cuda-for driver VERSION   newest CUDA a driver supports\n"
	"  gpu NAME|PCI-ID           compute capability and architecture of a GPU\n"
	"  torch VERSION             wheel variants, Python versions, install commands\n"
	"  torch-for [--driver V] [--gpu sm_XX|NAME] [--python 3.X]\n"
	"                            the newest torch and variant that will work\n"
	"  arch sm_XX                which CUDA toolkits can compile for it\n"
	"  error CODE|NAME           a CUDA driver, runtime or NVML status code\n";

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
	const struct kb_table *t = &kb_table_cuda_driver;
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
	const struct kb_table *t = &kb_table_cuda_driver;
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
	if (found[0].cc[0])
		str_printf(summary, sizeof(summary), "%s: compute capability %s (sm_%.*s%s), %s%s%s", found[0].name,
			   found[0].cc, (int)strcspn(found[0].cc, "."), found[0].cc,
			   strchr(found[0].cc, '.') ? strchr(found[0].cc, '.') + 1 : "", found[0].arch,
			   n > 1 ? "; also matches " : "", n > 1 ? found[1].name : "");
	else
		str_printf(summary, sizeof(summary), "%s: compute capability unknown, %s%s%s", found[0].name,
			   found[0].arch, n > 1 ? "; also matches " : "", n > 1 ? found[1].name : "");
	if (found[0].cc[0]) {
		struct kb_torch_choice ch;

		if (kb_torch_for(NULL, found[0].cc, NULL, &ch) == 0)
			str_printf(summary + strlen(summary), sizeof(summary) - strlen(summary),
				   "; newest PyTorch with kernels for it: %s %s%s", ch.release.version, ch.variant.variant,
				   kb_arch_fit(ch.variant.archs, found[0].cc) == KB_ARCH_PTX ? " (PTX JIT only)" : "");
		else
			str_printf(summary + strlen(summary), sizeof(summary) - strlen(summary),
				   "; no PyTorch wheel in the tables has kernels for it");
	}
	ans = answer_new("gpu", found[0].cc, summary);
	json_object_set_new(ans, "gpus", json_array());
	for (int i = 0; i < n; i++)
		json_array_append_new(json_object_get(ans, "gpus"), gpu_json(&found[i]));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_gpus, found[0].row));
	return ans;
}

static json_t *variant_json(const struct kb_torch_variant *v)
{
	char cmd[512];
	struct kb_answer drv;
	json_t *o;

	kb_torch_pip_command(v, cmd, sizeof(cmd));
	o = json_pack("{s:s, s:o, s:o, s:o, s:s, s:o, s:s}", "variant", v->variant,
		      "cuda", v->cuda[0] ? json_string(v->cuda) : json_null(),
		      "cudnn", v->cudnn[0] ? json_string(v->cudnn) : json_null(),
		      "archs", v->archs ? json_string(v->archs) : json_null(), "pip", cmd,
		      "conda", v->conda[0] ? json_string(v->conda) : json_null(), "source", v->source);
	if (kb_torch_variant_min_driver(v, &drv) == 0)
		json_object_set_new(o, "min_driver", json_string(drv.value));
	return o;
}

static json_t *torch_query(const char *version, struct error *err)
{
	struct kb_torch_release rel;
	struct kb_torch_variant vars[24];
	char summary[512];
	json_t *ans, *list;
	int n;

	if (kb_torch_release(version, &rel) < 0) {
		error_set(err, "PyTorch %s is not in the release table", version);
		return NULL;
	}
	n = kb_torch_variants(version, vars, 24);
	str_printf(summary, sizeof(summary), "PyTorch %s%s%s%s: %d Linux wheel variant%s; Python %s; plain `pip install torch==%s` gets %s",
		   version, rel.released[0] ? " (released " : "", rel.released, rel.released[0] ? ")" : "", n,
		   n == 1 ? "" : "s", rel.python[0] ? rel.python : "versions unknown", version,
		   rel.default_variant[0] ? rel.default_variant : "the default variant");
	ans = answer_new("torch", version, summary);
	json_object_set_new(ans, "python", json_string(rel.python));
	json_object_set_new(ans, "default_variant", json_string(rel.default_variant));
	list = json_array();
	for (int i = 0; i < n; i++) {
		json_array_append_new(list, variant_json(&vars[i]));
		json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_torch_variants, vars[i].row));
	}
	json_object_set_new(ans, "variants", list);
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_torch_releases, rel.row));
	return ans;
}

/* "sm_86", "8.6", "86" or a GPU name -> "8.6". */
static int parse_cc(const char *gpu, char *out, size_t outsz)
{
	struct kb_gpu g;

	if (str_starts_with(gpu, "sm_"))
		gpu += 3;
	if (str_is_digits(gpu) && strlen(gpu) >= 2 && strlen(gpu) <= 3)
		return str_printf(out, outsz, "%.*s.%s", (int)strlen(gpu) - 1, gpu, gpu + strlen(gpu) - 1);
	if (version_is_valid(gpu) && strchr(gpu, '.'))
		return str_copy(out, outsz, gpu);
	if (kb_gpu_find(gpu, &g, 1) == 1 && g.cc[0])
		return str_copy(out, outsz, g.cc);
	return -1;
}

static json_t *torch_for_query(int argc, char *const *argv, struct error *err)
{
	const char *driver = NULL, *gpu = NULL, *python = NULL;
	char cc[16], summary[768], cmd[512];
	struct kb_torch_choice ch;
	json_t *ans;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			return error_set(err, "torch-for: '%s' needs a value", argv[i]), NULL;
		if (strcmp(argv[i], "--driver") == 0)
			driver = argv[i + 1];
		else if (strcmp(argv[i], "--gpu") == 0)
			gpu = argv[i + 1];
		else if (strcmp(argv[i], "--python") == 0)
			python = argv[i + 1];
		else
			return error_set(err, "torch-for: unknown option '%s'", argv[i]), NULL;
	}
	if (driver && !version_is_valid(driver))
		return error_set(err, "'%s' is not a driver version", driver), NULL;
	if (gpu && parse_cc(gpu, cc, sizeof(cc)) < 0)
		return error_set(err, "cannot tell the compute capability of '%s' (use sm_86 or 8.6)", gpu), NULL;
	if (kb_torch_for(driver, gpu ? cc : NULL, python, &ch) < 0) {
		struct kb_answer max;

		if (driver && kb_cuda_max_for_driver(driver, &max) == 0)
			return error_set(err, "no PyTorch CUDA wheel in the tables fits driver %s (CUDA <= %s)%s%s: "
					 "upgrade the driver", driver, max.value, gpu ? " and " : "", gpu ? gpu : ""), NULL;
		return error_set(err, "no PyTorch CUDA wheel in the tables fits these constraints"), NULL;
	}
	kb_torch_pip_command(&ch.variant, cmd, sizeof(cmd));
	str_printf(summary, sizeof(summary), "PyTorch %s with %s (CUDA %s, needs driver >= %s)%s%s: %s",
		   ch.release.version, ch.variant.variant, ch.variant.cuda, ch.min_driver.value,
		   gpu && kb_arch_fit(ch.variant.archs, cc) == KB_ARCH_PTX ? "; runs on this GPU through PTX JIT only" : "",
		   "", cmd);
	ans = answer_new("torch-for", ch.release.version, summary);
	json_object_set_new(ans, "variant", variant_json(&ch.variant));
	json_object_set_new(ans, "pip", json_string(cmd));
	if (gpu)
		json_object_set_new(ans, "cc", json_string(cc));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_torch_variants, ch.variant.row));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_torch_releases, ch.release.row));
	return ans;
}

static json_t *error_query(const char *code, struct error *err)
{
	struct kb_error found[8];
	int n = kb_error_lookup(code, found, 8);
	char summary[768] = "";
	json_t *ans, *list = json_array();

	if (n <= 0) {
		json_decref(list);
		return error_set(err, "no CUDA, runtime or NVML status code is '%s'", code), NULL;
	}
	for (int i = 0; i < n; i++) {
		str_printf(summary + strlen(summary), sizeof(summary) - strlen(summary), "%s%s %s = %s: %s",
			   i ? "; " : "", found[i].api, found[i].name, found[i].value[0] ? found[i].value : "?",
			   found[i].meaning);
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "api", found[i].api, "name",
						      found[i].name, "value", found[i].value, "meaning", found[i].meaning,
						      "note", found[i].note, "source", found[i].source));
	}
	ans = answer_new("error", found[0].name, summary);
	json_object_set_new(ans, "codes", list);
	for (int i = 0; i < n; i++)
		json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_error_codes, found[i].row));
	return ans;
}

static json_t *arch_query(const char *arch, struct error *err)
{
	char cc[16], summary[512];
	struct kb_sm sm;
	json_t *ans;

	if (str_starts_with(arch, "sm_") && str_is_digits(arch + 3) && strlen(arch + 3) >= 2)
		str_printf(cc, sizeof(cc), "%.*s.%s", (int)strlen(arch + 3) - 1, arch + 3, arch + strlen(arch) - 1);
	else
		str_copy(cc, sizeof(cc), arch);
	if (kb_sm_support(cc, &sm) < 0)
		return error_set(err, "'%s' is not in the architecture table (use sm_86 or 8.6)", arch), NULL;
	str_printf(summary, sizeof(summary), "%s (%s): nvcc target since CUDA %s%s%s%s%s", sm.sm, sm.arch,
		   sm.added_in[0] ? sm.added_in : "?", sm.deprecated_in[0] ? ", deprecated in " : "", sm.deprecated_in,
		   sm.removed_in[0] ? ", removed in " : "", sm.removed_in);
	ans = answer_new("arch", sm.sm, summary);
	json_object_set_new(ans, "added_in", json_string(sm.added_in));
	json_object_set_new(ans, "deprecated_in", json_string(sm.deprecated_in));
	json_object_set_new(ans, "removed_in", json_string(sm.removed_in));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_cuda_archs, sm.row));
	return ans;
}

/*
 * See query.h: the caller owns (json_decref) the returned object. Pure: reads only the compiled tables,
 * prints nothing. Extra words after "gpu" are joined, so an unquoted "RTX 4090" works.
 */
json_t *kb_query(int argc, char *const *argv, struct error *err)
{
	if (argc == 2 && strcmp(argv[0], "error") == 0)
		return error_query(argv[1], err);
	if (argc == 2 && strcmp(argv[0], "arch") == 0)
		return arch_query(argv[1], err);
	if (argc == 2 && strcmp(argv[0], "torch") == 0)
		return torch_query(argv[1], err);
	if (argc >= 1 && strcmp(argv[0], "torch-for") == 0)
		return torch_for_query(argc, argv, err);
	if (argc >= 2 && strcmp(argv[0], "gpu") == 0) {
		/* `kb gpu RTX 4090` without quotes means the same as "RTX 4090". */
		char name[128] = "";

		for (int i = 1; i < argc; i++)
			str_printf(name + strlen(name), sizeof(name) - strlen(name), "%s%s", i > 1 ? " " : "", argv[i]);
		return gpu_query(name, err);
	}
	if (argc == 3 && strcmp(argv[0], "driver-for") == 0 && strcmp(argv[1], "cuda") == 0)
		return driver_for_cuda(argv[2], err);
	if (argc == 3 && strcmp(argv[0], "cuda-for") == 0 && strcmp(argv[1], "driver") == 0)
		return cuda_for_driver(argv[2], err);
	error_set(err, argc ? "unknown kb query '%s'" : "kb needs a query%s", argc ? argv[0] : "");
	return NULL;
}
