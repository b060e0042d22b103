/*
 * check.c - a path checked against the tables before anyone sees it.
 *
 * The checks start again from the tables and the path's own record of what
 * it installs, not from how the planner chose it: the release exists for
 * this Python and platform, the variant and its index are the table's, its
 * kernels (SASS, or PTX with the driver JIT needs) cover every GPU, the
 * driver after the path's steps is new enough and still drives every GPU,
 * the companions are the ones released with it, and the install command
 * says exactly that. A failed check keeps the path from being shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/plan_internal.h"
#include "util/i18n.h"
#include "util/str.h"

/* What driver_reaches says of the driver after a path, and its localized copy ("" none). */
struct said {
	char en[160];
	char local[240];
};

/* The driver the machine has once the path's steps ran: "580" (a branch), "newest", the installed version, or NULL. */
static const char *driver_after(const struct plan_machine *m, const struct plan_path *p, bool *branch)
{
	*branch = p->driver_branch[0] != '\0';
	return *branch ? p->driver_branch : m->driver;
}

/* Whether the driver after the path reaches version need. */
static enum check_state driver_reaches(const struct plan_machine *m, const struct plan_path *p, const char *need,
				       struct said *said)
{
	bool branch;
	const char *after = driver_after(m, p, &branch);

	if (branch) {
		/* the driver steps were asked for at least driver_min; a branch number must reach need's branch */
		if (strcmp(after, "newest") == 0) {
			plan_textf(said->en, sizeof(said->en), said->local, sizeof(said->local), "its driver steps install the "
				   "newest branch, asked for %s or newer", p->driver_min[0] ? p->driver_min : N_("any version"));
			return !p->driver_min[0] || version_compare(p->driver_min, need) >= 0 ? CHECK_PASS : CHECK_FAIL;
		}
		plan_textf(said->en, sizeof(said->en), said->local, sizeof(said->local), "its driver steps install branch %s",
			   after);
		return atoi(after) >= atoi(need) ? CHECK_PASS : CHECK_FAIL;
	}
	if (!m->driver_known) {
		plan_textf(said->en, sizeof(said->en), said->local, sizeof(said->local), "%s",
			   N_("the driver is not known here"));
		return CHECK_UNCHECKED;
	}
	if (!after) {
		plan_textf(said->en, sizeof(said->en), said->local, sizeof(said->local), "%s",
			   N_("no driver is installed and the path installs none"));
		return CHECK_FAIL;
	}
	plan_textf(said->en, sizeof(said->en), said->local, sizeof(said->local), "driver %s is installed", after);
	return version_compare(after, need) >= 0 ? CHECK_PASS : CHECK_FAIL;
}

/* Every GPU still driven by the driver after the path: not older than its architecture, not past its last branch. */
static void check_driver_serves_gpus(const struct plan_machine *m, struct plan_path *p)
{
	bool branch;
	const char *after = driver_after(m, p, &branch);

	if (!after)
		return;
	for (int i = 0; i < m->nccs; i++) {
		struct kb_arch_support sup;
		struct kb_sm sm;
		struct kb_answer first;
		char what[24];
		struct said said;
		struct plan_check *c;

		str_printf(what, sizeof(what), "driver for gpu %d", i);
		if (kb_arch_support(m->ccs[i], &sup) == 0 && sup.last_driver_branch[0] && strcmp(after, "newest") != 0 &&
		    atoi(after) > atoi(sup.last_driver_branch)) {
			plan_check_add(p, what, CHECK_FAIL, sup.source, "%s %s is past branch %s, the last for compute "
				       "capability %s", branch ? "branch" : "driver", after, sup.last_driver_branch, m->ccs[i]);
			continue;
		}
		if (kb_sm_support(m->ccs[i], &sm) < 0 || !sm.added_in[0] || kb_cuda_min_driver(sm.added_in, &first) < 0)
			continue;
		if (driver_reaches(m, p, first.value, &said) == CHECK_FAIL &&
		    (c = plan_check_add(p, what, CHECK_FAIL, first.source, "compute capability %s arrived with CUDA %s, "
					"which needs driver %s; %s", m->ccs[i], sm.added_in, first.value, said.en)) && said.local[0])
			plan_check_local(c, "compute capability %s arrived with CUDA %s, which needs driver %s; %s", m->ccs[i],
					 sm.added_in, first.value, said.local);
	}
}

