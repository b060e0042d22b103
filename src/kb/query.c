#include "kb/query.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/i18n.h"
#include "util/str.h"

/* The tables have no answer to a well-formed question: not a usage error. */
static void *no_answer(struct error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *no_answer(struct error *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		error_vset(err, fmt, ap);
		va_end(ap);
		err->code = KB_QUERY_NO_ANSWER;
	}
	return NULL;
}

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

/*
 * An answer's one sentence, built in pieces: in English for JSON, and in the active language for the
 * text report (the same pieces translated; English while no translation is active).
 */
struct summary {
	char en[1024];
	char local[1536];
};

static void say(struct summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct summary *s, const char *fmt, ...)
{
	size_t en_len = strlen(s->en), local_len = strlen(s->local);
	va_list ap, local;
	char *l;

	va_start(ap, fmt);
	va_copy(local, ap);
	vsnprintf(s->en + en_len, sizeof(s->en) - en_len, fmt, ap);
	l = i18n_local_vdupf(s->en + en_len, fmt, local);
	va_end(local);
	va_end(ap);
	snprintf(s->local + local_len, sizeof(s->local) - local_len, "%s", l ? l : s->en + en_len);
	free(l);
}

/* "summary_local" only where it differs: never in JSON, which is written with no translation active. */
static json_t *answer_new(const char *query, const char *answer, const struct summary *s)
{
	json_t *ans = json_pack("{s:s, s:s, s:s, s:[]}", "query", query, "answer", answer, "summary", s->en, "rows");

	if (ans && strcmp(s->local, s->en) != 0)
		json_object_set_new(ans, "summary_local", json_string(s->local));
	return ans;
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
	struct summary summary = { "", "" };
	char mm[16], major[8];
	json_t *ans;

	if (!version_is_valid(version) || version_prefix(version, 2, mm, sizeof(mm)) < 0 || !strchr(mm, '.')) {
		error_set(err, "'%s' is not a CUDA version (like 12.4)", version);
		return NULL;
	}
	if (kb_cuda_min_driver(mm, &need) < 0) {
		no_answer(err, "CUDA %s is not in the driver table", mm);
		return NULL;
	}
	str_printf(major, sizeof(major), "%d", atoi(mm));
	if (kb_cuda_minor_compat_driver(atoi(mm), &compat) == 0)
		say(&summary, "CUDA %s (%s) needs NVIDIA driver >= %s on Linux; with minor-version compatibility "
		    "CUDA %s.x programs run on >= %s (except PTX JIT of newer PTX)", mm, need.release, need.value,
		    major, compat.value);
	else
		say(&summary, "CUDA %s (%s) needs NVIDIA driver >= %s on Linux", mm, need.release, need.value);
	ans = answer_new("driver-for cuda", need.value, &summary);
	json_object_set_new(ans, "cuda", json_string(mm));
	add_rows_where(ans, t, "cuda", mm, "toolkit");
	add_rows_where(ans, t, "cuda", major, "minor_compat");
	return ans;
}

static json_t *cuda_for_driver(const char *driver, struct error *err)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	struct kb_answer max;
	struct summary summary = { "", "" };
	json_t *ans;
	int major;

	if (!version_is_valid(driver)) {
		error_set(err, "'%s' is not a driver version (like 535.104.05)", driver);
		return NULL;
	}
	if (kb_cuda_max_for_driver(driver, &max) < 0) {
		no_answer(err, "driver %s is older than every CUDA release in the table", driver);
		return NULL;
	}
	major = atoi(max.value);
	{
		struct kb_answer compat, ga;
		bool mvc = kb_cuda_minor_compat_driver(major, &compat) == 0 && version_compare(driver, compat.value) >= 0;

		if (kb_cuda_min_driver(max.value, &ga) < 0)
			ga = max;
		say(&summary, "driver %s supports CUDA up to %s (CUDA %s needs >= %s)", driver, max.value, ga.release,
		    ga.value);
		if (mvc)
			say(&summary, "; through minor-version compatibility, programs built with any CUDA %d.x also "
			    "run (except PTX JIT of newer PTX)", major);
	}
	ans = answer_new("cuda-for driver", max.value, &summary);
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
	struct summary summary = { "", "" };
	json_t *ans;

	if (n <= 0) {
		no_answer(err, "no GPU in the table matches '%s'", query);
		return NULL;
	}
	if (found[0].cc[0])
		say(&summary, "%s: compute capability %s (sm_%.*s%s), %s", found[0].name, found[0].cc,
		    (int)strcspn(found[0].cc, "."), found[0].cc,
		    strchr(found[0].cc, '.') ? strchr(found[0].cc, '.') + 1 : "", found[0].arch);
	else
		say(&summary, "%s: compute capability unknown, %s", found[0].name, found[0].arch);
	if (n > 1)
		say(&summary, "; also matches %s", found[1].name);
	if (found[0].cc[0]) {
		struct kb_torch_choice ch;

		if (kb_torch_for(NULL, found[0].cc, NULL, &ch) == 0)
			say(&summary, "; newest PyTorch with kernels for it: %s %s%s", ch.release.version,
			    ch.variant.variant,
			    kb_arch_fit(ch.variant.archs, found[0].cc) == KB_ARCH_PTX ? N_(" (PTX JIT only)") : "");
		else
			say(&summary, "; no PyTorch wheel in the tables has kernels for it");
	}
	ans = answer_new("gpu", found[0].cc, &summary);
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
	struct summary summary = { "", "" };
	json_t *ans, *list;
	int n;

	if (kb_torch_release(version, &rel) < 0) {
		no_answer(err, "PyTorch %s is not in the release table", version);
		return NULL;
	}
	n = kb_torch_variants(version, vars, 24);
	say(&summary, "PyTorch %s", version);
	if (rel.released[0])
		say(&summary, " (released %s)", rel.released);
	/* "%.0s" lets a language without plurals drop the English "s" */
	say(&summary, ": %d Linux wheel variant%s; Python %s; plain `pip install torch==%s` gets %s", n,
	    n == 1 ? "" : "s", rel.python[0] ? rel.python : N_("versions unknown"), version,
	    rel.default_variant[0] ? rel.default_variant : N_("the default variant"));
	{
		const char *vision, *audio, *source;

		if (kb_torch_companions(version, &vision, &audio, &source) == 0) {
			say(&summary, "; with torchvision %s and torchaudio %s", vision[0] ? vision : N_("(unknown)"),
			    audio[0] ? audio : N_("(unknown)"));
			ans = answer_new("torch", version, &summary);
			json_object_set_new(ans, "torchvision", vision[0] ? json_string(vision) : json_null());
			json_object_set_new(ans, "torchaudio", audio[0] ? json_string(audio) : json_null());
		} else {
			ans = answer_new("torch", version, &summary);
		}
	}
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

