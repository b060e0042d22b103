/*
 * kb.c - `gpudoctor kb`: answers from the compiled-in knowledge tables.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "kb/query.h"
#include "report/report.h"

static const char *text_or(json_t *v, const char *otherwise)
{
	return json_is_string(v) ? json_string_value(v) : otherwise;
}

/* `kb torch X`: each variant on its own lines, with what it needs and the command that installs it. */
static void print_variants(FILE *out, json_t *variants)
{
	size_t i;
	json_t *v;

	json_array_foreach(variants, i, v) {
		fprintf(out, "  %-6s CUDA %-5s cuDNN %-10s driver >= %-10s archs %s\n", text_or(json_object_get(v, "variant"), "?"),
			text_or(json_object_get(v, "cuda"), "-"),
			text_or(json_object_get(v, "cudnn"), json_is_string(json_object_get(v, "cuda")) ? "unknown" : "-"),
			text_or(json_object_get(v, "min_driver"), "-"),
			text_or(json_object_get(v, "archs"), json_object_get(v, "cuda") && !json_is_null(json_object_get(v, "cuda")) ?
				"unknown (no data)" : "-"));
		fprintf(out, "         $ %s\n", text_or(json_object_get(v, "pip"), "?"));
	}
}

static int run_kb(const struct cmd_options *opts)
{
	char *argv[16];
	int argc = 0;
	struct error err;
	json_t *ans, *row;
	struct cmd_out o;
	FILE *out;
	size_t i;

	for (int k = 0; k < opts->nargs && argc < 10; k++)
		argv[argc++] = opts->args[k];
	/* torch-for's constraints travel to the query as "--flag value" pairs */
	const char *const flags[][2] = { { "--driver", opts->kb_driver }, { "--gpu", opts->kb_gpu },
					 { "--python", opts->kb_python } };

	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
		if (flags[k][1]) {
			argv[argc++] = (char *)flags[k][0];
			argv[argc++] = (char *)flags[k][1];
		}
	}
	ans = kb_query(argc, argv, &err);
	if (!ans) {
		if (err.code == KB_QUERY_NO_ANSWER) {
			cmd_error("gpudoctor kb: %s", err.msg);
			return EXIT_NOT_READY;
		}
		cmd_error("gpudoctor kb: %s\n%s", err.msg, kb_query_usage);
		return EXIT_USAGE;
	}
	if (!(out = cmd_out_open(&o))) {
		json_decref(ans);
		return EXIT_INTERNAL;
	}
	if (opts->format == FORMAT_JSON) {
		json_object_set_new(ans, "schema", json_string("gpudoctor.kb/1"));
		report_json_write(out, ans);
	} else {
		fprintf(out, "%s\n", json_string_value(json_object_get(ans, "summary")));
		print_variants(out, json_object_get(ans, "variants"));
		if (opts->verbose || opts->format == FORMAT_MARKDOWN) {
			json_array_foreach(json_object_get(ans, "rows"), i, row) {
				const char *key;
				json_t *v;

				fprintf(out, " ");
				json_object_foreach(row, key, v)
					if (strcmp(key, "source") != 0 && strcmp(key, "table") != 0 && strcmp(key, "note") != 0)
						fprintf(out, " %s=%s", key, json_string_value(v));
				fprintf(out, "\n    source: %s\n", json_string_value(json_object_get(row, "source")));
			}
		} else {
			fprintf(out, "source: %s\n", json_string_value(json_object_get(
				json_array_get(json_object_get(ans, "rows"), 0), "source")));
		}
	}
	json_decref(ans);
	return cmd_out_close(&o, opts, EXIT_READY);
}

static const struct cmd_option kb_only[] = {
	{ "driver", 0, "VERSION", OPT_KB_DRIVER, "torch-for: the NVIDIA driver version (e.g. 470.82.01)" },
	{ "gpu", 0, "SM", OPT_KB_GPU, "torch-for: the GPU's compute capability (sm_86 or 8.6)" },
	{ "python", 0, "VERSION", OPT_KB_PYTHON, "torch-for: the Python version (e.g. 3.10)" },
};
static CMD_OPTION_GROUP(kb_options, kb_only);

static const struct cmd_option_group *const groups[] = { &kb_options, NULL };

const struct command cmd_kb = {
	.name = "kb",
	.run = run_kb,
	.summary = "answer version questions from the built-in knowledge tables",
	.usage = "gpudoctor kb QUERY [options]",
	.description = "Answers the version arithmetic of GPU setups from tables compiled into the binary, each "
		       "row with its public source (-v shows the rows).",
	.epilogue = kb_query_usage,
	.groups = groups,
	.operands = true,
};
