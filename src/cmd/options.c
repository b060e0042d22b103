#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/textfmt.h"
#include "util/i18n.h"
#include "util/str.h"

static const struct cmd_option global_options[] = {
	{ "format", 0, "FORMAT", OPT_FORMAT, N_("text (default) or json, and markdown where a command lists it") },
	{ "json", 0, NULL, OPT_JSON, N_("short for --format json") },
	{ "color", 0, "WHEN", OPT_COLOR, N_("auto (default: only on a terminal, and not with NO_COLOR set), always, never") },
	{ "colour", 0, "WHEN", OPT_COLOR, NULL },
	{ "lang", 0, "LANG", OPT_LANG, N_("the language of the text reports: en or zh_CN (default: from LANGUAGE, "
	  "LC_ALL, LC_MESSAGES, LANG); JSON is always English") },
	{ "verbose", 'v', NULL, OPT_VERBOSE, N_("more detail (repeat for more)") },
	{ "help", 'h', NULL, OPT_HELP, N_("this help") },
	{ "version", 0, NULL, OPT_VERSION, N_("print the version") },
};
CMD_OPTION_GROUP(cmd_global_options, global_options);

static const struct cmd_option machine_options[] = {
	{ "root", 0, "DIR", OPT_ROOT, N_("read the machine's files under DIR instead of / (a mounted image, a "
	  "container's root file system); nothing from it is run or loaded") },
	{ "load-root-libraries", 0, NULL, OPT_LOAD_ROOT_LIBS, N_("under --root, load and call the image's driver "
	  "libraries: this runs the image's code as you, so only for an image you trust") },
	{ "timeout", 0, "SECONDS", OPT_TIMEOUT, N_("the deadline of one call into the NVIDIA driver (default 10, or "
	  "$GPUDOCTOR_TIMEOUT); past it, the driver hangs") },
};
CMD_OPTION_GROUP(cmd_machine_options, machine_options);

static const struct cmd_option probe_options[] = {
	{ "static", 0, NULL, OPT_STATIC, N_("read files only; never load or call the driver, nor run Python") },
	{ "python", 0, "PATH", OPT_PYTHON, N_("the Python interpreter to diagnose (default: python3 on PATH; a bare "
	  "name is looked up on PATH). It must be an executable file holding an ELF program or a #! script, or a "
	  "link to one; anything else is refused (exit status 2)") },
	{ "deep", 0, NULL, OPT_DEEP, N_("import torch in that interpreter to confirm (default: only with a CUDA "
	  "torch and a working GPU)") },
	{ "fast", 0, NULL, OPT_FAST, N_("never run the interpreter") },
};
CMD_OPTION_GROUP(cmd_probe_options, probe_options);

/* See options.h: *out is written only on success. Prints nothing. */
int cmd_parse_seconds(const char *s, double *out)
{
	double value;

	if (str_to_decimal(s, &value) < 0 || value < 0.1 || value > 3600)
		return -1;
	*out = value;
	return 0;
}

static int bad_value(const char *option, const char *value, const char *want)
{
	cmd_error(_("gpudoctor: %s wants %s, not '%s'"), option, want, value);
	return -1;
}

/* What --format takes in cmd, for its help and its errors. */
static const char *formats_of(const struct command *cmd)
{
	return cmd->markdown ? _("text, json or markdown") : _("text or json");
}