/* Of the variants that fit need, the one that asks the least of the driver (the smallest upgrade). */
static void oldest_driver_fit(const struct kb_torch_need *need, struct kb_torch_fit *out)
{
	const struct kb_table *t = &kb_table_torch_releases;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < t->nrows; r++) {
		struct kb_torch_release rel;
		struct kb_torch_variant vars[24];
		int n;

		if (kb_torch_release(kb_field(t, r, "torch"), &rel) < 0)
			continue;
		n = kb_torch_variants(rel.version, vars, 24);
		for (int k = 0; k < n; k++) {
			struct kb_torch_fit fit;

			kb_torch_judge(&rel, &vars[k], need, &fit);
			if (fit.verdict == KB_TORCH_FITS &&
			    (!out->min_driver.value[0] || version_compare(fit.min_driver.value, out->min_driver.value) < 0))
				*out = fit;
		}
	}
}

/* Why nothing fits: judged again with each constraint dropped in turn, the answer a person can act on. */
static json_t *torch_for_nothing(const struct kb_torch_need *need, const char *gpu, const char *cc, struct error *err)
{
	struct kb_torch_need any_driver = *need, only_gpu = { NULL, { cc }, cc ? 1 : 0, NULL, false, false, false };
	struct kb_torch_fit fit;
	struct kb_arch_support sup;
	struct kb_answer max;
	char unknown[1][96];
	int nunknown;

	any_driver.driver = NULL;
	if (cc && kb_torch_newest(&only_gpu, &fit, unknown, 0, &nunknown) < 0) {
		if (kb_arch_support(cc, &sup) == 0)
			return no_answer(err, "no PyTorch wheel in the tables (1.7.0 on) has kernels for %s (%s)%s%s%s; "
					 "the last CUDA toolkit that targets it is %s and the last driver branch %s: "
					 "build PyTorch from source with TORCH_CUDA_ARCH_LIST=%s", gpu, sup.arch,
					 sup.last_torch[0] ? N_(", the last one that had them was ") : "", sup.last_torch,
					 sup.last_torch[0] ? "" : "",
					 sup.last_cuda_toolkit[0] ? sup.last_cuda_toolkit : N_("current"),
					 sup.last_driver_branch[0] ? sup.last_driver_branch : N_("current"), cc), NULL;
		return no_answer(err, "no PyTorch wheel in the tables has kernels for %s", gpu);
	}
	if (need->driver && kb_torch_newest(&any_driver, &fit, unknown, 0, &nunknown) == 0 &&
	    kb_cuda_max_for_driver(need->driver, &max) == 0) {
		struct kb_torch_fit oldest;

		oldest_driver_fit(&any_driver, &oldest);
		return no_answer(err, "no PyTorch CUDA wheel in the tables fits driver %s (CUDA <= %s)%s%s: upgrade the "
				 "driver; the least a fitting wheel needs is %s (PyTorch %s %s)", need->driver, max.value,
				 gpu ? N_(" and ") : "", gpu ? gpu : "", oldest.min_driver.value, oldest.release.version,
				 oldest.variant.variant);
	}
	if (need->python)
		return no_answer(err, "no PyTorch CUDA wheel in the tables fits these constraints (Python %s)",
				 need->python);
	return no_answer(err, "no PyTorch CUDA wheel in the tables fits these constraints");
}

