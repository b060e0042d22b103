/*
 * main.c - gpudoctor's entry point: finds the command word and runs that
 * command (cmd/commands.c lists them; each owns its options, cmd/options.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "util/i18n.h"
#include "version.h"

extern char **environ;

static void usage(FILE *out)
{
	fputs(_("usage: gpudoctor [COMMAND] [options]\n\n"
		     "Why is PyTorch not using my GPU, and what do I type to fix it?\n\ncommands:\n"), out);
	for (size_t i = 0; i < cmd_count; i++)
		fprintf(out, "  %-10s %s\n", cmd_all[i]->name, i18n_text(cmd_all[i]->summary));
	fputs(_("\nWithout a command, gpudoctor runs doctor. `gpudoctor COMMAND --help` lists a\n"
		     "command's options; these apply to every command:\n"
		     "  --format FORMAT       text (default) or json; markdown for doctor, info, fix\n"
		     "  --json                short for --format json\n"
		     "  --color WHEN          auto (default), always or never\n"
		     "  --lang LANG           en or zh_CN: the text reports' language\n"
		     "  -v, --verbose         more detail\n"
		     "  -h, --help            help\n"
		     "  --version             print the version\n"), out);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < cmd_count; i++)
		if (strcmp(cmd_all[i]->name, name) == 0)
			return cmd_all[i];
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
		if (a[1] == '-' && !strchr(a, '=') && cmd_option_takes_value(cmd_all, cmd_count, a + 2))
			i++;	/* its value */
	}
	return 0;
}

/*
 * A copy of the environment's array of pointers, the environment gpudoctor diagnoses and passes to what it
 * runs: i18n_setup's setenv may replace an entry of environ in place. NULL when out of memory.
 */
static char **environment_copy(void)
{
	size_t n = 0;
	char **copy;

	while (environ[n])
		n++;
	copy = calloc(n + 1, sizeof(*copy));
	if (copy)
		memcpy(copy, environ, n * sizeof(*copy));
	return copy;
}

/*
 * The language of help and usage errors, known before the options are parsed: a valid --lang, else the
 * environment's. None (NULL) when the options ask for JSON (--json, --format json): JSON stays English,
 * and so then do its usage errors. A cheap scan, not the parser: an invalid --lang is left to the parser's
 * usage error, which is then in the environment's language.
 */
static const char *early_lang(int argc, char **argv, char *const *envp)
{
	const char *lang = NULL;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i], *v = NULL;

		if (strcmp(a, "--json") == 0 || strcmp(a, "--format=json") == 0 ||
		    (strcmp(a, "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0))
			return NULL;
		if (strncmp(a, "--lang=", 7) == 0)
			v = a + 7;
		else if (strcmp(a, "--lang") == 0 && i + 1 < argc)
			v = argv[i + 1];
		if (v && i18n_known(v))
			lang = i18n_known(v);
	}
	return lang ? lang : i18n_from_env(envp);
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
	struct cmd_options opts = { 0 };
	const struct command *cmd = cmd_all[0];
	char **rest;
	int at, n = 0;
	const char *early;
	const char *env_timeout = getenv("GPUDOCTOR_TIMEOUT");

	/* Writes to a closed pipe must fail with EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	if (env_timeout && cmd_parse_seconds(env_timeout, &opts.timeout_s) < 0) {
		fprintf(stderr, "gpudoctor: ignoring GPUDOCTOR_TIMEOUT: it wants seconds from 0.1 to 3600\n");
		opts.timeout_s = 0;
	}
	if (asks_version(argc, argv)) {
		printf("gpudoctor %s\n", gd_version);
		return cmd_finish_output(EXIT_READY);
	}
	/*
	 * The environment to diagnose is copied before i18n_setup, whose setenv("LANGUAGE") may replace an
	 * entry of environ: the copy keeps the user's own.
	 */
	opts.envp = environment_copy();
	if (!opts.envp)
		return EXIT_INTERNAL;
	/* Help and usage errors in the chosen language; the run below settles it once the options are known. */
	early = early_lang(argc, argv, opts.envp);
	if (early)
		i18n_setup(early);
	at = command_index(argc, argv);
	if (at > 0) {
		cmd = find_command(argv[at]);
		if (!cmd) {
			cmd_error(_("gpudoctor: unknown command '%s'"), argv[at]);
			fprintf(stderr, _("try 'gpudoctor --help'\n"));
			free(opts.envp);
			return EXIT_USAGE;
		}
	}
	/* the arguments without the command word, for the command's own parser */
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest) {
		free(opts.envp);
		return EXIT_INTERNAL;
	}
	for (int i = 0; i < argc; i++)
		if (i != at || at == 0)
			rest[n++] = argv[i];
	if (cmd_options_parse(cmd, cmd_all, cmd_count, n, rest, &opts) < 0) {
		free(rest);
		free(opts.envp);
		return EXIT_USAGE;
	}
	if (opts.help) {
		if (at > 0)
			cmd_help(stdout, cmd);
		else
			usage(stdout);
		free(rest);
		free(opts.envp);
		return cmd_finish_output(EXIT_READY);
	}
	/*
	 * JSON stays English: no catalog is even looked for (early_lang saw no JSON option, or the parser's
	 * answer differs from its scan: then back to English, which also clears an early catalog).
	 */
	if (opts.format != FORMAT_JSON) {
		const char *lang = opts.lang ? opts.lang : i18n_from_env(opts.envp);

		if (!early || strcmp(lang, early) != 0)
			i18n_setup(lang);
	} else if (early && strcmp(early, "en") != 0) {
		/* an abbreviated --json the scan missed: i18n_text off, and gettext's own answers English */
		i18n_setup("en");
		setenv("LANGUAGE", "en", 1);
	}
	n = cmd->run(&opts);
	free(rest);
	free(opts.envp);
	return n;
}
