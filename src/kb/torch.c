/*
 * torch.c - PyTorch releases, their wheel variants and the GPU
 * architectures compiled into each (data/torch_*.tsv).
 */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/i18n.h"
#include "util/str.h"

/* The row for this exact version ("2.1.0", no "+cu121" suffix); static strings. -1 when absent. */
int kb_torch_release(const char *version, struct kb_torch_release *out)
{
	const struct kb_table *t = &kb_table_torch_releases;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "torch"), version) != 0)
			continue;
		out->row = r;
		out->version = kb_field(t, r, "torch");
		out->python = kb_field(t, r, "python");
		out->default_variant = kb_field(t, r, "default_variant");
		out->released = kb_field(t, r, "released");
		out->source = kb_field(t, r, "source");
		return 0;
	}
	return -1;
}

/*
 * The variants of this exact version in table order, at most max (more are not counted); static strings,
 * archs looked up with kb_torch_arch_list. Returns how many were filled.
 */
int kb_torch_variants(const char *version, struct kb_torch_variant *out, int max)
{
	const struct kb_table *t = &kb_table_torch_variants;
	int n = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		if (strcmp(kb_field(t, r, "torch"), version) != 0)
			continue;
		out[n].row = r;
		out[n].torch = kb_field(t, r, "torch");
		out[n].variant = kb_field(t, r, "variant");
		out[n].cuda = kb_field(t, r, "cuda");
		out[n].cudnn = kb_field(t, r, "cudnn");
		out[n].index_url = kb_field(t, r, "index_url");
		out[n].conda = kb_field(t, r, "conda");
		out[n].source = kb_field(t, r, "source");
		out[n].archs = kb_torch_arch_list(version, out[n].variant);
		n++;
	}
	return n;
}

/* The static TORCH_CUDA_ARCH_LIST of a release and variant; NULL when the table has none. */
const char *kb_torch_arch_list(const char *version, const char *variant)
{
	const struct kb_table *t = &kb_table_torch_archs;

	for (size_t r = 0; r < t->nrows; r++)
		if (strcmp(kb_field(t, r, "torch"), version) == 0 && strcmp(kb_field(t, r, "variant"), variant) == 0)
			return kb_field(t, r, "archs");
	return NULL;
}

/*
 * For compute capability cc: the newest release of the arch table (newest), and the newest release with a
 * Linux CUDA wheel that runs on cc (fits, with that wheel's variant; "" when none does). Strings are static.
 */
void kb_torch_releases_for_cc(const char *cc, const char **newest, const char **fits, const char **variant)
{
	const struct kb_table *t = &kb_table_torch_archs;

	*newest = *fits = *variant = "";
	for (size_t r = 0; r < t->nrows; r++) {
		const char *torch = kb_field(t, r, "torch");

		if (version_compare(torch, *newest) > 0)
			*newest = torch;
		if (version_compare(torch, *fits) > 0 && kb_arch_fit(kb_field(t, r, "archs"), cc) != KB_ARCH_NONE) {
			*fits = torch;
			*variant = kb_field(t, r, "variant");
		}
	}
}

/*
 * Can a build with this arch list run on compute capability cc? A cubin
 * runs on the same major at an equal or higher minor (8.0 code runs on
 * 8.6, not the reverse); PTX of an older or equal capability is compiled
 * by the driver for any newer GPU.
 */
enum kb_arch_fit kb_arch_fit(const char *archs, const char *cc)
{
	char buf[256], *save = NULL;
	enum kb_arch_fit fit = KB_ARCH_NONE;
	int want_major = atoi(cc), want_minor = strchr(cc, '.') ? atoi(strchr(cc, '.') + 1) : 0;

	if (!archs || !archs[0])
		return KB_ARCH_UNKNOWN;
	str_copy(buf, sizeof(buf), archs);
	for (char *a = strtok_r(buf, "; ", &save); a; a = strtok_r(NULL, "; ", &save)) {
		int major = atoi(a), minor = strchr(a, '.') ? atoi(strchr(a, '.') + 1) : 0;
		bool ptx = strstr(a, "+PTX") != NULL;

		if (major == want_major && minor <= want_minor)
			return KB_ARCH_SASS;
		if (ptx && (major < want_major || (major == want_major && minor <= want_minor)))
			fit = KB_ARCH_PTX;
	}
	return fit;
}

