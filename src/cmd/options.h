/*
 * options.h - command-line options as tables.
 *
 * Each command lists the groups of options it takes; main.c parses a
 * command line against that list only, so an option the command does not
 * take is a usage error ("'info' does not take --tee"), and `COMMAND --help`
 * shows exactly its own options. The values of all options are read and
 * checked in one place (cmd_option_apply), so --timeout means the same in
 * every command that takes it.
 */
#ifndef GD_CMD_OPTIONS_H
#define GD_CMD_OPTIONS_H

#include <stdio.h>

#include "cmd/cmd.h"

enum cmd_option_id {
	OPT_FORMAT = 256, OPT_JSON, OPT_COLOR, OPT_LANG, OPT_VERBOSE, OPT_HELP, OPT_VERSION,
	OPT_ROOT, OPT_LOAD_ROOT_LIBS, OPT_TIMEOUT, OPT_STATIC, OPT_PYTHON, OPT_DEEP, OPT_FAST,
	OPT_FAIL_ON, OPT_TEE, OPT_WITH_DOCTOR, OPT_TEXT, OPT_DURATION, OPT_MAX_TIME, OPT_SEEDS_COMPAT,
	OPT_KB_DRIVER, OPT_KB_GPU, OPT_KB_PYTHON,
	OPT_FIX_SCRIPT, OPT_FIX_REQUIREMENTS, OPT_FIX_CONDA_ENV, OPT_FIX_DOCKERFILE, OPT_FIX_VENV,
	OPT_NPD, OPT_SLURM,
	OPT_INTERVAL, OPT_COUNT, OPT_PLAIN, OPT_TEXTFILE, OPT_LISTEN,
};

struct cmd_option {
	const char *name;	/* the long form, without "--" */
	char letter;		/* the short form, 0 for none */
	const char *value;	/* the value's name in help ("DIR"), NULL for a flag */
	enum cmd_option_id id;
	const char *help;	/* what it does, for --help (wrapped there) */
};

struct cmd_option_group {
	const struct cmd_option *options;
	size_t count;
};

#define CMD_OPTION_GROUP(name, array) \
	const struct cmd_option_group name = { array, sizeof(array) / sizeof(array[0]) }

/* Taken by every command: --format, --json, --color, --lang, -v, -h, --version. */
extern const struct cmd_option_group cmd_global_options;
/* The machine to look at: --root, --load-root-libraries, --timeout. */
extern const struct cmd_option_group cmd_machine_options;
extern const struct cmd_option_group cmd_root_options;	/* cmd_machine_options less --timeout */
/* How far the doctor goes: --static, --python, --deep, --fast. */
extern const struct cmd_option_group cmd_probe_options;

/*
 * Parse argv (the command word removed) for cmd into o. On a usage error
 * prints it (with a pointer to --help) and returns -1.
 */
int cmd_options_parse(const struct command *cmd, const struct command *const *all, size_t nall, int argc,
		      char **argv, struct cmd_options *o);

/* Whether name (without "--") is an option some command takes with a value, e.g. "root". */
int cmd_option_takes_value(const struct command *const *all, size_t nall, const char *name);

/* `gpudoctor COMMAND --help`: usage, description, its options, epilogue; 80 columns. */
void cmd_help(FILE *out, const struct command *cmd);

/* Seconds from 0.1 to 3600, "2" or "2.5" (a plain decimal, str_to_decimal), without the locale; -1 otherwise. */
int cmd_parse_seconds(const char *s, double *out);

#endif
