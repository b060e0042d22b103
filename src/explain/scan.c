/*
 * scan.c - one streaming pass over the input through the signature database.
 *
 * Input is read into a fixed buffer; each run of complete lines in it is a
 * region, cleaned in place (clean.c: ANSI escape sequences; in the first
 * bytes also a posted report's quote markers, escapes and typography) and
 * matched in one block-mode scan. What follows the last newline waits for
 * the next read; a line longer than the whole buffer is scanned in buffer-sized pieces (a
 * message cut at such a seam can be missed). Line numbers are counted only
 * up to each match and once at a region's end, eight bytes at a time.
 *
 * A match costs almost nothing after the first few of its signature: a
 * count and a line number. Values are extracted (PCRE2, on the matched line
 * only) from the first match of each signature.
 */
#define _GNU_SOURCE	/* memmem, memrchr */
#define PCRE2_CODE_UNIT_WIDTH 8

#include "explain/scan_internal.h"

#include <errno.h>
#include <hs/hs_runtime.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/clean.h"
#include "explain/internal_patterns.h"
#include "kb/kb.h"
#include "paste/paste.h"
#include "util/str.h"

#define BUFFER_SIZE (1u << 20)
#define EXTRACT_WINDOW 4096	/* bytes of a long line before a match that extraction looks at */

extern const unsigned char explain_db[], explain_prose_db[];
extern const size_t explain_db_size, explain_db_rows, explain_prose_db_size;

/* See explain.h: the caller frees it with explain_close. Takes a 1 MiB buffer and a Hyperscan scratch. */
struct explain_scanner *explain_open(struct error *err)
{
	struct explain_scanner *s = calloc(1, sizeof(*s));
	hs_error_t rc;

	if (!s) {
		error_set(err, "out of memory");
		return NULL;
	}
	s->buf = malloc(BUFFER_SIZE);
	s->regex = calloc(catalog_rows(), sizeof(*s->regex));
	s->regex_caseless = calloc(catalog_rows(), sizeof(*s->regex_caseless));
	s->paste = paste_new();
	if (!s->buf || !s->regex || !s->regex_caseless || !s->paste) {
		error_set(err, "out of memory");
		explain_close(s);
		return NULL;
	}
	if (explain_db_rows != catalog_rows()) {
		error_set(err, "the signature database does not match the catalog (rebuild)");
		explain_close(s);
		return NULL;
	}
	/* one scratch serves both databases: hs_alloc_scratch grows it for the second */
	if ((rc = hs_deserialize_database((const char *)explain_db, explain_db_size, &s->db)) != HS_SUCCESS ||
	    (rc = hs_alloc_scratch(s->db, &s->scratch)) != HS_SUCCESS ||
	    (explain_prose_db_size > 0 &&
	     ((rc = hs_deserialize_database((const char *)explain_prose_db, explain_prose_db_size, &s->prose_db)) != HS_SUCCESS ||
	      (rc = hs_alloc_scratch(s->prose_db, &s->scratch)) != HS_SUCCESS))) {
		/* HS_ARCH_ERROR: the runtime needs SSSE3; the rest are a broken build or no memory */
		if (rc == HS_ARCH_ERROR)
			error_set(err, "this CPU cannot run the signature matcher (it needs SSSE3)");
		else if (rc == HS_NOMEM)
			error_set(err, "out of memory");
		else
			error_set(err, "cannot load the compiled signatures (Vectorscan error %d; rebuild)", rc);
		explain_close(s);
		return NULL;
	}
	return s;
}

/* Free the scanner and its input names, which reports from explain_rank borrow: release those first. NULL is fine. */
void explain_close(struct explain_scanner *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->regex && i < catalog_rows(); i++)
		pcre2_code_free(s->regex[i]);
	for (size_t i = 0; s->regex_caseless && i < catalog_rows(); i++)
		pcre2_code_free(s->regex_caseless[i]);
	free(s->regex);
	free(s->regex_caseless);
	pcre2_match_data_free(s->match_data);
	hs_free_scratch(s->scratch);
	hs_free_database(s->db);
	hs_free_database(s->prose_db);
	for (int i = 0; i < s->ninputs; i++)
		free(s->inputs[i]);
	free(s->buf);
	free(s->unwrapped);
	paste_free(s->paste);
	free(s);
}

