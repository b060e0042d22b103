/*
 * rules_torch.c - the PyTorch the diagnosed interpreter imports, against
 * the GPU and driver this machine has. Fix steps come from the planner
 * (plan/plan.h), which checks them against the knowledge tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "rules/fixes.h"
#include "rules/rules.h"
#include "rules/torch_checks.h"
#include "util/i18n.h"
#include "util/path.h"
#include "util/str.h"

static bool gpu_present(const struct facts *f)
{
	return f->pci.count > 0 || (f->container.wsl && f->container.dev_dxg) || facts_devnode(f, "/dev/nvidiactl");
}

static const struct python_env *selected(const struct facts *f)
{
	return f->python.selected >= 0 ? &f->python.envs[f->python.selected] : NULL;
}

static const char *gpu_cc(const struct facts *f)
{
	for (int i = 0; i < f->pci.count; i++)
		if (f->pci.gpus[i].cc[0])
			return f->pci.gpus[i].cc;
	return NULL;
}

static void check_installed(const struct facts *f, struct findings *out)
{
	const struct python_env *py = selected(f);
	struct finding *fd;

	if (!py || py->torch >= 0 || fact_denied(&f->python.status))
		return;	/* (a torch in a directory we could not read is not "not installed") */
	for (int i = 0; i < f->python.count; i++) {
		const struct python_env *o = &f->python.envs[i];
		const struct torch_install *t;

		if (o->torch < 0)
			continue;
		t = &f->python.torches[o->torch];
		fd = findings_add(out, CAUSE_TORCH_WRONG_INTERPRETER, gpu_present(f) ? SEV_ERROR : SEV_INFO,
				  "PyTorch is installed for %s, not for %s", o->exe, py->exe);
		finding_detail(fd, "The interpreter a plain `python3` runs here (%s, Python %s) has no torch; torch %s is in "
			       "another one (%s). `import torch` fails in the first, or a notebook kernel uses a different "
			       "one than the shell.", py->exe, py->version, t->version, o->exe);
		finding_evidence(fd, "diagnosed interpreter", f->python.selected_reason, "%s (%s)", py->exe, py->real_exe);
		finding_evidence(fd, "torch", t->dir, "%s, for %s", t->version, o->exe);
		{
			char cmd[FACT_PATH + 32];

			str_printf(cmd, sizeof(cmd), "%s -c 'import torch; print(torch.__version__)'", o->exe);
			finding_fix(fd, cmd, "run your program with the interpreter that has torch");
		}
		if (o->kind == PY_CONDA || o->kind == PY_VENV) {
			finding_alternative(fd, "activate that environment, so a plain python3 is its interpreter");
			if (o->kind == PY_CONDA)
				finding_fix(fd, NULL, "conda activate %s", o->prefix);
			else
				finding_fix(fd, NULL, ". %s/bin/activate", o->prefix);
		}
		if (str_starts_with(o->found_by, "jupyter kernel ")) {
			finding_alternative(fd, "in a notebook, use the kernel that has torch");
			finding_fix(fd, NULL, "choose the kernel \"%s\" (Kernel > Change kernel)",
				    o->found_by + strlen("jupyter kernel "));
		}
		return;
	}
	if (!gpu_present(f))
		return;
	fd = findings_add(out, CAUSE_TORCH_NOT_INSTALLED, SEV_WARNING, "PyTorch is not installed for %s",
			  py->exe);
	finding_detail(fd, "No interpreter on %s has torch in its site directories.", facts_machine(f));
	finding_evidence(fd, "diagnosed interpreter", f->python.selected_reason, "%s, Python %s", py->exe, py->version);
	fix_torch_plan(fd, f, PROBLEM_NOT_INSTALLED);
}

