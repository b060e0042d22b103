/*
 * report_fix.h - renderers of `gpudoctor fix`: text, JSON, and the files a
 * plan can be written as (a bash script, requirements.txt, environment.yml,
 * a Dockerfile). They only format what fix/ composed and plan/ checked.
 */
#ifndef GD_REPORT_REPORT_FIX_H
#define GD_REPORT_REPORT_FIX_H

#include <stdio.h>

#include "fix/compose.h"
#include "report/report.h"

#define FIX_SCHEMA "gpudoctor.fix/1"

void report_text_fix(FILE *out, const struct fix_report *r, const struct report_opts *o);
void report_markdown_fix(FILE *out, const struct fix_report *r);
/* New reference; NULL only when out of memory. d and facts are what r was composed from (facts are embedded whole). */
json_t *report_fix_json(const struct fix_report *r, const struct diagnosis *d, const struct facts *facts);
json_t *report_fix_path_json(const struct plan_path *p);
/* The files; each returns -1 (after writing a comment saying why) when there is nothing checked to write. */
int report_fix_script(FILE *out, const struct fix_report *r);
int report_fix_requirements(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb);
int report_fix_conda_env(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb);
int report_fix_dockerfile(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb);

#endif
