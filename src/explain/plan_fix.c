/*
 * plan_fix.c - explain's fixes that depend on what the text shows: the
 * architecture in "sm_61 is not compatible with the current PyTorch
 * installation", the major in "libcudnn_ops_infer.so.8". The planner
 * (plan/plan.h) turns them into checked commands, with no machine to look
 * at: the environment is whichever `python` ran the program.
 */
#include <stdlib.h>
#include <string.h>

#include "explain/scan_internal.h"
#include "plan/plan.h"
#include "util/i18n.h"
#include "util/str.h"

static const char *value_named(const struct explain_cause *c, const char *name)
{
	for (int i = 0; i < c->nvalues; i++)
		if (strcmp(c->values[i].name, name) == 0)
			return c->values[i].value;
	return NULL;
}

/* "sm_120" or "compute_61" -> "12.0" / "6.1": the last digit is the minor. */
static int cc_of_arch(const char *arch, char *out, size_t outsz)
{
	const char *digits = strchr(arch, '_');
	size_t n;

	if (!digits || !*++digits)
		return -1;
	n = strspn(digits, "0123456789");
	if (n < 2 || n > 3)
		return -1;
	return str_printf(out, outsz, "%.*s.%c", (int)(n - 1), digits, digits[n - 1]);
}

static void add_path(struct explain_cause *c, int alt, const struct plan_path *p)
{
	for (int i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];

		if (s->kind == STEP_VERIFY && str_starts_with(s->command, "gpudoctor"))
			continue;
		explain_add_fix(c, alt, s->why, s->why_local[0] ? s->why_local : NULL, s->command[0] ? s->command : NULL);
	}
}

/* A build with kernels for the architecture the message names. */
static void torch_for_arch(struct explain_cause *c, const char *text, const char *local)
{
	const char *arch = value_named(c, "arch");
	struct plan_machine m = { .driver_known = false };
	struct plan *plan;
	char title[320], title_local[480];
	int alt;

	if (!arch || cc_of_arch(arch, m.ccs[0], sizeof(m.ccs[0])) < 0 || !(plan = malloc(sizeof(*plan)))) {
		explain_add_fix(c, 0, text, local, "gpudoctor fix");
		return;
	}
	m.nccs = 1;
	m.gpu_names[0] = "";
	plan_torch(&m, PROBLEM_NO_KERNELS, plan);
	if (plan->npaths == 0) {
		str_printf(title, sizeof(title), "%s: no PyTorch build in the tables runs on %s (%s)", text, arch, plan->note);
		if (i18n_active())
			str_printf(title_local, sizeof(title_local), _("%s: no PyTorch build in the tables runs on %s (%s)"),
				   local ? local : text, arch, i18n_text(plan->note));
		explain_add_fix(c, 0, title, i18n_active() ? title_local : NULL, "gpudoctor fix");
	} else {
		static const char *const check = N_("check that build against this machine's driver, GPUs and Python");

		add_path(c, 0, &plan->paths[0]);
		explain_add_fix(c, 0, check, i18n_active() ? _(check) : NULL, "gpudoctor fix");
		for (int i = 1; i < plan->npaths && i < 3; i++) {
			const struct plan_path *p = &plan->paths[i];

			str_printf(title, sizeof(title), "%s (%s)", p->title, p->tradeoff);
			if (p->title_local[0] || p->tradeoff_local[0])
				str_printf(title_local, sizeof(title_local), _("%s (%s)"), plan_text(p->title, p->title_local),
					   plan_text(p->tradeoff, p->tradeoff_local));
			if ((alt = explain_add_alternative(c, title, p->title_local[0] || p->tradeoff_local[0]
								     ? title_local : NULL)) > 0)
				add_path(c, alt, p);
		}
	}
	free(plan);
}

/* The cuDNN wheel of the major the library name asks for, and the loader path to it. */
static void cudnn_for_library(struct explain_cause *c, const char *text, const char *local)
{
	const char *lib = value_named(c, "library"), *so = lib ? strstr(lib, ".so.") : NULL;
	const char *dll = lib ? strstr(lib, ".dll") : NULL;
	struct kb_answer wheel;
	char cmd[256], why[320], why_local[480];
	static const char *const path_step = N_("put the wheel's libraries on the loader path: only PyTorch finds them by itself");
	int major = so ? atoi(so + 4) : 0;

	/* cudnn_ops_infer64_8.dll: the major follows the last '_' */
	if (!major && dll) {
		const char *us = dll;

		while (us > lib && us[-1] != '_')
			us--;
		major = us > lib ? atoi(us) : 0;
	}
	int cudas[] = { 12, 11, 13 }, alt = 0;
	bool found = false;

	if (major <= 0) {
		explain_add_fix(c, 0, text, local, NULL);
		return;
	}
	for (size_t i = 0; i < sizeof(cudas) / sizeof(cudas[0]); i++) {
		if (kb_cudnn_wheel(major, cudas[i], &wheel) < 0)
			continue;
		if (alt >= 0 && (alt > 0 || found)) {
			/* the first CUDA major that has the wheel is the fix; the others are alternatives */
			str_printf(why, sizeof(why), "the program is built for CUDA %d: the cuDNN %d wheel for it", cudas[i], major);
			if (i18n_active())
				str_printf(why_local, sizeof(why_local), _("the program is built for CUDA %d: the cuDNN %d wheel for it"),
					   cudas[i], major);
			alt = explain_add_alternative(c, why, i18n_active() ? why_local : NULL);
		}
		if (alt < 0)
			break;
		str_printf(cmd, sizeof(cmd), "python -m pip install 'nvidia-cudnn-cu%d==%s'", cudas[i], wheel.value);
		str_printf(why, sizeof(why), "install cuDNN %d for CUDA %d as a wheel (%s names cuDNN %d; %s is the version "
			   "PyTorch %s pinned)", major, cudas[i], lib, major, wheel.value, wheel.release ? wheel.release : "");
		if (i18n_active())
			str_printf(why_local, sizeof(why_local), _("install cuDNN %d for CUDA %d as a wheel (%s names cuDNN %d; "
				   "%s is the version PyTorch %s pinned)"), major, cudas[i], lib, major, wheel.value,
				   wheel.release ? wheel.release : "");
		explain_add_fix(c, alt, why, i18n_active() ? why_local : NULL, cmd);
		explain_add_fix(c, alt, path_step, i18n_active() ? _(path_step) : NULL,
				"export LD_LIBRARY_PATH=\"$(python -c 'import nvidia.cudnn; print(nvidia.cudnn.__path__[0])')"
				"/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"");
		found = true;
	}
	if (!found)
		explain_add_fix(c, 0, text, local, NULL);
}

/* See scan_internal.h. */
void explain_planned_fix(struct explain_cause *c, const char *directive, const char *text, const char *local)
{
	if (strcmp(directive, "@torch-for-arch") == 0)
		torch_for_arch(c, text, local);
	else if (strcmp(directive, "@cudnn-for-library") == 0)
		cudnn_for_library(c, text, local);
	else
		explain_add_fix(c, 0, text, local, NULL);
}
