/*
 * text_facts.h - the facts as a compact, aligned text summary.
 */
#ifndef GD_REPORT_TEXT_FACTS_H
#define GD_REPORT_TEXT_FACTS_H

#include "probe/facts.h"
#include "report/textfmt.h"

/* detail 0: one line per layer; 1: every item; 2: with sources and candidates. */
void text_facts_summary(struct textfmt *t, const struct facts *facts, int detail);

#endif
