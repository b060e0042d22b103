/*
 * compose.c - from a diagnosis to complete paths: the fix steps of the
 * error findings below PyTorch come first (root cause first, one reboot at
 * the end of them), then each path the planner found; a finding's own
 * alternatives become paths too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/compose.h"
#include "util/i18n.h"
#include "util/str.h"

/* Causes whose fix the planner owns when it is asked to solve problem. */
static bool planner_owns(enum cause_id cause, enum plan_problem problem)
{
	if (problem == PROBLEM_NONE)
		return false;
	switch (cause) {
	case CAUSE_DRIVER_NOT_INSTALLED:
		return problem == PROBLEM_NO_DRIVER;
	case CAUSE_DRIVER_TOO_OLD:
		return problem == PROBLEM_DRIVER_TOO_OLD;
	case CAUSE_TORCH_CPU_ONLY:
	case CAUSE_TORCH_ROCM_BUILD:
	case CAUSE_TORCH_DRIVER_TOO_OLD:
	case CAUSE_TORCH_ARCH_UNSUPPORTED:
	case CAUSE_TORCH_NOT_INSTALLED:
	case CAUSE_TORCH_LIBS_UNRESOLVED:
	case CAUSE_TORCH_CUDA_UNAVAILABLE:
		return true;
	default:
		return false;
	}
}

/* See compose.h. The driver's absence or age comes first; then the first torch problem in report order. */
enum plan_problem fix_problem(const struct diagnosis *d)
{
	const struct findings *list = &d->findings;

	if (findings_get(list, CAUSE_DRIVER_NOT_INSTALLED))
		return PROBLEM_NO_DRIVER;
	if (findings_get(list, CAUSE_DRIVER_TOO_OLD))
		return PROBLEM_DRIVER_TOO_OLD;
	for (size_t i = 0; i < list->count; i++) {
		switch (list->items[i].cause) {
		case CAUSE_TORCH_CPU_ONLY:
			return PROBLEM_CPU_BUILD;
		case CAUSE_TORCH_ROCM_BUILD:
			return PROBLEM_ROCM_BUILD;
		case CAUSE_TORCH_DRIVER_TOO_OLD:
			return PROBLEM_TORCH_DRIVER_TOO_OLD;
		case CAUSE_TORCH_ARCH_UNSUPPORTED:
			return PROBLEM_NO_KERNELS;
		case CAUSE_TORCH_LIBS_UNRESOLVED:
			return PROBLEM_LIBS_UNRESOLVED;
		case CAUSE_TORCH_NOT_INSTALLED:
			return PROBLEM_NOT_INSTALLED;
		default:
			break;
		}
	}
	return PROBLEM_NONE;
}

/*
 * A command to fill in or to run elsewhere is done by hand: one with a
 * placeholder word (docker run --gpus all IMAGE), or a step for the host
 * or for Windows. "unset CUDA_VISIBLE_DEVICES" names a variable, no
 * placeholder.
 */
static bool done_by_hand(const struct fix_step *s)
{
	char buf[PLAN_CMD_MAX], *save = NULL, *prev = NULL;

	if (str_starts_with(s->text, "on the host") || str_starts_with(s->text, "from Windows"))
		return true;
	if (str_copy(buf, sizeof(buf), s->command) < 0)
		return true;
	for (char *w = strtok_r(buf, " ", &save); w; prev = w, w = strtok_r(NULL, " ", &save)) {
		size_t n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");

		if (n >= 3 && n == strlen(w) && !(prev && (strcmp(prev, "unset") == 0 || strcmp(prev, "export") == 0)))
			return true;
	}
	return false;
}

/* A finding's step as a plan step. */
static void add_finding_step(struct plan_path *p, const struct fix_step *s, enum cause_id cause)
{
	struct plan_step *added;
	enum plan_step_kind kind = !s->command ? STEP_MANUAL : strcmp(s->command, "sudo reboot") == 0 ? STEP_REBOOT :
				   done_by_hand(s) ? STEP_MANUAL : STEP_RUN;

	for (int i = 0; s->command && i < p->nsteps; i++)
		if (strcmp(p->steps[i].command, s->command) == 0)
			return;	/* two findings, one command: once is enough */
	if ((added = plan_step_add(p, kind, s->command, "%s", s->text))) {
		str_copy(added->from, sizeof(added->from), cause_name(cause));
		plan_text_copy(added->why, sizeof(added->why), added->why_local, sizeof(added->why_local), s->text,
			       s->text_local);
	}
}