/* Check and store one option's value for cmd. */
static int apply(const struct command *cmd, enum cmd_option_id id, const char *value, struct cmd_options *o)
{
	switch (id) {
	case OPT_FORMAT:
		if (strcmp(value, "text") == 0) {
			o->format = FORMAT_TEXT;
		} else if (strcmp(value, "json") == 0) {
			o->format = FORMAT_JSON;
		} else if (strcmp(value, "markdown") == 0 || strcmp(value, "md") == 0) {
			if (!cmd->markdown) {
				cmd_error(_("gpudoctor: '%s' has no Markdown report; --format wants %s"), cmd->name,
					  formats_of(cmd));
				return -1;
			}
			o->format = FORMAT_MARKDOWN;
		} else {
			return bad_value("--format", value, formats_of(cmd));
		}
		break;
	case OPT_JSON:
		o->format = FORMAT_JSON;
		break;
	case OPT_COLOR:
		if (strcmp(value, "auto") == 0)
			o->color = COLOR_AUTO;
		else if (strcmp(value, "always") == 0)
			o->color = COLOR_ALWAYS;
		else if (strcmp(value, "never") == 0)
			o->color = COLOR_NEVER;
		else
			return bad_value("--color", value, _("auto, always or never"));
		break;
	case OPT_LANG:
		o->lang = i18n_known(value);
		if (!o->lang || strcmp(value, "C") == 0 || strcmp(value, "POSIX") == 0)
			return bad_value("--lang", value, i18n_choices());
		break;
	case OPT_VERBOSE:
		o->verbose++;
		break;
	case OPT_HELP:
		o->help = true;
		break;
	case OPT_VERSION:
		break;	/* main.c looks for it before anything else */
	case OPT_ROOT:
		o->root = value;
		break;
	case OPT_LOAD_ROOT_LIBS:
		o->load_root_libraries = true;
		break;
	case OPT_TIMEOUT:
		if (cmd_parse_seconds(value, &o->timeout_s) < 0)
			return bad_value("--timeout", value, "seconds from 0.1 to 3600");
		break;
	case OPT_STATIC:
		o->static_only = true;
		break;
	case OPT_PYTHON:
		o->python = value;
		break;
	case OPT_DEEP:
		o->deep = true;
		break;
	case OPT_FAST:
		o->fast = true;
		break;
	case OPT_FAIL_ON:
		if (strcmp(value, "warning") == 0)
			o->fail_on_warning = true;
		else if (strcmp(value, "error") == 0)
			o->fail_on_warning = false;
		else
			return bad_value("--fail-on", value, "error or warning");
		break;
	case OPT_TEE:
		o->tee = true;
		break;
	case OPT_WITH_DOCTOR:
		o->with_doctor = true;
		break;
	case OPT_TEXT:
		o->text = true;
		break;
	case OPT_DURATION:
		if (cmd_parse_seconds(value, &o->duration_s) < 0)
			return bad_value("--duration", value, "seconds from 0.1 to 3600");
		break;
	case OPT_MAX_TIME:
		if (cmd_parse_seconds(value, &o->max_time_s) < 0)
			return bad_value("--max-time", value, "seconds from 0.1 to 3600");
		break;
	case OPT_SEEDS_COMPAT:
		o->seeds_compat = true;
		break;
	case OPT_KB_DRIVER:
		o->kb_driver = value;
		break;
	case OPT_KB_GPU:
		o->kb_gpu = value;
		break;
	case OPT_KB_PYTHON:
		o->kb_python = value;
		break;
	case OPT_FIX_SCRIPT:
	case OPT_FIX_REQUIREMENTS:
	case OPT_FIX_CONDA_ENV:
	case OPT_FIX_DOCKERFILE: {
		enum fix_output want = id == OPT_FIX_SCRIPT ? FIX_SCRIPT : id == OPT_FIX_REQUIREMENTS ? FIX_REQUIREMENTS :
				       id == OPT_FIX_CONDA_ENV ? FIX_CONDA_ENV : FIX_DOCKERFILE;

		if (o->fix_output != FIX_REPORT && o->fix_output != want) {
			cmd_error(_("gpudoctor: --script, --requirements, --conda-env and --dockerfile exclude each other"));
			return -1;
		}
		o->fix_output = want;
		break;
	}
	case OPT_FIX_VENV:
		if (!value[0]) {
			cmd_error(_("gpudoctor: --venv needs a directory"));
			return -1;
		}
		o->fix_venv = value;
		break;
	case OPT_NPD:
		o->npd = true;
		break;
	case OPT_SLURM:
		o->slurm = true;
		break;
	case OPT_INTERVAL:
		if (cmd_parse_seconds(value, &o->interval_s) < 0)
			return bad_value("--interval", value, "seconds from 0.1 to 3600");
		break;
	case OPT_COUNT: {
		char *end;
		long n;

		errno = 0;
		n = strtol(value, &end, 10);
		if (errno || end == value || *end || n < 1 || n > 100000000L)
			return bad_value("--count", value, "a number of samples from 1");
		o->count = n;
		break;
	}
	case OPT_PLAIN:
		o->plain = true;
		break;
	case OPT_TEXTFILE:
		if (!value[0])
			return bad_value("--textfile", value, "a directory");
		o->textfile_dir = value;
		break;
	case OPT_LISTEN:
		o->listen = value;
		break;
	}
	return 0;
}

