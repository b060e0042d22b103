/*
 * installer.c - the commands that put a chosen PyTorch build into an
 * environment, in the words of the tool that manages it: pip or uv pip in
 * a venv, uv or Poetry in a project, conda for conda's own torch, and a
 * fresh venv for a distribution's interpreter (PEP 668: never sudo pip).
 * Always through the diagnosed interpreter's own path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/plan_internal.h"
#include "util/i18n.h"
#include "util/str.h"

/* Whether the environment has a package that moves with torch ("torchvision"). */
bool plan_env_has(const struct plan_machine *m, const char *name)
{
	const struct torch_install *t = m->torch;
	size_t n = strlen(name);

	if (!t)
		return false;
	if (strcmp(name, "torchvision") == 0 && t->conda_vision)
		return true;
	if (strcmp(name, "torchaudio") == 0 && t->conda_audio)
		return true;
	for (int i = 0; i < t->npackages; i++)
		if (strncmp(t->packages[i], name, n) == 0 && t->packages[i][n] == ' ')
			return true;
	return false;
}

/* "2.5.1+cu124" -> "2.5.1"; the conda build's plain version stays as it is. */
void plan_release_of(const char *version, char *out, size_t outsz)
{
	str_copy(out, outsz, version);
	out[strcspn(out, "+")] = '\0';
}

/* See plan_internal.h: the pytorch channel's builds read "py3.10_cuda12.1_...", conda-forge's "cuda120_py311...". */
bool plan_conda_pytorch_channel(const struct plan_machine *m)
{
	const char *build = m->torch ? strrchr(m->torch->conda_pytorch, '-') : NULL;

	return build && str_starts_with(build + 1, "py");
}

/* See plan_internal.h. */
enum plan_installer plan_env_installer(const struct plan_machine *m)
{
	const struct python_env *py = m->env;

	if (!m->facts && !py && !m->venv_dir)
		return INSTALL_PIP;	/* no machine (explain): the environment the program ran in, as `python` */
	if (m->venv_dir || !py || py->kind == PY_SYSTEM || py->externally_managed)
		return INSTALL_NEW_VENV;
	if (strcmp(py->project_tool, "uv") == 0)
		return INSTALL_UV_PROJECT;
	if (strcmp(py->project_tool, "poetry") == 0)
		return INSTALL_POETRY;
	if (m->torch && strcmp(m->torch->installer, "conda") == 0)
		return INSTALL_CONDA;
	if (!py->pip && (strcmp(py->venv_tool, "uv") == 0 || (m->facts && m->facts->python.uv[0])))
		return INSTALL_UV_PIP;
	return INSTALL_PIP;
}

/* A path for the shell, or a manual step saying why it cannot be one. */
static bool quoted(struct plan_path *p, const char *path, char *out, size_t outsz)
{
	if (plan_shell_word(path, out, outsz) == 0)
		return true;
	plan_step_add(p, STEP_MANUAL, NULL, "the path %s cannot be written as a shell word: run the steps by hand", path);
	p->steps_dropped++;
	return false;
}

/* See plan.h: "torch==2.5.1 torchvision==0.20.1"; old find-links releases name the variant too. */
int plan_pins(const struct plan_torch *t, bool find_links, const char *torch_name, char *out, size_t outsz)
{
	char suffix[24] = "", audio_suffix[24] = "";

	if (find_links) {
		str_printf(suffix, sizeof(suffix), "+%s", t->variant);
		/* torchaudio has local CUDA tags from 0.10 (torch 1.10) on */
		if (version_compare(t->release, "1.10") >= 0)
			str_copy(audio_suffix, sizeof(audio_suffix), suffix);
	}
	str_printf(out, outsz, "%s==%s%s", torch_name, t->release, suffix);
	if (t->vision[0])
		str_printf(out + strlen(out), outsz - strlen(out), " torchvision==%s%s", t->vision, suffix);
	if (t->audio[0])
		str_printf(out + strlen(out), outsz - strlen(out), " torchaudio==%s%s", t->audio, audio_suffix);
	return 0;
}