static bool variant_of(const char *release, const char *variant, struct kb_torch_variant *out)
{
	struct kb_torch_variant vars[24];
	int n = kb_torch_variants(release, vars, 24);

	for (int i = 0; i < n; i++) {
		if (strcmp(vars[i].variant, variant) == 0) {
			*out = vars[i];
			return true;
		}
	}
	return false;
}

/* The kernels of the build cover every GPU, and the driver is new enough for them (PTX JIT: the toolkit's own). */
static void check_kernels_and_driver(const struct plan_machine *m, struct plan_path *p, const struct kb_torch_variant *v)
{
	const struct plan_torch *t = &p->torch;
	const char *archs = kb_torch_arch_list(t->release, t->variant);
	struct kb_answer need, own;
	bool ptx = false;
	struct said said;
	struct plan_check *c;
	enum check_state st;

	for (int i = 0; i < m->nccs; i++) {
		char what[24];
		enum kb_arch_fit fit = archs ? kb_arch_fit(archs, m->ccs[i]) : KB_ARCH_UNKNOWN;

		str_printf(what, sizeof(what), "gpu %d", i);
		if (fit == KB_ARCH_SASS)
			plan_check_add(p, what, CHECK_PASS, "data/torch_archs.tsv", "%s: compiled kernels for compute "
				       "capability %s in %s+%s (%s)", m->gpu_names[i][0] ? m->gpu_names[i] : "GPU", m->ccs[i],
				       t->release, t->variant, archs);
		else if (fit == KB_ARCH_PTX)
			plan_check_add(p, what, CHECK_PASS, "data/torch_archs.tsv", "%s: PTX in %s+%s (%s) is compiled for "
				       "compute capability %s at first use", m->gpu_names[i][0] ? m->gpu_names[i] : "GPU",
				       t->release, t->variant, archs, m->ccs[i]);
		else
			plan_check_add(p, what, CHECK_FAIL, "data/torch_archs.tsv", "%s+%s has %s for compute capability %s",
				       t->release, t->variant, fit == KB_ARCH_NONE ? N_("no kernels") : N_("no architecture data"),
				       m->ccs[i]);
		ptx |= fit == KB_ARCH_PTX;
	}
	if (m->gpus_unknown)
		plan_check_add(p, "gpus", CHECK_UNCHECKED, NULL, "%d GPU(s) not in the GPU table: their kernels are not "
			       "checked", m->gpus_unknown);
	if (!v->cuda[0] || kb_torch_variant_min_driver(v, &need) < 0)
		return;
	/* JIT-compiling PTX needs the driver of the toolkit the PTX came from, not just minor compatibility */
	if (ptx && kb_cuda_min_driver(v->cuda, &own) == 0 && version_compare(own.value, need.value) > 0)
		need = own;
	st = driver_reaches(m, p, need.value, &said);
	c = plan_check_add(p, "driver", st, need.source, "CUDA %s%s needs driver %s; %s", v->cuda,
			   ptx ? N_(" with PTX JIT") : N_(" (minor-version compatibility)"), need.value, said.en);
	if (c && said.local[0])
		plan_check_local(c, "CUDA %s%s needs driver %s; %s", v->cuda,
				 ptx ? N_(" with PTX JIT") : N_(" (minor-version compatibility)"), need.value, said.local);
}

