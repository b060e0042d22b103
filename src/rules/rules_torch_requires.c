/*
 * rules_torch_requires.c - the nvidia-* wheels torch's METADATA pins,
 * against those the interpreter has: what `pip check` would say, read from
 * two directory listings. A pip torch loads its CUDA libraries from these
 * wheels (its RPATH names their lib directories), so a missing one makes
 * `import torch` fail unless another copy happens to be on the loader's
 * path, and a different version mixes library releases the wheel was not
 * built with.
 */
#include <string.h>

#include "rules/fixes.h"
#include "rules/torch_checks.h"
#include "util/i18n.h"
#include "util/str.h"

/* "nvidia-cudnn-cu12==9.1.0.70 nvidia-nccl-cu12==2.21.5": the unmet pins, as pip takes them. */
static void unmet_pins(const struct torch_install *t, char *out, size_t outsz)
{
	out[0] = '\0';
	for (int i = 0; i < t->nreqs; i++) {
		const struct torch_requirement *r = &t->reqs[i];

		if (!r->met)
			str_printf(out + strlen(out), outsz - strlen(out), "%s%s%s%s", out[0] ? " " : "", r->name, r->op,
				   r->version);
	}
}

/* One command installing them into py: pip through the interpreter, or uv pip where the venv has no pip. */
static void add_fix(struct finding *fd, const struct facts *f, const struct python_env *py, const char *pins)
{
	char exe[FACT_PATH + 8], cmd[FACT_PATH + 1024];

	if (plan_shell_word(py->exe, exe, sizeof(exe)) < 0)
		return;
	if (!py->pip && (strcmp(py->venv_tool, "uv") == 0 || f->python.uv[0]))
		str_printf(cmd, sizeof(cmd), "uv pip install --python %s %s", exe, pins);
	else
		str_printf(cmd, sizeof(cmd), "%s -m pip install %s", exe, pins);
	finding_fix(fd, cmd, "install the nvidia-* wheels torch was built with, at the versions its METADATA pins");
}

/* See torch_checks.h. */
void torch_check_requirements(const struct facts *f, struct findings *out)
{
	const struct python_env *py = f->python.selected >= 0 ? &f->python.envs[f->python.selected] : NULL;
	const struct torch_install *t;
	struct finding *fd = NULL;
	int missing = 0, differs = 0;
	char pins[1024];

	if (!py || py->torch < 0 || fact_denied(&f->python.status))
		return;
	t = &f->python.torches[py->torch];
	if (!t->reqs_checked)
		return;
	for (int i = 0; i < t->nreqs; i++) {
		if (!t->reqs[i].met)
			t->reqs[i].installed[0] ? differs++ : missing++;
	}
	if (missing + differs == 0)
		return;
	if (missing)
		fd = findings_add(out, CAUSE_TORCH_REQUIREMENTS_UNMET, SEV_ERROR,
				  "torch %s lacks %d of the nvidia-* wheels it requires", t->version, missing);
	else
		fd = findings_add(out, CAUSE_TORCH_REQUIREMENTS_UNMET, SEV_WARNING,
				  "%d nvidia-* wheel%s differ%s from the versions torch %s requires", differs,
				  differs == 1 ? "" : "s", differs == 1 ? "s" : "", t->version);
	finding_detail(fd, "torch's METADATA pins the CUDA libraries it was built with as nvidia-* wheels, and loads them "
		       "from those wheels' lib directories. %s%s `pip check` reports the same.",
		       missing ? "A missing wheel makes `import torch` fail (\"cannot open shared object file\", or "
		       "\"... not found in the system path\") unless another copy is on the loader's path. " : "",
		       differs ? "A different version mixes a library release the wheel was not built with: "
		       "\"undefined symbol\" errors, or cuDNN refusing to run." : "");
	for (int i = 0; i < t->nreqs; i++) {
		const struct torch_requirement *r = &t->reqs[i];

		if (!r->met)
			finding_evidence(fd, r->name, t->metadata, "requires %s%s, %s%s", r->op, r->version,
					 r->installed[0] ? N_("installed ") : N_("not installed"), r->installed);
	}
	unmet_pins(t, pins, sizeof(pins));
	add_fix(fd, f, py, pins);
}
