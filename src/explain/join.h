/*
 * join.h - `explain --with-doctor`: the text's causes against this machine's.
 */
#ifndef GD_EXPLAIN_JOIN_H
#define GD_EXPLAIN_JOIN_H

#include "explain/explain.h"
#include "rules/rules.h"

/* Confirm the causes the doctor also finds (they then lead, with its fix); note its root cause otherwise. */
void explain_join_doctor(struct explain_report *r, const struct diagnosis *d);

/*
 * The doctor's findings that quote an error message (import torch failed, a
 * computation on a device failed): read the message as explain would, and
 * add what it says - the cause and its fix - to the finding.
 */
void explain_annotate_findings(struct diagnosis *d);

#endif
