/*
 * torch_plan.c - the ways from this machine to a working PyTorch, best
 * first: the same release in a variant that runs here (the smallest
 * change), a driver upgrade that keeps torch as it is, the nearest and the
 * newest releases that run here, the newest after a driver upgrade; and for
 * a GPU no current wheel serves, the last release that had kernels for it
 * or a build from source. Each path is checked before it is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/plan_internal.h"
#include "util/i18n.h"
#include "util/str.h"

struct builder {
	const struct plan_machine *m;
	struct plan *out;
	struct plan_path *p;		/* the path being built (heap: paths are large) */
	enum plan_installer installer;
	char ceiling[32];		/* "580.999.999": the newest driver these GPUs allow, "" no limit */
	char current[24];		/* the installed release, "" none */
	char current_variant[16];	/* its variant (cu124, cpu), "" unknown */
};

/* What the machine asks of a wheel, with driver as the driver to judge against (NULL: any). */
static void need_of(const struct builder *b, const char *driver, struct kb_torch_need *need)
{
	const struct plan_machine *m = b->m;

	memset(need, 0, sizeof(*need));
	need->driver = driver;
	for (int i = 0; i < m->nccs && i < KB_TORCH_MAX_GPUS; i++)
		need->ccs[need->nccs++] = m->ccs[i];
	need->python = m->python;
	need->vision = plan_env_has(m, "torchvision");
	need->audio = plan_env_has(m, "torchaudio");
	/* with the driver unknown (explain), the build the most drivers run */
	need->oldest_driver = !m->driver_known;
}

/* The driver to judge "here" against: the installed one, or any the GPUs allow when there is none. */
static const char *driver_here(const struct builder *b)
{
	if (b->m->driver)
		return b->m->driver;
	return b->ceiling[0] ? b->ceiling : NULL;
}

/* Any driver these GPUs allow, for the paths that upgrade it. */
static const char *driver_any(const struct builder *b)
{
	return b->ceiling[0] ? b->ceiling : NULL;
}

/* Paths on a machine without a driver (and with GPUs) carry driver steps; explain's machine has none. */
static bool driver_missing(const struct builder *b)
{
	return !b->m->driver && b->m->driver_known && b->m->nccs + b->m->gpus_unknown > 0;
}

static void begin(struct builder *b, const char *id)
{
	memset(b->p, 0, sizeof(*b->p));
	str_copy(b->p->id, sizeof(b->p->id), id);
	b->p->ok = true;
}

static void reject(struct builder *b, const char *why, const char *why_local)
{
	struct plan *out = b->out;
	struct plan_rejected *r;

	if (out->nrejected >= PLAN_MAX_REJECTED)
		return;
	r = &out->rejected[out->nrejected++];
	str_copy(r->id, sizeof(r->id), b->p->id);
	plan_text_copy(r->title, sizeof(r->title), r->title_local, sizeof(r->title_local), b->p->title, b->p->title_local);
	plan_text_copy(r->failed, sizeof(r->failed), r->failed_local, sizeof(r->failed_local), why, why_local);
}

/* The same release, variant, installer and driver branch as a kept path: nothing new to offer. */
static bool duplicate(const struct builder *b)
{
	const struct plan_path *p = b->p;

	for (int i = 0; i < b->out->npaths; i++) {
		const struct plan_path *q = &b->out->paths[i];

		if (strcmp(q->torch.release, p->torch.release) == 0 && strcmp(q->torch.variant, p->torch.variant) == 0 &&
		    q->torch.installer == p->torch.installer && strcmp(q->driver_branch, p->driver_branch) == 0)
			return true;
	}
	return false;
}

/* Check the path; keep it when every check passed, else record why not. */
static void finish(struct builder *b)
{
	struct plan_path *p = b->p;

	plan_check_path(b->m, p);
	if (!p->ok) {
		for (int i = 0; i < p->nchecks; i++) {
			if (p->checks[i].state == CHECK_FAIL) {
				char why[240], why_local[400];

				plan_textf(why, sizeof(why), why_local, sizeof(why_local), "%s: %s", p->checks[i].what,
					   plan_text(p->checks[i].detail, p->checks[i].detail_local));
				reject(b, why, why_local);
				return;
			}
		}
		reject(b, "a step did not fit", i18n_text(N_("a step did not fit")));
		return;
	}
	if (duplicate(b) || b->out->npaths >= PLAN_MAX_PATHS)
		return;
	b->out->paths[b->out->npaths++] = *p;
}