/* The steps of group alt of f; reboots are left for the end of the shared part. */
static bool add_finding_group(struct plan_path *p, const struct finding *f, int alt)
{
	bool reboot = false;

	for (int i = 0; i < f->nfix; i++) {
		if (f->fix[i].alt != alt)
			continue;
		if (f->fix[i].command && strcmp(f->fix[i].command, "sudo reboot") == 0)
			reboot = true;
		else
			add_finding_step(p, &f->fix[i], f->cause);
	}
	return reboot;
}

static bool path_has_reboot(const struct plan_path *p)
{
	for (int i = 0; i < p->nsteps; i++)
		if (p->steps[i].kind == STEP_REBOOT)
			return true;
	return false;
}

/* The shared steps: each unowned error finding's fix (group alt for finding `which`, else its own). */
static void shared_steps(const struct fix_report *r, const struct diagnosis *d, const struct plan_path *torch,
			 const struct finding *which, int alt, struct plan_path *out)
{
	bool reboot = false;

	memset(out, 0, sizeof(*out));
	out->ok = true;
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		/* a finding blocked by another follows from it: fixing the blocker fixes it */
		if (f->severity != SEV_ERROR || planner_owns(f->cause, r->problem) || f->nblocked > 0)
			continue;
		reboot |= add_finding_group(out, f, f == which ? alt : 0);
	}
	/* one reboot after them, unless the PyTorch part reboots later anyway */
	if (reboot && !(torch && path_has_reboot(torch)))
		plan_step_add(out, STEP_REBOOT, "sudo reboot", N_("reboot so the changes above take effect"));
}

/* shared + the planner's path (NULL: none) as a complete path appended to r->plan. */
static void add_path(struct fix_report *r, const struct plan_path *shared, const struct plan_path *torch,
		     const char *id, const char *title, const char *title_local, const char *tradeoff,
		     const char *tradeoff_local)
{
	struct plan *pl = &r->plan;
	struct plan_path *p;

	if (pl->npaths >= PLAN_MAX_PATHS)
		return;
	p = &pl->paths[pl->npaths++];
	*p = *shared;
	if (torch) {
		for (int i = 0; i < torch->nsteps; i++) {
			if (p->nsteps >= PLAN_MAX_STEPS) {
				p->steps_dropped++;
				continue;
			}
			p->steps[p->nsteps++] = torch->steps[i];
		}
		memcpy(p->checks, torch->checks, sizeof(p->checks));
		p->nchecks = torch->nchecks;
		p->torch = torch->torch;
		str_copy(p->driver_branch, sizeof(p->driver_branch), torch->driver_branch);
		str_copy(p->driver_min, sizeof(p->driver_min), torch->driver_min);
		p->ok = torch->ok && !p->steps_dropped;
	} else {
		plan_step_add(p, STEP_VERIFY, "gpudoctor --fail-on error", N_("check the whole stack again"));
		plan_check_add(p, "steps", CHECK_UNCHECKED, NULL, "the steps come from the diagnosis' findings; no "
			       "PyTorch install to check");
	}
	str_copy(p->id, sizeof(p->id), id);
	plan_text_copy(p->title, sizeof(p->title), p->title_local, sizeof(p->title_local), title, title_local);
	plan_text_copy(p->tradeoff, sizeof(p->tradeoff), p->tradeoff_local, sizeof(p->tradeoff_local), tradeoff,
		       tradeoff_local);
}

static void note_findings(struct fix_report *r, const struct diagnosis *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		if (f->severity == SEV_ERROR && r->naddressed < FIX_MAX_FINDINGS)
			r->addressed[r->naddressed++] = f;
		else if (f->severity == SEV_WARNING && f->nfix > 0 && !planner_owns(f->cause, r->problem) &&
			 r->nalso < FIX_MAX_FINDINGS)
			r->also[r->nalso++] = f;
		else if (f->severity == SEV_WARNING && planner_owns(f->cause, r->problem) && r->naddressed < FIX_MAX_FINDINGS)
			r->addressed[r->naddressed++] = f;
	}
}

