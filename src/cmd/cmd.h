/*
 * cmd.h - the command layer: the only code that prints to the user,
 * chooses exit statuses or exits.
 */
#ifndef GD_CMD_CMD_H
#define GD_CMD_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum exit_code {
	EXIT_READY = 0,		/* ready (or degraded without --fail-on warning) */
	EXIT_NOT_READY = 1,	/* an error finding (or a warning with --fail-on warning) */
	EXIT_USAGE = 2,
	EXIT_INTERNAL = 3,
};

enum output_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN };
enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct cmd_options {
	const char *root;		/* --root, NULL for the live machine */
	enum output_format format;
	enum color_mode color;
	int verbose;
	bool fail_on_warning;
	double timeout_s;		/* --timeout for driver calls, 0 = default */
	bool static_only;		/* --static: never call the driver */
	bool load_root_libraries;	/* --load-root-libraries: trust the --root image's driver libraries */
	const char *python;		/* --python PATH */
	bool deep, fast;		/* --deep, --fast: the torch import probe */
	bool tee, with_doctor;		/* explain's --tee and --with-doctor */
	bool seeds_compat;		/* bench --seeds-compat */
	double duration_s;		/* test/bench --duration: the stability loop, 0 = default */
	double max_time_s;		/* test/bench --max-time: the whole run's budget, 0 = default */
	bool help;
	char **args;			/* operands after the command name */
	char *query_flags[6];		/* kb's --driver/--gpu/--python, as "--flag", "value" */
	int nquery_flags;
	int nargs;
	char **envp;			/* the environment to diagnose */
};

struct command {
	const char *name;
	int (*run)(const struct cmd_options *opts);
	const char *summary;
	const char *help;		/* the command's --help text */
	const char *(*more_help)(void);	/* appended to help, may be NULL */
};

int cmd_doctor(const struct cmd_options *opts);
int cmd_info(const struct cmd_options *opts);
int cmd_kb(const struct cmd_options *opts);
int cmd_explain(const struct cmd_options *opts);
int cmd_test(const struct cmd_options *opts);
int cmd_bench(const struct cmd_options *opts);
const char *cmd_kb_queries(void);

/*
 * A report on its way to standard output: renderers write into fp (memory);
 * cmd_out_close escapes text and Markdown for the terminal, writes it all,
 * and returns status, or EXIT_INTERNAL (with a message) when that failed.
 * A closed pipe is success.
 */
struct cmd_out {
	FILE *fp;
	char *buf;
	size_t len;
};

FILE *cmd_out_open(struct cmd_out *o);
int cmd_out_close(struct cmd_out *o, const struct cmd_options *opts, int status);

/* A message on stderr, newline added, with what it quotes escaped like a report. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Shared by commands: whether to colour stdout. */
bool cmd_use_color(const struct cmd_options *opts);
/* Flush stdout; a closed pipe is success, any other write error is not. */
int cmd_finish_output(int status);

#endif