static bool same_build(const struct kb_torch_fit *a, const char *release, const char *variant)
{
	return strcmp(a->release.version, release) == 0 && strcmp(a->variant.variant, variant) == 0;
}

/* "--index-url URL", "-f URL" or "--extra-index-url URL" as the table writes it; "" for PyPI. */
static void index_of(const struct kb_torch_variant *v, char *out, size_t outsz)
{
	if (str_starts_with(v->index_url, "--index-url ") || str_starts_with(v->index_url, "-f ") ||
	    str_starts_with(v->index_url, "--extra-index-url "))
		str_copy(out, outsz, v->index_url);
	else
		out[0] = '\0';
}

/* Fill p->torch from a fit, with the environment's installer. */
static void target_from_fit(struct builder *b, const struct kb_torch_fit *fit)
{
	struct plan_torch *t = &b->p->torch;
	struct kb_torch_need need;

	need_of(b, NULL, &need);
	memset(t, 0, sizeof(*t));
	t->installer = b->installer;
	str_copy(t->release, sizeof(t->release), fit->release.version);
	str_copy(t->variant, sizeof(t->variant), fit->variant.variant);
	str_copy(t->cuda, sizeof(t->cuda), fit->variant.cuda);
	index_of(&fit->variant, t->index, sizeof(t->index));
	if (need.vision)
		str_copy(t->vision, sizeof(t->vision), fit->vision);
	if (need.audio)
		str_copy(t->audio, sizeof(t->audio), fit->audio);
	/* conda replaces its own torch only while the pytorch channel has the release (up to 2.5) */
	if (t->installer == INSTALL_CONDA && plan_conda_pytorch_channel(b->m) && fit->variant.conda[0] &&
	    strcmp(fit->variant.conda, "cpuonly") != 0)
		str_copy(t->conda, sizeof(t->conda), fit->variant.conda);
	str_copy(t->python, sizeof(t->python), b->m->python ? b->m->python : "");
	str_copy(t->min_driver, sizeof(t->min_driver), fit->min_driver.value);
	t->ptx = fit->ptx;
}

/* A path that installs fit, with driver steps first when with_driver; title and title_local from plan_textf. */
static void torch_path(struct builder *b, const char *id, const struct kb_torch_fit *fit, bool with_driver,
		       const char *title, const char *title_local, const char *tradeoff)
{
	struct plan_path *p = b->p;
	char why[240], why_local[400];

	begin(b, id);
	plan_text_copy(p->title, sizeof(p->title), p->title_local, sizeof(p->title_local), title, title_local);
	plan_textf(p->tradeoff, sizeof(p->tradeoff), p->tradeoff_local, sizeof(p->tradeoff_local), "%s", tradeoff);
	target_from_fit(b, fit);
	if ((with_driver || driver_missing(b)) &&
	    plan_driver_steps(b->m, fit->min_driver.value, p, why, sizeof(why), why_local, sizeof(why_local)) < 0) {
		reject(b, why, why_local);
		return;
	}
	plan_install_steps(b->m, p);
	plan_verify_steps(p, p->torch.interpreter);
	finish(b);
}

/* The installed build judged against need; -1 when it is not in the tables. */
static int judge_current(const struct builder *b, const struct kb_torch_need *need, struct kb_torch_fit *out)
{
	struct kb_torch_release rel;
	struct kb_torch_variant vars[24];
	int n;

	if (!b->current[0] || !b->current_variant[0] || kb_torch_release(b->current, &rel) < 0)
		return -1;
	n = kb_torch_variants(b->current, vars, 24);
	for (int i = 0; i < n; i++) {
		if (strcmp(vars[i].variant, b->current_variant) == 0) {
			kb_torch_judge(&rel, &vars[i], need, out);
			return 0;
		}
	}
	return -1;
}

