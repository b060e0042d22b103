/*
 * ld_library_path.c - LD_LIBRARY_PATH's value where the text prints it: the
 * line after `echo $LD_LIBRARY_PATH`, or an `env` line "LD_LIBRARY_PATH=...".
 * An `export LD_LIBRARY_PATH=...` line is what the user set or tried, not
 * what the program ran with, and is left out. What is kept is the first
 * directory of it that holds cuDNN by its name: the loader searches
 * LD_LIBRARY_PATH before a wheel's RUNPATH, so a cuDNN there is the one torch
 * loads (pytorch/pytorch#80637).
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

static bool names_variable_at_end(const char *line)
{
	size_t n = strlen(line);

	return (n >= 21 && strcmp(line + n - 21, "echo $LD_LIBRARY_PATH") == 0) ||
	       (n >= 23 && strcmp(line + n - 23, "echo ${LD_LIBRARY_PATH}") == 0);
}

static void keep_cudnn_directory(struct paste *p, const char *value, const struct paste_at *at)
{
	while (*value) {
		size_t n = strcspn(value, ":");
		char dir[FACT_PATH];

		str_printf(dir, sizeof(dir), "%.*s", (int)n, value);
		if (dir[0] == '/' && str_casestr(dir, "cudnn")) {
			str_printf(p->cudnn_ld_path_named, sizeof(p->cudnn_ld_path_named),
				   "line %lu shows LD_LIBRARY_PATH with %.100s", at->number, dir);
			return;
		}
		value += n + (value[n] == ':');
	}
}

/* See paste_internal.h. Offered every line; never takes one. */
void paste_note_ld_library_path(struct paste *p, const char *line, const struct paste_at *at)
{
	bool echoed = p->ld_path_echo_line && at->number == p->ld_path_echo_line + 1;

	if (p->cudnn_ld_path_named[0])
		return;
	if (echoed && line[0] == '/')
		keep_cudnn_directory(p, line, at);
	else if (str_starts_with(line, "LD_LIBRARY_PATH=/"))
		keep_cudnn_directory(p, line + 16, at);
	if (names_variable_at_end(line))
		p->ld_path_echo_line = at->number;
}