static void check_build(const struct facts *f, struct findings *out)
{
	const struct python_env *py = selected(f);
	const struct torch_install *t;
	struct finding *fd;

	if (!py || py->torch < 0 || !gpu_present(f))
		return;
	t = &f->python.torches[py->torch];
	if (t->hip[0]) {
		fd = findings_add(out, CAUSE_TORCH_ROCM_BUILD, SEV_ERROR,
				  "torch %s is a ROCm (AMD) build on an NVIDIA machine", t->version);
		finding_detail(fd, "This build talks to AMD GPUs through HIP %s; it cannot use NVIDIA GPUs.", t->hip);
	} else if (!t->cuda[0]) {
		fd = findings_add(out, CAUSE_TORCH_CPU_ONLY, SEV_ERROR, "torch %s is a CPU-only build", t->version);
		finding_detail(fd, "torch.version.cuda is None: this build has no CUDA code, so torch.cuda.is_available() is "
			       "False whatever the driver does. %s", strcmp(t->installer, "debian") == 0 ?
			       N_("It is the distribution's python3-torch package, which is built without CUDA.") :
			       t->conda_cpuonly ? N_("conda installed it with the cpuonly package, which pins CPU builds.") :
			       strstr(t->version, "+cpu") ? N_("The +cpu tag marks PyTorch's CPU wheel.") :
			       N_("pip and conda pick CPU builds when told to (cpuonly, the /whl/cpu index) or on some platforms."));
	} else {
		return;
	}
	finding_evidence(fd, "torch", t->dir, "%s, cuda %s, installer %s", t->version, t->cuda[0] ? t->cuda : "None",
			 t->installer);
	if (t->conda_cpuonly)
		finding_evidence(fd, "conda package cpuonly", "conda-meta", "installed");
	fix_torch_plan(fd, f, t->hip[0] ? PROBLEM_ROCM_BUILD : PROBLEM_CPU_BUILD);
}

static void check_driver_and_arch(const struct facts *f, struct findings *out)
{
	const struct python_env *py = selected(f);
	const char *drv = facts_driver_version(f), *cc = gpu_cc(f);
	const struct torch_install *t;
	struct kb_torch_variant v = { 0 };
	struct kb_answer need;
	char base[48], variant[16];
	struct finding *fd;

	if (!py || py->torch < 0)
		return;
	t = &f->python.torches[py->torch];
	if (!t->cuda[0])
		return;
	str_printf(variant, sizeof(variant), "cu%d%d", atoi(t->cuda), strchr(t->cuda, '.') ? atoi(strchr(t->cuda, '.') + 1) : 0);
	v.cuda = t->cuda;
	if (drv && kb_torch_variant_min_driver(&v, &need) == 0 && version_compare(drv, need.value) < 0) {
		fd = findings_add(out, CAUSE_TORCH_DRIVER_TOO_OLD, SEV_ERROR,
				  "torch %s needs NVIDIA driver >= %s; %s has %s", t->version, need.value,
				  facts_machine(f), drv);
		finding_detail(fd, "This build carries the CUDA %s runtime, which needs at least driver %s (with "
			       "minor-version compatibility). torch prints \"The NVIDIA driver on your system is too old\" "
			       "and torch.cuda.is_available() is False.", t->cuda, need.value);
		finding_evidence(fd, "torch", t->dir, "%s, CUDA %s", t->version, t->cuda);
		finding_evidence(fd, "minimum driver", need.source, "%s", need.value);
		fix_torch_plan(fd, f, PROBLEM_TORCH_DRIVER_TOO_OLD);
	}
	/* Arch list from the table for this release and variant: "2.5.1+cu124" -> 2.5.1, cu124. */
	str_copy(base, sizeof(base), t->version);
	base[strcspn(base, "+")] = '\0';
	if (cc) {
		char from_elf[256] = "";
		const char *archs;

		/* The build's own fat binaries say it best; the table is the fallback. */
		for (int i = 0; t->archs_known && i < t->nsass; i++)
			str_printf(from_elf + strlen(from_elf), sizeof(from_elf) - strlen(from_elf), "%s%u.%u",
				   from_elf[0] ? ";" : "", t->sass[i] / 10, t->sass[i] % 10);
		for (int i = 0; t->archs_known && i < t->nptx; i++)
			str_printf(from_elf + strlen(from_elf), sizeof(from_elf) - strlen(from_elf), "%s%u.%u+PTX",
				   from_elf[0] ? ";" : "", t->ptx[i] / 10, t->ptx[i] % 10);
		archs = from_elf[0] ? from_elf : kb_torch_arch_list(base, variant);
		/* A sampled scan may have stopped before an architecture only some kernels have. */
		if (archs == from_elf && t->archs_truncated && kb_arch_fit(archs, cc) == KB_ARCH_NONE &&
		    kb_torch_arch_list(base, variant))
			archs = kb_torch_arch_list(base, variant);
		if (archs && kb_arch_fit(archs, cc) == KB_ARCH_NONE) {
			fd = findings_add(out, CAUSE_TORCH_ARCH_UNSUPPORTED, SEV_ERROR,
					  "torch %s has no kernels for this GPU (compute capability %s)", t->version, cc);
			finding_detail(fd, "The %s build was compiled for %s. A GPU outside that list (and not covered by "
				       "PTX) fails with \"no kernel image is available for execution on the device\".",
				       variant, archs);
			finding_evidence(fd, "torch", t->dir, "%s (%s)", t->version, variant);
			finding_evidence(fd, "GPU", N_("built-in GPU table"), "compute capability %s", cc);
			fix_torch_plan(fd, f, PROBLEM_NO_KERNELS);
		}
	}
}