/* Keep torch exactly as it is; install or upgrade the driver to what it needs. */
static void driver_only_path(struct builder *b, const char *id, bool install)
{
	const struct plan_machine *m = b->m;
	struct plan_path *p = b->p;
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char why[240], why_local[400];

	need_of(b, driver_any(b), &need);
	begin(b, id);
	if (m->torch && judge_current(b, &need, &fit) == 0) {
		if (fit.verdict != KB_TORCH_FITS)
			return;	/* no driver makes this build work here */
		if (install)
			plan_textf(p->title, sizeof(p->title), p->title_local, sizeof(p->title_local),
				   "Keep torch %s; install the driver %s or newer", m->torch->version, fit.min_driver.value);
		else
			plan_textf(p->title, sizeof(p->title), p->title_local, sizeof(p->title_local),
				   "Keep torch %s; upgrade the driver to %s or newer", m->torch->version, fit.min_driver.value);
		plan_textf(p->tradeoff, sizeof(p->tradeoff), p->tradeoff_local, sizeof(p->tradeoff_local), "%s",
			   N_("nothing changes in Python; needs root and a reboot"));
		str_copy(p->torch.release, sizeof(p->torch.release), b->current);
		str_copy(p->torch.variant, sizeof(p->torch.variant), b->current_variant);
		str_copy(p->torch.min_driver, sizeof(p->torch.min_driver), fit.min_driver.value);
		p->torch.ptx = fit.ptx;
	} else if (!m->torch) {
		plan_textf(p->title, sizeof(p->title), p->title_local, sizeof(p->title_local), "%s",
			   install ? N_("Install the NVIDIA driver") : N_("Upgrade the NVIDIA driver"));
		plan_textf(p->tradeoff, sizeof(p->tradeoff), p->tradeoff_local, sizeof(p->tradeoff_local), "%s",
			   N_("needs root and a reboot"));
	} else {
		return;
	}
	p->torch.installer = INSTALL_NONE;
	str_copy(p->torch.python, sizeof(p->torch.python), m->python ? m->python : "");
	if (plan_driver_steps(m, m->torch ? fit.min_driver.value : NULL, p, why, sizeof(why), why_local,
			      sizeof(why_local)) < 0) {
		reject(b, why, why_local);
		return;
	}
	if (m->torch) {
		char exe[FACT_PATH + 8];

		if (plan_shell_word(m->env ? m->env->exe : "python", exe, sizeof(exe)) == 0)
			plan_verify_steps(p, exe);
	} else {
		plan_step_add(p, STEP_VERIFY, "gpudoctor --fail-on error", N_("check the whole stack again"));
	}
	finish(b);
}

static void same_release(struct builder *b, const char *driver, bool with_driver)
{
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char title[200], title_local[300];

	if (!b->current[0])
		return;
	need_of(b, driver, &need);
	if (kb_torch_in_release(b->current, &need, &fit) < 0 || same_build(&fit, b->current, b->current_variant))
		return;
	plan_textf(title, sizeof(title), title_local, sizeof(title_local), "Keep torch %s, take its CUDA %s build (%s)", b->current, fit.variant.cuda,
		   fit.variant.variant);
	torch_path(b, "same-release", &fit, with_driver, title, title_local, N_("the smallest change: the same PyTorch "
		   "release, so your code and pinned packages keep working"));
}

static void nearest(struct builder *b)
{
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char title[200], title_local[300];

	if (!b->current[0])
		return;
	need_of(b, driver_here(b), &need);
	if (kb_torch_nearest(b->current, &need, &fit) < 0)
		return;
	plan_textf(title, sizeof(title), title_local, sizeof(title_local), "torch %s with CUDA %s (%s): the nearest release after %s that runs here",
		   fit.release.version, fit.variant.cuda, fit.variant.variant, b->current);
	torch_path(b, "nearest", &fit, false, title, title_local, N_("the smallest version step that works "
		   "here; a new release may still change behaviour your code relies on"));
}

static void newest_here(struct builder *b, bool record_unknown)
{
	const struct plan_machine *m = b->m;
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char title[200], title_local[300], unknown[PLAN_MAX_UNKNOWN][96];
	int nunknown;

	need_of(b, driver_here(b), &need);
	if (kb_torch_newest(&need, &fit, unknown, PLAN_MAX_UNKNOWN, &nunknown) < 0)
		return;
	for (int i = 0; record_unknown && i < nunknown && b->out->nunknown < PLAN_MAX_UNKNOWN; i++)
		str_copy(b->out->unknown[b->out->nunknown++], sizeof(b->out->unknown[0]), unknown[i]);
	if (m->driver)
		plan_textf(title, sizeof(title), title_local, sizeof(title_local), "torch %s with CUDA %s (%s): the newest that runs with driver %s",
			   fit.release.version, fit.variant.cuda, fit.variant.variant, m->driver);
	else
		plan_textf(title, sizeof(title), title_local, sizeof(title_local), "torch %s with CUDA %s (%s): the newest that runs on %s",
			   fit.release.version, fit.variant.cuda, fit.variant.variant, m->nccs ? N_("these GPUs") : "Linux");
	torch_path(b, "newest", &fit, false, title, title_local, b->current[0] ? N_("the newest features and fixes; a bigger step from "
		   "your current release, so code and pinned packages may need changes") :
		   N_("the newest features and fixes that this machine supports"));
}