/* What is installed now and moves out: "torch torchvision torchaudio". */
static void installed_set(const struct plan_machine *m, char *out, size_t outsz)
{
	str_copy(out, outsz, "torch");
	if (plan_env_has(m, "torchvision"))
		str_printf(out + strlen(out), outsz - strlen(out), " torchvision");
	if (plan_env_has(m, "torchaudio"))
		str_printf(out + strlen(out), outsz - strlen(out), " torchaudio");
}

/* "--index-url https://download.pytorch.org/whl/cu124" -> its URL, "" for PyPI. */
static const char *index_url(const struct plan_torch *t)
{
	const char *sp = strchr(t->index, ' ');

	return sp ? sp + 1 : "";
}

static void pip_steps(const struct plan_machine *m, struct plan_path *p, const char *py, bool uv)
{
	const struct plan_torch *t = &p->torch;
	char set[64], pin[200], cmd[PLAN_CMD_MAX], need[48], companions[96], companions_local[160];
	char needs[96] = "", needs_local[160] = "";
	struct plan_step *s;

	if (!uv && m->env && !m->env->pip && p->torch.installer != INSTALL_NEW_VENV) {
		str_printf(cmd, sizeof(cmd), "%s -m ensurepip", py);
		if ((s = plan_step_add(p, STEP_RUN, cmd, "this environment has no pip: bootstrap it")))
			s->torch = true;
	}
	if ((m->torch || !m->facts) && p->torch.installer != INSTALL_NEW_VENV) {
		installed_set(m, set, sizeof(set));
		if (uv)
			str_printf(cmd, sizeof(cmd), "uv pip uninstall --python %s %s", py, set);
		else
			str_printf(cmd, sizeof(cmd), "%s -m pip uninstall -y %s", py, set);
		if (strchr(set, ' '))
			s = plan_step_add(p, STEP_RUN, cmd, "remove torch %s and its companions, which must move with it",
					  m->torch ? m->torch->version : N_("as installed"));
		else
			s = plan_step_add(p, STEP_RUN, cmd, "remove torch %s", m->torch ? m->torch->version : N_("as installed"));
		if (s)
			s->torch = true;
	}
	plan_pins(t, str_starts_with(t->index, "-f "), "torch", pin, sizeof(pin));
	if (uv)
		str_printf(cmd, sizeof(cmd), "uv pip install --python %s %s", py, pin);
	else
		str_printf(cmd, sizeof(cmd), "%s -m pip install %s", py, pin);
	if (t->index[0])
		str_printf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " %s", t->index);
	plan_driver_need(m, t->min_driver, need, sizeof(need));
	companions[0] = companions_local[0] = '\0';
	if (t->vision[0] && t->audio[0])
		plan_textf(companions, sizeof(companions), companions_local, sizeof(companions_local),
			   ", with torchvision %s and torchaudio %s as one matched set", t->vision, t->audio);
	else if (t->vision[0] || t->audio[0])
		plan_textf(companions, sizeof(companions), companions_local, sizeof(companions_local),
			   ", with %s %s as one matched set", t->vision[0] ? "torchvision" : "torchaudio",
			   t->vision[0] ? t->vision : t->audio);
	if (!m->facts && need[0])
		plan_textf(needs, sizeof(needs), needs_local, sizeof(needs_local), "; it needs NVIDIA driver %s or newer", need);
	if ((s = plan_step_add(p, STEP_RUN, cmd, "install torch %s built for CUDA %s (%s)%s%s", t->release,
			       t->cuda[0] ? t->cuda : "-", t->variant, companions, needs))) {
		s->torch = true;
		if (companions_local[0] || needs_local[0])
			plan_step_local(s, "install torch %s built for CUDA %s (%s)%s%s", t->release, t->cuda[0] ? t->cuda : "-",
					t->variant, plan_text(companions, companions_local), plan_text(needs, needs_local));
	}
	if (!m->facts && !m->env) {
		const char *vision, *audio;

		/* no machine to look at: say which companions go with it, for whoever has them */
		if (kb_torch_companions(t->release, &vision, &audio, NULL) == 0 && (vision[0] || audio[0]))
			plan_step_add(p, STEP_MANUAL, NULL, "if torchvision or torchaudio are installed, install%s%s%s%s "
				      "in the same command: they must match torch %s", vision[0] ? " torchvision==" : "",
				      vision, audio[0] ? " torchaudio==" : "", audio, t->release);
	}
}