/* The install step says what the record says: the pins and the index. */
static void check_command(struct plan_path *p, const struct kb_torch_variant *v)
{
	const struct plan_torch *t = &p->torch;
	char want[64], url[200] = "";
	const char *sp = strchr(t->index, ' ');
	bool conda = t->installer == INSTALL_CONDA && t->conda[0];
	bool find_links = str_starts_with(v->index_url, "-f ");

	if (conda)
		str_printf(want, sizeof(want), "pytorch==%s ", t->release);
	else if (find_links)
		str_printf(want, sizeof(want), "torch==%s+%s", t->release, t->variant);
	else
		str_printf(want, sizeof(want), "torch==%s", t->release);
	if (sp && !conda)
		str_copy(url, sizeof(url), sp + 1);
	for (int i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];
		const char *at = strstr(s->command, want);

		if (!s->torch || !at || (at[strlen(want)] != ' ' && at[strlen(want)] != '\0' && !conda))
			continue;
		/* the index is in the command, or (a project) in the file an earlier step edits */
		for (int k = 0; url[0] && k <= i; k++)
			if (strstr(p->steps[k].command, url) || strstr(p->steps[k].content, url))
				url[0] = '\0';
		if (conda && !strstr(s->command, t->conda)) {
			plan_check_add(p, "command", CHECK_FAIL, NULL, "the conda command lacks %s", t->conda);
			return;
		}
		if (url[0]) {
			plan_check_add(p, "command", CHECK_FAIL, NULL, "the install command lacks the index %s", url);
			return;
		}
		if (t->index[0] && !conda)
			plan_check_add(p, "command", CHECK_PASS, NULL, "step %d installs %s from %s", i + 1, want, t->index);
		else
			plan_check_add(p, "command", CHECK_PASS, NULL, "step %d installs %s", i + 1, want);
		return;
	}
	plan_check_add(p, "command", CHECK_FAIL, NULL, "no step installs %s", want);
}

/* The companions the path installs are the ones released with its torch; those installed now move along. */
static void check_companions(const struct plan_machine *m, struct plan_path *p)
{
	const struct plan_torch *t = &p->torch;
	const char *vision, *audio, *source;
	bool want_vision = plan_env_has(m, "torchvision") || t->vision[0];
	bool want_audio = plan_env_has(m, "torchaudio") || t->audio[0];

	if (!want_vision && !want_audio)
		return;
	if (kb_torch_companions(t->release, &vision, &audio, &source) < 0) {
		plan_check_add(p, "companions", CHECK_FAIL, NULL, "no companion versions for torch %s in the tables",
			       t->release);
		return;
	}
	if ((want_vision && (!vision[0] || strcmp(t->vision, vision) != 0)) ||
	    (want_audio && (!audio[0] || strcmp(t->audio, audio) != 0))) {
		plan_check_add(p, "companions", CHECK_FAIL, source, "torch %s goes with torchvision %s and torchaudio %s; "
			       "the path installs %s and %s", t->release, vision[0] ? vision : N_("(unknown)"),
			       audio[0] ? audio : N_("(unknown)"), t->vision[0] ? t->vision : N_("none"),
			       t->audio[0] ? t->audio : N_("none"));
		return;
	}
	plan_check_add(p, "companions", CHECK_PASS, source, "torch %s goes with%s%s%s%s", t->release,
		       want_vision ? " torchvision " : "", want_vision ? vision : "", want_audio ? " torchaudio " : "",
		       want_audio ? audio : "");
}

static void check_wheel(const struct plan_machine *m, struct plan_path *p)
{
	const struct plan_torch *t = &p->torch;
	struct kb_torch_release rel;
	struct kb_torch_variant v;
	char want_index[200];

	if (kb_torch_release(t->release, &rel) < 0) {
		plan_check_add(p, "release", CHECK_FAIL, NULL, "torch %s is not in the tables", t->release);
		return;
	}
	if (!t->python[0])
		plan_check_add(p, "python", CHECK_UNCHECKED, rel.source, "the Python version is not known here");
	else if (!rel.python[0])
		plan_check_add(p, "python", CHECK_FAIL, rel.source, "no data on the Python versions of torch %s", t->release);
	else
		plan_check_add(p, "python", kb_python_supported(rel.python, t->python) ? CHECK_PASS : CHECK_FAIL, rel.source,
			       "torch %s has wheels for Python %s; this is Python %s", t->release, rel.python, t->python);
	if (!m->arch)
		plan_check_add(p, "platform", CHECK_UNCHECKED, NULL, "the machine's architecture is not known here");
	else
		plan_check_add(p, "platform", strcmp(m->arch, "x86_64") == 0 ? CHECK_PASS : CHECK_FAIL, NULL,
			       "the tables hold Linux x86_64 wheels; this machine is %s", m->arch);
	if (!variant_of(t->release, t->variant, &v)) {
		plan_check_add(p, "index", CHECK_FAIL, NULL, "torch %s has no %s variant", t->release, t->variant);
		return;
	}
	if (p->torch.installer == INSTALL_NONE) {
		check_kernels_and_driver(m, p, &v);
		return;
	}
	want_index[0] = '\0';
	if (str_starts_with(v.index_url, "--index-url ") || str_starts_with(v.index_url, "-f ") ||
	    str_starts_with(v.index_url, "--extra-index-url "))
		str_copy(want_index, sizeof(want_index), v.index_url);
	if (t->installer == INSTALL_CONDA && t->conda[0])
		plan_check_add(p, "index", strcmp(t->conda, v.conda) == 0 ? CHECK_PASS : CHECK_FAIL, v.source,
			       "conda selects %s+%s with %s; the path uses %s", t->release, t->variant,
			       v.conda[0] ? v.conda : "(nothing)", t->conda);
	else
		plan_check_add(p, "index", strcmp(want_index, t->index) == 0 ? CHECK_PASS : CHECK_FAIL, v.source,
			       "%s+%s installs with %s", t->release, t->variant, want_index[0] ? want_index : N_("plain pip (PyPI)"));
	check_kernels_and_driver(m, p, &v);
	check_companions(m, p);
	if (p->nsteps > 0)
		check_command(p, &v);	/* a rebuilt environment has no steps: its file is written from the record */
}

