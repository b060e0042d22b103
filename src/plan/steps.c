/*
 * steps.c - building blocks of a plan: steps, checks, shell words, names,
 * and the machine as the planner sees it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "util/i18n.h"
#include "util/str.h"

/* The localized copy of fmt with ap into local (see plan_textf); ap is consumed. */
static void local_vformat(char *local, size_t localsz, const char *english, const char *fmt, va_list ap)
{
	char *s = i18n_local_vdupf(english, fmt, ap);

	local[0] = '\0';
	if (s && str_copy(local, localsz, s) < 0)
		local[0] = '\0';	/* a cut translation could end inside a character: the English shows */
	free(s);
}

/* See plan.h. No second formatting in English. */
void plan_textf(char *out, size_t outsz, char *local, size_t localsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, outsz, fmt, ap);
	va_end(ap);
	local[0] = '\0';
	if (i18n_active()) {
		va_start(ap, fmt);
		local_vformat(local, localsz, out, fmt, ap);
		va_end(ap);
	}
}

/* See plan.h. */
void plan_text_copy(char *out, size_t outsz, char *local, size_t localsz, const char *english, const char *localized)
{
	str_copy(out, outsz, english);
	local[0] = '\0';
	if (localized && localized[0] && strcmp(localized, out) != 0 && str_copy(local, localsz, localized) < 0)
		local[0] = '\0';
}

