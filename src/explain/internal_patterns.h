/*
 * internal_patterns.h - patterns explain scans for beside the catalog's:
 * the shape of a Python traceback, so a matched exception line can name the
 * frame it was raised from. Shared by the build-time compiler (tools/sigdb.c)
 * and the scanner; their match ids start at EXPLAIN_INTERNAL_BASE.
 */
#ifndef GD_EXPLAIN_INTERNAL_PATTERNS_H
#define GD_EXPLAIN_INTERNAL_PATTERNS_H

#define EXPLAIN_INTERNAL_BASE 100000u
/*
 * The prose database also holds every message row again, caseless, with this added to its id: a message
 * retold in a sentence ("got cuda out of memory", "torch not compiled with cuda enabled") in the first bytes.
 */
#define EXPLAIN_CASELESS_BASE 200000u

enum explain_internal {
	EXPLAIN_TRACEBACK_START,	/* Traceback (most recent call last): */
	EXPLAIN_TRACEBACK_FRAME,	/*   File "train.py", line 42, in forward */
	EXPLAIN_INTERNAL_COUNT,
};

static const char *const explain_internal_patterns[EXPLAIN_INTERNAL_COUNT] = {
	"Traceback \\(most recent call last\\):",
	"File \"[^\"\\n]{1,400}\", line [0-9]{1,9}, in ",
};

#endif
