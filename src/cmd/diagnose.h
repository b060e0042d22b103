/*
 * diagnose.h - the pipeline shared by commands: probe the machine into
 * facts, and run the rules over them.
 */
#ifndef GD_CMD_DIAGNOSE_H
#define GD_CMD_DIAGNOSE_H

#include "cmd/cmd.h"
#include "probe/facts.h"
#include "rules/rules.h"

/*
 * Probe the machine named by opts. On failure returns NULL, prints why on
 * stderr and sets *status to the exit status to use (usage or internal).
 */
struct facts *diagnose_collect(const struct cmd_options *opts, int *status);

#endif