/* See compose.h. */
void fix_compose(const struct facts *f, const struct diagnosis *d, const char *venv_dir, struct fix_report *out)
{
	struct plan *torch = malloc(sizeof(*torch));
	struct plan_path *shared = malloc(sizeof(*shared));
	const struct plan_path *main_torch;
	char title[200], title_local[300], tradeoff[300], tradeoff_local[400];

	memset(out, 0, sizeof(*out));
	out->root = d->root_cause;
	plan_machine_from_facts(f, &out->machine);
	out->machine.venv_dir = venv_dir;
	out->problem = fix_problem(d);
	out->plan.problem = out->problem;
	note_findings(out, d);
	if (!torch || !shared) {
		str_copy(out->plan.note, sizeof(out->plan.note), "out of memory");
		goto done;
	}
	/* --venv asks for a fresh environment even where nothing is broken in PyTorch */
	if (out->problem == PROBLEM_NONE && venv_dir && out->machine.env && !d->root_cause)
		out->problem = out->plan.problem = PROBLEM_NOT_INSTALLED;
	if (!d->root_cause && out->problem == PROBLEM_NONE) {
		out->nothing_to_fix = true;
		goto done;
	}
	plan_torch(&out->machine, out->problem, torch);
	main_torch = torch->npaths ? &torch->paths[0] : NULL;
	shared_steps(out, d, main_torch, NULL, 0, shared);
	out->nshared = shared->nsteps;
	memcpy(out->plan.rejected, torch->rejected, sizeof(torch->rejected));
	out->plan.nrejected = torch->nrejected;
	memcpy(out->plan.unknown, torch->unknown, sizeof(torch->unknown));
	out->plan.nunknown = torch->nunknown;
	str_copy(out->plan.note, sizeof(out->plan.note), torch->note);
	if (out->problem != PROBLEM_NONE && !main_torch && !shared->nsteps)
		goto done;	/* nothing checked to offer: the note says why */
	for (int i = 0; i < torch->npaths; i++)
		add_path(out, shared, &torch->paths[i], torch->paths[i].id, torch->paths[i].title,
			 torch->paths[i].title_local, torch->paths[i].tradeoff, torch->paths[i].tradeoff_local);
	if (!main_torch) {
		if (d->root_cause)
			plan_textf(title, sizeof(title), title_local, sizeof(title_local), "Fix the root cause: %s",
				   finding_text(d->root_cause->title, d->root_cause->title_local));
		else
			plan_textf(title, sizeof(title), title_local, sizeof(title_local), "%s", N_("Fix the root cause"));
		if (d->root_cause)
			snprintf(title, sizeof(title), "Fix the root cause: %s", d->root_cause->title);
		plan_textf(tradeoff, sizeof(tradeoff), tradeoff_local, sizeof(tradeoff_local), "%s",
			   N_("the fix steps of the diagnosis' findings, root cause first"));
		add_path(out, shared, NULL, "findings", title, title_local, tradeoff, tradeoff_local);
	}
	/* a finding's own alternatives (Secure Boot: sign the module or switch it off) as paths of their own */
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *fd = &d->findings.items[i];

		if (fd->severity != SEV_ERROR || planner_owns(fd->cause, out->problem) || fd->nblocked > 0)
			continue;
		for (int k = 1; k <= fd->nalt; k++) {
			plan_textf(tradeoff, sizeof(tradeoff), tradeoff_local, sizeof(tradeoff_local), "the diagnosis' other "
				   "way for %s: %s", cause_name(fd->cause), finding_text(fd->title, fd->title_local));
			snprintf(tradeoff, sizeof(tradeoff), "the diagnosis' other way for %s: %s", cause_name(fd->cause),
				 fd->title);
			shared_steps(out, d, main_torch, fd, k, shared);
			add_path(out, shared, main_torch, "finding-alternative", fd->alt_titles[k - 1],
				 fd->alt_titles_local[k - 1], tradeoff, tradeoff_local);
		}
	}
done:
	free(torch);
	free(shared);
}

/* See compose.h. */
void fix_rebuild(const struct fix_report *r, bool container, struct fix_rebuild *out)
{
	memset(out, 0, sizeof(*out));
	if (container)
		out->ok = plan_container(&r->machine, &r->plan, &out->path, &out->image) == 0;
	else
		out->ok = plan_rebuild(&r->machine, &r->plan, NULL, &out->path) == 0;
	if (out->ok)
		return;
	if (container && out->path.title[0] && !out->path.torch.release[0])
		str_copy(out->why, sizeof(out->why), out->path.title);
	else
		str_copy(out->why, sizeof(out->why), "no PyTorch build in the tables passes its checks for a fresh "
			 "environment on this machine");
	for (int i = 0; i < out->path.nchecks; i++) {
		if (out->path.checks[i].state == CHECK_FAIL) {
			str_printf(out->why, sizeof(out->why), "%s: %s", out->path.checks[i].what, out->path.checks[i].detail);
			break;
		}
	}
}