/*
 * pip's view: "3.10" is in "3.9,3.10,3.11". A release whose Python list the
 * table does not know is not offered for a specific Python: never guess.
 */
bool kb_python_supported(const char *list, const char *python)
{
	char buf[256], *save = NULL;

	if (!python || !python[0])
		return true;
	if (!list[0])
		return false;
	str_copy(buf, sizeof(buf), list);
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (strcmp(str_trim(p), python) == 0)
			return true;
	return false;
}

/*
 * A pip command for the variant: with its --index-url or -f line when the table has one, else the plain
 * PyPI name. Returns -1 when it does not fit outsz.
 */
int kb_torch_pip_command(const struct kb_torch_variant *v, char *out, size_t outsz)
{
	const char *idx = v->index_url;

	if (str_starts_with(idx, "--index-url ") || str_starts_with(idx, "--extra-index-url "))
		return str_printf(out, outsz, "pip install torch==%s %s", v->torch, idx);
	if (str_starts_with(idx, "-f "))
		return str_printf(out, outsz, "pip install torch==%s+%s %s", v->torch, v->variant, idx);
	return str_printf(out, outsz, "pip install torch==%s", v->torch);
}

/*
 * The driver a variant needs. Wheels rely on minor-version compatibility,
 * so the CUDA major's floor applies, but never less than what the major's
 * first release (X.0) asked for: NVIDIA gives the 13.x floor only as a
 * branch ("580"), which the 13.0 row makes exact.
 */
int kb_torch_variant_min_driver(const struct kb_torch_variant *v, struct kb_answer *out)
{
	struct kb_answer first, own;
	char x0[16];
	bool have_own;

	if (!v->cuda[0])
		return -1;
	have_own = kb_cuda_min_driver(v->cuda, &own) == 0;
	str_printf(x0, sizeof(x0), "%d.0", atoi(v->cuda));
	if (kb_cuda_minor_compat_driver(atoi(v->cuda), out) == 0) {
		if (kb_cuda_min_driver(x0, &first) == 0 && version_compare(first.value, out->value) > 0)
			*out = first;
		/* X.0 itself predates its major's compatibility floor (11.0 GA: 450.51.05). */
		if (have_own && version_compare(own.value, out->value) < 0)
			*out = own;
		return 0;
	}
	if (!have_own)
		return -1;
	*out = own;
	return 0;
}

/* Releases are listed oldest first; compare versions to walk newest first. */
static int compare_rows_desc(const void *a, const void *b)
{
	const struct kb_table *t = &kb_table_torch_releases;
	size_t ra = *(const size_t *)a, rb = *(const size_t *)b;

	return version_compare(kb_field(t, rb, "torch"), kb_field(t, ra, "torch"));
}

/* See kb.h: kb_torch_newest for one GPU, without companions. */
int kb_torch_for(const char *driver, const char *cc, const char *python, struct kb_torch_choice *out)
{
	struct kb_torch_need need = { driver, { cc }, cc ? 1 : 0, python, false, false, false };
	struct kb_torch_fit fit;
	char unknown[1][96];
	int nunknown;

	memset(out, 0, sizeof(*out));
	if (kb_torch_newest(&need, &fit, unknown, 0, &nunknown) < 0)
		return -1;
	out->release = fit.release;
	out->variant = fit.variant;
	out->min_driver = fit.min_driver;
	return 0;
}

/* See kb.h: "" cells stay "" (unknown); -1 when the table has no row for the version. */
int kb_torch_companions(const char *version, const char **vision, const char **audio, const char **source)
{
	const struct kb_table *t = &kb_table_torch_companions;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "torch"), version) != 0)
			continue;
		*vision = kb_field(t, r, "torchvision");
		*audio = kb_field(t, r, "torchaudio");
		if (source)
			*source = kb_field(t, r, "source");
		return 0;
	}
	*vision = *audio = "";
	return -1;
}

/* See kb.h: cc "6.1" or "sm_61"; -1 when the table has no row for it. */
int kb_arch_support(const char *cc, struct kb_arch_support *out)
{
	const struct kb_table *t = &kb_table_arch_support;
	char sm[16];

	if (str_starts_with(cc, "sm_"))
		str_copy(sm, sizeof(sm), cc);
	else
		str_printf(sm, sizeof(sm), "sm_%d%s", atoi(cc), strchr(cc, '.') ? strchr(cc, '.') + 1 : "0");
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "sm"), sm) != 0)
			continue;
		out->row = r;
		out->sm = kb_field(t, r, "sm");
		out->arch = kb_field(t, r, "arch");
		out->last_torch = kb_field(t, r, "last_torch");
		out->last_torch_variant = kb_field(t, r, "last_torch_variant");
		out->last_cuda_toolkit = kb_field(t, r, "last_cuda_toolkit");
		out->last_driver_branch = kb_field(t, r, "last_driver_branch");
		out->note = kb_field(t, r, "note");
		out->source = kb_field(t, r, "source");
		return 0;
	}
	return -1;
}

