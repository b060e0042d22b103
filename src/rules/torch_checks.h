/*
 * torch_checks.h - checks of the torch family that live in their own files;
 * rules_torch.c lists them in its table.
 */
#ifndef GD_RULES_TORCH_CHECKS_H
#define GD_RULES_TORCH_CHECKS_H

#include "probe/facts.h"
#include "rules/finding.h"

/*
 * torch.requirements-unmet: the nvidia-* Requires-Dist of the selected interpreter's torch (facts read
 * them only when its METADATA was there) that its site directories do not satisfy. An error when one is
 * missing, a warning when only versions differ.
 */
void torch_check_requirements(const struct facts *f, struct findings *out);

#endif
