/*
 * diagnose.h - the pipeline shared by commands: probe the machine into
 * facts, and run the rules over them.
 */
#ifndef GD_CMD_DIAGNOSE_H
#define GD_CMD_DIAGNOSE_H

#include "cmd/cmd.h"
#include "probe/facts.h"
#include "rules/rules.h"

/* Probe the machine named by opts; NULL with a message on stderr on failure. */
struct facts *diagnose_collect(const struct cmd_options *opts);

#endif