/* The newest release with any driver the GPUs allow, when that needs a newer driver than the one here. */
static void newest_new_driver(struct builder *b)
{
	const struct plan_machine *m = b->m;
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char title[200], title_local[300], unknown[1][96];
	int nunknown;

	need_of(b, driver_any(b), &need);
	if (kb_torch_newest(&need, &fit, unknown, 0, &nunknown) < 0)
		return;
	if (m->driver && version_compare(m->driver, fit.min_driver.value) >= 0)
		return;	/* runs on this driver: newest_here has it */
	if (m->driver)
		plan_textf(title, sizeof(title), title_local, sizeof(title_local), "torch %s with CUDA %s (%s) after "
			   "upgrading the driver (%s or newer)", fit.release.version, fit.variant.cuda, fit.variant.variant,
			   fit.min_driver.value);
	else
		plan_textf(title, sizeof(title), title_local, sizeof(title_local), "torch %s with CUDA %s (%s) after "
			   "installing the driver (%s or newer)", fit.release.version, fit.variant.cuda, fit.variant.variant,
			   fit.min_driver.value);
	torch_path(b, m->driver ? "newest-new-driver" : "newest", &fit, true, title, title_local,
		   N_("the newest CUDA and PyTorch; needs root and a reboot for the driver"));
}

/*
 * With the driver unknown (explain), a build for drivers older than the
 * newest release's needs: the newest release a driver one branch below runs.
 */
static void older_driver(struct builder *b)
{
	const struct plan_path *first = b->out->npaths ? &b->out->paths[0] : NULL;
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char below[32], title[200], title_local[300], unknown[1][96], driver[32];
	int nunknown;

	if (b->m->driver_known || !first || !first->torch.min_driver[0] || atoi(first->torch.min_driver) <= 1)
		return;
	str_printf(below, sizeof(below), "%d.999.999", atoi(first->torch.min_driver) - 1);
	need_of(b, below, &need);
	if (kb_torch_newest(&need, &fit, unknown, 0, &nunknown) < 0)
		return;
	plan_driver_need(b->m, fit.min_driver.value, driver, sizeof(driver));
	if (atoi(driver) >= atoi(first->torch.min_driver))
		return;	/* the GPU itself needs that branch: nothing older runs it */
	plan_textf(title, sizeof(title), title_local, sizeof(title_local), "with a driver older than %d: torch %s with CUDA %s (%s), which needs %s",
		   atoi(first->torch.min_driver), fit.release.version, fit.variant.cuda, fit.variant.variant, driver);
	torch_path(b, "older-driver", &fit, false, title, title_local,
		   N_("for a machine whose driver cannot be upgraded now"));
}

/* Reinstall the very same build (its CUDA libraries went missing). */
static void reinstall(struct builder *b)
{
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char title[200], title_local[300];

	need_of(b, driver_here(b), &need);
	if (judge_current(b, &need, &fit) < 0 || fit.verdict != KB_TORCH_FITS)
		return;
	plan_textf(title, sizeof(title), title_local, sizeof(title_local), "Reinstall torch %s+%s with its CUDA libraries", b->current, b->current_variant);
	torch_path(b, "reinstall", &fit, false, title, title_local, N_("the same build again: pip brings back the "
		   "nvidia-* wheels it depends on"));
}