/* A uv project: the PyTorch index goes into pyproject.toml (explicit, only for torch's packages), then uv add. */
static void uv_project_steps(const struct plan_machine *m, struct plan_path *p, const char *dir)
{
	const struct plan_torch *t = &p->torch;
	char pin[200], cmd[PLAN_CMD_MAX], name[40];
	struct plan_step *s;

	str_printf(name, sizeof(name), "pytorch-%s", t->variant);
	if (str_starts_with(t->index, "--index-url ")) {
		if ((s = plan_step_add(p, STEP_MANUAL, NULL, "add the %s index to %s/pyproject.toml, used only for the "
				       "packages pinned to it (merge with an existing [tool.uv.sources] table)", t->variant,
				       m->env->project))) {
			s->torch = true;
			str_printf(s->file, sizeof(s->file), "%s/pyproject.toml", m->env->project);
			str_printf(s->content, sizeof(s->content),
				   "[[tool.uv.index]]\nname = \"%s\"\nurl = \"%s\"\nexplicit = true\n\n[tool.uv.sources]\n"
				   "torch = [{ index = \"%s\" }]\n%s%s%s%s%s%s", name, index_url(t), name,
				   t->vision[0] ? "torchvision = [{ index = \"" : "", t->vision[0] ? name : "",
				   t->vision[0] ? "\" }]\n" : "", t->audio[0] ? "torchaudio = [{ index = \"" : "",
				   t->audio[0] ? name : "", t->audio[0] ? "\" }]\n" : "");
		}
	} else if (t->index[0]) {
		p->steps_dropped++;	/* find-links wheels have no project form here */
		return;
	}
	plan_pins(t, false, "torch", pin, sizeof(pin));
	str_printf(cmd, sizeof(cmd), "cd %s && uv add %s", dir, pin);
	if ((s = plan_step_add(p, STEP_RUN, cmd, "pin the matched set in the project; uv locks and syncs .venv")))
		s->torch = true;
}

static void poetry_steps(const struct plan_machine *m, struct plan_path *p, const char *dir)
{
	const struct plan_torch *t = &p->torch;
	char pin[200], cmd[PLAN_CMD_MAX], name[40];
	struct plan_step *s;

	(void)m;
	str_printf(name, sizeof(name), "pytorch-%s", t->variant);
	plan_pins(t, false, "torch", pin, sizeof(pin));
	if (str_starts_with(t->index, "--index-url ")) {
		str_printf(cmd, sizeof(cmd), "cd %s && poetry source add --priority=explicit %s %s", dir, name,
			   index_url(t));
		if ((s = plan_step_add(p, STEP_RUN, cmd, "add the %s index, searched only for packages pinned to it",
				       t->variant)))
			s->torch = true;
		str_printf(cmd, sizeof(cmd), "cd %s && poetry add --source %s %s", dir, name, pin);
	} else if (t->index[0]) {
		p->steps_dropped++;
		return;
	} else {
		str_printf(cmd, sizeof(cmd), "cd %s && poetry add %s", dir, pin);
	}
	if ((s = plan_step_add(p, STEP_RUN, cmd, "pin the matched set in the project; Poetry locks and installs it")))
		s->torch = true;
}

