/*
 * dlib.h - open a driver library and resolve its symbols from a table.
 *
 * Each table row names a symbol, where its pointer goes in a struct of
 * function pointers, and whether the program can do without it. A missing
 * optional symbol is a fact about the driver (too old for that call), not
 * an error.
 */
#ifndef GD_UTIL_DLIB_H
#define GD_UTIL_DLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

struct dlib_symbol {
	const char *name;
	size_t offset;		/* offsetof() the pointer in the caller's struct */
	bool required;
};

/* A table row: symbol name goes into field of struct type. */
#define DLIB_SYMBOL(type, field, name, required) { name, offsetof(type, field), required }

/*
 * dlopen() file (a soname or a path), resolve every symbol of the table into
 * fns, and write the path of the file actually loaded into path. Optional
 * symbols that are missing are listed in missing (space-separated); those
 * that do not fit are counted at its end as "(+N more)". The
 * handle is returned through *handle and never closed: a driver library
 * must not be unloaded while it may still run threads.
 */
int dlib_open(const char *file, const struct dlib_symbol *table, size_t n, void *fns, void **handle,
	      char *path, size_t pathsz, char *missing, size_t missingsz, struct error *err);

#endif