/* See plan.h: NULL when the path is full (counted in steps_dropped). */
struct plan_step *plan_step_add(struct plan_path *p, enum plan_step_kind kind, const char *command,
				const char *why_fmt, ...)
{
	struct plan_step *s;
	va_list ap;

	if (p->nsteps >= PLAN_MAX_STEPS) {
		p->steps_dropped++;
		return NULL;
	}
	s = &p->steps[p->nsteps++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	if (command && str_copy(s->command, sizeof(s->command), command) < 0) {
		/* a cut command is a wrong command: the path must not pass */
		p->steps_dropped++;
	}
	va_start(ap, why_fmt);
	vsnprintf(s->why, sizeof(s->why), why_fmt, ap);
	va_end(ap);
	if (i18n_active()) {
		va_start(ap, why_fmt);
		local_vformat(s->why_local, sizeof(s->why_local), s->why, why_fmt, ap);
		va_end(ap);
	}
	s->root = command && str_starts_with(command, "sudo ");
	return s;
}

/* See plan.h. */
void plan_step_local(struct plan_step *s, const char *fmt, ...)
{
	va_list ap;

	s->why_local[0] = '\0';
	if (!i18n_active())
		return;
	va_start(ap, fmt);
	local_vformat(s->why_local, sizeof(s->why_local), s->why, fmt, ap);
	va_end(ap);
}

/* See plan.h. A failed check clears p->ok; past PLAN_MAX_CHECKS the check still counts, unlisted. */
struct plan_check *plan_check_add(struct plan_path *p, const char *what, enum check_state state, const char *source,
				  const char *fmt, ...)
{
	struct plan_check *c;
	va_list ap;

	if (state == CHECK_FAIL)
		p->ok = false;
	if (p->nchecks >= PLAN_MAX_CHECKS)
		return NULL;
	c = &p->checks[p->nchecks++];
	str_copy(c->what, sizeof(c->what), what);
	c->state = state;
	c->source = source;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	c->detail_local[0] = '\0';
	if (i18n_active()) {
		va_start(ap, fmt);
		local_vformat(c->detail_local, sizeof(c->detail_local), c->detail, fmt, ap);
		va_end(ap);
	}
	return c;
}

/* See plan.h. */
void plan_check_local(struct plan_check *c, const char *fmt, ...)
{
	va_list ap;

	c->detail_local[0] = '\0';
	if (!i18n_active())
		return;
	va_start(ap, fmt);
	local_vformat(c->detail_local, sizeof(c->detail_local), c->detail, fmt, ap);
	va_end(ap);
}

/* Characters a shell word may hold unquoted (no globbing, expansion or splitting). */
static bool shell_safe(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_./:=@%+,-", c);
}

/* See plan.h. Single quotes keep everything but a single quote, which becomes '\''. */
int plan_shell_word(const char *word, char *out, size_t outsz)
{
	size_t n = 0;
	bool plain = word[0] != '\0';

	for (const char *c = word; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return -1;
		plain &= shell_safe(*c);
	}
	if (plain)
		return str_copy(out, outsz, word);
	if (outsz < 3)
		return -1;
	out[n++] = '\'';
	for (const char *c = word; *c; c++) {
		const char *piece = *c == '\'' ? "'\\''" : NULL;
		size_t len = piece ? 4 : 1;

		if (n + len + 2 > outsz)
			return -1;
		if (piece)
			memcpy(out + n, piece, len);
		else
			out[n] = *c;
		n += len;
	}
	out[n++] = '\'';
	out[n] = '\0';
	return 0;
}

/* The names the JSON report uses (docs/fix.md); static strings, never NULL for a value of the enum. */
const char *plan_installer_name(enum plan_installer installer)
{
	static const char *const names[] = {
		[INSTALL_NONE] = "none", [INSTALL_PIP] = "pip", [INSTALL_UV_PIP] = "uv pip",
		[INSTALL_UV_PROJECT] = "uv project", [INSTALL_POETRY] = "poetry", [INSTALL_CONDA] = "conda",
		[INSTALL_NEW_VENV] = "new venv", [INSTALL_SOURCE] = "source build",
	};

	return names[installer];
}

/* As plan_installer_name, for problems. */
const char *plan_problem_name(enum plan_problem problem)
{
	static const char *const names[] = {
		[PROBLEM_NONE] = "none", [PROBLEM_NOT_INSTALLED] = "not-installed", [PROBLEM_CPU_BUILD] = "cpu-build",
		[PROBLEM_ROCM_BUILD] = "rocm-build", [PROBLEM_TORCH_DRIVER_TOO_OLD] = "torch-driver-too-old",
		[PROBLEM_NO_KERNELS] = "no-kernels", [PROBLEM_LIBS_UNRESOLVED] = "libs-unresolved",
		[PROBLEM_NO_DRIVER] = "no-driver", [PROBLEM_DRIVER_TOO_OLD] = "driver-too-old",
	};

	return names[problem];
}

/* As plan_installer_name, for step kinds. */
const char *plan_step_kind_name(enum plan_step_kind kind)
{
	static const char *const names[] = {
		[STEP_RUN] = "run", [STEP_MANUAL] = "manual", [STEP_REBOOT] = "reboot", [STEP_VERIFY] = "verify",
	};

	return names[kind];
}

/* As plan_installer_name, for check states. */
const char *plan_check_state_name(enum check_state state)
{
	static const char *const names[] = {
		[CHECK_PASS] = "pass", [CHECK_FAIL] = "fail", [CHECK_UNCHECKED] = "unchecked",
	};

	return names[state];
}

static void add_gpu(struct plan_machine *m, const char *cc, const char *name)
{
	if (!cc || !cc[0]) {
		m->gpus_unknown++;
		return;
	}
	if (m->nccs >= PLAN_MAX_GPUS)
		return;
	str_copy(m->ccs[m->nccs], sizeof(m->ccs[0]), cc);
	m->gpu_names[m->nccs++] = name ? name : "";
}

/*
 * See plan.h. A GPU bound to vfio-pci belongs to a virtual machine, not to
 * this one. Without PCI (a container, WSL) the driver's device list names
 * the GPUs.
 */
void plan_machine_from_facts(const struct facts *f, struct plan_machine *m)
{
	const struct python_facts *p = &f->python;
	char cc[16];

	memset(m, 0, sizeof(*m));
	m->facts = f;
	m->driver_known = true;
	m->driver = facts_driver_version(f);
	m->env = p->selected >= 0 ? &p->envs[p->selected] : NULL;
	m->torch = m->env && m->env->torch >= 0 ? &p->torches[m->env->torch] : NULL;
	m->python = m->env && m->env->version[0] ? m->env->version : NULL;
	m->arch = f->system.arch[0] ? f->system.arch : NULL;
	m->container = f->container.in_container;
	m->wsl = f->container.wsl;
	for (int i = 0; i < f->pci.count; i++)
		if (strcmp(f->pci.gpus[i].driver, "vfio-pci") != 0)
			add_gpu(m, f->pci.gpus[i].cc, f->pci.gpus[i].kb_name[0] ? f->pci.gpus[i].kb_name : f->pci.gpus[i].name);
	if (f->pci.count > 0)
		return;
	for (int i = 0; i < f->runtime.nvml_ndev && i < MAX_RT_DEVICES; i++) {
		const struct nvml_device *d = &f->runtime.nvml[i];

		if (d->cc_major <= 0) {
			add_gpu(m, NULL, d->name);
			continue;
		}
		snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
		add_gpu(m, cc, d->name);
	}
}
