/*
 * sigdb.c - build-time compiler of the error-signature catalog.
 *
 *   sigdb data/explain_signatures.tsv > build/gen/explain_db.c
 *
 * Compiles every row's pattern, plus explain's own traceback patterns, into
 * Vectorscan block-mode databases and writes them serialized as C arrays,
 * so that `gpudoctor explain` starts scanning at once and links only the
 * matching runtime. Two databases: the messages (explain_db), scanned over
 * everything, and the prose rows (explain_prose_db: topics, "@topic", trouble
 * reported, "@trouble", and the context rows, "context.*": what the writer
 * says about the machine), which explain scans only over the first bytes of
 * its input, where a pasted report's prose is, as it reads the report's
 * facts: a long log pays nothing for them. A pattern's id is its row in the
 * catalog in both. Each pattern must also compile under PCRE2, which
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

#define MAX_PATTERNS 2048

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

/*
 * Whether a row goes to the prose database: what the writer says rather than what a program prints (a
 * topic, trouble reported, or a context row: prose about the machine, "I am using a Mac").
 */
static int prose_row(const char *line, const char *cause)
{
	return strcmp(cause, "@topic") == 0 || strcmp(cause, "@trouble") == 0 || strncmp(line, "context.", 8) == 0;
}

/*
 * Compile n patterns into one database for a generic CPU and print it as the C arrays NAME and NAME_size;
 * n == 0 prints an empty one. 0, or -1 after naming the failure on stderr.
 */
static int emit(const char *name, const char *const *patterns, const unsigned *flags, const unsigned *ids, int n,
		const char *path)
{
	hs_database_t *db = NULL;
	hs_compile_error_t *cerr = NULL;
	hs_platform_info_t platform;
	char *bytes = NULL;
	size_t len = 0;

	if (n > 0) {
		memset(&platform, 0, sizeof(platform));
		platform.tune = HS_TUNE_FAMILY_GENERIC;	/* no CPU features assumed: loads anywhere */
		if (hs_compile_multi(patterns, flags, ids, (unsigned)n, HS_MODE_BLOCK, &platform, &db, &cerr) != HS_SUCCESS) {
			fprintf(stderr, "%s: the patterns of %s do not compile together: %s\n", path, name, cerr->message);
			hs_free_compile_error(cerr);
			return -1;
		}
		if (hs_serialize_database(db, &bytes, &len) != HS_SUCCESS) {
			fprintf(stderr, "sigdb: cannot serialize %s\n", name);
			hs_free_database(db);
			return -1;
		}
	}
	printf("const size_t %s_size = %zu;\n", name, len);
	printf("const unsigned char %s[] = {", name);
	for (size_t i = 0; i < len; i++)
		printf("%s0x%02x,", i % 16 ? " " : "\n\t", (unsigned char)bytes[i]);
	printf("%s};\n", len ? "\n" : " 0 ");
	free(bytes);
	hs_free_database(db);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *patterns[MAX_PATTERNS], *prose[MAX_PATTERNS];
	static unsigned flags[MAX_PATTERNS], ids[MAX_PATTERNS], prose_ids[MAX_PATTERNS], prose_flags[MAX_PATTERNS];
	static int lines[MAX_PATTERNS], prose_lines[MAX_PATTERNS];
	static char pattern_text[MAX_PATTERNS][2048];
	char *text, *line, *save = NULL, cause[64];
	int col = -1, cause_col = -1, lineno = 0, n = 0, nprose = 0, bad = 0, rows = 0;
	hs_database_t *db = NULL;
	hs_compile_error_t *cerr = NULL;

	if (argc != 2 || !(text = read_all(argv[1]))) {
		fprintf(stderr, "usage: sigdb SIGNATURES.tsv > explain_db.c\n");
		return 2;
	}
	/* Split by hand: strtok would merge the blank lines that line numbers count. */
	for (line = text; line && *line; line = save) {
		int k;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r")] == '\0')
			continue;
		if (col < 0) {
			if ((col = column_of(line, "pattern")) < 0 || (cause_col = column_of(line, "cause")) < 0) {
				fprintf(stderr, "%s:%d: no 'pattern' or 'cause' column\n", argv[1], lineno);
				return 1;
			}
			continue;
		}
		k = n + nprose;
		if (k >= MAX_PATTERNS - EXPLAIN_INTERNAL_COUNT) {
			fprintf(stderr, "%s:%d: more than %d patterns\n", argv[1], lineno, MAX_PATTERNS);
			return 1;
		}
		if (field(line, col, pattern_text[k], sizeof(pattern_text[k])) < 0 || !pattern_text[k][0] ||
		    field(line, cause_col, cause, sizeof(cause)) < 0) {
			fprintf(stderr, "%s:%d: missing or overlong pattern or cause\n", argv[1], lineno);
			bad = 1;
			continue;
		}
		if (check_pcre2(pattern_text[k], argv[1], lineno) < 0)
			bad = 1;
		if (prose_row(line, cause)) {
			prose[nprose] = pattern_text[k];
			prose_lines[nprose] = lineno;
			prose_ids[nprose++] = (unsigned)rows++;
		} else {
			patterns[n] = pattern_text[k];
			lines[n] = lineno;
			ids[n++] = (unsigned)rows++;
		}
	}
	/* every message row once more, caseless, in the prose database: a message retold in a sentence */
	for (int i = 0, messages = n; i < messages; i++) {
		if (nprose + n >= MAX_PATTERNS - EXPLAIN_INTERNAL_COUNT) {
			fprintf(stderr, "%s: more than %d patterns with the caseless copies\n", argv[1], MAX_PATTERNS);
			return 1;
		}
		prose[nprose] = patterns[i];
		prose_lines[nprose] = lines[i];
		prose_flags[nprose] = HS_FLAG_CASELESS;
		prose_ids[nprose++] = EXPLAIN_CASELESS_BASE + ids[i];
	}
	for (int i = 0; i < EXPLAIN_INTERNAL_COUNT; i++) {
		patterns[n] = explain_internal_patterns[i];
		lines[n] = 0;
		ids[n] = EXPLAIN_INTERNAL_BASE + (unsigned)i;
		n++;
	}
	if (bad)
		return 1;
	/*
	 * Check each alone first, so that a rejected pattern is named by its line (the prose rows with the rest),
	 * each with the flags it is compiled with: a caseless copy is checked caseless, not as its exact twin again.
	 */
	for (int i = 0; i < n + nprose; i++) {
		const char *one = i < n ? patterns[i] : prose[i - n];

		if (hs_compile(one, i < n ? flags[i] : prose_flags[i - n], HS_MODE_BLOCK, NULL, &db, &cerr) != HS_SUCCESS) {
			fprintf(stderr, "%s:%d: Vectorscan rejects the pattern: %s\n", argv[1],
				i < n ? lines[i] : prose_lines[i - n], cerr->message);
			hs_free_compile_error(cerr);
			bad = 1;
			continue;
		}
		hs_free_database(db);
	}
	if (bad)
		return 1;
	printf("/* Generated from %s by tools/sigdb.c. Do not edit. */\n", argv[1]);
	printf("#include <stddef.h>\n\n");
	printf("const size_t explain_db_rows = %d;\n", rows);
	if (emit("explain_db", patterns, flags, ids, n, argv[1]) < 0 ||
	    emit("explain_prose_db", prose, prose_flags, prose_ids, nprose, argv[1]) < 0)
		return 1;
	free(text);
	return 0;
}