/* Newlines in [p, p + n), eight bytes at a time. */
static unsigned long count_newlines(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull, nl = ones * '\n';
	unsigned long count = 0;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		w ^= nl;	/* newline bytes become zero */
		/* exact zero-byte test: high bit set only for bytes that were zero */
		w = ~(((w & ~highs) + ~highs) | w | ~highs);
		count += (unsigned long)__builtin_popcountll(w);
	}
	for (; i < n; i++)
		count += p[i] == '\n';
	return count;
}

/* The line number of region offset off: newlines are counted forward from the last position asked. */
static unsigned long line_at(struct explain_scanner *s, size_t off)
{
	if (off > s->counted) {
		s->count_line += count_newlines(s->numbered + s->counted, off - s->counted);
		s->counted = off;
	}
	return s->count_line;
}

/* Copy a line for display: the segment of a \r-rewritten line that holds the match, controls made visible. */
static void copy_display(char *out, size_t outsz, const char *start, const char *end, const char *match_end)
{
	const char *cr;
	size_t n, o = 0;

	for (cr = match_end; cr > start && cr[-1] != '\r'; cr--)
		;
	if (match_end - cr > 0 && cr > start)
		start = cr;	/* a progress bar rewrote the line: keep what was shown last before the match */
	if ((size_t)(end - start) >= outsz) {
		/* keep the match: end a little after it, start as far before as fits */
		const char *stop = match_end + 80 < end ? match_end + 80 : end;

		if (stop - start >= (ptrdiff_t)outsz)
			start = stop - (outsz - 4);
		end = stop;
	}
	n = (size_t)(end - start);
	for (size_t i = 0; i < n && o + 1 < outsz; i++) {
		unsigned char c = (unsigned char)start[i];

		out[o++] = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
	}
	while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\t' || out[o - 1] == '\r' || out[o - 1] == '?'))
		o--;
	out[o] = '\0';
}

/* Row's pattern for PCRE2, compiled on first need; caseless for a match of the row's caseless copy. */
static pcre2_code *regex_for(struct explain_scanner *s, size_t row, bool caseless)
{
	pcre2_code **re = caseless ? &s->regex_caseless[row] : &s->regex[row];
	int code;
	PCRE2_SIZE off;

	if (!*re)
		*re = pcre2_compile((PCRE2_SPTR)catalog_field(row, "pattern"), PCRE2_ZERO_TERMINATED,
				    caseless ? PCRE2_CASELESS : 0, &code, &off, NULL);
	return *re;
}

/* The named groups of row's pattern that matched in [start, end), into values. */
static int extract(struct explain_scanner *s, size_t row, bool caseless, const char *start, const char *end,
		   const char *match_end, struct explain_value *values, int max)
{
	pcre2_code *re = regex_for(s, row, caseless);
	uint32_t count = 0, entry_size = 0;
	PCRE2_SPTR table;
	PCRE2_SIZE *ov;
	int n = 0;

	if (!re)
		return 0;
	if (!s->match_data && !(s->match_data = pcre2_match_data_create(32, NULL)))
		return 0;
	/*
	 * The window may hold earlier lines (a message that spans lines) and so
	 * earlier occurrences: the last match that starts before match_end is
	 * the one the scanner saw.
	 */
	{
		PCRE2_SIZE at = 0, len = (PCRE2_SIZE)(end - start), found = PCRE2_UNSET;

		while (at <= len && pcre2_match(re, (PCRE2_SPTR)start, len, at, 0, s->match_data, NULL) >= 0) {
			ov = pcre2_get_ovector_pointer(s->match_data);
			if (start + ov[0] >= match_end && found != PCRE2_UNSET)
				break;
			found = ov[0];
			at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
		}
		if (found == PCRE2_UNSET ||
		    pcre2_match(re, (PCRE2_SPTR)start, len, found, 0, s->match_data, NULL) < 0)
			return 0;
	}
	ov = pcre2_get_ovector_pointer(s->match_data);
	pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
	pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
	for (uint32_t i = 0; i < count && n < max; i++, table += entry_size) {
		unsigned group = ((unsigned)table[0] << 8) | table[1];
		PCRE2_SIZE a = ov[2 * group], b = ov[2 * group + 1];

		if (a == PCRE2_UNSET || b < a)
			continue;
		str_copy(values[n].name, sizeof(values[n].name), (const char *)table + 2);
		/* an overlong value keeps its start (a detail reads left to right), a path its end (the file) */
		if (b - a >= sizeof(values[n].value) && !memchr(start + a, '/', b - a))
			b = a + sizeof(values[n].value) - 1;
		copy_display(values[n].value, sizeof(values[n].value), start + a, start + b, start + b);
		if (values[n].value[0])
			n++;
	}
	return n;
}

