/*
 * fleet_inputs.h - `gpudoctor fleet`'s inputs, each report read, reduced and added to a fleet one at a
 * time: a file, every *.json of a directory, or a stream of reports on a file descriptor.
 */
#ifndef GD_CMD_FLEET_INPUTS_H
#define GD_CMD_FLEET_INPUTS_H

#include <stdio.h>

#include "fleet/fleet.h"

/* A report larger than this is listed as unreadable, not read. */
#define FLEET_REPORT_MAX (16u << 20)

/* Reused between inputs so that ten thousand files cost one buffer. Zero-initialise; fleet_inputs_release. */
struct fleet_inputs {
	char *buf;
	size_t cap;
};

/*
 * Add what path holds to f: a directory's *.json files (not its subdirectories), in name order, or the
 * file itself. An input that is no report (unreadable, not JSON, another schema) is added as
 * unreadable; so is a path that cannot be read. -1 only when out of memory.
 */
int fleet_inputs_add_path(struct fleet_inputs *in, struct fleet *f, const char *path, struct error *err);

/*
 * Add the reports of a stream (standard input): JSON objects one after another, one per line or
 * indented as `gpudoctor --json` writes them. A report starts on a line that begins with '{', so one
 * corrupt report cannot swallow the next; a report is named "NAME:LINE" when it has no hostname.
 * -1 only when out of memory.
 */
int fleet_inputs_add_stream(struct fleet_inputs *in, struct fleet *f, FILE *fp, const char *name, struct error *err);

void fleet_inputs_release(struct fleet_inputs *in);

#endif
