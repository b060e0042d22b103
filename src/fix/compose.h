/*
 * compose.h - a diagnosis turned into one plan from this machine to a working
 * PyTorch: the steps the lower layers need first (from their findings),
 * then the planner's way for PyTorch and the driver (plan/plan.h), with
 * whole alternative paths beside it.
 *
 * Every path of the result is complete: an alternative repeats the steps
 * it shares with the plan (renderers may say "steps 1-3 as above"). The
 * planner checked the PyTorch part of each; the finding steps come from
 * the rules as they are.
 */
#ifndef GD_FIX_COMPOSE_H
#define GD_FIX_COMPOSE_H

#include "plan/plan.h"
#include "rules/rules.h"

#define FIX_MAX_FINDINGS 16

struct fix_report {
	const struct finding *root;	/* the diagnosis' root cause, NULL when none */
	enum plan_problem problem;	/* what the planner was asked to solve */
	struct plan_machine machine;
	struct plan plan;		/* complete paths: [0] the plan, then the alternatives */
	int nshared;			/* how many leading steps every path shares (the lower layers' fixes) */
	const struct finding *addressed[FIX_MAX_FINDINGS];	/* the findings the plan's steps come from or solve */
	int naddressed;
	const struct finding *also[FIX_MAX_FINDINGS];	/* warnings the plan does not address, with fixes of their own */
	int nalso;
	bool nothing_to_fix;		/* no error finding: the stack is ready */
};

/*
 * Compose the plan for diagnosis d of facts f into out (large: allocate it).
 * venv_dir: --venv DIR, a fresh environment there instead of changing the
 * diagnosed one; NULL for the planner's choice. Never fails; out->plan.note
 * says why there is no path when there is none.
 */
void fix_compose(const struct facts *f, const struct diagnosis *d, const char *venv_dir, struct fix_report *out);

/* A fresh environment instead of a repaired one (requirements.txt, environment.yml, a Dockerfile). */
struct fix_rebuild {
	struct plan_path path;		/* path.torch: what it installs; path.checks: what that was checked for */
	struct plan_image image;	/* the container's base image (container only) */
	bool ok;
	char why[240];			/* when not ok */
};

/* What r's fresh environment gets; for a container also its image. out is large: allocate it. */
void fix_rebuild(const struct fix_report *r, bool container, struct fix_rebuild *out);

/* The problem the planner solves for a diagnosis, PROBLEM_NONE when its errors lie elsewhere. */
enum plan_problem fix_problem(const struct diagnosis *d);

#endif