/* The last official wheel that had kernels for a GPU no current wheel serves. */
static void last_for_gpu(struct builder *b)
{
	const struct plan_machine *m = b->m;

	for (int i = 0; i < m->nccs; i++) {
		struct kb_arch_support sup;
		struct kb_torch_need need;
		struct kb_torch_fit fit;
		char title[200], title_local[300];

		if (kb_arch_support(m->ccs[i], &sup) < 0 || !sup.last_torch[0])
			continue;
		need_of(b, driver_any(b), &need);
		if (kb_torch_in_release(sup.last_torch, &need, &fit) < 0)
			continue;
		plan_textf(title, sizeof(title), title_local, sizeof(title_local), "torch %s with CUDA %s (%s): the last release with kernels for %s "
			   "(compute capability %s)", fit.release.version, fit.variant.cuda, fit.variant.variant,
			   m->gpu_names[i][0] ? m->gpu_names[i] : sup.arch, m->ccs[i]);
		torch_path(b, "last-for-gpu", &fit, m->driver && version_compare(m->driver, fit.min_driver.value) < 0,
			   title, title_local, N_("no later official wheel runs on this GPU: you stay on an old PyTorch"));
		return;
	}
}

/* The newest release that had a wheel for this CUDA major at or below the toolkit: its tag builds with it. */
static int release_for_toolkit(const char *toolkit, const char *python, struct kb_torch_release *out)
{
	const struct kb_table *t = &kb_table_torch_variants;
	const char *best = NULL;

	for (size_t r = 0; r < t->nrows; r++) {
		const char *cuda = kb_field(t, r, "cuda"), *torch = kb_field(t, r, "torch");
		struct kb_torch_release rel;

		if (!cuda[0] || atoi(cuda) != atoi(toolkit) || version_compare(cuda, toolkit) > 0 ||
		    (best && version_compare(torch, best) <= 0) || kb_torch_release(torch, &rel) < 0 ||
		    (python && !kb_python_supported(rel.python, python)))
			continue;
		best = torch;
		*out = rel;
	}
	return best ? 0 : -1;
}

