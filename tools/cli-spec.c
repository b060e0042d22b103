/*
 * cli-spec.c - prints gpudoctor's command line as data: every command with
 * its summary, usage, description and epilogue, and every option it takes,
 * read from the same tables `gpudoctor COMMAND --help` prints
 * (src/cmd/commands.c, cmd/options.h). tools/man.awk and
 * tools/completion.awk turn it into the manual page and the bash, zsh and
 * fish completions, so none of them can name an option the program lacks.
 *
 * Output, one record a line, fields separated by tabs; a newline inside a
 * text is written as the two characters \n, a backslash as \\:
 *   command  NAME OPERANDS SUMMARY USAGE     OPERANDS: 1 if it takes operands
 *   describe NAME TEXT                       paragraphs separated by \n\n
 *   epilogue NAME TEXT                       preformatted lines
 *   option   NAME LONG LETTER VALUE HELP     NAME * for the options every
 *                                            command takes; LETTER, VALUE and
 *                                            HELP are - when there is none (no
 *                                            help: an alias, not shown)
 * Exit status 0, or 1 when standard output could not be written.
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

static void text(const char *s)
{
	putchar('\t');
	if (!s || !*s) {
		putchar('-');
		return;
	}
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\\')
			fputs("\\\\", stdout);
		else if (*s == '\t')
			putchar(' ');
		else
			putchar(*s);
	}
}

static void options(const char *command, const struct cmd_option_group *g)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct cmd_option *o = &g->options[i];
		char letter[2] = { o->letter, 0 };

		printf("option\t%s\t%s", command, o->name);
		text(letter);
		text(o->value);
		text(o->help);
		putchar('\n');
	}
}

int main(void)
{
	for (size_t c = 0; c < cmd_count; c++) {
		const struct command *cmd = cmd_all[c];

		printf("command\t%s\t%d", cmd->name, cmd->operands ? 1 : 0);
		text(cmd->summary);
		text(cmd->usage);
		printf("\ndescribe\t%s", cmd->name);
		text(cmd->description);
		printf("\nepilogue\t%s", cmd->name);
		text(cmd->epilogue);
		putchar('\n');
		for (const struct cmd_option_group *const *g = cmd->groups; *g; g++)
			options(cmd->name, *g);
	}
	options("*", &cmd_global_options);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
