/*
 * archs.c - which CUDA toolkits can compile for which GPU architecture
 * (data/cuda_archs.tsv), and which cuDNN serves which CUDA major
 * (data/cudnn.tsv).
 */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

/*
 * The data/cuda_archs.tsv row for compute capability cc ("8.6" -> sm_86, "12.0" -> sm_120); *out's strings
 * are static and "" where the table has no value. -1 when the row is missing; out is then untouched.
 */
int kb_sm_support(const char *cc, struct kb_sm *out)
{
	const struct kb_table *t = &kb_table_cuda_archs;
	char sm[16];

	/* "8.6" -> "sm_86"; "12.0" -> "sm_120" */
	if (str_printf(sm, sizeof(sm), "sm_%d%d", atoi(cc), strchr(cc, '.') ? atoi(strchr(cc, '.') + 1) : 0) < 0)
		return -1;
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "sm"), sm) != 0)
			continue;
		out->row = r;
		out->sm = kb_field(t, r, "sm");
		out->arch = kb_field(t, r, "arch");
		out->added_in = kb_field(t, r, "added_in");
		out->deprecated_in = kb_field(t, r, "deprecated_in");
		out->removed_in = kb_field(t, r, "removed_in");
		out->source = kb_field(t, r, "source");
		return 0;
	}
	return -1;
}

/*
 * See kb.h. Compares the toolkit's major.minor with the sm row, which is written to *sm (not NULL) even when
 * the toolkit version is unusable; UNKNOWN when cc is not in the table.
 */
enum kb_toolkit_fit kb_toolkit_fit(const char *cuda, const char *cc, struct kb_sm *sm)
{
	char mm[16];

	if (kb_sm_support(cc, sm) < 0 || version_prefix(cuda, 2, mm, sizeof(mm)) < 0)
		return KB_TOOLKIT_UNKNOWN;
	if (sm->removed_in[0] && version_compare(mm, sm->removed_in) >= 0)
		return KB_TOOLKIT_REMOVED;
	if (sm->added_in[0] && version_compare(mm, sm->added_in) < 0)
		return KB_TOOLKIT_TOO_OLD;
	if (sm->deprecated_in[0] && version_compare(mm, sm->deprecated_in) >= 0)
		return KB_TOOLKIT_DEPRECATED;
	return KB_TOOLKIT_OK;
}

/* The newest cuDNN release whose builds include this CUDA major. */
int kb_cudnn_for_cuda(int cuda_major, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_cudnn;
	char major[8];
	long best = -1;

	str_printf(major, sizeof(major), "%d", cuda_major);
	for (size_t r = 0; r < t->nrows; r++) {
		char list[64], *save = NULL;
		bool has = false;

		str_copy(list, sizeof(list), kb_field(t, r, "cuda_majors"));
		for (char *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save))
			has |= strcmp(str_trim(m), major) == 0;
		if (has && (best < 0 || version_compare(kb_field(t, r, "cudnn"), kb_field(t, (size_t)best, "cudnn")) > 0))
			best = (long)r;
	}
	if (best < 0)
		return -1;
	str_copy(out->value, sizeof(out->value), kb_field(t, (size_t)best, "cudnn"));
	out->source = kb_field(t, (size_t)best, "source");
	out->release = NULL;
	return 0;
}

/* See kb.h. The row of the release's MAJOR.MINOR; -1 when it is not listed or its CUDA majors were not read. */
int kb_cudnn_cuda_majors(const char *cudnn, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_cudnn;
	char mm[16];

	if (version_prefix(cudnn, 2, mm, sizeof(mm)) < 0)
		return -1;
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "cudnn"), mm) != 0 || !kb_field(t, r, "cuda_majors")[0])
			continue;
		str_copy(out->value, sizeof(out->value), kb_field(t, r, "cuda_majors"));
		out->source = kb_field(t, r, "source");
		out->release = NULL;
		return 0;
	}
	return -1;
}

/*
 * See kb.h. A number matches the value column as text ("034" is not "34"); a name matches whole,
 * ignoring ASCII case. Fills at most max entries with static strings; more matches are not counted.
 */
int kb_error_lookup(const char *code, struct kb_error *out, int max)
{
	const struct kb_table *t = &kb_table_error_codes;
	int n = 0;
	bool numeric = str_is_digits(code);

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		bool hit = numeric ? strcmp(kb_field(t, r, "value"), code) == 0
				   : str_casestr(kb_field(t, r, "name"), code) == kb_field(t, r, "name") &&
					     strlen(kb_field(t, r, "name")) == strlen(code);

		if (!hit)
			continue;
		out[n].row = r;
		out[n].api = kb_field(t, r, "api");
		out[n].name = kb_field(t, r, "name");
		out[n].value = kb_field(t, r, "value");
		out[n].meaning = kb_field(t, r, "meaning");
		out[n].note = kb_field(t, r, "note");
		out[n].source = kb_field(t, r, "source");
		n++;
	}
	return n;
}
