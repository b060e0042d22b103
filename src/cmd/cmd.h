/*
 * cmd.h - the command layer: the only code that prints to the user,
 * chooses exit statuses or exits.
 *
 * A command is a name, the function that runs it, its help, and the
 * options it takes (cmd/options.h). main.c knows the list of commands and
 * the global options; each command file owns its own options and help.
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

/* What the command line said; each command reads the options it takes. */
struct cmd_options {
	/* global */
	enum output_format format;
	enum color_mode color;
	const char *lang;		/* --lang: "en" or "zh_CN", NULL: from the environment */
	int verbose;
	bool help;
	/* the machine: doctor, info, test, bench, explain --with-doctor */
	const char *root;		/* --root, NULL for the live machine */
	bool load_root_libraries;	/* --load-root-libraries: trust the --root image's driver libraries */
	double timeout_s;		/* --timeout: one driver call's deadline, 0 = default */
	bool static_only;		/* --static: never call the driver */
	const char *python;		/* --python PATH: the interpreter to diagnose */
	bool deep, fast;		/* --deep, --fast: the torch import probe */
	/* doctor */
	bool fail_on_warning;
	/* explain */
	bool tee, with_doctor;
	bool text;			/* explain --text: every operand is error text, never a file name */
	/* test and bench */
	double duration_s;		/* --duration: the stability loop, 0 = default */
	double max_time_s;		/* --max-time: the whole run's budget, 0 = default */
	bool seeds_compat;		/* bench --seeds-compat */
	/* kb */
	const char *kb_driver, *kb_gpu, *kb_python;
	/* fix: what to write (the report, or the plan as a file), and --venv DIR */
	enum fix_output { FIX_REPORT, FIX_SCRIPT, FIX_REQUIREMENTS, FIX_CONDA_ENV, FIX_DOCKERFILE } fix_output;
	const char *fix_venv;
	/* health */
	bool npd;			/* --npd: node-problem-detector's message limit */
	bool slurm;			/* --slurm: drain or resume this node through scontrol */
	/* watch and metrics */
	double interval_s;		/* -i/--interval: between samples, 0 = default */
	long count;			/* --count: samples to take, 0 = until stopped */
	bool plain;			/* --plain: lines even on a terminal */
	const char *textfile_dir;	/* metrics --textfile DIR */
	const char *listen;		/* metrics --listen ADDR:PORT */
	/* operands after the command name */
	char **args;
	int nargs;
	char **envp;			/* the environment to diagnose */
};

struct cmd_option_group;

struct command {
	const char *name;
	int (*run)(const struct cmd_options *opts);
	const char *summary;		/* one line for `gpudoctor --help` */
	const char *usage;		/* "gpudoctor doctor [options]" */
	const char *description;	/* paragraphs before the options, wrapped at 80 columns */
	const char *epilogue;		/* after the options (exit status, queries), may be NULL */
	const struct cmd_option_group *const *groups;	/* the options it takes, NULL-terminated */
	bool operands;			/* takes operands after its options */
	bool markdown;			/* has a Markdown report: takes --format markdown */
};

extern const struct command cmd_doctor, cmd_info, cmd_explain, cmd_test, cmd_bench, cmd_kb, cmd_fix, cmd_health, cmd_fleet,
	cmd_watch, cmd_metrics;

/* Every command, in --help's order; the first is the default. cmd_count entries (commands.c). */
extern const struct command *const cmd_all[];
extern const size_t cmd_count;

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

/*
 * Write a report's JSON object j to out and release it; when j is NULL (it could not be built) say so on
 * stderr. Returns status, or EXIT_INTERNAL when j was NULL.
 */
struct json_t;
int cmd_write_json(FILE *out, struct json_t *j, int status);

/* A message on stderr, newline added, with what it quotes escaped like a report. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether to colour stdout. */
bool cmd_use_color(const struct cmd_options *opts);
/* Write all n bytes of s to fd, again after EINTR and short writes; 0, or -1 with errno set. */
int cmd_write_all(int fd, const char *s, size_t n);

/* Whether standard output is a pipe whose reader has gone (a watcher piped into `head` stops then). */
bool cmd_output_closed(void);
/* Flush stdout; a closed pipe is success, any other write error is not. */
int cmd_finish_output(int status);

#endif