/* The option of cmd called name (long form), or NULL. */
static const struct cmd_option *find_in(const struct command *cmd, const char *name, size_t len)
{
	const struct cmd_option_group *const groups[] = { &cmd_global_options };

	for (size_t g = 0; g < 1; g++)
		for (size_t i = 0; i < groups[g]->count; i++)
			if (strlen(groups[g]->options[i].name) == len && strncmp(groups[g]->options[i].name, name, len) == 0)
				return &groups[g]->options[i];
	for (const struct cmd_option_group *const *g = cmd->groups; *g; g++)
		for (size_t i = 0; i < (*g)->count; i++)
			if (strlen((*g)->options[i].name) == len && strncmp((*g)->options[i].name, name, len) == 0)
				return &(*g)->options[i];
	return NULL;
}

/*
 * 1 when some command (or the global options) takes name with a value; anything from "=" on is ignored.
 * name is without the leading "--". Prints nothing.
 */
int cmd_option_takes_value(const struct command *const *all, size_t nall, const char *name)
{
	size_t len = strcspn(name, "=");

	for (size_t c = 0; c < nall; c++) {
		const struct cmd_option *opt = find_in(all[c], name, len);

		if (opt)
			return opt->value != NULL;
	}
	return 0;
}

/*
 * Whether a value getopt took for an option is rather the next option, or empty: `--root --json`,
 * `--root=`. "-" alone is a value (standard input); so is anything not naming an option.
 */
static bool value_missing(const struct command *const *all, size_t nall, const char *value)
{
	if (!value[0])
		return true;
	if (value[0] != '-' || !value[1])
		return false;
	if (value[1] != '-')
		return strchr("hv", value[1]) != NULL;
	if (!value[2])
		return true;	/* "--", the end of the options */
	for (size_t c = 0; c < nall; c++)
		if (find_in(all[c], value + 2, strcspn(value + 2, "=")))
			return true;
	return false;
}

/* What to say about an option cmd does not take: another command's, or none's. */
static void not_taken(const struct command *cmd, const struct command *const *all, size_t nall, const char *arg)
{
	const char *name = arg + strspn(arg, "-");
	size_t len = strcspn(name, "=");

	for (size_t c = 0; arg[0] == '-' && arg[1] == '-' && c < nall; c++) {
		if (find_in(all[c], name, len)) {
			cmd_error(_("gpudoctor: '%s' does not take --%.*s"), cmd->name, (int)len, name);
			return;
		}
	}
	cmd_error(_("gpudoctor: unknown option '%s'"), arg);
}

/* getopt's answer as an option id: a short letter is the option's that has it, the rest are ids already. */
static enum cmd_option_id letter_id(const struct command *cmd, int c)
{
	if (c >= OPT_FORMAT)
		return (enum cmd_option_id)c;
	if (c == 'v')
		return OPT_VERBOSE;
	if (c == 'h')
		return OPT_HELP;
	for (const struct cmd_option_group *const *g = cmd->groups; *g; g++)
		for (size_t i = 0; i < (*g)->count; i++)
			if ((*g)->options[i].letter == c)
				return (*g)->options[i].id;
	return (enum cmd_option_id)c;
}

/*
 * See options.h. Only sets what argv names, so o must hold the defaults already. o->args point into argv,
 * which getopt may reorder. Restarts getopt's scan each call. Options past 63 in all are not recognised.
 */