/* A source build: the toolkit still targets every GPU, and the driver runs what it builds. */
static void check_source(const struct plan_machine *m, struct plan_path *p)
{
	const struct plan_torch *t = &p->torch;
	struct kb_torch_release rel;
	struct kb_answer need;
	struct said said;

	if (kb_torch_release(t->release, &rel) == 0 && t->python[0])
		plan_check_add(p, "python", kb_python_supported(rel.python, t->python) ? CHECK_PASS : CHECK_FAIL, rel.source,
			       "torch %s supports Python %s; this is Python %s", t->release, rel.python, t->python);
	for (int i = 0; i < m->nccs; i++) {
		struct kb_sm sm;
		enum kb_toolkit_fit fit = kb_toolkit_fit(t->toolkit, m->ccs[i], &sm);
		char what[24];

		str_printf(what, sizeof(what), "gpu %d", i);
		plan_check_add(p, what, fit == KB_TOOLKIT_OK || fit == KB_TOOLKIT_DEPRECATED ? CHECK_PASS : CHECK_FAIL,
			       sm.source, "CUDA %s %s compute capability %s", t->toolkit,
			       fit == KB_TOOLKIT_OK ? N_("targets") : fit == KB_TOOLKIT_DEPRECATED ?
			       N_("still targets (deprecated)") : N_("cannot target"), m->ccs[i]);
	}
	if (t->min_driver[0]) {
		enum check_state st = driver_reaches(m, p, t->min_driver, &said);
		struct plan_check *c;

		kb_cuda_minor_compat_driver(atoi(t->toolkit), &need);
		c = plan_check_add(p, "driver", st, need.source, "CUDA %s builds need driver %s; %s", t->toolkit,
				   t->min_driver, said.en);
		if (c && said.local[0])
			plan_check_local(c, "CUDA %s builds need driver %s; %s", t->toolkit, t->min_driver, said.local);
	}
}

/* See plan.h. */
void plan_check_path(const struct plan_machine *m, struct plan_path *p)
{
	int kept = 0;

	/* checked afresh: only what the driver steps recorded of their table row stays */
	for (int i = 0; i < p->nchecks; i++)
		if (strcmp(p->checks[i].what, "driver install") == 0)
			p->checks[kept++] = p->checks[i];
	p->nchecks = kept;
	p->ok = true;
	if (p->steps_dropped)
		plan_check_add(p, "steps", CHECK_FAIL, NULL, "%d step(s) did not fit or could not be written",
			       p->steps_dropped);
	if (p->torch.installer == INSTALL_SOURCE)
		check_source(m, p);
	else if (p->torch.release[0])
		check_wheel(m, p);
	check_driver_serves_gpus(m, p);
	for (int i = 0; i < p->nchecks; i++)
		if (p->checks[i].state == CHECK_FAIL)
			p->ok = false;
}
