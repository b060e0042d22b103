/*
 * cuda_driver.c - CUDA toolkit <-> NVIDIA driver, from data/cuda_driver.tsv.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

/* Exact, case-sensitive match of a column name; -1 when the table has no such column. */
int kb_column(const struct kb_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncolumns; i++)
		if (strcmp(t->columns[i], name) == 0)
			return (int)i;
	return -1;
}

/* The static cell text; "" (never NULL) for a row or column out of range, so -1 from kb_column is safe. */
const char *kb_cell(const struct kb_table *t, size_t row, int column)
{
	if (row >= t->nrows || column < 0 || (size_t)column >= t->ncolumns)
		return "";
	return t->cells[row * t->ncolumns + (size_t)column];
}

/* See kb.h. A linear search of the column names per call; never NULL. */
const char *kb_field(const struct kb_table *t, size_t row, const char *column)
{
	return kb_cell(t, row, kb_column(t, column));
}

static void answer(struct kb_answer *out, const struct kb_table *t, size_t row, const char *value)
{
	str_copy(out->value, sizeof(out->value), value);
	out->source = kb_cell(t, row, kb_column(t, "source"));
	out->release = kb_cell(t, row, kb_column(t, "release"));
}

/*
 * Looks only at the version's major.minor. Falls back to the first toolkit row with a driver when there is
 * no GA row. out->release is "" rather than NULL when the row names none. -1 when CUDA is not listed.
 */
int kb_cuda_min_driver(const char *cuda_version, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda");
	int rel = kb_column(t, "release"), drv = kb_column(t, "linux_min_driver");
	char mm[16];
	long first = -1;

	if (version_prefix(cuda_version, 2, mm, sizeof(mm)) < 0)
		return -1;
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_cell(t, r, kind), "toolkit") != 0 || strcmp(kb_cell(t, r, cuda), mm) != 0 ||
		    !kb_cell(t, r, drv)[0])
			continue;
		if (first < 0)
			first = (long)r;
		if (strstr(kb_cell(t, r, rel), "GA")) {
			answer(out, t, r, kb_cell(t, r, drv));
			return 0;
		}
	}
	if (first < 0)
		return -1;
	answer(out, t, (size_t)first, kb_cell(t, (size_t)first, drv));
	return 0;
}

/* Whether release names version as a whole word: "11.0.3 Update 1" names 11.0.3, not 11.0 or 11.0.31. */
static bool release_names(const char *release, const char *version)
{
	size_t n = strlen(version);

	for (const char *p = strstr(release, version); p; p = strstr(p + 1, version)) {
		bool starts = p == release || !(isdigit((unsigned char)p[-1]) || p[-1] == '.');
		bool ends = !(isdigit((unsigned char)p[n]) || (p[n] == '.' && isdigit((unsigned char)p[n + 1])));

		if (starts && ends)
			return true;
	}
	return false;
}

/*
 * The update of a version whose third part is a single digit (12.4.1 is "12.4 Update 1"); 0 otherwise.
 * nvcc prints a build number there instead (V12.4.131), which names no update.
 */
static int update_number(const char *version)
{
	const char *p = strchr(version, '.');

	p = p ? strchr(p + 1, '.') : NULL;
	if (!p || !isdigit((unsigned char)p[1]) || p[1] == '0' || p[2] != '\0')
		return 0;
	return p[1] - '0';
}

/* See kb.h: the row of the exact release when the table has one, else kb_cuda_min_driver's GA row. */
int kb_cuda_release_min_driver(const char *cuda_version, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda");
	int rel = kb_column(t, "release"), drv = kb_column(t, "linux_min_driver");
	int update = update_number(cuda_version);
	char mm[16], suffix[16];

	if (version_prefix(cuda_version, 2, mm, sizeof(mm)) < 0)
		return -1;
	str_printf(suffix, sizeof(suffix), " Update %d", update);
	for (int pass = 0; pass < 2; pass++)
		for (size_t r = 0; r < t->nrows; r++) {
			const char *release = kb_cell(t, r, rel);

			if (strcmp(kb_cell(t, r, kind), "toolkit") != 0 || strcmp(kb_cell(t, r, cuda), mm) != 0 ||
			    !kb_cell(t, r, drv)[0])
				continue;
			if (pass == 0 ? release_names(release, cuda_version)
				      : update > 0 && str_ends_with(release, suffix)) {
				answer(out, t, r, kb_cell(t, r, drv));
				return 0;
			}
		}
	return kb_cuda_min_driver(cuda_version, out);
}

/*
 * -1 for NULL or a driver that is not a dotted version, and for one older than every toolkit row. The
 * answer is the cuda column (major.minor) of the newest row this driver meets, with that row's source.
 */
int kb_cuda_max_for_driver(const char *driver, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda"), drv = kb_column(t, "linux_min_driver");
	long best = -1;

	if (!driver || !version_is_valid(driver))
		return -1;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *min = kb_cell(t, r, drv);

		if (strcmp(kb_cell(t, r, kind), "toolkit") != 0 || !min[0] || version_compare(driver, min) < 0)
			continue;
		if (best < 0 || version_compare(kb_cell(t, r, cuda), kb_cell(t, (size_t)best, cuda)) > 0)
			best = (long)r;
	}
	if (best < 0)
		return -1;
	answer(out, t, (size_t)best, kb_cell(t, (size_t)best, cuda));
	return 0;
}

/* The first minor_compat row for the major, static source and release; -1 when the table has none. */
int kb_cuda_minor_compat_driver(int cuda_major, struct kb_answer *out)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda"), drv = kb_column(t, "linux_min_driver");
	char major[16];

	str_printf(major, sizeof(major), "%d", cuda_major);
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_cell(t, r, kind), "minor_compat") == 0 && strcmp(kb_cell(t, r, cuda), major) == 0) {
			answer(out, t, r, kb_cell(t, r, drv));
			return 0;
		}
	}
	return -1;
}

/* -1 when the table has no minor_compat row at all. */
int kb_cuda_oldest_compat_major(void)
{
	const struct kb_table *t = &kb_table_cuda_driver;
	int kind = kb_column(t, "kind"), cuda = kb_column(t, "cuda");
	int oldest = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_cell(t, r, kind), "minor_compat") == 0) {
			int m = atoi(kb_cell(t, r, cuda));

			if (oldest < 0 || m < oldest)
				oldest = m;
		}
	}
	return oldest;
}
