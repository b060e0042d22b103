/*
 * main.c - gpudoctor's command table and global options. The only file
 * that knows every command; each command owns its options (cmd/options.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

extern char **environ;

/* The first is the default command. */
static const struct command *const commands[] = {
	&cmd_doctor, &cmd_info, &cmd_fix, &cmd_explain, &cmd_test, &cmd_bench, &cmd_kb, &cmd_fleet,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: gpudoctor [COMMAND] [options]\n\n"
		     "Why is PyTorch not using my GPU, and what do I type to fix it?\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nWithout a command, gpudoctor runs doctor. `gpudoctor COMMAND --help` lists a\n"
		     "command's options; these apply to every command:\n"
		     "  --format FORMAT       text (default), json or markdown\n"
		     "  --json                short for --format json\n"
		     "  --color WHEN          auto (default), always or never\n"
		     "  -v, --verbose         more detail\n"
		     "  -h, --help            help\n"
		     "  --version             print the version\n");
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/*
 * The command word is the first argument that is neither an option nor an
 * option's value; where it stands is left to the user (`gpudoctor --json
 * info` and `gpudoctor info --json` are the same). Returns its index, or 0.
 */
static int command_index(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
			return i + 1 < argc ? i + 1 : 0;
		if (a[0] != '-' || !a[1])
			return i;
		if (a[1] == '-' && !strchr(a, '=') && cmd_option_takes_value(commands, NCOMMANDS, a + 2))
			i++;	/* its value */
	}
	return 0;
}

static bool asks_version(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--version") == 0)
			return true;
	return false;
}

/*
 * Returns an enum exit_code. --version anywhere before "--" wins over everything; otherwise the command
 * word may stand anywhere among the options, and doctor runs when there is none.
 */
int main(int argc, char **argv)
{
	struct cmd_options opts = { .envp = environ };
	const struct command *cmd = commands[0];
	char **rest;
	int at, n = 0;
	const char *env_timeout = getenv("GPUDOCTOR_TIMEOUT");

	/* Writes to a closed pipe must fail with EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	if (env_timeout && cmd_parse_seconds(env_timeout, &opts.timeout_s) < 0) {
		fprintf(stderr, "gpudoctor: ignoring GPUDOCTOR_TIMEOUT: it wants seconds from 0.1 to 3600\n");
		opts.timeout_s = 0;
	}
	if (asks_version(argc, argv)) {
		printf("gpudoctor %s\n", GD_VERSION);
		return cmd_finish_output(EXIT_READY);
	}
	at = command_index(argc, argv);
	if (at > 0) {
		cmd = find_command(argv[at]);
		if (!cmd) {
			cmd_error("gpudoctor: unknown command '%s'", argv[at]);
			fprintf(stderr, "try 'gpudoctor --help'\n");
			return EXIT_USAGE;
		}
	}
	/* the arguments without the command word, for the command's own parser */
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest)
		return EXIT_INTERNAL;
	for (int i = 0; i < argc; i++)
		if (i != at || at == 0)
			rest[n++] = argv[i];
	if (cmd_options_parse(cmd, commands, NCOMMANDS, n, rest, &opts) < 0) {
		free(rest);
		return EXIT_USAGE;
	}
	if (opts.help) {
		if (at > 0)
			cmd_help(stdout, cmd);
		else
			usage(stdout);
		free(rest);
		return cmd_finish_output(EXIT_READY);
	}
	n = cmd->run(&opts);
	free(rest);
	return n;
}
