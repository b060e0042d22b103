/*
 * explain.h - from error text or a whole log to ranked causes.
 *
 * The scanner streams its input once, in fixed-size pieces, through the
 * signature catalog (data/explain_signatures.tsv, compiled at build time by
 * tools/sigdb.c); memory stays bounded whatever the input's size. What it
 * saw of each signature is a hit; explain_rank() turns hits into causes
 * with the cause ids of docs/causes.md, ranked by causality: sure
 * signatures before vague ones, then down the chain, then first seen.
 */
#ifndef GD_EXPLAIN_EXPLAIN_H
#define GD_EXPLAIN_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/finding.h"
#include "util/error.h"

#define EXPLAIN_LINE_TEXT 320	/* bytes of a matched line kept for display */
#define EXPLAIN_MAX_LINES 4	/* lines kept per cause: the first three and the last */
#define EXPLAIN_MAX_VALUES 12
#define EXPLAIN_MAX_INPUTS 64
#define EXPLAIN_MAX_CHECKS 4	/* checks kept per cause that tell it from its alternatives */

struct explain_line {
	int input;		/* index into the scanner's input names */
	unsigned long number;	/* 1-based within that input */
	char text[EXPLAIN_LINE_TEXT];
};

struct explain_value {
	char name[16];		/* a named group of the pattern: "requested", "xid", ... */
	char value[128];
};

/* A check that tells a cause from its alternatives (data/explain_alternatives.tsv); static strings. */
struct explain_check {
	const char *command;	/* what to run */
	const char *answers;	/* "what it shows => what it means || ...", English; each item is a message */
	const char *of;		/* the signature or symptom whose alternatives it separates */
};

struct explain_cause {
	enum cause_id cause;
	const char *signature;		/* the catalog row that ranked it (static) */
	const char *source;		/* that row's public source (static) */
	int confidence;			/* 1..100 */
	int rank;			/* the cause's place in the causal chain (registry): lower is nearer the root */
	char *title, *detail;		/* English: the JSON report's */
	char *title_local, *detail_local;	/* the text reports' language, NULL when none (English) */
	struct fix_step fix[FINDING_MAX_FIX];	/* alt 0: the fix; alt k: alternative k (alt_titles[k - 1]) */
	int nfix;
	char *alt_titles[FINDING_MAX_ALTS];
	char *alt_titles_local[FINDING_MAX_ALTS];
	int nalt;
	unsigned long count;		/* lines that matched */
	struct explain_line lines[EXPLAIN_MAX_LINES];
	int nlines;
	struct explain_value values[EXPLAIN_MAX_VALUES];
	int nvalues;
	char where[EXPLAIN_LINE_TEXT];	/* the traceback frame the error was raised from, "" if none */
	/* set by explain_join_doctor() */
	bool confirmed;			/* the doctor found the same cause on this machine */
	char *doctor_note;		/* English: the JSON report's */
	char *doctor_note_local;	/* the text reports' language, NULL when none (English) */
	/* set by explain_merge_paste() (explain/paste_merge.h) */
	int from;			/* EXPLAIN_FROM_*: a signature matched, the paste's facts showed it, or both */
	char paste_evidence[EXPLAIN_LINE_TEXT];	/* the rule's own words over the paste's facts, "" none */
	char paste_evidence_local[2 * EXPLAIN_LINE_TEXT];	/* the same in the text reports' language, "" none */
	int settled;			/* the other causes the differential offered that the paste's facts ruled out */
	/* the differential (data/explain_alternatives.tsv) */
	bool suggested;			/* no message names it: an alternative of an ambiguous message or a symptom */
	bool guessed;			/* suggested by what the text speaks of only (a topic): nothing was recognised */
	int prior;			/* its weight among the alternatives of what was seen, 0 when it has none */
	struct explain_check checks[EXPLAIN_MAX_CHECKS];
	int nchecks;
};

enum { EXPLAIN_FROM_SIGNATURE, EXPLAIN_FROM_FACTS, EXPLAIN_FROM_BOTH };

/* A cause the differential offered that a fact the paste showed rules out: left out, with that fact. */
struct explain_ruled_out {
	enum cause_id cause;
	char by[EXPLAIN_LINE_TEXT];		/* English: "line 3 shows torch 2.1.0+cu121, built with CUDA 12.1" */
	char by_local[2 * EXPLAIN_LINE_TEXT];	/* the same in the text reports' language, "" none */
};

#define EXPLAIN_MAX_RULED_OUT 8

struct explain_report {
	struct explain_cause *causes;
	size_t count;
	struct explain_ruled_out ruled_out[EXPLAIN_MAX_RULED_OUT];	/* set by explain_merge_paste() */
	int nruled_out;
	unsigned long long bytes, lines;	/* scanned */
	const char *inputs[EXPLAIN_MAX_INPUTS];	/* names, owned by the scanner */
	int ninputs;
	const struct paste *paste;	/* the facts the text showed (borrowed from the scanner), NULL none */
};

struct explain_scanner;
struct paste;

/* A scanner over the compiled-in catalog; NULL with err set on failure. */
struct explain_scanner *explain_open(struct error *err);
void explain_close(struct explain_scanner *s);

/*
 * Scan everything readable from fd as the input called name. With tee_fd >= 0
 * every byte read is first written there unchanged (until a write fails; a
 * reader that went away is no error). Returns 0, or -1 with err set when
 * reading or teeing failed; what was scanned still counts.
 */
int explain_feed_fd(struct explain_scanner *s, int fd, const char *name, int tee_fd, struct error *err);
/* Scan text given in memory (a command-line argument) as an input. */
int explain_feed_text(struct explain_scanner *s, const char *text, size_t len, const char *name, struct error *err);

/* Rank what was seen into causes; 0, or -1 when out of memory. */
int explain_rank(const struct explain_scanner *s, struct explain_report *out);
void explain_report_release(struct explain_report *r);
/* Whether a message, a symptom or a fact was recognised: some cause is more than a guess from what the text speaks of. */
bool explain_recognised(const struct explain_report *r);
/* Free the strings one cause owns (not the cause itself); for a step that drops a cause from a report. */
void explain_cause_release(struct explain_cause *c);

/* Parse a size as PyTorch prints it ("2.00 GiB", "405.77 MiB", "1024 bytes") into bytes; -1 if not one. */
double explain_parse_size(const char *text);

#endif