/* Whether row has matched already, under any key (in the scan of wrapped lines: before it). */
static bool row_seen(const struct explain_scanner *s, size_t row)
{
	for (int i = 0; i < (s->unwrapping ? s->unwrap_nhits : s->nhits); i++)
		if (s->hits[i].row == row && s->hits[i].count > 0)
			return true;
	return false;
}

/* The hit for this row (and, for rows keyed by a value such as an Xid, that value); NULL when full. */
static struct explain_hit *hit_for(struct explain_scanner *s, size_t row, const char *key)
{
	for (int i = 0; i < s->nhits; i++)
		if (s->hits[i].row == row && strcmp(s->hits[i].key, key) == 0)
			return &s->hits[i];
	if (s->nhits >= EXPLAIN_MAX_HITS)
		return NULL;
	memset(&s->hits[s->nhits], 0, sizeof(s->hits[0]));
	s->hits[s->nhits].row = row;
	str_copy(s->hits[s->nhits].key, sizeof(s->hits[0].key), key);
	return &s->hits[s->nhits++];
}

static void keep_line(struct explain_hit *h, int input, unsigned long number, const char *start, const char *end,
		      const char *match_end)
{
	struct explain_line *l;

	if (h->nlines > 0 && h->lines[h->nlines - 1].number == number && h->lines[h->nlines - 1].input == input)
		return;
	/* the first three lines, then the latest in the last slot */
	l = h->nlines < EXPLAIN_MAX_LINES ? &h->lines[h->nlines++] : &h->lines[EXPLAIN_MAX_LINES - 1];
	l->input = input;
	l->number = number;
	copy_display(l->text, sizeof(l->text), start, end, match_end);
}

static void on_traceback(struct explain_scanner *s, unsigned which, const char *start, const char *end,
			 unsigned long number)
{
	if (which == EXPLAIN_TRACEBACK_START) {
		s->frame[0] = '\0';
		return;
	}
	/* Frames run outermost to innermost: keep the innermost one outside installed packages. */
	if (memmem(start, (size_t)(end - start), "-packages", 9) || memmem(start, (size_t)(end - start), "/lib/python", 11))
		return;
	copy_display(s->frame, sizeof(s->frame), start, end, end);
	s->frame_line = number;
	s->frame_input = s->ninputs - 1;
	{
		/* "  File "x.py", line 3, in f" -> "x.py, line 3, in f" reads better */
		char *p = s->frame;

		while (*p == ' ' || *p == '\t')
			p++;
		memmove(s->frame, p, strlen(p) + 1);
	}
}

