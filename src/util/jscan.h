/*
 * jscan.h - a pull scanner over one JSON text in memory.
 *
 * For reading many large JSON documents of which only a few members
 * matter: the caller walks the structure it expects (an object's keys, an
 * array's elements) and skips every other value without building a tree.
 * Skipped values are still checked for syntax (RFC 8259), so a document
 * that is not JSON is told apart from one that is. Nothing is allocated;
 * the scanner borrows the buffer.
 *
 * Every call returns -1 on a syntax error, an unexpected type or a nesting
 * deeper than JSCAN_MAX_DEPTH, after which the scanner stays failed and
 * jscan_error() says why and where.
 */
#ifndef GD_UTIL_JSCAN_H
#define GD_UTIL_JSCAN_H

#include <stdbool.h>
#include <stddef.h>

#define JSCAN_MAX_DEPTH 64

enum jscan_type { JSCAN_NONE, JSCAN_OBJECT, JSCAN_ARRAY, JSCAN_STRING, JSCAN_NUMBER, JSCAN_BOOL, JSCAN_NULL };

struct jscan {
	const char *start, *p, *end;
	bool first;		/* the container just opened has had no member yet */
	int depth;
	const char *error;	/* static text; NULL while all is well */
	size_t error_at;	/* byte offset of the error */
};

/* Scan buf[0..len) (borrowed until the last call). */
void jscan_init(struct jscan *s, const char *buf, size_t len);

/* The type of the value that comes next (whitespace skipped); JSCAN_NONE at the end or on an error. */
enum jscan_type jscan_peek(struct jscan *s);

/* Enter the object that comes next: 0, or -1 when the next value is not an object. */
int jscan_object_begin(struct jscan *s);
/*
 * The next key of the object entered last: 1 with the key (unescaped, cut to keysz - 1 bytes) in key,
 * the scanner then before its value, which the caller reads or skips; 0 at the object's end (left);
 * -1 on an error.
 */
int jscan_object_next(struct jscan *s, char *key, size_t keysz);

/* Enter the array that comes next: 0 or -1. */
int jscan_array_begin(struct jscan *s);
/* 1 when another element follows (the scanner before it), 0 at the array's end (left), -1 on an error. */
int jscan_array_next(struct jscan *s);

/*
 * The string value that comes next, unescaped into out (cut to outsz - 1 bytes, never in the middle of a
 * UTF-8 sequence; \u0000 becomes '?'): 1; 0 when the value is null (out ""); -1 for any other type or an
 * error.
 */
int jscan_string(struct jscan *s, char *out, size_t outsz);
/* The integer that comes next: 1 with *out set; 0 for null or a number that is not a long integer; -1 for any other type. */
int jscan_integer(struct jscan *s, long long *out);
/* The boolean that comes next: 1 with *out set; 0 for null; -1 for any other type. */
int jscan_bool(struct jscan *s, bool *out);
/* Skip the value that comes next, whole: 0 or -1. */
int jscan_skip(struct jscan *s);
/* 0 when only whitespace is left, else -1 ("text after the JSON value"). */
int jscan_finish(struct jscan *s);

/* Why the scanner failed, NULL if it has not; *at (if not NULL) gets the byte offset. */
const char *jscan_error(const struct jscan *s, size_t *at);

#endif