int cmd_options_parse(const struct command *cmd, const struct command *const *all, size_t nall, int argc,
		      char **argv, struct cmd_options *o)
{
	struct option longopts[64];
	char shortopts[16] = ":";	/* ':' first: a missing value is told apart */
	size_t n = 0;
	int c, index = 0;

	for (size_t i = 0; i < cmd_global_options.count; i++) {
		const struct cmd_option *opt = &cmd_global_options.options[i];

		longopts[n++] = (struct option){ opt->name, opt->value ? required_argument : no_argument, NULL, opt->id };
		if (opt->letter)
			strncat(shortopts, &opt->letter, 1);
	}
	for (const struct cmd_option_group *const *g = cmd->groups; *g; g++)
		for (size_t i = 0; i < (*g)->count && n + 1 < sizeof(longopts) / sizeof(longopts[0]); i++) {
			const struct cmd_option *opt = &(*g)->options[i];

			longopts[n++] = (struct option){ opt->name, opt->value ? required_argument : no_argument, NULL,
							 opt->id };
			if (opt->letter && strlen(shortopts) + 3 < sizeof(shortopts)) {
				strncat(shortopts, &opt->letter, 1);
				if (opt->value)
					strcat(shortopts, ":");
			}
		}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	opterr = 0;
	optind = 0;	/* glibc: 0 starts a fresh scan */
	while ((c = getopt_long(argc, argv, shortopts, longopts, &index)) != -1) {
		if (c == ':') {
			cmd_error(_("gpudoctor: option '%.*s' needs a value"), (int)strcspn(argv[optind - 1], "="),
				  argv[optind - 1]);
			goto usage;
		}
		if (c == '?') {
			not_taken(cmd, all, nall, argv[optind - 1]);
			goto usage;
		}
		if (optarg && value_missing(all, nall, optarg)) {
			/* two whole sentences, not pieces, so that each translates */
			if (optarg[0])
				cmd_error(_("gpudoctor: option '--%s' needs a value (got the option '%s')"),
					  longopts[index].name, optarg);
			else
				cmd_error(_("gpudoctor: option '--%s' needs a value"), longopts[index].name);
			goto usage;
		}
		if (apply(cmd, letter_id(cmd, c), optarg, o) < 0)
			goto usage;
		index = 0;
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (o->nargs > 0 && !cmd->operands && !o->help) {
		cmd_error(_("gpudoctor %s: unexpected argument '%s'"), cmd->name, o->args[0]);
		goto usage;
	}
	return 0;
usage:
	fprintf(stderr, _("try 'gpudoctor %s --help'\n"), cmd->name);
	return -1;
}

/* text wrapped at width, every line after the first indented by hang, first line starting at column col */
static void wrap(FILE *out, const char *text, int col, int hang, int width)
{
	const char *p = text;

	if (i18n_active()) {
		/*
		 * A translation: textfmt's wrapping, by display columns, breaking between Chinese characters,
		 * one paragraph ("\n\n") at a time. English keeps the loop below, byte for byte.
		 */
		struct textfmt t = { out, false, width };

		while (*p) {
			const char *brk = strstr(p, "\n\n");
			size_t len = brk ? (size_t)(brk - p) : strlen(p);
			char *para = strndup(p, len);

			if (!para)
				return;
			tf_wrap_at(&t, col, hang, para);
			free(para);
			if (!brk)
				return;
			fputc('\n', out);
			col = 0;
			p = brk + 2;
		}
		fputc('\n', out);
		return;
	}

	while (*p) {
		size_t w = strcspn(p, " \n");

		if (col > hang && col + 1 + (int)w > width) {
			fprintf(out, "\n%*s", hang, "");
			col = hang;
		} else if (col > hang) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += (int)w;
		p += w;
		if (*p == '\n' && p[1] == '\n') {
			/* a paragraph break */
			fputs("\n\n", out);
			col = 0;
			p += 2;
			continue;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', out);
}

static void option_help(FILE *out, const struct command *cmd, const struct cmd_option *opt)
{
	char left[64];
	const char *help = i18n_text(opt->help);

	if (!help)
		return;	/* an alias */
	if (opt->id == OPT_FORMAT)
		help = cmd->markdown ? _("text (default), json or markdown") : _("text (default) or json");
	snprintf(left, sizeof(left), "  %s%c%s--%s%s%s", opt->letter ? "-" : "", opt->letter ? opt->letter : ' ',
		 opt->letter ? ", " : "", opt->name, opt->value ? " " : "", opt->value ? opt->value : "");
	if (!opt->letter)
		snprintf(left, sizeof(left), "  --%s%s%s", opt->name, opt->value ? " " : "", opt->value ? opt->value : "");
	fputs(left, out);
	if (strlen(left) >= 24) {
		fprintf(out, "\n%24s", "");
		wrap(out, help, 24, 24, 80);
	} else {
		fprintf(out, "%*s", 24 - (int)strlen(left), "");
		wrap(out, help, 24, 24, 80);
	}
}

/* See options.h: aliases (options without help) are not listed; global options come last. */
void cmd_help(FILE *out, const struct command *cmd)
{
	fprintf(out, _("usage: %s\n\n"), cmd->usage);
	wrap(out, i18n_text(cmd->description), 0, 0, 80);
	fputs(_("\noptions:\n"), out);
	for (const struct cmd_option_group *const *g = cmd->groups; *g; g++)
		for (size_t i = 0; i < (*g)->count; i++)
			option_help(out, cmd, &(*g)->options[i]);
	for (size_t i = 0; i < cmd_global_options.count; i++)
		option_help(out, cmd, &cmd_global_options.options[i]);
	if (cmd->epilogue)
		fprintf(out, "\n%s", i18n_text(cmd->epilogue));
}