/* Build from source for GPUs no wheel serves: the newest toolkit that still targets all of them. */
static void from_source(struct builder *b)
{
	const struct plan_machine *m = b->m;
	struct plan_path *p = b->p;
	struct plan_torch *t = &p->torch;
	struct kb_torch_release rel;
	struct kb_answer need;
	char toolkit[16] = "", archs[64] = "", cmd[PLAN_CMD_MAX], py[FACT_PATH + 8] = "python3", why[240];
	char why_local[400];
	struct plan_step *s;

	for (int i = 0; i < m->nccs; i++) {
		struct kb_arch_support sup;

		if (kb_arch_support(m->ccs[i], &sup) == 0 && sup.last_cuda_toolkit[0] &&
		    (!toolkit[0] || version_compare(sup.last_cuda_toolkit, toolkit) < 0))
			str_copy(toolkit, sizeof(toolkit), sup.last_cuda_toolkit);
		if (!strstr(archs, m->ccs[i]))
			str_printf(archs + strlen(archs), sizeof(archs) - strlen(archs), "%s%s", archs[0] ? ";" : "",
				   m->ccs[i]);
	}
	if (!toolkit[0] || !archs[0] || release_for_toolkit(toolkit, m->python, &rel) < 0)
		return;
	begin(b, "build-from-source");
	plan_textf(p->title, sizeof(p->title), p->title_local, sizeof(p->title_local), "Build torch %s from source "
		   "for compute capability %s with CUDA %s", rel.version, archs, toolkit);
	plan_textf(p->tradeoff, sizeof(p->tradeoff), p->tradeoff_local, sizeof(p->tradeoff_local), "%s",
		   N_("hours of compiling, a CUDA toolkit and build tools to install, and no official support for "
		      "this GPU any more"));
	t->installer = INSTALL_SOURCE;
	str_copy(t->release, sizeof(t->release), rel.version);
	str_copy(t->cuda, sizeof(t->cuda), toolkit);
	str_copy(t->toolkit, sizeof(t->toolkit), toolkit);
	str_copy(t->arch_list, sizeof(t->arch_list), archs);
	str_copy(t->python, sizeof(t->python), m->python ? m->python : "");
	if (kb_cuda_minor_compat_driver(atoi(toolkit), &need) == 0 || kb_cuda_min_driver(toolkit, &need) == 0)
		str_copy(t->min_driver, sizeof(t->min_driver), need.value);
	if (((m->driver && t->min_driver[0] && version_compare(m->driver, t->min_driver) < 0) || driver_missing(b)) &&
	    plan_driver_steps(m, t->min_driver, p, why, sizeof(why), why_local, sizeof(why_local)) < 0) {
		reject(b, why, why_local);
		return;
	}
	plan_step_add(p, STEP_MANUAL, NULL, "install the CUDA %s toolkit, the newest whose nvcc still targets compute "
		      "capability %s, from https://developer.nvidia.com/cuda-toolkit-archive (the toolkit only: keep the "
		      "driver), with a C++17 compiler that toolkit supports", toolkit, archs);
	if (m->env && (b->installer == INSTALL_PIP || b->installer == INSTALL_UV_PIP) &&
	    plan_shell_word(m->env->exe, py, sizeof(py)) == 0) {
		if (m->torch) {
			str_printf(cmd, sizeof(cmd), "%s -m pip uninstall -y torch%s%s", py,
				   plan_env_has(m, "torchvision") ? " torchvision" : "",
				   plan_env_has(m, "torchaudio") ? " torchaudio" : "");
			if ((s = plan_step_add(p, STEP_RUN, cmd, "remove the official build")))
				s->torch = true;
		}
	} else {
		const char *base = m->env && m->env->kind == PY_VENV ? m->env->real_exe : m->env ? m->env->exe : "python3";
		char qbase[FACT_PATH + 8];

		if (plan_shell_word(base, qbase, sizeof(qbase)) < 0)
			return;
		str_printf(cmd, sizeof(cmd), "%s -m venv ~/venvs/torch-src", qbase);
		plan_step_add(p, STEP_RUN, cmd, N_("a fresh environment for the build"));
		str_copy(py, sizeof(py), "~/venvs/torch-src/bin/python");
	}
	str_copy(t->interpreter, sizeof(t->interpreter), py);
	plan_step_add(p, STEP_RUN, "git clone https://github.com/pytorch/pytorch ~/src/pytorch", N_("get the source"));
	str_printf(cmd, sizeof(cmd), "cd ~/src/pytorch && git checkout v%s && git submodule sync && git submodule update "
		   "--init --recursive", rel.version);
	plan_step_add(p, STEP_RUN, cmd, N_("the release tag and its submodules"));
	str_printf(cmd, sizeof(cmd), "cd ~/src/pytorch && %s -m pip install -r requirements.txt", py);
	plan_step_add(p, STEP_RUN, cmd, N_("the build's Python dependencies"));
	str_printf(cmd, sizeof(cmd), "cd ~/src/pytorch && CUDA_HOME=/usr/local/cuda-%s TORCH_CUDA_ARCH_LIST='%s' "
		   "USE_CUDA=1 %s -m pip install --no-build-isolation -v .", toolkit, archs, py);
	if ((s = plan_step_add(p, STEP_RUN, cmd, "build for compute capability %s only (TORCH_CUDA_ARCH_LIST), with the "
			       "CUDA %s toolkit (CUDA_HOME)", archs, toolkit)))
		s->torch = true;
	if (plan_env_has(m, "torchvision") || plan_env_has(m, "torchaudio"))
		plan_step_add(p, STEP_MANUAL, NULL, "build torchvision and torchaudio from source the same way: their "
			      "wheels are compiled against the official torch");
	plan_verify_steps(p, py);
	finish(b);
}

/* The variant of the installed torch: its local tag, else its CUDA version ("12.1" -> cu121), else cpu. */
static void current_build(struct builder *b)
{
	const struct torch_install *t = b->m->torch;
	const char *plus;

	/* a distribution's own build ("1.13.0a0") is no release of the wheel tables: nothing to keep */
	if (!t || strcmp(t->installer, "debian") == 0)
		return;
	plan_release_of(t->version, b->current, sizeof(b->current));
	if ((plus = strchr(t->version, '+')))
		str_copy(b->current_variant, sizeof(b->current_variant), plus + 1);
	else if (t->cuda[0])
		str_printf(b->current_variant, sizeof(b->current_variant), "cu%d%d", atoi(t->cuda),
			   strchr(t->cuda, '.') ? atoi(strchr(t->cuda, '.') + 1) : 0);
	else if (!t->hip[0])
		str_copy(b->current_variant, sizeof(b->current_variant), "cpu");
}

/* The newest branch every GPU here still has ("580.999.999"), so "any driver" stays one they can run. */
static void gpu_ceiling(struct builder *b)
{
	int max = 0;

	for (int i = 0; i < b->m->nccs; i++) {
		struct kb_arch_support sup;

		if (kb_arch_support(b->m->ccs[i], &sup) == 0 && sup.last_driver_branch[0] &&
		    (max == 0 || atoi(sup.last_driver_branch) < max))
			max = atoi(sup.last_driver_branch);
	}
	if (max)
		str_printf(b->ceiling, sizeof(b->ceiling), "%d.999.999", max);
}

