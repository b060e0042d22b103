/*
 * commands.c - the list of gpudoctor's commands, in the order --help shows
 * them. main.c runs them; tools/cli-spec reads the same list to write the
 * manual page and the shell completions, so those name exactly these
 * commands and options.
 */
#include "cmd/cmd.h"

const struct command *const cmd_all[] = {
	&cmd_doctor, &cmd_info, &cmd_fix, &cmd_explain, &cmd_test, &cmd_bench, &cmd_kb, &cmd_health, &cmd_fleet,
	&cmd_watch, &cmd_metrics,
};

const size_t cmd_count = sizeof(cmd_all) / sizeof(cmd_all[0]);