/* conda's own torch from the pytorch channel: conda replaces it (its last release there is 2.5). */
static void conda_steps(const struct plan_machine *m, struct plan_path *p, const char *prefix)
{
	const struct plan_torch *t = &p->torch;
	const char *conda = m->facts && m->facts->python.conda[0] ? m->facts->python.conda : "conda";
	char exe[FACT_PATH + 8], cmd[PLAN_CMD_MAX], vision[40] = "", audio[40] = "";
	struct plan_step *s;

	if (!quoted(p, conda, exe, sizeof(exe)))
		return;
	if (m->torch && m->torch->conda_cpuonly) {
		str_printf(cmd, sizeof(cmd), "%s remove -p %s cpuonly", exe, prefix);
		if ((s = plan_step_add(p, STEP_RUN, cmd, "remove cpuonly, which pins CPU builds of pytorch")))
			s->torch = true;
	}
	if (t->vision[0])
		str_printf(vision, sizeof(vision), " torchvision==%s", t->vision);
	if (t->audio[0])
		str_printf(audio, sizeof(audio), " torchaudio==%s", t->audio);
	str_printf(cmd, sizeof(cmd), "%s install -p %s pytorch==%s%s%s %s -c pytorch %s", exe, prefix, t->release, vision,
		   audio, t->conda, str_starts_with(t->conda, "cudatoolkit=") ? "-c conda-forge" : "-c nvidia");
	if ((s = plan_step_add(p, STEP_RUN, cmd, "replace the set with the CUDA %s build from the pytorch channel",
			       t->cuda)))
		s->torch = true;
}

/* conda's torch, going to a release the pytorch channel never had: conda removes its set, pip installs. */
static void conda_to_pip_steps(const struct plan_machine *m, struct plan_path *p, const char *prefix, const char *py)
{
	const char *conda = m->facts && m->facts->python.conda[0] ? m->facts->python.conda : "conda";
	char exe[FACT_PATH + 8], cmd[PLAN_CMD_MAX];
	const struct torch_install *t = m->torch;
	struct plan_step *s;

	if (!quoted(p, conda, exe, sizeof(exe)))
		return;
	str_printf(cmd, sizeof(cmd), "%s remove -p %s pytorch%s%s%s%s", exe, prefix, t->conda_vision ? " torchvision" : "",
		   t->conda_audio ? " torchaudio" : "", t->conda_pytorch_cuda[0] ? " pytorch-cuda" : "",
		   t->conda_cpuonly ? " cpuonly" : "");
	if ((s = plan_step_add(p, STEP_RUN, cmd, "remove conda's torch %s and its companions: the pytorch channel "
			       "ends with 2.5, so pip installs the new set into this environment", t->version)))
		s->torch = true;
	pip_steps(&(struct plan_machine){ .facts = m->facts, .env = m->env }, p, py, false);
}

/* A fresh venv: from the distribution's interpreter (python3-venv on Debian and Ubuntu), or beside a venv. */
static void new_venv_steps(const struct plan_machine *m, struct plan_path *p, char *interp, size_t interpsz)
{
	const struct python_env *py = m->env;
	const char *base = py ? (py->kind == PY_VENV ? py->real_exe : py->exe) : "python3";
	const char *dir = m->venv_dir ? m->venv_dir : "~/venvs/torch";
	char qbase[FACT_PATH + 8], qdir[FACT_PATH + 8], cmd[PLAN_CMD_MAX];
	enum distro d = m->facts ? distro_of(m->facts) : DISTRO_UNKNOWN;
	struct plan_step *s;

	if (!quoted(p, base, qbase, sizeof(qbase)))
		return;
	/* "~/..." is ours and stays for the shell to expand; anything given is quoted */
	if (m->venv_dir ? !quoted(p, dir, qdir, sizeof(qdir)) : str_copy(qdir, sizeof(qdir), dir) < 0)
		return;
	if ((d == DISTRO_UBUNTU || d == DISTRO_DEBIAN) && (!py || str_starts_with(base, "/usr/bin/"))) {
		if ((s = plan_step_add(p, STEP_RUN, py ? "sudo apt-get install python3-venv" :
				       "sudo apt-get install python3 python3-venv", "%s", py ?
				       N_("Debian and Ubuntu ship venv's pip bootstrap separately") :
				       N_("install Python 3 with venv (no interpreter was found)"))))
			s->torch = true;
	} else if (!py) {
		plan_step_add(p, STEP_MANUAL, NULL, N_("install Python 3 from your distribution (no interpreter was found)"));
	}
	str_printf(cmd, sizeof(cmd), "%s -m venv %s", qbase, qdir);
	if ((s = plan_step_add(p, STEP_RUN, cmd, "%s", !py ? N_("create a virtual environment for PyTorch") :
			       py->kind == PY_SYSTEM || py->externally_managed ?
			       N_("create a virtual environment: the system interpreter's packages belong to the "
				  "distribution (PEP 668), never sudo pip") : N_("create a fresh environment beside the broken one"))))
		s->torch = true;
	str_printf(interp, interpsz, "%s/bin/python", qdir);
	pip_steps(&(struct plan_machine){ .facts = m->facts }, p, interp, false);
}