static int on_match(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void *ctx)
{
	struct explain_scanner *s = ctx;
	const char *region = s->region, *match_end, *start, *end, *window;
	unsigned long number;
	struct explain_hit *h;
	char key[sizeof(s->hits[0].key)] = "";
	struct explain_value values[EXPLAIN_MAX_VALUES];
	int nvalues = -1;	/* not read yet */
	bool caseless = id >= EXPLAIN_CASELESS_BASE;
	size_t row = caseless ? id - EXPLAIN_CASELESS_BASE : id;

	(void)from;
	(void)flags;
	/* a row's caseless copy reads what its exact pattern did not: a message retold in other case; the scan
	 * of wrapped lines reads what no row's pattern found in the lines as they stand */
	if ((caseless || s->unwrapping) && row_seen(s, row))
		return 0;
	if (s->unwrapping && row >= EXPLAIN_INTERNAL_BASE)
		return 0;	/* the traceback was read in the lines as they stand */
	if (to > s->region_len)
		to = s->region_len;
	/* a match that takes the newline belongs to the line it ends, not the next */
	if (to > 0 && region[to - 1] == '\n')
		to--;
	match_end = region + to;
	/* memrchr: on a line of a megabyte, every signature that matches it walks back to its start */
	start = to > 0 ? memrchr(region, '\n', (size_t)to) : NULL;
	start = start ? start + 1 : region;
	end = memchr(match_end, '\n', s->region_len - (size_t)to);
	if (!end)
		end = region + s->region_len;
	/* the line where the match's line starts: of joined lines, the first */
	number = line_at(s, (size_t)(start - region)) + 1;
	/* A pattern with an open-ended tail matches at many ends on one line: the first one counts. */
	if (row < EXPLAIN_INTERNAL_BASE && s->last_row_line[row % LAST_ROW_SLOTS].row == row + 1 &&
	    s->last_row_line[row % LAST_ROW_SLOTS].line == number && s->last_row_line[row % LAST_ROW_SLOTS].input == s->ninputs)
		return 0;
	if (row >= EXPLAIN_INTERNAL_BASE) {
		on_traceback(s, row - EXPLAIN_INTERNAL_BASE, start, end, number);
		return 0;
	}
	window = match_end - region > EXTRACT_WINDOW ? match_end - EXTRACT_WINDOW : region;
	s->last_row_line[row % LAST_ROW_SLOTS].row = row + 1;
	s->last_row_line[row % LAST_ROW_SLOTS].line = number;
	s->last_row_line[row % LAST_ROW_SLOTS].input = s->ninputs;
	/* a keyed row's values are read on every match (they pick the hit); others' on their first */
	if (catalog_keyed(row)) {
		nvalues = extract(s, row, caseless, window, end, match_end, values, EXPLAIN_MAX_VALUES);
		for (int i = 0; i < nvalues; i++)
			if (strcmp(values[i].name, catalog_key_name(row)) == 0)
				str_copy(key, sizeof(key), values[i].value);
	}
	if (!(h = hit_for(s, row, key)))
		return 0;
	if (h->count == 0) {
		h->first_input = s->ninputs - 1;
		h->first = number;
		if (nvalues < 0)
			nvalues = extract(s, row, caseless, window, end, match_end, values, EXPLAIN_MAX_VALUES);
		memcpy(h->values, values, (size_t)nvalues * sizeof(values[0]));
		h->nvalues = nvalues;
		if (s->frame[0] && s->frame_input == s->ninputs - 1 && number >= s->frame_line &&
		    number - s->frame_line < 200)
			str_copy(h->where, sizeof(h->where), s->frame);
	}
	h->count++;
	keep_line(h, s->ninputs - 1, number, start, end, match_end);
	return 0;
}

/*
 * A hit of the catalog row id that a fact of the paste (not a match) gives, counted once more, at input's line
 * where it is the row's first; NULL when the catalog lacks the row or the hits are full.
 */
static struct explain_hit *hit_from_fact(struct explain_scanner *s, const char *id, int input, unsigned long line)
{
	size_t row = catalog_row(id);
	struct explain_hit *h;

	if (row == catalog_rows() || !(h = hit_for(s, row, "")))
		return NULL;
	if (h->count == 0) {
		h->first_input = input;
		h->first = line;
	}
	h->count++;
	return h;
}

/*
 * An application-fault Xid (one data/xid.tsv reads as runtime.illegal-address) where the text names a graphics
 * client: the row context.xid-graphics-client gains a hit at the Xid's first line, once, so the driver fault
 * ranks above a CUDA program's illegal access.
 */
static void xid_hit_from_graphics(struct explain_scanner *s)
{
	const struct paste *p = s->paste;
	struct explain_hit *h, *xid = NULL;

	if (s->graphics_xid_added || !p->graphics_client_named[0])
		return;
	/* the kernel's own line (its row's confidence is the highest) gives the values: the GPU's bus */
	for (int i = 0; i < s->nhits; i++) {
		enum cause_id cause;
		int conf;
		const char *name, *action, *src;

		if (catalog_keyed(s->hits[i].row) &&
		    catalog_xid(s->hits[i].key, &cause, &conf, &name, &action, &src) && cause == CAUSE_RUNTIME_ILLEGAL_ADDRESS &&
		    (!xid || catalog_confidence(s->hits[i].row) > catalog_confidence(xid->row)))
			xid = &s->hits[i];
	}
	if (!xid)
		return;
	s->graphics_xid_added = true;
	if (!(h = hit_from_fact(s, "context.xid-graphics-client", xid->first_input, xid->first)))
		return;
	if (h->count == 1) {	/* new: the kernel line's values */
		memcpy(h->values, xid->values, sizeof(h->values));
		h->nvalues = xid->nvalues;
	}
	for (int i = 0; i < xid->nlines && h->nlines < EXPLAIN_MAX_LINES; i++)
		h->lines[h->nlines++] = xid->lines[i];
}