/* Why LD_LIBRARY_PATH winning matters; a library loaded by another CUDA library gets its own words. */
static const char *shadow_detail(const struct torch_install *t)
{
	for (int i = 0; i < t->nlibs; i++)
		if (t->libs[i].shadows_runpath && t->libs[i].loaded_by[0])
			return "A CUDA library torch loads from its own wheels loads further libraries itself (cuDNN opens "
			       "its sub-libraries by name), and that search takes LD_LIBRARY_PATH before the library's own "
			       "directory (its RUNPATH), so one process mixes two releases: \"Could not load library "
			       "libcudnn_cnn_infer.so.8\", \"GET was unable to find an engine\", \"undefined symbol\" "
			       "or a cuDNN version mismatch at the first convolution.";
	return "torch's own copies (from its RUNPATH) lose to LD_LIBRARY_PATH. A different release of the same major is "
	       "enough for \"undefined symbol\" errors or CUDNN_STATUS_VERSION_MISMATCH at run time.";
}

static void check_libs(const struct facts *f, struct findings *out)
{
	const struct python_env *py = selected(f);
	const struct torch_install *t;
	struct finding *missing = NULL, *shadow = NULL;

	if (!py || py->torch < 0)
		return;
	t = &f->python.torches[py->torch];
	for (int i = 0; i < t->nlibs; i++) {
		const struct torch_lib *l = &t->libs[i];

		/* one a library loads itself fails only when first used, and stand-ins often leave it out: a fact only */
		if (!l->path[0] && l->loaded_by[0])
			continue;
		if (!l->path[0]) {
			if (!missing) {
				missing = findings_add(out, CAUSE_TORCH_LIBS_UNRESOLVED, gpu_present(f) ? SEV_ERROR : SEV_WARNING,
						       "libraries torch %s needs cannot be found", t->version);
				finding_detail(missing, "libtorch_cuda.so needs these CUDA libraries, and neither its RUNPATH "
					       "(the nvidia-* wheels next to torch), LD_LIBRARY_PATH nor the loader cache "
					       "provides them: `import torch` fails with \"cannot open shared object file\". "
					       "This happens when the nvidia-* wheels were removed or installed for another "
					       "Python.");
				{
					char cmd[FACT_PATH + 64];

					str_printf(cmd, sizeof(cmd), "%s -m pip install --force-reinstall torch==%s", py->exe,
						   t->version);
					finding_fix(missing, cmd, "reinstall torch with its CUDA wheels (use the same "
						    "--index-url it came from)");
				}
			}
			finding_evidence(missing, l->soname, t->libtorch_cuda, "not found");
		} else if (l->shadows_runpath) {
			if (!shadow) {
				shadow = findings_add(out, CAUSE_ENV_LIBRARY_SHADOWING, SEV_WARNING,
						      "LD_LIBRARY_PATH overrides libraries torch ships with");
				finding_detail(shadow, "%s", shadow_detail(t));
				finding_fix(shadow, NULL, "remove those directories from LD_LIBRARY_PATH for PyTorch programs");
			}
			if (l->loaded_by[0])
				finding_evidence(shadow, l->soname, "LD_LIBRARY_PATH", "%s wins over %s (%s by %s)", l->path,
						 l->runpath_copy, l->dlopen ? N_("opened by name") : N_("needed"), l->loaded_by);
			else
				finding_evidence(shadow, l->soname, "LD_LIBRARY_PATH", "%s wins over %s", l->path,
						 l->runpath_copy);
		}
	}
}

/*
 * torch.utils.cpp_extension compiles with the toolkit CUDA_HOME (or nvcc on
 * PATH) names and refuses a different CUDA major than torch was built with.
 */
