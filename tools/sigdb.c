/*
 * sigdb.c - build-time compiler of the error-signature catalog.
 *
 *   sigdb data/explain_signatures.tsv > build/gen/explain_db.c
 *
 * Compiles every row's pattern, plus explain's own traceback patterns, into
 * one Vectorscan block-mode database and writes it serialized as a C array,
 * so that `gpudoctor explain` starts scanning at once and links only the
 * matching runtime. Each pattern must also compile under PCRE2, which
 * extracts the named values from a matched line at run time. A pattern that
 * either library rejects fails the build, naming its line.
 *
 * The database is built for a generic x86-64 (or the build's architecture)
 * so that it loads on any CPU the runtime supports.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <hs/hs.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/internal_patterns.h"

#define MAX_PATTERNS 1024

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The index of the column named name in a tab-separated header line, or -1. */
static int column_of(char *header, const char *name)
{
	int col = 0;

	for (char *p = header;; col++) {
		size_t len = strcspn(p, "\t\r");

		if (len == strlen(name) && strncmp(p, name, len) == 0)
			return col;
		if (p[len] != '\t')
			return -1;
		p += len + 1;
	}
}

/* The col'th field of a tab-separated line, copied NUL-terminated into out. */
static int field(const char *line, int col, char *out, size_t outsz)
{
	size_t len;

	while (col-- > 0) {
		line = strchr(line, '\t');
		if (!line)
			return -1;
		line++;
	}
	len = strcspn(line, "\t\r");
	if (len >= outsz)
		return -1;
	memcpy(out, line, len);
	out[len] = '\0';
	return 0;
}

static int check_pcre2(const char *pattern, const char *path, int lineno)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &errcode, &erroff, NULL);
	PCRE2_UCHAR msg[256];

	if (re) {
		pcre2_code_free(re);
		return 0;
	}
	pcre2_get_error_message(errcode, msg, sizeof(msg));
	fprintf(stderr, "%s:%d: PCRE2 rejects the pattern at offset %zu: %s\n", path, lineno, (size_t)erroff,
		(const char *)msg);
	return -1;
}

int main(int argc, char **argv)
{
	static const char *patterns[MAX_PATTERNS];
	static unsigned flags[MAX_PATTERNS], ids[MAX_PATTERNS];
	static int lines[MAX_PATTERNS];
	static char pattern_text[MAX_PATTERNS][2048];
	char *text, *line, *save = NULL;
	int col = -1, lineno = 0, n = 0, bad = 0, rows = 0;
	hs_database_t *db = NULL;
	hs_compile_error_t *cerr = NULL;
	hs_platform_info_t platform;
	char *bytes = NULL;
	size_t len = 0;

	if (argc != 2 || !(text = read_all(argv[1]))) {
		fprintf(stderr, "usage: sigdb SIGNATURES.tsv > explain_db.c\n");
		return 2;
	}
	/* Split by hand: strtok would merge the blank lines that line numbers count. */
	for (line = text; line && *line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r")] == '\0')
			continue;
		if (col < 0) {
			if ((col = column_of(line, "pattern")) < 0) {
				fprintf(stderr, "%s:%d: no 'pattern' column\n", argv[1], lineno);
				return 1;
			}
			continue;
		}
		if (n >= MAX_PATTERNS - EXPLAIN_INTERNAL_COUNT) {
			fprintf(stderr, "%s:%d: more than %d patterns\n", argv[1], lineno, MAX_PATTERNS);
			return 1;
		}
		if (field(line, col, pattern_text[n], sizeof(pattern_text[n])) < 0 || !pattern_text[n][0]) {
			fprintf(stderr, "%s:%d: missing or overlong pattern\n", argv[1], lineno);
			bad = 1;
			continue;
		}
		if (check_pcre2(pattern_text[n], argv[1], lineno) < 0)
			bad = 1;
		patterns[n] = pattern_text[n];
		lines[n] = lineno;
		ids[n] = (unsigned)rows++;
		n++;
	}
	for (int i = 0; i < EXPLAIN_INTERNAL_COUNT; i++) {
		patterns[n] = explain_internal_patterns[i];
		lines[n] = 0;
		ids[n] = EXPLAIN_INTERNAL_BASE + (unsigned)i;
		n++;
	}
	if (bad)
		return 1;
	/* Check each alone first, so that a rejected pattern is named by its line. */
	for (int i = 0; i < n; i++) {
		if (hs_compile(patterns[i], flags[i], HS_MODE_BLOCK, NULL, &db, &cerr) != HS_SUCCESS) {
			fprintf(stderr, "%s:%d: Vectorscan rejects the pattern: %s\n", argv[1], lines[i], cerr->message);
			hs_free_compile_error(cerr);
			bad = 1;
			continue;
		}
		hs_free_database(db);
	}
	if (bad)
		return 1;
	memset(&platform, 0, sizeof(platform));
	platform.tune = HS_TUNE_FAMILY_GENERIC;	/* no CPU features assumed: loads anywhere */
	if (hs_compile_multi(patterns, flags, ids, (unsigned)n, HS_MODE_BLOCK, &platform, &db, &cerr) != HS_SUCCESS) {
		fprintf(stderr, "%s: the patterns do not compile together: %s\n", argv[1], cerr->message);
		hs_free_compile_error(cerr);
		return 1;
	}
	if (hs_serialize_database(db, &bytes, &len) != HS_SUCCESS) {
		fprintf(stderr, "sigdb: cannot serialize the database\n");
		return 1;
	}
	printf("/* Generated from %s by tools/sigdb.c. Do not edit. */\n", argv[1]);
	printf("#include <stddef.h>\n\n");
	printf("const size_t explain_db_rows = %d;\n", rows);
	printf("const size_t explain_db_size = %zu;\n", len);
	printf("const unsigned char explain_db[] = {");
	for (size_t i = 0; i < len; i++)
		printf("%s0x%02x,", i % 16 ? " " : "\n\t", (unsigned char)bytes[i]);
	printf("\n};\n");
	free(bytes);
	hs_free_database(db);
	free(text);
	return 0;
}
