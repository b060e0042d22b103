/*
 * reconcile.h - the one step that looks at every finding together.
 *
 * Rule families only add findings from facts; none reads another's output.
 * What needs the whole picture happens here, after all of them, in a fixed
 * order, following the directions the findings carry (finding.h):
 *
 *   1. withdraw: a finding that overturns others (import torch works,
 *      against what the files predicted) removes them, at error severity,
 *      and lists them as its evidence; having withdrawn none, it goes.
 *   2. unless: a finding that only stands when others do not goes.
 *   3. join: a finding that joins a cause merges into the first finding of
 *      that cause (for its own cause: the first one made before it): its
 *      evidence is appended there, the severity is the higher of the two,
 *      and it goes. The driver's answer joins the static finding that
 *      named the same cause this way.
 *   4. unless errors: a finding that only stands without errors (gpu.ready)
 *      goes when one remains.
 *
 * Findings are taken in the order of their origin (family, check, order
 * within the check), which is fixed whatever order the families ran in.
 */
#ifndef GD_RULES_RECONCILE_H
#define GD_RULES_RECONCILE_H

#include "rules/finding.h"

void rules_reconcile(struct findings *list);

#endif