static void check_extension_toolkit(const struct facts *f, struct findings *out)
{
	const struct python_env *py = selected(f);
	const struct toolkit_facts *tk = &f->toolkits;
	const struct toolkit *active;
	const struct torch_install *t;
	struct finding *fd;
	bool major_differs;

	if (!py || py->torch < 0 || tk->active < 0)
		return;
	t = &f->python.torches[py->torch];
	active = &tk->items[tk->active];
	if (!t->cuda[0] || !active->version[0])
		return;
	major_differs = atoi(t->cuda) != atoi(active->version);
	if (!major_differs) {
		char a[16], b[16];

		version_prefix(t->cuda, 2, a, sizeof(a));
		version_prefix(active->version, 2, b, sizeof(b));
		if (strcmp(a, b) == 0)
			return;
	}
	/* one toolkit conflict: joins the toolkit family's finding when it named one, fix step included */
	fd = findings_add(out, CAUSE_TOOLKIT_CONFLICT, major_differs ? SEV_WARNING : SEV_INFO,
			  "torch is built with CUDA %s, but extensions would compile with CUDA %s", t->cuda, active->version);
	finding_joins(fd, CAUSE_TOOLKIT_CONFLICT);
	if (fd)
		fd->links.join_fixes = true;
	finding_detail(fd, "PyTorch C++/CUDA extensions (flash-attn, apex, custom ops) are compiled with the "
		       "toolkit %s selects. %s", tk->active_reason, major_differs ?
		       N_("With a different CUDA major, torch.utils.cpp_extension stops with \"The detected CUDA "
			  "version mismatches the version that was used to compile PyTorch\".") :
		       N_("A different minor version only warns, but the build targets another runtime."));
	finding_evidence(fd, "torch CUDA", t->dir, "%s", t->cuda);
	finding_evidence(fd, "active toolkit", active->version_source, "CUDA %s at %s", active->version, active->real_path);
	finding_fix(fd, NULL, "for building extensions, install the CUDA %s toolkit and point CUDA_HOME at it", t->cuda);
}

/* "site" -> "a site directory", "PYTHONPATH", "easy-install.pth" -> "the .pth file easy-install.pth". */
static const char *from_words(const char *from, char *buf, size_t bufsz)
{
	if (strcmp(from, "site") == 0)
		return N_("a site directory");
	if (strcmp(from, "PYTHONPATH") == 0)
		return "PYTHONPATH";
	str_printf(buf, bufsz, "the .pth file %s", from);
	return buf;
}

static const char *path_parent(const char *dir, char *out, size_t outsz)
{
	path_dirname(dir, out, outsz);
	return out;
}

/* Why the first copy wins: PYTHONPATH comes first, a .pth file's directory after its site directory. */
static void shadowing_why(const struct python_env *py, const struct torch_install *a, char *out, size_t outsz)
{
	const bool pth_hidden = strcmp(py->torch_shadowed_from, "site") != 0 &&
				strcmp(py->torch_shadowed_from, "PYTHONPATH") != 0;

	if (strcmp(py->torch_from, "PYTHONPATH") == 0)
		str_printf(out, outsz, "PYTHONPATH's directories come before every site directory.");
	else if (strcmp(py->torch_from, "site") != 0)
		str_printf(out, outsz, "The .pth file %s adds its directory to the import path after its own site "
			   "directory, and before the later site directories.", py->torch_from);
	else if (pth_hidden)
		str_printf(out, outsz, "The .pth file %s (a develop or editable install, or a path file) puts its copy "
			   "after the site directory that holds the other torch (an editable install's import hook after "
			   "the whole path), so that copy wins.", py->torch_shadowed_from);
	else if (a->user_site)
		str_printf(out, outsz, "This is usually a `pip install --user` torch shadowing the environment's own.");
	else
		str_printf(out, outsz, "The first site directory that holds a torch wins.");
}

