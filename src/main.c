/*
 * main.c - gpudoctor's command table and global options. The only file
 * that knows every command.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/str.h"

extern char **environ;

static const struct command commands[] = {
	{ "doctor", cmd_doctor, "diagnose the GPU stack and print the root cause first (default)",
	  "usage: gpudoctor [doctor] [options]\n\n"
	  "Walks the chain PCI device -> kernel driver -> driver libraries -> CUDA toolkits ->\n"
	  "cuDNN -> environment -> container/WSL and prints the root cause first, with\n"
	  "evidence and the commands that fix it.\n\n"
	  "Exit status: 0 ready, 1 not ready (an error finding; with --fail-on warning also\n"
	  "a warning), 2 usage error, 3 internal error.\n", NULL },
	{ "info", cmd_info, "print the facts gathered about this machine, without judging them",
	  "usage: gpudoctor info [options]\n\n"
	  "Prints everything the probes found: system, GPUs, driver, libraries, toolkits,\n"
	  "cuDNN, environment, container and WSL. --json gives the same \"facts\" object as\n"
	  "the doctor's report.\n", NULL },
	{ "explain", cmd_explain, "read error text or a whole log and name the cause and the fix",
	  "usage: gpudoctor explain [\"ERROR TEXT\" | FILE... | -] [--tee] [--with-doctor] [--json]\n\n"
	  "Reads error messages or whole training logs (operands that name files are read,\n"
	  "other operands are the text itself, no operand reads standard input) in one\n"
	  "streaming pass and ranks the causes by causality, each with the lines that\n"
	  "matched, why it happens and the fix.\n\n"
	  "  --tee           pass the input through to standard output unchanged, then\n"
	  "                  append the diagnosis:  python train.py 2>&1 | gpudoctor explain --tee\n"
	  "  --with-doctor   also diagnose this machine and join the two (a cause the\n"
	  "                  doctor confirms leads, with the doctor's exact fix)\n\n"
	  "Exit status: 0 a cause was recognised, 1 nothing was, 2 usage error,\n"
	  "3 an input could not be read.\n", NULL },
	{ "test", cmd_test, "prove each GPU computes correctly (kernels, copies, matrix products)",
	  "usage: gpudoctor test [--json] [--duration SECONDS] [--timeout SECONDS]\n\n"
	  "For each GPU, through the CUDA driver (no Python, no toolkit): JIT-compiles small\n"
	  "PTX kernels, checks every word a kernel writes, a host -> device -> device -> host\n"
	  "round trip of random data, and 256x256 matrix products of random data for about\n"
	  "two seconds (--duration), each equal bit for bit to the host's result and to the\n"
	  "first run.\n"
	  "Watches the GPUs' uncorrectable ECC counters and (as root) the kernel log for Xid\n"
	  "events. Runs in a helper process with a deadline (--timeout, default 120 s).\n\n"
	  "Exit status: 0 every GPU passed, 1 a GPU failed or there is no usable GPU,\n"
	  "2 usage error, 3 internal error.\n", NULL },
	{ "bench", cmd_bench, "measure each GPU: bandwidth, FP32, GEMM as % of its peak",
	  "usage: gpudoctor bench [--json] [--seeds-compat] [--timeout SECONDS]\n\n"
	  "Runs the test first, then per GPU: host <-> device bandwidth (pinned and pageable),\n"
	  "device copy bandwidth, FP32 FMA throughput from a PTX kernel, and GEMM in FP32,\n"
	  "TF32, FP16 and BF16 through a cuBLAS found on the machine - each the median of 9\n"
	  "timed runs (CUDA events, after a warm-up, random data) with its spread, as a\n"
	  "percentage of the GPU's datasheet peak (or a peak computed from its clocks).\n\n"
	  "  --seeds-compat   also time the common 100 x 1024x1024 matmul loop the way guides\n"
	  "                   do (host clock, no warm-up) to show why it misleads\n\n"
	  "Exit status as for test.\n", NULL },
	{ "kb", cmd_kb, "answer version questions from the built-in knowledge tables",
	  "usage: gpudoctor kb QUERY [--json]\n\n"
	  "Answers the version arithmetic of GPU setups from tables compiled into the\n"
	  "binary, each row with its public source (-v shows the rows).\n\n"
	  "queries:\n", cmd_kb_queries },
};

static const char global_help[] =
	"options:\n"
	"  --root DIR            read the machine's files under DIR instead of / (runs nothing\n"
	"                        from it: see --load-root-libraries)\n"
	"  --format FORMAT       text (default), json or markdown\n"
	"  --json                short for --format json\n"
	"  --color WHEN          auto (default: only on a terminal, honours NO_COLOR), always, never\n"
	"  --fail-on LEVEL       error (default) or warning: which findings make the exit status 1\n"
	"  --timeout SECONDS     deadline for calls into the NVIDIA driver (default 10, or $GPUDOCTOR_TIMEOUT)\n"
	"  --static              read files only; never load or call the driver (nor Python)\n"
	"  --load-root-libraries under --root, load and call the image's driver libraries; this\n"
	"                        runs the image's code as you: only for an image you trust\n"
	"  --python PATH         the Python interpreter to diagnose (default: python3 on PATH)\n"
	"  --deep                import torch in that interpreter to confirm (default: only\n"
	"                        with a CUDA torch and a working GPU)\n"
	"  --fast                never run the interpreter\n"
	"  -v, --verbose         more detail (repeat for more)\n"
	"  -h, --help            this help; `gpudoctor COMMAND --help` for a command's\n"
	"  --version             print the version\n";

static void usage(FILE *out)
{
	fprintf(out, "usage: gpudoctor [COMMAND] [options]\n\n"
		     "Why is PyTorch not using my GPU, and what do I type to fix it?\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n%s", global_help);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

enum {
	OPT_ROOT = 256, OPT_FORMAT, OPT_JSON, OPT_COLOR, OPT_FAIL_ON, OPT_VERSION, OPT_DRIVER, OPT_GPU, OPT_PYTHON,
	OPT_TIMEOUT, OPT_STATIC, OPT_PYTHON_EXE, OPT_DEEP, OPT_FAST, OPT_TEE, OPT_WITH_DOCTOR, OPT_SEEDS_COMPAT, OPT_DURATION, OPT_LOAD_ROOT_LIBS, OPT_MAX_TIME,
};

/* Seconds, 0.1 to 3600; "2" or "2.5". Locale-free. */
static int parse_seconds(const char *s, double *out)
{
	uint64_t whole = 0, frac = 0;
	double scale = 1;
	const char *dot = strchr(s, '.');
	char buf[32];

	if (!*s || strlen(s) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", dot ? (int)(dot - s) : (int)strlen(s), s);
	if (buf[0] && str_to_u64(buf, &whole) < 0)
		return -1;
	if (dot && dot[1]) {
		if (!str_is_digits(dot + 1) || strlen(dot + 1) > 6 || str_to_u64(dot + 1, &frac) < 0)
			return -1;
		for (size_t i = 0; i < strlen(dot + 1); i++)
			scale *= 10;
	}
	*out = (double)whole + (double)frac / scale;
	return *out >= 0.1 && *out <= 3600 ? 0 : -1;
}

/* kb torch-for's constraints travel to the query as "--flag value" pairs. */
static int add_query_flag(struct cmd_options *o, const char *flag, char *value)
{
	for (int i = 0; i < o->nquery_flags; i += 2)
		if (strcmp(o->query_flags[i], flag) == 0)
			return o->query_flags[i + 1] = value, 0;
	if (o->nquery_flags + 2 > (int)(sizeof(o->query_flags) / sizeof(o->query_flags[0])))
		return -1;
	o->query_flags[o->nquery_flags++] = (char *)flag;
	o->query_flags[o->nquery_flags++] = value;
	return 0;
}

static int parse_options(int argc, char **argv, struct cmd_options *o, bool *version)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "driver", required_argument, NULL, OPT_DRIVER },
		{ "gpu", required_argument, NULL, OPT_GPU },
		{ "python", required_argument, NULL, OPT_PYTHON },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "static", no_argument, NULL, OPT_STATIC },
		{ "python-exe", required_argument, NULL, OPT_PYTHON_EXE },
		{ "deep", no_argument, NULL, OPT_DEEP },
		{ "fast", no_argument, NULL, OPT_FAST },
		{ "tee", no_argument, NULL, OPT_TEE },
		{ "with-doctor", no_argument, NULL, OPT_WITH_DOCTOR },
		{ "seeds-compat", no_argument, NULL, OPT_SEEDS_COMPAT },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "load-root-libraries", no_argument, NULL, OPT_LOAD_ROOT_LIBS },
		{ "max-time", required_argument, NULL, OPT_MAX_TIME },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ROOT:
			o->root = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = FORMAT_JSON;
			else if (strcmp(optarg, "markdown") == 0 || strcmp(optarg, "md") == 0)
				o->format = FORMAT_MARKDOWN;
			else
				return fprintf(stderr, "gpudoctor: unknown format '%s' (text, json, markdown)\n", optarg), -1;
			break;
		case OPT_JSON:
			o->format = FORMAT_JSON;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0)
				o->color = COLOR_AUTO;
			else if (strcmp(optarg, "always") == 0)
				o->color = COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				o->color = COLOR_NEVER;
			else
				return fprintf(stderr, "gpudoctor: unknown --color '%s' (auto, always, never)\n", optarg), -1;
			break;
		case OPT_FAIL_ON:
			if (strcmp(optarg, "warning") == 0)
				o->fail_on_warning = true;
			else if (strcmp(optarg, "error") == 0)
				o->fail_on_warning = false;
			else
				return fprintf(stderr, "gpudoctor: unknown --fail-on '%s' (error, warning)\n", optarg), -1;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			o->help = true;
			break;
		case OPT_VERSION:
			*version = true;
			break;
		case OPT_DRIVER:
			add_query_flag(o, "--driver", optarg);
			break;
		case OPT_GPU:
			add_query_flag(o, "--gpu", optarg);
			break;
		case OPT_PYTHON:
			/* kb torch-for takes a version; doctor and info take an interpreter */
			if (strchr(optarg, '/'))
				o->python = optarg;
			else
				add_query_flag(o, "--python", optarg);
			break;
		case OPT_PYTHON_EXE:
			o->python = optarg;
			break;
		case OPT_DEEP:
			o->deep = true;
			break;
		case OPT_TEE:
			o->tee = true;
			break;
		case OPT_WITH_DOCTOR:
			o->with_doctor = true;
			break;
		case OPT_SEEDS_COMPAT:
			o->seeds_compat = true;
			break;
		case OPT_DURATION:
			if (parse_seconds(optarg, &o->duration_s) < 0)
				return fprintf(stderr, "gpudoctor: --duration wants seconds from 0.1 to 3600, not '%s'\n",
					       optarg), -1;
			break;
		case OPT_MAX_TIME:
			if (parse_seconds(optarg, &o->max_time_s) < 0)
				return fprintf(stderr, "gpudoctor: --max-time wants seconds from 0.1 to 3600, not '%s'\n",
					       optarg), -1;
			break;
		case OPT_FAST:
			o->fast = true;
			break;
		case OPT_TIMEOUT:
			if (parse_seconds(optarg, &o->timeout_s) < 0)
				return fprintf(stderr, "gpudoctor: --timeout wants seconds from 0.1 to 3600, not '%s'\n", optarg), -1;
			break;
		case OPT_LOAD_ROOT_LIBS:
			o->load_root_libraries = true;
			break;
		case OPT_STATIC:
			o->static_only = true;
			break;
		case ':':
			return fprintf(stderr, "gpudoctor: option '%s' needs a value\n", argv[optind - 1]), -1;
		default:
			return fprintf(stderr, "gpudoctor: unknown option '%s'\n", argv[optind - 1]), -1;
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	return 0;
}

