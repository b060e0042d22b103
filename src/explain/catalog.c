/*
 * catalog.c - the compiled-in signature catalog (data/explain_signatures.tsv)
 * and the Xid table (data/xid.tsv). Where each cause sits in the causal
 * chain is the cause registry's (cause/cause.h).
 */
#include "explain/scan_internal.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"

/* Rows of the compiled-in signature catalog; fixed for the life of the program. */
size_t catalog_rows(void)
{
	return kb_table_explain_signatures.nrows;
}

/* A static cell of the catalog; "" (never NULL) for an unknown column or a row out of range. */
const char *catalog_field(size_t row, const char *column)
{
	return kb_field(&kb_table_explain_signatures, row, column);
}

/* The row whose id is id; catalog_rows() when none. A linear search: for the few rows read by name. */
size_t catalog_row(const char *id)
{
	size_t row;

	for (row = 0; row < catalog_rows() && strcmp(catalog_field(row, "id"), id) != 0; row++)
		;
	return row;
}

/* True for rows whose cause column is "@xid": the Xid value they extract decides the cause. */
bool catalog_keyed(size_t row)
{
	return strcmp(catalog_field(row, "cause"), "@xid") == 0;
}

/* The static group name ("xid") of a keyed row, NULL for any other row. */
const char *catalog_key_name(size_t row)
{
	return catalog_keyed(row) ? "xid" : NULL;
}

static int number_or(const char *s, int fallback)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end != s && *end == '\0' && v > 0 && v <= 100 ? (int)v : fallback;
}

/* The row's confidence, 1..100; a missing or out-of-range value reads 50 rather than failing. */
int catalog_confidence(size_t row)
{
	return number_or(catalog_field(row, "confidence"), 50);
}

/*
 * A cause named in a data table: tools/check-cause-refs has checked every
 * one against the registry at build time, so a miss cannot happen; gpu.xid
 * is the harmless answer if it did.
 */
static enum cause_id cause_of(const char *name)
{
	enum cause_id cause;

	return cause_by_name(name, &cause) ? cause : CAUSE_GPU_XID;
}

/* True for rows whose cause column is "@symptom". */
bool catalog_symptom(size_t row)
{
	return strcmp(catalog_field(row, "cause"), "@symptom") == 0;
}

/* True for rows whose cause column is "@topic". */
bool catalog_topic(size_t row)
{
	return strcmp(catalog_field(row, "cause"), "@topic") == 0;
}

/* True for rows whose cause column is "@trouble". */
bool catalog_trouble(size_t row)
{
	return strcmp(catalog_field(row, "cause"), "@trouble") == 0;
}

/* Whether the row names a cause (or an Xid that does): symptoms and topics offer alternatives, trouble nothing. */
bool catalog_names_cause(size_t row)
{
	return !catalog_symptom(row) && !catalog_topic(row) && !catalog_trouble(row);
}

/* Rows of data/explain_alternatives.tsv; fixed for the life of the program. */
size_t catalog_alt_rows(void)
{
	return kb_table_explain_alternatives.nrows;
}

/* A static cell of the alternatives table, "" (never NULL) for an unknown column or a row out of range. */
const char *catalog_alt_field(size_t alt, const char *column)
{
	return kb_field(&kb_table_explain_alternatives, alt, column);
}

/* Whether sig is one of the comma-separated ids of the row's "of" cell (whole ids only). */
bool catalog_alt_of(size_t alt, const char *sig)
{
	const char *p = catalog_alt_field(alt, "of");
	size_t n = strlen(sig);

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, sig, n) == 0)
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

/* The alternative's cause (checked against the registry at build time). */
enum cause_id catalog_alt_cause(size_t alt)
{
	return cause_of(catalog_alt_field(alt, "cause"));
}

/* The alternative's prior weight, 1..100 (50 when the cell is malformed, which the build rules out). */
int catalog_alt_weight(size_t alt)
{
	return number_or(catalog_alt_field(alt, "weight"), 50);
}

/* gpu.xid for keyed rows and for a name the registry lacks (which the build's check rules out). */
enum cause_id catalog_cause(size_t row)
{
	return catalog_keyed(row) ? CAUSE_GPU_XID : cause_of(catalog_field(row, "cause"));
}

/*
 * Exact match on the Xid's decimal text. On true every out-parameter is set, the strings static; on false
 * none is touched.
 */
bool catalog_xid(const char *xid, enum cause_id *cause, int *confidence, const char **name, const char **action,
		 const char **source)
{
	const struct kb_table *t = &kb_table_xid;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "xid"), xid) != 0)
			continue;
		*cause = cause_of(kb_field(t, r, "cause"));
		*confidence = number_or(kb_field(t, r, "confidence"), 50);
		*name = kb_field(t, r, "name");
		*action = kb_field(t, r, "action");
		*source = kb_field(t, r, "source");
		return true;
	}
	return false;
}