/*
 * A GPU the prose names that the newest PyTorch release has no wheel for ("I have GeForce GT 650M": compute
 * capability 3.0): the row context.gpu-older-than-torch gains a hit at that line, once, with the card, its
 * capability and, where one exists, the newest release whose wheel runs on it and the command that installs it.
 */
static void hit_from_old_gpu(struct explain_scanner *s)
{
	const struct paste *p = s->paste;
	const char *newest, *fits, *variant, *text = p->gpu_named_text;
	struct explain_hit *h;

	if (s->old_gpu_added || !p->gpu_named[0])
		return;
	s->old_gpu_added = true;
	kb_torch_releases_for_cc(p->gpu_named_cc, &newest, &fits, &variant);
	if (!newest[0] || strcmp(newest, fits) == 0)
		return;
	if (!(h = hit_from_fact(s, "context.gpu-older-than-torch", p->gpu_named_input, p->gpu_named_line)))
		return;
	if (h->nvalues == 0) {
		struct kb_torch_variant v[16];
		int n = fits[0] ? kb_torch_variants(fits, v, 16) : 0;

		explain_value_add(h->values, &h->nvalues, "gpu", p->gpu_named);
		explain_value_add(h->values, &h->nvalues, "arch", p->gpu_named_cc);
		explain_value_add(h->values, &h->nvalues, "found", fits);
		for (int i = 0; i < n; i++)
			if (strcmp(v[i].variant, variant) == 0) {
				char command[200];

				kb_torch_pip_command(&v[i], command, sizeof(command));
				explain_value_add(h->values, &h->nvalues, "install", command);
			}
	}
	keep_line(h, p->gpu_named_input, p->gpu_named_line, text, text + strlen(text), text + strlen(text));
}

/*
 * What the paste's facts show that no one line says, as a hit of the catalog row that reads the same in prose,
 * at the later line that showed it: a package list and the import disagreeing on torch's version is the row of
 * two installs (its differential offers another interpreter too). Once, when the paste first shows it.
 */
static void hits_from_paste(struct explain_scanner *s)
{
	const struct paste *p = s->paste;
	const char *text = p->torch_versions_differ_text;
	struct explain_hit *h;

	if (s->paste_hits_added || !p->torch_versions_differ_named[0])
		return;
	s->paste_hits_added = true;
	if (!(h = hit_from_fact(s, "context.torch-installed-twice", p->torch_versions_differ_input,
				p->torch_versions_differ_line)))
		return;
	keep_line(h, p->torch_versions_differ_input, p->torch_versions_differ_line, text, text + strlen(text),
		  text + strlen(text));
}

/*
 * Scan p[0..n) again with its wrapped lines joined (clean_unwrap), for the rows that found nothing in the lines
 * as they stand: a message a reporter's editor broke in two. The joined text keeps every offset, and its
 * lines are numbered by p's newlines, so a match names the first line of the sentence.
 */
static void scan_unwrapped(struct explain_scanner *s, const char *p, size_t n)
{
	if (!clean_wrapped(p, n))
		return;
	if (!s->unwrapped && !(s->unwrapped = malloc(BUFFER_SIZE)))
		return;	/* no memory: the lines as they stand were read */
	memcpy(s->unwrapped, p, n);
	clean_unwrap(s->unwrapped, n);
	s->unwrapping = true;
	s->unwrap_nhits = s->nhits;
	s->region = s->unwrapped;
	s->counted = 0;
	s->count_line = s->line_base;
	hs_scan(s->db, s->unwrapped, (unsigned)n, 0, s->scratch, on_match, s);
	if (s->prose_db) {
		s->counted = 0;
		s->count_line = s->line_base;
		hs_scan(s->prose_db, s->unwrapped, (unsigned)n, 0, s->scratch, on_match, s);
	}
	s->unwrapping = false;
	s->region = p;
	s->counted = 0;
	s->count_line = s->line_base;
}