static json_t *torch_for_query(int argc, char *const *argv, struct error *err)
{
	const char *gpu = NULL;
	char cc[16], cmd[512], unknown[8][96];
	struct summary summary = { "", "" };
	struct kb_torch_need need = { 0 };
	struct kb_torch_fit fit;
	json_t *ans, *skipped;
	int nunknown;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			return error_set(err, "torch-for: '%s' needs a value", argv[i]), NULL;
		if (strcmp(argv[i], "--driver") == 0)
			need.driver = argv[i + 1];
		else if (strcmp(argv[i], "--gpu") == 0)
			gpu = argv[i + 1];
		else if (strcmp(argv[i], "--python") == 0)
			need.python = argv[i + 1];
		else
			return error_set(err, "torch-for: unknown option '%s'", argv[i]), NULL;
	}
	if (need.driver && !version_is_valid(need.driver))
		return error_set(err, "'%s' is not a driver version", need.driver), NULL;
	if (gpu && parse_cc(gpu, cc, sizeof(cc)) < 0)
		return error_set(err, "cannot tell the compute capability of '%s' (use sm_86 or 8.6)", gpu), NULL;
	if (gpu)
		need.ccs[need.nccs++] = cc;
	if (kb_torch_newest(&need, &fit, unknown, 8, &nunknown) < 0)
		return torch_for_nothing(&need, gpu, gpu ? cc : NULL, err);
	kb_torch_pip_command(&fit.variant, cmd, sizeof(cmd));
	say(&summary, "PyTorch %s with %s (CUDA %s, needs driver >= %s)%s: %s", fit.release.version,
	    fit.variant.variant, fit.variant.cuda, fit.min_driver.value,
	    fit.ptx ? N_("; runs on this GPU through PTX JIT only") : "", cmd);
	/* newer releases the tables cannot judge: say so rather than skip them silently */
	for (int i = 0; i < nunknown; i++)
		say(&summary, "%s%s", i ? "; " : N_("\nnot judged for lack of data: "), unknown[i]);
	ans = answer_new("torch-for", fit.release.version, &summary);
	json_object_set_new(ans, "variant", variant_json(&fit.variant));
	json_object_set_new(ans, "pip", json_string(cmd));
	skipped = json_array();
	for (int i = 0; i < nunknown; i++)
		json_array_append_new(skipped, json_string(unknown[i]));
	json_object_set_new(ans, "not_judged", skipped);
	if (gpu)
		json_object_set_new(ans, "cc", json_string(cc));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_torch_variants, fit.variant.row));
	json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_torch_releases, fit.release.row));
	return ans;
}

static json_t *error_query(const char *code, struct error *err)
{
	struct kb_error found[8];
	int n = kb_error_lookup(code, found, 8);
	struct summary summary = { "", "" };
	json_t *ans, *list = json_array();

	if (n <= 0) {
		json_decref(list);
		return no_answer(err, "no CUDA, runtime or NVML status code is '%s'", code);
	}
	for (int i = 0; i < n; i++) {
		/* the meanings are the CUDA and NVML headers' own words */
		say(&summary, "%s%s %s = %s: %s", i ? "; " : "", found[i].api, found[i].name,
		    found[i].value[0] ? found[i].value : "?", found[i].meaning);
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "api", found[i].api, "name",
						      found[i].name, "value", found[i].value, "meaning", found[i].meaning,
						      "note", found[i].note, "source", found[i].source));
	}
	ans = answer_new("error", found[0].name, &summary);
	json_object_set_new(ans, "codes", list);
	for (int i = 0; i < n; i++)
		json_array_append_new(json_object_get(ans, "rows"), row_json(&kb_table_error_codes, found[i].row));
	return ans;
}

static json_t *arch_query(const char *arch, struct error *err)
{
	struct summary summary = { "", "" };
	char cc[16];
	struct kb_sm sm;
	json_t *ans;

	if (str_starts_with(arch, "sm_") && str_is_digits(arch + 3) && strlen(arch + 3) >= 2)
		str_printf(cc, sizeof(cc), "%.*s.%s", (int)strlen(arch + 3) - 1, arch + 3, arch + strlen(arch) - 1);
	else
		str_copy(cc, sizeof(cc), arch);
	if (kb_sm_support(cc, &sm) < 0)
		return error_set(err, "'%s' is not in the architecture table (use sm_86 or 8.6)", arch), NULL;
	say(&summary, "%s (%s): nvcc target since CUDA %s", sm.sm, sm.arch, sm.added_in[0] ? sm.added_in : "?");
	if (sm.deprecated_in[0])
		say(&summary, ", deprecated in %s", sm.deprecated_in);
	if (sm.removed_in[0])
		say(&summary, ", removed in %s", sm.removed_in);
	ans = answer_new("arch", sm.sm, &summary);
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
