/*
 * kb.c - `gpudoctor kb`: answers from the compiled-in knowledge tables.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "kb/query.h"
#include "report/report.h"
#include "report/textfmt.h"
#include "util/str.h"
#include "util/i18n.h"

static const char *text_or(json_t *v, const char *otherwise)
{
	return json_is_string(v) ? json_string_value(v) : otherwise;
}

/* The width of kb's text: a terminal's 80 columns. */
#define KB_WIDTH 80

/* `kb torch X`: each variant on its own lines, with what it needs and the command that installs it. */
static void print_variants(struct textfmt *t, json_t *variants)
{
	size_t i;
	json_t *v;

	json_array_foreach(variants, i, v) {
		char archs[512];

		/* "8.0;8.6;9.0" as words, so that a long list wraps */
		str_copy(archs, sizeof(archs), text_or(json_object_get(v, "archs"),
			 json_object_get(v, "cuda") && !json_is_null(json_object_get(v, "cuda")) ? "unknown (no data)" : "-"));
		for (char *c = archs; (c = strchr(c, ';')); c++)
			*c = ' ';
		tf_wrap_at(t, fprintf(t->out, "  %-6s CUDA %-5s cuDNN %-10s driver >= %-10s archs ",
				      text_or(json_object_get(v, "variant"), "?"), text_or(json_object_get(v, "cuda"), "-"),
				      text_or(json_object_get(v, "cudnn"),
					      json_is_string(json_object_get(v, "cuda")) ? "unknown" : "-"),
				      text_or(json_object_get(v, "min_driver"), "-")), 9, archs);
		fprintf(t->out, "         $ %s\n", text_or(json_object_get(v, "pip"), "?"));
	}
}

/* "source: A ; B" as one line per source at indent, each wrapped under its own text. */
static void print_sources(struct textfmt *t, int indent, const char *sources)
{
	const char *p = sources ? sources : "?";

	for (;;) {
		const char *sep = strstr(p, " ; ");
		size_t len = sep ? (size_t)(sep - p) : strlen(p);

		char one[1024];

		/* its first word (an address, however long) on the label's line */
		str_printf(one, sizeof(one), "%.*s", (int)len, p);
		tf_wrap_at(t, fprintf(t->out, "%*ssource: ", indent, ""), indent + 8, one);
		if (!sep)
			break;
		p = sep + 3;
	}
}

/* A table row as "key=value" pairs, broken between pairs at KB_WIDTH (a pair is never split). */
static void print_row(struct textfmt *t, json_t *row)
{
	const char *key;
	json_t *v;
	int col = 1;

	fputc(' ', t->out);
	json_object_foreach(row, key, v) {
		int len;

		if (strcmp(key, "source") == 0 || strcmp(key, "table") == 0 || strcmp(key, "note") == 0)
			continue;
		len = (int)strlen(key) + 1 + (int)strlen(text_or(v, ""));
		if (col > 4 && col + 1 + len > KB_WIDTH) {
			fputs("\n   ", t->out);
			col = 3;
		}
		if (col + 1 + len <= KB_WIDTH) {
			col += fprintf(t->out, " %s=%s", key, text_or(v, ""));
			continue;
		}
		/* a pair wider than a line (a sentence): its words wrapped under it */
		for (const char *w = text_or(v, ""); *w;) {
			int wl = (int)strcspn(w, " ");

			if (w == text_or(v, "")) {
				col += fprintf(t->out, " %s=%.*s", key, wl, w);
			} else if (col + 1 + wl > KB_WIDTH) {
				col = fprintf(t->out, "\n%6s%.*s", "", wl, w) - 1;
			} else {
				col += fprintf(t->out, " %.*s", wl, w);
			}
			w += wl;
			w += strspn(w, " ");
		}
	}
	fputc('\n', t->out);
	print_sources(t, 4, json_string_value(json_object_get(row, "source")));
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
		struct textfmt t = { out, false, KB_WIDTH };

		tf_wrap(&t, 0, 2, text_or(json_object_get(ans, "summary"), ""));
		print_variants(&t, json_object_get(ans, "variants"));
		if (opts->verbose) {
			json_array_foreach(json_object_get(ans, "rows"), i, row)
				print_row(&t, row);
		} else {
			print_sources(&t, 0, json_string_value(json_object_get(
				json_array_get(json_object_get(ans, "rows"), 0), "source")));
		}
	}
	json_decref(ans);
	return cmd_out_close(&o, opts, EXIT_READY);
}

static const struct cmd_option kb_only[] = {
	{ "driver", 0, "VERSION", OPT_KB_DRIVER, N_("torch-for: the NVIDIA driver version (e.g. 470.82.01)") },
	{ "gpu", 0, "SM", OPT_KB_GPU, N_("torch-for: the GPU's compute capability (sm_86 or 8.6)") },
	{ "python", 0, "VERSION", OPT_KB_PYTHON, N_("torch-for: the Python version (e.g. 3.10)") },
};
static CMD_OPTION_GROUP(kb_options, kb_only);

static const struct cmd_option_group *const groups[] = { &kb_options, NULL };

const struct command cmd_kb = {
	.name = "kb",
	.run = run_kb,
	.summary = N_("answer version questions from the built-in knowledge tables"),
	.usage = "gpudoctor kb QUERY [options]",
	.description = "Answers the version arithmetic of GPU setups from tables compiled into the binary, each "
		       "row with its public source (-v shows the rows).",
	.epilogue = kb_query_usage,
	.groups = groups,
	.operands = true,
};
