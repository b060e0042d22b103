/*
 * fixes.h - fix steps that depend on the distribution, shared by rules.
 *
 * Commands here are shown to the user, never run by gpudoctor.
 */
#ifndef GD_RULES_FIXES_H
#define GD_RULES_FIXES_H

#include "plan/plan.h"
#include "probe/facts.h"
#include "rules/finding.h"

void fix_install_driver(struct finding *f, const struct facts *facts);
void fix_blacklist_nouveau(struct finding *f, const struct facts *facts);
void fix_rebuild_module(struct finding *f, const struct facts *facts);
void fix_rebuild_initramfs(struct finding *f, const struct facts *facts);
/* The NVIDIA Container Toolkit's repository and package for the distribution (NVIDIA's install guide). */
void fix_install_container_toolkit(struct finding *f, const struct facts *facts);
/*
 * A plan's path as f's fix steps and its alternatives as f's alternatives (at most three); the rest are
 * left to `gpudoctor fix`, run on the machine itself when the facts came from a paste.
 */
void fix_from_plan(struct finding *f, const struct plan *plan, const struct facts *facts);
/* The planner's way to a working PyTorch for problem on this machine, as f's fix (plan/plan.h). */
void fix_torch_plan(struct finding *f, const struct facts *facts, enum plan_problem problem);

#endif