/* See kb.h: a static sentence for each verdict (English; N_: a text report shows it translated). */
const char *kb_torch_verdict_text(enum kb_torch_verdict verdict)
{
	switch (verdict) {
	case KB_TORCH_FITS:
		return N_("fits");
	case KB_TORCH_CPU_BUILD:
		return N_("a CPU build");
	case KB_TORCH_UNKNOWN_PYTHON:
		return N_("no data on its Python versions");
	case KB_TORCH_NO_PYTHON:
		return N_("no wheel for this Python");
	case KB_TORCH_UNKNOWN_ARCHS:
		return N_("no data on its architectures");
	case KB_TORCH_NO_KERNELS:
		return N_("no kernels for this GPU");
	case KB_TORCH_DRIVER_TOO_OLD:
		return N_("needs a newer driver");
	case KB_TORCH_UNKNOWN_COMPANION:
		return N_("no data on the matching torchvision/torchaudio");
	}
	return "?";
}

/*
 * See kb.h. The known checks come first, so that "no data" is only said of
 * a variant that would fit if the data were there: the driver against the
 * CUDA major's floor, then Python, then the kernels for every GPU (with
 * PTX JIT only, the driver must also reach the toolkit's own minimum: a
 * driver serving the toolkit by minor-version compatibility cannot compile
 * its PTX), then the companions.
 */
void kb_torch_judge(const struct kb_torch_release *rel, const struct kb_torch_variant *v,
		    const struct kb_torch_need *need, struct kb_torch_fit *out)
{
	struct kb_answer full;

	memset(out, 0, sizeof(*out));
	out->release = *rel;
	out->variant = *v;
	kb_torch_companions(rel->version, &out->vision, &out->audio, NULL);
	if (!v->cuda[0]) {
		out->verdict = KB_TORCH_CPU_BUILD;
		return;
	}
	if (kb_torch_variant_min_driver(v, &out->min_driver) == 0 && need->driver &&
	    version_compare(need->driver, out->min_driver.value) < 0) {
		out->verdict = KB_TORCH_DRIVER_TOO_OLD;
		return;
	}
	if (need->python && need->python[0] && !rel->python[0]) {
		out->verdict = KB_TORCH_UNKNOWN_PYTHON;
		return;
	}
	if (need->python && !kb_python_supported(rel->python, need->python)) {
		out->verdict = KB_TORCH_NO_PYTHON;
		return;
	}
	for (int i = 0; i < need->nccs; i++) {
		enum kb_arch_fit fit = kb_arch_fit(v->archs, need->ccs[i]);

		if (fit == KB_ARCH_UNKNOWN) {
			out->verdict = KB_TORCH_UNKNOWN_ARCHS;
			return;
		}
		if (fit == KB_ARCH_NONE) {
			out->verdict = KB_TORCH_NO_KERNELS;
			return;
		}
		out->ptx |= fit == KB_ARCH_PTX;
	}
	if (out->ptx && kb_cuda_min_driver(v->cuda, &full) == 0 &&
	    (!out->min_driver.value[0] || version_compare(full.value, out->min_driver.value) > 0)) {
		out->min_driver = full;
		if (need->driver && version_compare(need->driver, full.value) < 0) {
			out->verdict = KB_TORCH_DRIVER_TOO_OLD;
			return;
		}
	}
	if ((need->vision && !out->vision[0]) || (need->audio && !out->audio[0])) {
		out->verdict = KB_TORCH_UNKNOWN_COMPANION;
		return;
	}
	out->verdict = KB_TORCH_FITS;
}