/* See plan_internal.h. */
void plan_install_steps(const struct plan_machine *m, struct plan_path *p)
{
	const struct python_env *py = m->env;
	char exe[FACT_PATH + 8], dir[FACT_PATH + 8];
	struct plan_torch *t = &p->torch;
	struct plan_step *s;

	str_copy(exe, sizeof(exe), m->facts ? "python3" : "python");
	if (py && t->installer != INSTALL_NEW_VENV && !quoted(p, py->exe, exe, sizeof(exe)))
		return;
	str_copy(t->interpreter, sizeof(t->interpreter), exe);
	switch (t->installer) {
	case INSTALL_PIP:
		pip_steps(m, p, exe, false);
		break;
	case INSTALL_UV_PIP:
		pip_steps(m, p, exe, true);
		break;
	case INSTALL_UV_PROJECT:
		if (quoted(p, py->project, dir, sizeof(dir)))
			uv_project_steps(m, p, dir);
		break;
	case INSTALL_POETRY:
		if (quoted(p, py->project, dir, sizeof(dir)))
			poetry_steps(m, p, dir);
		break;
	case INSTALL_CONDA:
		if (!quoted(p, py->prefix, dir, sizeof(dir)))
			break;
		if (t->conda[0])
			conda_steps(m, p, dir);
		else
			conda_to_pip_steps(m, p, dir, exe);
		break;
	case INSTALL_NEW_VENV:
		new_venv_steps(m, p, t->interpreter, sizeof(t->interpreter));
		break;
	case INSTALL_NONE:
	case INSTALL_SOURCE:
		return;
	}
	if (m->torch) {
		char list[400] = "";

		for (int i = 0; i < m->torch->npackages; i++) {
			if (str_starts_with(m->torch->packages[i], "torchvision ") ||
			    str_starts_with(m->torch->packages[i], "torchaudio "))
				continue;
			str_printf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? ", " : "",
				   m->torch->packages[i]);
		}
		if (list[0] && (s = plan_step_add(p, STEP_MANUAL, NULL, "reinstall or rebuild %s for torch %s+%s: they "
						  "are compiled against torch's C++ ABI and CUDA, and break when torch "
						  "changes", list, t->release, t->variant)))
			s->torch = true;
	}
}

/* See plan_internal.h: a small computation on every GPU, then the whole diagnosis. */
void plan_verify_steps(struct plan_path *p, const char *interpreter)
{
	char cmd[PLAN_CMD_MAX];

	str_printf(cmd, sizeof(cmd), "%s -c 'import torch; assert torch.cuda.is_available(), \"CUDA is not available\"; "
		   "print(torch.__version__, torch.version.cuda, [(torch.cuda.get_device_name(i), torch.ones(8, "
		   "device=i).sum().item()) for i in range(torch.cuda.device_count())])'", interpreter);
	plan_step_add(p, STEP_VERIFY, cmd, N_("check: torch sees the GPUs and computes on each"));
	plan_step_add(p, STEP_VERIFY, "gpudoctor --fail-on error", N_("check the whole stack again"));
}
