/*
 * scan_internal.h - the scanner's state and the catalog it reads, shared by
 * scan.c, catalog.c and rank.c only.
 */
#ifndef GD_EXPLAIN_SCAN_INTERNAL_H
#define GD_EXPLAIN_SCAN_INTERNAL_H

#include "explain/explain.h"

#define EXPLAIN_MAX_HITS 256	/* distinct (signature, key) pairs kept */
#define LAST_ROW_SLOTS 64

struct hs_database;
struct hs_scratch;
struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

/* What the scan saw of one catalog row (per key value, for rows keyed by one, such as Xids). */
struct explain_hit {
	size_t row;
	char key[16];
	unsigned long count;
	int first_input;
	unsigned long first;		/* line number of the first match */
	struct explain_line lines[EXPLAIN_MAX_LINES];
	int nlines;
	struct explain_value values[EXPLAIN_MAX_VALUES];	/* from the first match */
	int nvalues;
	char where[EXPLAIN_LINE_TEXT];
};

struct explain_scanner {
	struct hs_database *db;
	struct hs_database *prose_db;	/* prose rows (topics, trouble, context.*): the first PASTE_MAX_BYTES only */
	struct hs_scratch *scratch;
	struct pcre2_real_code_8 **regex;	/* per row, compiled on its first match */
	struct pcre2_real_code_8 **regex_caseless;	/* the same, for a match of the row's caseless copy */
	struct pcre2_real_match_data_8 *match_data;
	char *buf;
	size_t len;
	/* the region being scanned: its text, and the text whose newlines number its lines (the same but in the
	 * second scan of wrapped lines, whose text has them joined) */
	const char *region, *numbered;
	size_t region_len, counted;
	unsigned long count_line, line_base;
	char *unwrapped;		/* BUFFER_SIZE bytes for that second scan, taken on its first need */
	int unwrap_nhits;		/* while it runs, the hits before it: only rows none of them matched count */
	bool unwrapping;
	struct {
		size_t row;	/* row + 1; 0 = empty */
		unsigned long line;
		int input;
	} last_row_line[LAST_ROW_SLOTS];
	/* the innermost frame of the traceback being read */
	char frame[EXPLAIN_LINE_TEXT];
	unsigned long frame_line;
	int frame_input;
	struct explain_hit hits[EXPLAIN_MAX_HITS];
	int nhits;
	char *inputs[EXPLAIN_MAX_INPUTS];
	int ninputs;
	unsigned long long bytes, lines;
	bool tee_failed;
	bool paste_hits_added;		/* hits_from_paste() has run its once */
	bool graphics_xid_added;	/* xid_hit_from_graphics() has added its hit */
	bool old_gpu_added;		/* hit_from_old_gpu() has run its once */
	struct paste *paste;		/* the facts the text shows (src/paste), read from its first lines */
};

/* The catalog: data/explain_signatures.tsv and data/xid.tsv as compiled in. */
size_t catalog_rows(void);
const char *catalog_field(size_t row, const char *column);
/* The row whose id is id; catalog_rows() when none. */
size_t catalog_row(const char *id);
/* A row's confidence, 1..100 (50 when the cell is malformed). */
int catalog_confidence(size_t row);
/* Whether the row's cause depends on a value it extracts ("@xid"). */
bool catalog_keyed(size_t row);
/* For such a row, that value's group name ("xid"); else NULL. */
const char *catalog_key_name(size_t row);
/* Whether the row is a symptom ("@symptom"): it names no cause; its alternatives do. */
bool catalog_symptom(size_t row);
/*
 * Whether the row is a topic ("@topic"): words for a part of the stack the text speaks of (a container, WSL,
 * a laptop without a GPU). It names no cause; its alternatives are guesses, offered only when nothing else is.
 */
bool catalog_topic(size_t row);
/*
 * Whether the row is trouble reported ("@trouble": an error, a failure, "does not work", a question): it names
 * and offers nothing, but without it no topic guesses, so a clean log that mentions Docker stays clean.
 */
bool catalog_trouble(size_t row);
/* Neither a symptom nor a topic: the row names a cause (or an Xid that does). */
bool catalog_names_cause(size_t row);
/* The cause a row names (for "@xid" rows, gpu.xid: the Xid's row decides). */
enum cause_id catalog_cause(size_t row);
/* An Xid's row of data/xid.tsv: its cause, confidence, name, action, source; false when unknown. */
bool catalog_xid(const char *xid, enum cause_id *cause, int *confidence, const char **name, const char **action,
		 const char **source);

/* The differential (data/explain_alternatives.tsv): its rows, and whether row alt lists signature sig. */
size_t catalog_alt_rows(void);
bool catalog_alt_of(size_t alt, const char *sig);
/* A static cell of the alternatives table; "" for an unknown column. */
const char *catalog_alt_field(size_t alt, const char *column);
/* The alternative's cause and weight (1..100). */
enum cause_id catalog_alt_cause(size_t alt);
int catalog_alt_weight(size_t alt);

/*
 * A fix step of c: alt 0 the fix, alt k alternative k (started by explain_add_alternative); duplicates
 * dropped. text is English (the JSON report's); local the same step in the text reports' language, or NULL
 * (English, or no translation): both are copied.
 */
void explain_add_fix(struct explain_cause *c, int alt, const char *text, const char *local, const char *command);
/* Start an alternative of c with this title (and local, as for explain_add_fix); returns its number, or -1 when c has no room for one. */
int explain_add_alternative(struct explain_cause *c, const char *title, const char *local);
/*
 * The steps a catalog directive stands for ("@torch-for-arch",
 * "@cudnn-for-library"), made by the planner from the values the text gave;
 * text (and local, its translation or NULL) is the step's own text, used when the planner has nothing checked.
 */
void explain_planned_fix(struct explain_cause *c, const char *directive, const char *text, const char *local);

/*
 * Whether c only says a build tool is missing (nvcc not on PATH, no toolkit) and no more likely than not:
 * that matters to compiling CUDA code, never to running it, so such a cause follows every other cause, the
 * suggested ones too ("nvcc: command not found" pasted beside torch.cuda.is_available() returning False).
 */
bool explain_build_tool_only(const struct explain_cause *c);
/* Append name=value to values (*n of them, EXPLAIN_MAX_VALUES at most): not when value is NULL or empty, the
 * name is there already, or there is no room. */
void explain_value_add(struct explain_value *values, int *n, const char *name, const char *value);

#endif
