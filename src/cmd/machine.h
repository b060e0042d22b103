/*
 * machine.h - the machine a command looks at: its files, read through one
 * rootfs (the live machine, or --root DIR), and the facts probed from them.
 *
 * A command opens the machine once and keeps it while it works: the rootfs
 * is also what maps a machine path to the host path of anything that leaves
 * the process (a library to load, an interpreter to run).
 */
#ifndef GD_CMD_MACHINE_H
#define GD_CMD_MACHINE_H

#include "cmd/cmd.h"
#include "probe/facts.h"
#include "util/rootfs.h"

struct machine {
	struct rootfs fs;
	struct rootfs_denials denied;	/* refusals while probing, for the unreadable-is-not-missing rule */
};

/*
 * Open the machine opts names and check that a --python names an interpreter in it (see
 * probe/interpreter.h); on failure prints why and returns the exit status (EXIT_USAGE), else 0.
 */
int machine_open(struct machine *m, const struct cmd_options *opts);
/* Probe it into fresh facts the caller frees; NULL (with a message) when out of memory. */
struct facts *machine_probe(struct machine *m, const struct cmd_options *opts);
void machine_close(struct machine *m);

#endif