int main(int argc, char **argv)
{
	struct cmd_options opts = { .envp = environ };
	const struct command *cmd = &commands[0];
	bool version = false;

	/* Writes to a closed pipe must fail with EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	if (getenv("GPUDOCTOR_TIMEOUT") && parse_seconds(getenv("GPUDOCTOR_TIMEOUT"), &opts.timeout_s) < 0) {
		fprintf(stderr, "gpudoctor: ignoring GPUDOCTOR_TIMEOUT: it wants seconds from 0.1 to 3600\n");
		opts.timeout_s = 0;
	}
	if (parse_options(argc, argv, &opts, &version) < 0) {
		fprintf(stderr, "try 'gpudoctor --help'\n");
		return EXIT_USAGE;
	}
	if (version) {
		printf("gpudoctor %s\n", GD_VERSION);
		return cmd_finish_output(EXIT_READY);
	}
	if (opts.nargs > 0) {
		cmd = find_command(opts.args[0]);
		if (!cmd) {
			fprintf(stderr, "gpudoctor: unknown command '%s'\ntry 'gpudoctor --help'\n", opts.args[0]);
			return EXIT_USAGE;
		}
		opts.args++;
		opts.nargs--;
	} else if (opts.help) {
		usage(stdout);
		return cmd_finish_output(EXIT_READY);
	}
	if (opts.help) {
		printf("%s%s\n%s", cmd->help, cmd->more_help ? cmd->more_help() : "", global_help);
		return cmd_finish_output(EXIT_READY);
	}
	/* Outside kb, --python names an interpreter even without a slash ("python3.11"). */
	for (int i = 0; cmd->run != cmd_kb && i < opts.nquery_flags; i += 2)
		if (strcmp(opts.query_flags[i], "--python") == 0 && !opts.python)
			opts.python = opts.query_flags[i + 1];
	if (opts.nargs > 0 && cmd->run != cmd_kb && cmd->run != cmd_explain) {
		fprintf(stderr, "gpudoctor %s: unexpected argument '%s'\n", cmd->name, opts.args[0]);
		return EXIT_USAGE;
	}
	return cmd->run(&opts);
}