static void check_shadowing(const struct facts *f, struct findings *out)
{
	const struct python_env *py = selected(f);
	const struct torch_install *a, *b;
	struct finding *fd;
	char why[256], parent[FACT_PATH], words[96];

	if (!py || py->torch < 0 || py->torch_shadowed < 0)
		return;
	a = &f->python.torches[py->torch];
	b = &f->python.torches[py->torch_shadowed];
	fd = findings_add(out, CAUSE_TORCH_MULTIPLE_INSTALLS, SEV_WARNING,
			  "two torch installs: %s hides %s", a->dir, b->dir);
	shadowing_why(py, a, why, sizeof(why));
	finding_detail(fd, "%s imports torch %s from %s; torch %s in %s is never used. %s", py->exe, a->version, a->dir,
		       b->version, b->dir, why);
	finding_evidence(fd, "imported", a->dir, "%s (on the path through %s)", a->version,
			 from_words(py->torch_from, words, sizeof(words)));
	finding_evidence(fd, "hidden", b->dir, "%s (on the path through %s)", b->version,
			 from_words(py->torch_shadowed_from, words, sizeof(words)));
	if (strcmp(py->torch_from, "PYTHONPATH") == 0) {
		finding_fix(fd, NULL, "remove %s from PYTHONPATH (or run `env -u PYTHONPATH python3 ...`) so that the "
			    "site directory's torch is imported", path_parent(a->dir, parent, sizeof(parent)));
	} else if (strcmp(py->torch_shadowed_from, "site") != 0 && strcmp(py->torch_shadowed_from, "PYTHONPATH") != 0) {
		finding_fix(fd, NULL, "keep one: if you mean the copy in %s, remove the other (`%s -m pip uninstall torch` "
			    "removes the site directory's); if not, remove that directory's line from %s",
			    path_parent(b->dir, parent, sizeof(parent)), py->exe, py->torch_shadowed_from);
	} else if (a->user_site) {
		char cmd[FACT_PATH + 48];

		/* pip removes the copy the interpreter finds first: the user-site one. */
		str_printf(cmd, sizeof(cmd), "%s -m pip uninstall -y torch", py->exe);
		finding_fix(fd, cmd, "remove the user-site copy that hides the other (or set PYTHONNOUSERSITE=1)");
	}
}

/*
 * Predictions from the files that a working import overturns: when torch
 * imports, sees the GPU and computes on every device, none of them held.
 */
static const enum cause_id overturned_when_working[] = {
	CAUSE_TORCH_CPU_ONLY, CAUSE_TORCH_ROCM_BUILD, CAUSE_TORCH_DRIVER_TOO_OLD, CAUSE_TORCH_ARCH_UNSUPPORTED,
	CAUSE_TORCH_LIBS_UNRESOLVED,
};

static bool is_arch_error(const char *text)
{
	return strstr(text, "no kernel image") || strstr(text, "invalid device function");
}

/* The first device whose small computation failed, or -1. */
static int failed_device(const struct torch_deep *d)
{
	for (int i = 0; i < d->ndevices; i++)
		if (strcmp(d->devices[i].test, "ok") != 0)
			return i;
	return -1;
}

static void report_import_failed(const struct torch_deep *d, const struct python_env *py, struct findings *out)
{
	struct finding *fd = findings_add(out, CAUSE_TORCH_IMPORT_FAILED, SEV_ERROR, "import torch failed in %s",
					  py->exe);

	finding_detail(fd, "Running the interpreter to import torch did not work: %s", d->error);
	finding_evidence(fd, "deep probe", py->exe, "%s", d->error);
}

/* import torch loaded another copy than the files the diagnosis read (PYTHONPATH, a .pth file, sitecustomize). */
static void report_other_copy(const struct torch_deep *d, const struct python_env *py, const struct torch_install *t,
			      struct findings *out)
{
	struct finding *fd;

	if (!t || !d->version[0] || strcmp(t->version, d->version) == 0)
		return;
	fd = findings_add(out, CAUSE_TORCH_DEEP_CONTRADICTION, SEV_WARNING,
			  "import torch loads %s, not the %s the files show", d->version, t->version);
	finding_detail(fd, "The interpreter's site directories hold torch %s in %s, but importing it in %s loads %s%s%s. "
		       "PYTHONPATH, a .pth file or sitecustomize puts another copy first; the findings about the files "
		       "describe a copy that is not used.", t->version, t->dir, py->exe, d->version,
		       d->file[0] ? " from " : "", d->file);
	finding_evidence(fd, "files", t->dir, "%s", t->version);
	finding_evidence(fd, "import torch", d->file[0] ? d->file : py->exe, "%s", d->version);
	finding_fix(fd, "env -u PYTHONPATH python3 -c 'import torch; print(torch.__file__, torch.__version__)'",
		    "see which copy loads without PYTHONPATH");
}

/* It works: what the files predicted would not is withdrawn (in the reconcile step), and this says so. */
static void withdraw_predictions(const struct torch_deep *d, const struct python_env *py, struct findings *out)
{
	struct finding *fd = findings_add(out, CAUSE_TORCH_DEEP_CONTRADICTION, SEV_INFO,
					  "import torch works on the GPU, against what the files predicted");

	finding_detail(fd, "The files predicted that torch %s in %s could not use the GPU, but importing it "
		       "reports is_available() = True and a small computation succeeded on all %d device(s). "
		       "The run wins; the withdrawn predictions are listed as evidence.", d->version,
		       py->exe, d->device_count);
	for (size_t i = 0; i < sizeof(overturned_when_working) / sizeof(overturned_when_working[0]); i++)
		finding_withdraws(fd, overturned_when_working[i]);
}

