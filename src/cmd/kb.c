/*
 * kb.c - `gpudoctor kb`: answers from the compiled-in knowledge tables.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "kb/query.h"
#include "report/report.h"

int cmd_kb(const struct cmd_options *opts)
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
	for (int k = 0; k < opts->nquery_flags; k++)
		argv[argc++] = opts->query_flags[k];
	ans = kb_query(argc, argv, &err);
	if (!ans) {
		cmd_error("gpudoctor kb: %s\nqueries:\n%s", err.msg, kb_query_usage);
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

const char *cmd_kb_queries(void)
{
	return kb_query_usage;
}