/* The plan's own PyTorch with uv pip instead of pip: the same result, much faster installs. */
static void with_uv(struct builder *b)
{
	const struct plan_path *first = b->out->npaths ? &b->out->paths[0] : NULL;
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	char title[200], title_local[300];

	if (!first || b->installer != INSTALL_PIP || !b->m->facts || !b->m->facts->python.uv[0] ||
	    first->torch.installer != INSTALL_PIP || first->driver_branch[0])
		return;
	need_of(b, driver_here(b), &need);
	if (kb_torch_in_release(first->torch.release, &need, &fit) < 0 || strcmp(fit.variant.variant, first->torch.variant))
		return;
	plan_textf(title, sizeof(title), title_local, sizeof(title_local), "The plan's torch %s+%s with uv pip instead of pip", first->torch.release,
		   first->torch.variant);
	b->installer = INSTALL_UV_PIP;
	torch_path(b, "uv", &fit, false, title, title_local, N_("the same packages; uv installs them much faster"));
	b->installer = INSTALL_PIP;
}

/* When no wheel path was kept: the last release for the GPU, and a source build. */
static void fallbacks(struct builder *b)
{
	if (b->out->npaths > 0)
		return;
	last_for_gpu(b);
	from_source(b);
}

/* See plan.h. */
int plan_torch(const struct plan_machine *m, enum plan_problem problem, struct plan *out)
{
	struct builder b = { .m = m, .out = out };

	memset(out, 0, sizeof(*out));
	out->problem = problem;
	if (problem == PROBLEM_NONE)
		return 0;
	if (!(b.p = malloc(sizeof(*b.p)))) {
		str_copy(out->note, sizeof(out->note), N_("out of memory"));
		return 0;
	}
	b.installer = plan_env_installer(m);
	gpu_ceiling(&b);
	current_build(&b);
	switch (problem) {
	case PROBLEM_CPU_BUILD:
	case PROBLEM_ROCM_BUILD:
	case PROBLEM_NO_KERNELS:
	case PROBLEM_TORCH_DRIVER_TOO_OLD:
		same_release(&b, driver_here(&b), false);
		if (problem == PROBLEM_TORCH_DRIVER_TOO_OLD)
			driver_only_path(&b, "upgrade-driver", false);
		if (out->npaths == 0)
			nearest(&b);	/* no build of this release runs here: the smallest step up */
		newest_here(&b, true);
		if (m->driver_known)
			newest_new_driver(&b);
		else
			older_driver(&b);
		fallbacks(&b);
		break;
	case PROBLEM_NOT_INSTALLED:
		newest_here(&b, true);
		newest_new_driver(&b);
		fallbacks(&b);
		break;
	case PROBLEM_LIBS_UNRESOLVED:
		reinstall(&b);
		same_release(&b, driver_here(&b), false);
		newest_here(&b, true);
		break;
	case PROBLEM_NO_DRIVER:
	case PROBLEM_DRIVER_TOO_OLD: {
		struct kb_torch_need need;
		struct kb_torch_fit fit;

		need_of(&b, driver_any(&b), &need);
		if (!m->torch) {
			newest_new_driver(&b);	/* the driver, then the newest torch it runs */
			if (problem == PROBLEM_NO_DRIVER)
				driver_only_path(&b, "install-driver", true);
		} else if (!m->torch || (judge_current(&b, &need, &fit) == 0 && fit.verdict == KB_TORCH_FITS)) {
			driver_only_path(&b, problem == PROBLEM_NO_DRIVER ? "install-driver" : "upgrade-driver",
					 problem == PROBLEM_NO_DRIVER);
		} else {
			same_release(&b, driver_any(&b), true);
			newest_new_driver(&b);
		}
		if (problem == PROBLEM_DRIVER_TOO_OLD)
			newest_here(&b, true);
		fallbacks(&b);
		break;
	}
	case PROBLEM_NONE:
		break;
	}
	with_uv(&b);
	free(b.p);
	if (out->npaths == 0 && !out->note[0])
		str_copy(out->note, sizeof(out->note), out->nrejected ? N_("every way the tables offer failed its checks") :
			 N_("the tables hold no PyTorch build for this machine"));
	return out->npaths;
}