/* See kb.h: among equally fitting variants the newest CUDA wins; -1 with *out zeroed when none fits. */
int kb_torch_in_release(const char *version, const struct kb_torch_need *need, struct kb_torch_fit *out)
{
	struct kb_torch_release rel;
	struct kb_torch_variant vars[24];
	int n, found = -1;

	memset(out, 0, sizeof(*out));
	if (kb_torch_release(version, &rel) < 0)
		return -1;
	n = kb_torch_variants(version, vars, 24);
	for (int k = 0; k < n; k++) {
		struct kb_torch_fit fit;

		kb_torch_judge(&rel, &vars[k], need, &fit);
		if (fit.verdict != KB_TORCH_FITS)
			continue;
		if (found == 0 && need->oldest_driver) {
			int by_driver = version_compare(fit.min_driver.value, out->min_driver.value);
			/* on a tie, a build whose architectures the tables know, then the newer CUDA */
			int by_data = (fit.variant.archs != NULL) - (out->variant.archs != NULL);

			if (by_driver > 0 || (by_driver == 0 && (by_data < 0 || (by_data == 0 &&
			    version_compare(fit.variant.cuda, out->variant.cuda) <= 0))))
				continue;
		} else if (found == 0 && version_compare(fit.variant.cuda, out->variant.cuda) <= 0) {
			continue;
		}
		*out = fit;
		found = 0;
	}
	return found;
}

/* See kb.h. Walks the releases newest first; allocates a row order it frees before returning. */
int kb_torch_newest(const struct kb_torch_need *need, struct kb_torch_fit *out, char unknown[][96], int max_unknown,
		    int *nunknown)
{
	const struct kb_table *t = &kb_table_torch_releases;
	size_t *order = malloc(t->nrows * sizeof(*order));
	int rc = -1;

	*nunknown = 0;
	memset(out, 0, sizeof(*out));
	if (!order)
		return -1;
	for (size_t r = 0; r < t->nrows; r++)
		order[r] = r;
	qsort(order, t->nrows, sizeof(*order), compare_rows_desc);
	for (size_t i = 0; i < t->nrows && rc < 0; i++) {
		const char *version = kb_field(t, order[i], "torch");
		struct kb_torch_release rel;
		struct kb_torch_variant vars[24];
		int n;

		if (kb_torch_in_release(version, need, out) == 0) {
			rc = 0;
			break;
		}
		/* passed over: say so when only missing data kept a variant out */
		if (kb_torch_release(version, &rel) < 0)
			continue;
		n = kb_torch_variants(version, vars, 24);
		for (int k = 0; k < n && *nunknown < max_unknown; k++) {
			struct kb_torch_fit fit;

			kb_torch_judge(&rel, &vars[k], need, &fit);
			if (fit.verdict == KB_TORCH_UNKNOWN_ARCHS || fit.verdict == KB_TORCH_UNKNOWN_PYTHON ||
			    fit.verdict == KB_TORCH_UNKNOWN_COMPANION)
				str_printf(unknown[(*nunknown)++], 96, "%s %s: %s", version, vars[k].variant,
					   kb_torch_verdict_text(fit.verdict));
		}
	}
	free(order);
	return rc;
}

/* See kb.h. The releases after `after`, oldest first; a table without them answers -1. */
int kb_torch_nearest(const char *after, const struct kb_torch_need *need, struct kb_torch_fit *out)
{
	const struct kb_table *t = &kb_table_torch_releases;
	const char *best = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < t->nrows; r++) {
		const char *version = kb_field(t, r, "torch");
		struct kb_torch_fit fit;

		if (version_compare(version, after) <= 0 || (best && version_compare(version, best) >= 0) ||
		    kb_torch_in_release(version, need, &fit) < 0)
			continue;
		best = version;
		*out = fit;
	}
	return best ? 0 : -1;
}

/*
 * See kb.h. The nvidia-cudnn-cuNN wheels carry cuDNN's own version, and the
 * PyTorch wheels pinned the ones in the cudnn column: those versions are
 * known to exist on PyPI.
 */
int kb_cudnn_wheel(int cudnn_major, int cuda_major, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_torch_variants;
	int found = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		const char *cudnn = kb_field(t, r, "cudnn"), *cuda = kb_field(t, r, "cuda");

		if (!cudnn[0] || !cuda[0] || atoi(cudnn) != cudnn_major || atoi(cuda) != cuda_major ||
		    (found == 0 && version_compare(cudnn, out->value) <= 0))
			continue;
		found = 0;
		str_copy(out->value, sizeof(out->value), cudnn);
		out->source = kb_field(t, r, "source");
		out->release = kb_field(t, r, "torch");
	}
	return found;
}