/* A device that torch sees but cannot compute on. */
static void report_failed_device(const struct torch_deep *d, int dev, const struct python_env *py,
				 struct findings *out)
{
	const char *text = d->devices[dev].test;
	struct finding *fd;

	if (is_arch_error(text)) {
		/* when the files predicted it, the run's message joins that finding as evidence */
		fd = findings_add(out, CAUSE_TORCH_ARCH_UNSUPPORTED, SEV_ERROR, "torch %s has no kernels for %s (sm %s)",
				  d->version, d->devices[dev].name, d->devices[dev].cc);
		finding_joins(fd, CAUSE_TORCH_ARCH_UNSUPPORTED);
		finding_detail(fd, "The files did not predict it, but running a kernel on cuda:%d failed: this build "
			       "has no code for the GPU's architecture. Its arch list: %s.", dev,
			       d->arch_list[0] ? d->arch_list : "unknown");
		finding_evidence(fd, "tensor test", py->exe, "cuda:%d: %s", dev, text);
		return;
	}
	fd = findings_add(out, CAUSE_TORCH_GPU_COMPUTE_FAILED, SEV_ERROR,
			  "torch sees %s but a computation on cuda:%d failed", d->devices[dev].name, dev);
	finding_detail(fd, "torch.cuda.is_available() is True, yet multiplying a 64-element tensor on cuda:%d did not "
		       "work: %s. `gpudoctor explain` reads such messages; `gpudoctor --deep -v` shows the facts.",
		       dev, text);
	finding_evidence(fd, "tensor test", py->exe, "cuda:%d: %s", dev, text);
}

/* What import torch said, against what the files predicted: the run wins, and a contradiction is reported. */
static void check_deep(const struct facts *f, struct findings *out)
{
	const struct torch_deep *d = &f->python.deep;
	const struct python_env *py = selected(f);
	const struct torch_install *t;
	struct finding *fd;
	int bad;

	if (!d->ran || !py)
		return;
	if (!d->ok || d->error[0]) {
		report_import_failed(d, py, out);
		return;
	}
	t = py->torch >= 0 ? &f->python.torches[py->torch] : NULL;
	report_other_copy(d, py, t, out);
	bad = failed_device(d);
	if (d->available == 1 && d->ndevices > 0 && bad < 0) {
		withdraw_predictions(d, py, out);
		return;
	}
	if (d->available == 1 && bad >= 0) {
		report_failed_device(d, bad, py, out);
		return;
	}
	if (gpu_present(f) && d->available == 0) {
		fd = findings_add(out, CAUSE_TORCH_CUDA_UNAVAILABLE, SEV_ERROR,
				  "torch.cuda.is_available() is False in %s", py->exe);
		/* the files already said why: a CPU, ROCm or too-new build */
		finding_unless(fd, CAUSE_TORCH_CPU_ONLY);
		finding_unless(fd, CAUSE_TORCH_DRIVER_TOO_OLD);
		finding_unless(fd, CAUSE_TORCH_ROCM_BUILD);
		finding_detail(fd, "The files predicted a working CUDA build, but importing torch says otherwise%s%s. The "
			       "run wins: see the other findings for the layer below it.",
			       d->warning[0] ? "; torch warned: " : "", d->warning);
		finding_evidence(fd, "torch", py->exe, "%s, cuda %s, available False", d->version, d->cuda[0] ? d->cuda : "None");
	}
}

static const struct rule torch_rules[] = {
	{ CAUSE_TORCH_WRONG_INTERPRETER, check_installed },
	{ CAUSE_TORCH_CPU_ONLY, check_build },
	{ CAUSE_TORCH_DRIVER_TOO_OLD, check_driver_and_arch },
	{ CAUSE_TORCH_MULTIPLE_INSTALLS, check_shadowing },
	{ CAUSE_TORCH_LIBS_UNRESOLVED, check_libs },
	{ CAUSE_TORCH_REQUIREMENTS_UNMET, torch_check_requirements },
	{ CAUSE_TOOLKIT_CONFLICT, check_extension_toolkit },
	{ CAUSE_TORCH_CUDA_UNAVAILABLE, check_deep },
};

const struct rule_family rules_torch = { "torch", torch_rules, sizeof(torch_rules) / sizeof(torch_rules[0]) };