static void scan_region(struct explain_scanner *s, char *p, size_t n)
{
	if (memchr(p, 0x1b, n))
		n = clean_ansi(p, n);
	/* a posted report's quotes, escapes and typography: in the first bytes, where reports are pasted */
	if (s->paste->bytes < PASTE_MAX_BYTES)
		n = clean_posted(p, n);
	s->region = s->numbered = p;
	s->region_len = n;
	s->counted = 0;
	s->count_line = s->line_base;
	hs_scan(s->db, p, (unsigned)n, 0, s->scratch, on_match, s);
	/* the facts of a pasted report (src/paste) and its prose (topics, trouble reported, context rows): only
	 * the first PASTE_MAX_BYTES are read; the prose rows scan the region again from its first line */
	if (s->paste->bytes < PASTE_MAX_BYTES) {
		if (s->prose_db) {
			s->counted = 0;
			s->count_line = s->line_base;
			hs_scan(s->prose_db, p, (unsigned)n, 0, s->scratch, on_match, s);
		}
		scan_unwrapped(s, p, n);
		paste_feed(s->paste, p, n, s->ninputs - 1, s->line_base);
	}
	hits_from_paste(s);
	xid_hit_from_graphics(s);
	hit_from_old_gpu(s);
	s->line_base = line_at(s, n);
	s->bytes += n;
}

/* Scan the complete lines in the buffer (everything, at the end of input or when one line fills it). */
static void scan_buffered(struct explain_scanner *s, bool at_end)
{
	char *nl = s->len ? memrchr(s->buf, '\n', s->len) : NULL;
	size_t upto;

	if (nl)
		upto = (size_t)(nl - s->buf) + 1;
	else if (at_end || s->len == BUFFER_SIZE)
		upto = s->len;
	else
		return;
	if (upto == 0)
		return;
	/* The last piece of input without a final newline still ends a line. */
	scan_region(s, s->buf, upto);
	if (at_end && upto == s->len && s->buf[upto - 1] != '\n')
		s->line_base++;
	memmove(s->buf, s->buf + upto, s->len - upto);
	s->len -= upto;
}

static int begin_input(struct explain_scanner *s, const char *name, struct error *err)
{
	if (s->ninputs >= EXPLAIN_MAX_INPUTS)
		return error_set(err, "more than %d inputs", EXPLAIN_MAX_INPUTS);
	if (!(s->inputs[s->ninputs] = str_dup(name)))
		return error_set(err, "out of memory");
	s->ninputs++;
	s->line_base = 0;
	s->len = 0;
	s->frame[0] = '\0';
	return 0;
}

static void end_input(struct explain_scanner *s)
{
	scan_buffered(s, true);
	s->lines += s->line_base;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * See explain.h. Reads until end of file, so it blocks as long as the writer keeps the pipe open. name is
 * copied. When the tee fails, copying stops and scanning goes on; a reader that went away (EPIPE) is no
 * error, any other write error is returned once the input is scanned.
 */
int explain_feed_fd(struct explain_scanner *s, int fd, const char *name, int tee_fd, struct error *err)
{
	int rc = 0;

	if (begin_input(s, name, err) < 0)
		return -1;
	for (;;) {
		ssize_t r = read(fd, s->buf + s->len, BUFFER_SIZE - s->len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = error_errno(err, errno, "%s", name);
			break;
		}
		if (r == 0)
			break;
		if (tee_fd >= 0 && write_all(tee_fd, s->buf + s->len, (size_t)r) < 0) {
			/* keep diagnosing, stop copying; a reader that went away is the pipeline's business */
			if (errno != EPIPE && rc == 0)
				rc = error_errno(err, errno, "cannot pass the log through");
			tee_fd = -1;
			s->tee_failed = true;
		}
		s->len += (size_t)r;
		scan_buffered(s, false);
	}
	end_input(s);
	return rc;
}

/* Like explain_feed_fd over memory, no tee: -1 only past EXPLAIN_MAX_INPUTS inputs or when out of memory. */
int explain_feed_text(struct explain_scanner *s, const char *text, size_t len, const char *name, struct error *err)
{
	if (begin_input(s, name, err) < 0)
		return -1;
	while (len > 0) {
		size_t n = BUFFER_SIZE - s->len < len ? BUFFER_SIZE - s->len : len;

		memcpy(s->buf + s->len, text, n);
		s->len += n;
		text += n;
		len -= n;
		scan_buffered(s, false);
	}
	end_input(s);
	return 0;
}
