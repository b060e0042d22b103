/*
 * rules_toolkit.c - CUDA toolkits and cuDNN: versions against the driver,
 * and the environment pointing at one toolkit while PATH uses another.
 */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/path.h"
#include "util/str.h"

static void check_newer_than_driver(const struct facts *facts, struct findings *out)
{
	const char *drv = facts_driver_version(facts);
	struct kb_answer max;
	bool have_max;

	if (!drv)
		return;
	have_max = kb_cuda_max_for_driver(drv, &max) == 0;
	for (int i = 0; i < facts->toolkits.count; i++) {
		const struct toolkit *tk = &facts->toolkits.items[i];
		struct kb_answer need, compat;
		bool has_compat;
		struct finding *f;

		if (!tk->exists || !tk->version[0] || kb_cuda_release_min_driver(tk->version, &need) < 0 ||
		    version_compare(drv, need.value) >= 0)
			continue;
		has_compat = kb_cuda_minor_compat_driver(atoi(tk->version), &compat) == 0 &&
			     version_compare(drv, compat.value) >= 0;
		f = findings_add(out, CAUSE_TOOLKIT_NEWER_THAN_DRIVER, has_compat ? SEV_INFO : SEV_WARNING,
				 "CUDA %s at %s needs driver %s; %s has %s", tk->version, tk->real_path,
				 need.value, facts_machine(facts), drv);
		if (has_compat)
			finding_detail(f, "Driver %s is older than CUDA %s asks for, but within CUDA %d.x minor-version "
				       "compatibility (>= %s): programs built with it run, except those that JIT-compile "
				       "PTX newer than the driver (they fail with CUDA_ERROR_UNSUPPORTED_PTX_VERSION).",
				       drv, tk->version, atoi(tk->version), compat.value);
		else
			finding_detail(f, "Programs compiled with this toolkit fail on this driver with \"CUDA driver version "
				       "is insufficient for CUDA runtime version\" (error 35). PyTorch wheels carry their "
				       "own CUDA runtime and are judged separately.");
		finding_evidence(f, "toolkit", tk->version_source, "%s", tk->version);
		finding_evidence(f, "driver", facts_driver_version_source(facts), "%s", drv);
		finding_evidence(f, "minimum driver", need.source, "CUDA %s (%s) needs >= %s", tk->version,
				 need.release ? need.release : "", need.value);
		if (have_max)
			finding_evidence(f, "newest CUDA this driver supports", max.source, "%s", max.value);
		if (has_compat) {
			finding_fix(f, NULL, "upgrade the NVIDIA driver to %s or newer, so it can compile the PTX that "
				    "CUDA %s generates", need.value, tk->version);
		} else {
			finding_fix(f, NULL, "upgrade the NVIDIA driver to %s or newer", need.value);
			if (have_max) {
				finding_alternative(f, "keep the driver, change the toolkit");
				finding_fix(f, NULL, "use a CUDA %s (or older) toolkit with this driver", max.value);
			}
		}
	}
}

static const struct toolkit *toolkit_with(const struct toolkit_facts *t, unsigned origin)
{
	for (int i = 0; i < t->count; i++)
		if (t->items[i].origins & origin)
			return &t->items[i];
	return NULL;
}

/* The toolkit whose directory holds dir (e.g. /usr/local/cuda-11.8/lib64), or NULL. */
static const struct toolkit *toolkit_owning(const struct toolkit_facts *t, const char *dir)
{
	for (int i = 0; i < t->count; i++) {
		const struct toolkit *tk = &t->items[i];
		size_t n = strlen(tk->real_path), m = strlen(tk->path);

		if ((strncmp(dir, tk->real_path, n) == 0 && (dir[n] == '/' || !dir[n])) ||
		    (strncmp(dir, tk->path, m) == 0 && (dir[m] == '/' || !dir[m])))
			return tk;
	}
	return NULL;
}

static void check_conflict(const struct facts *facts, struct findings *out)
{
	const struct toolkit_facts *t = &facts->toolkits;
	const struct toolkit *nvcc = toolkit_with(t, TK_FROM_NVCC_PATH);
	const struct toolkit *active = t->active >= 0 ? &t->items[t->active] : NULL;
	static const struct {
		unsigned origin;
		const char *var;
	} vars[] = { { TK_FROM_CUDA_HOME, "CUDA_HOME" }, { TK_FROM_CUDA_PATH, "CUDA_PATH" }, { TK_FROM_CUDA_ROOT, "CUDA_ROOT" } };
	struct finding *f = NULL;
	const char *ldp = facts_env(facts, "LD_LIBRARY_PATH");

	if (fact_denied(&t->status))
		return;	/* "does not exist" may only be "could not be read" */
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const struct toolkit *tk = toolkit_with(t, vars[i].origin);

		if (!tk)
			continue;
		if (!tk->exists) {
			if (!f)
				f = findings_add(out, CAUSE_TOOLKIT_CONFLICT, SEV_WARNING,
						 "%s points at %s, which does not exist", vars[i].var, tk->path);
			finding_evidence(f, vars[i].var, N_("environment"), "%s (missing)", tk->path);
		} else if (nvcc && nvcc != tk && strcmp(nvcc->version, tk->version) != 0) {
			if (!f)
				f = findings_add(out, CAUSE_TOOLKIT_CONFLICT, SEV_WARNING,
						 "nvcc on PATH is CUDA %s but %s is CUDA %s", nvcc->version, vars[i].var,
						 tk->version);
			finding_evidence(f, vars[i].var, N_("environment"), "%s (CUDA %s)", tk->path, tk->version);
		}
	}
	/* LD_LIBRARY_PATH naming another toolkit's libraries than the one that compiles. */
	if (ldp && active) {
		char buf[4096], *save = NULL;

		str_copy(buf, sizeof(buf), ldp);
		for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
			const struct toolkit *tk = toolkit_owning(t, dir);

			if (!tk || tk == active || !tk->exists || strcmp(tk->version, active->version) == 0)
				continue;
			if (!f)
				f = findings_add(out, CAUSE_TOOLKIT_CONFLICT, SEV_WARNING,
						 "LD_LIBRARY_PATH loads CUDA %s libraries, but the active toolkit is CUDA %s",
						 tk->version, active->version);
			finding_evidence(f, "LD_LIBRARY_PATH entry", N_("environment"), "%s (CUDA %s)", dir, tk->version);
		}
	}
	if (!f)
		return;
	if (nvcc)
		finding_evidence(f, "nvcc on PATH", t->nvcc_on_path, "CUDA %s", nvcc->version);
	finding_detail(f, "Several CUDA toolkits are in play: builds may compile with one (nvcc, CUDA_HOME — which "
		       "PyTorch's C++/CUDA extension builder reads) and load the runtime libraries of another. The "
		       "result is errors such as \"undefined symbol\", \"The detected CUDA version mismatches the "
		       "version that was used to compile PyTorch\", or a build that silently targets the wrong version.");
	if (active) {
		char cmd[FACT_PATH * 3 + 64];

		str_printf(cmd, sizeof(cmd), "export CUDA_HOME=%s PATH=%s/bin:$PATH LD_LIBRARY_PATH=%s/lib64",
			   active->real_path, active->real_path, active->real_path);
		finding_fix(f, cmd, "point everything at one toolkit (here the active one, CUDA %s); put the same "
			    "lines in ~/.bashrc in place of the old ones", active->version);
	} else {
		finding_fix(f, "unset CUDA_HOME", "CUDA_HOME names a toolkit that is gone: unset it, or point it at an installed one");
	}
}

/*
 * The active toolkit must be able to compile for every GPU here: CUDA 12
 * dropped Kepler, CUDA 13 dropped Maxwell, Pascal and Volta, and a toolkit
 * older than a GPU cannot target it at all. This is what breaks building
 * PyTorch extensions, flash-attention or anything from source.
 */
static void check_arch(const struct facts *facts, struct findings *out)
{
	const struct toolkit_facts *t = &facts->toolkits;
	const struct toolkit *tk = t->active >= 0 ? &t->items[t->active] : NULL;
	struct finding *f = NULL;

	if (!tk || !tk->version[0])
		return;
	for (int i = 0; i < facts->pci.count; i++) {
		const struct pci_gpu *g = &facts->pci.gpus[i];
		struct kb_sm sm;
		enum kb_toolkit_fit fit;

		if (!g->cc[0])
			continue;
		fit = kb_toolkit_fit(tk->version, g->cc, &sm);
		if (fit != KB_TOOLKIT_REMOVED && fit != KB_TOOLKIT_TOO_OLD && fit != KB_TOOLKIT_DEPRECATED)
			continue;
		if (!f) {
			f = findings_add(out, CAUSE_TOOLKIT_ARCH_UNSUPPORTED, fit == KB_TOOLKIT_DEPRECATED ? SEV_INFO : SEV_WARNING,
					 "CUDA %s %s %s (%s) GPUs", tk->version,
					 fit == KB_TOOLKIT_REMOVED ? N_("can no longer compile for") :
					 fit == KB_TOOLKIT_TOO_OLD ? N_("is too old to compile for") : N_("deprecates"),
					 sm.sm, sm.arch);
			if (fit == KB_TOOLKIT_REMOVED)
				finding_detail(f, "NVIDIA removed %s from nvcc in CUDA %s. Building CUDA code with this toolkit "
					       "(PyTorch C++/CUDA extensions, packages compiled from source) cannot produce "
					       "kernels for this GPU; prebuilt PyTorch wheels are judged on their own.",
					       sm.sm, sm.removed_in);
			else if (fit == KB_TOOLKIT_TOO_OLD)
				finding_detail(f, "%s first became a target in CUDA %s. This toolkit cannot compile kernels for "
					       "the GPU, so extensions built with it fail with \"no kernel image is available\".",
					       sm.sm, sm.added_in);
			else
				finding_detail(f, "CUDA %s deprecates %s: it still compiles, with a warning, and a later "
					       "toolkit will drop it.", sm.deprecated_in, sm.sm);
			finding_evidence(f, "active toolkit", tk->version_source, "CUDA %s at %s", tk->version, tk->real_path);
			finding_evidence(f, sm.sm, sm.source, "added in %s%s%s%s%s", sm.added_in[0] ? sm.added_in : "?",
					 sm.deprecated_in[0] ? N_(", deprecated in ") : "", sm.deprecated_in,
					 sm.removed_in[0] ? N_(", removed in ") : "", sm.removed_in);
			if (fit == KB_TOOLKIT_REMOVED)
				finding_fix(f, NULL, "build for this GPU with a CUDA toolkit older than %s (and point CUDA_HOME at it)",
					    sm.removed_in);
			else if (fit == KB_TOOLKIT_TOO_OLD)
				finding_fix(f, NULL, "install CUDA %s or newer and point CUDA_HOME and PATH at it", sm.added_in);
		}
		finding_evidence(f, "GPU", g->sysfs_path, "%s %s, compute capability %s", g->address,
				 g->kb_name[0] ? g->kb_name : g->name, g->cc);
	}
}

static int major_of(const char *version)
{
	return atoi(version);
}

/* The toolkit whose nvcc a user should put on PATH: the active one, else the newest with an nvcc. */
static const struct toolkit *toolkit_for_path(const struct toolkit_facts *t)
{
	const struct toolkit *best = NULL;

	if (t->active >= 0 && t->items[t->active].exists && t->items[t->active].has_nvcc)
		return &t->items[t->active];
	for (int i = 0; i < t->count; i++) {
		const struct toolkit *tk = &t->items[i];

		if (tk->exists && tk->has_nvcc && (!best || version_compare(tk->version, best->version) > 0))
			best = tk;
	}
	return best;
}

/*
 * Where torch.utils.cpp_extension finds CUDA without nvcc on PATH (its _find_cuda_home): CUDA_HOME, then
 * CUDA_PATH, then /usr/local/cuda when it exists. NULL when it would find none and fail with "CUDA_HOME
 * environment variable is not set".
 */
static const char *extension_cuda_home(const struct facts *facts)
{
	const struct toolkit *link;

	if (facts_env(facts, "CUDA_HOME"))
		return "CUDA_HOME";
	if (facts_env(facts, "CUDA_PATH"))
		return "CUDA_PATH";
	link = toolkit_with(&facts->toolkits, TK_FROM_DEFAULT_LINK);
	return link && link->exists ? "/usr/local/cuda" : NULL;
}

/*
 * A toolkit is installed but no nvcc is on PATH: the first check of NVIDIA's installation guide
 * (post-installation actions: add the toolkit's bin directory to PATH). A warning when the working
 * directory builds a CUDA extension that will not find the toolkit either.
 */
static void check_nvcc_path(const struct facts *facts, struct findings *out)
{
	const struct toolkit_facts *t = &facts->toolkits;
	const struct toolkit *tk = toolkit_for_path(t);
	const char *home = extension_cuda_home(facts);
	bool build_fails = t->extension_build[0] && !home;
	char cmd[FACT_PATH + 32];
	struct finding *f;

	if (t->nvcc_on_path[0] || !tk || fact_denied(&t->status))
		return;
	f = findings_add(out, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH, build_fails ? SEV_WARNING : SEV_INFO,
			 "CUDA %s is installed at %s, but nvcc is not on PATH", tk->version[0] ? tk->version : "",
			 tk->real_path);
	if (build_fails)
		finding_detail(f, "%s builds a CUDA extension. PyTorch's extension builder looks for the toolkit in "
			       "CUDA_HOME, CUDA_PATH, the nvcc on PATH and /usr/local/cuda, and finds none here, so the "
			       "build stops with \"CUDA_HOME environment variable is not set\".", t->extension_build);
	else if (t->extension_build[0])
		finding_detail(f, "`nvcc --version` fails with \"command not found\". %s builds a CUDA extension; "
			       "PyTorch's extension builder still finds the toolkit through %s, but build scripts "
			       "and CMake that call nvcc from PATH do not.", t->extension_build, home);
	else
		finding_detail(f, "`nvcc --version` fails with \"command not found\", and build scripts that call nvcc "
			       "from PATH do not find this toolkit. NVIDIA's installation guide adds the toolkit's bin "
			       "directory to PATH after installing. PyTorch's wheels do not need nvcc to run.");
	finding_evidence(f, "toolkit", tk->version_source[0] ? tk->version_source : tk->real_path, "CUDA %s at %s%s",
			 tk->version[0] ? tk->version : N_("(version unknown)"), tk->real_path, tk->active ? N_(" (active)") : "");
	finding_evidence(f, "nvcc on PATH", N_("environment"), "none (PATH=%s)",
			 facts_env(facts, "PATH") ? facts_env(facts, "PATH") : "unset");
	if (t->extension_build[0])
		finding_evidence(f, "CUDA extension build", t->extension_build, "names CUDAExtension%s%s",
				 home ? N_("; the builder finds CUDA through ") : "", home ? home : "");
	str_printf(cmd, sizeof(cmd), "export PATH=%s/bin:$PATH", tk->real_path);
	finding_fix(f, cmd, "put the toolkit's nvcc on PATH; add the same line to ~/.bashrc to keep it");
	if (build_fails) {
		str_printf(cmd, sizeof(cmd), "export CUDA_HOME=%s", tk->real_path);
		finding_fix(f, cmd, "tell PyTorch's extension builder which toolkit to use (also in ~/.bashrc)");
	}
}

/*
 * The working directory builds a CUDA extension, and no toolkit with nvcc exists: not on PATH, not in any
 * toolkit found (CUDA_HOME, CUDA_PATH, /usr/local/cuda*, /opt/cuda, the distribution's). PyTorch's wheels and
 * conda's cudatoolkit bring CUDA's libraries but no compiler, so the build stops ("CUDA_HOME environment
 * variable is not set", or no such file .../bin/nvcc). Nothing else needs a toolkit: no finding without a build.
 */
static void check_toolkit_missing(const struct facts *facts, struct findings *out)
{
	const struct toolkit_facts *t = &facts->toolkits;
	const char *home = facts_env(facts, "CUDA_HOME");
	struct finding *f;

	if (!t->extension_build[0] || t->nvcc_on_path[0] || toolkit_for_path(t) || fact_denied(&t->status))
		return;
	f = findings_add(out, CAUSE_TOOLKIT_NOT_INSTALLED, SEV_WARNING,
			 "%s builds a CUDA extension, but no CUDA toolkit with nvcc is installed", t->extension_build);
	finding_detail(f, "Compiling CUDA code needs nvcc, which comes only with a CUDA toolkit: neither the driver nor "
		       "PyTorch's wheels (nor conda's cudatoolkit) bring it. PyTorch's extension builder looks in "
		       "CUDA_HOME, CUDA_PATH, the nvcc on PATH and /usr/local/cuda, and stops with \"CUDA_HOME "
		       "environment variable is not set\" or a missing .../bin/nvcc. Running PyTorch needs no toolkit.");
	finding_evidence(f, "CUDA extension build", t->extension_build, "names CUDAExtension");
	if (t->count == 0)
		finding_evidence(f, "CUDA toolkits", N_("toolkit scan"), "none found");
	else
		finding_evidence(f, "CUDA toolkits", N_("toolkit scan"), "%d found, none with bin/nvcc", t->count);
	finding_evidence(f, "nvcc on PATH", N_("environment"), "none (PATH=%s)",
			 facts_env(facts, "PATH") ? facts_env(facts, "PATH") : "unset");
	if (home)
		finding_evidence(f, "CUDA_HOME", N_("environment"), "%s (no bin/nvcc there)", home);
	finding_fix(f, "python -c \"import torch; print(torch.version.cuda)\"",
		    "see the CUDA version torch was built with: the toolkit to install");
	finding_fix(f, NULL, "install that version's CUDA toolkit from NVIDIA (its network repository or runfile; "
		    "the distribution's nvidia-cuda-toolkit is usually older), then point CUDA_HOME and PATH at it");
}

static void check_cudnn(const struct facts *facts, struct findings *out)
{
	const struct cudnn_facts *c = &facts->cudnn;
	const struct cudnn_item *hdr = NULL, *lib = NULL;
	struct finding *f;

	if (fact_denied(&c->status))
		return;
	if (c->count == 0) {
		if (facts->toolkits.count == 0)
			return;
		f = findings_add(out, CAUSE_CUDNN_MISSING, SEV_INFO, "no cuDNN found next to the CUDA toolkits");
		finding_detail(f, "cuDNN is needed to build frameworks from source and by TensorFlow and ONNX Runtime "
			       "installs that use the system's libraries. PyTorch's pip and conda packages bring their own "
			       "cuDNN, so for them this is not a problem.");
		if (facts->toolkits.active >= 0) {
			const char *v = facts->toolkits.items[facts->toolkits.active].version;
			struct kb_answer dnn;

			if (kb_cudnn_for_cuda(major_of(v), &dnn) == 0) {
				struct kb_answer wheel;
				char cmd[96];

				/* pinned: an unpinned wheel is whatever major is newest, not the one asked for */
				if (kb_cudnn_wheel(major_of(dnn.value), major_of(v), &wheel) == 0) {
					str_printf(cmd, sizeof(cmd), "pip install 'nvidia-cudnn-cu%d==%s'", major_of(v), wheel.value);
					finding_fix(f, cmd, "if you need it: the cuDNN %d wheel for CUDA %d (%s, the version PyTorch "
						    "%s pinned; the newest cuDNN for CUDA %d.x is %s, in NVIDIA's repository as "
						    "cudnn%d-cuda-%d)", major_of(dnn.value), major_of(v), wheel.value, wheel.release,
						    major_of(v), dnn.value, major_of(dnn.value), major_of(v));
				} else {
					finding_fix(f, NULL, "if you need it: cuDNN %s is the newest release built for CUDA %d.x "
						    "(NVIDIA's repository packages it as cudnn%d-cuda-%d)", dnn.value, major_of(v),
						    major_of(dnn.value), major_of(v));
				}
			}
		}
		return;
	}
	for (int i = 0; i < c->count; i++) {
		if (c->items[i].kind == CUDNN_HEADER && !hdr)
			hdr = &c->items[i];
		if (c->items[i].kind == CUDNN_LIBRARY && !lib)
			lib = &c->items[i];
	}
	if (!hdr || !lib)
		return;
	for (int i = 0; i < c->count; i++) {
		const struct cudnn_item *l = &c->items[i];

		if (l->kind != CUDNN_LIBRARY || major_of(l->version) == major_of(hdr->version))
			continue;
		f = findings_add(out, CAUSE_CUDNN_MISMATCH, SEV_WARNING,
				 "cuDNN header %s does not match library %s", hdr->version, l->version);
		finding_detail(f, "A program compiled against the cuDNN %d header and run with the cuDNN %d library "
			       "fails to load (missing libcudnn.so.%d) or, when both load, with "
			       "CUDNN_STATUS_VERSION_MISMATCH.", major_of(hdr->version), major_of(l->version),
			       major_of(hdr->version));
		finding_evidence(f, "header", hdr->path, "%s (%s)", hdr->version, hdr->where);
		finding_evidence(f, "library", l->path, "%s (%s)", l->version, l->where);
		finding_fix(f, NULL, "keep one cuDNN major: remove the other, or take it out of LD_LIBRARY_PATH");
		return;
	}
}

/* The toolkit a cuDNN file belongs with: the one it sits in, else the active one; NULL without a version. */
static const struct toolkit *cudnn_toolkit(const struct toolkit_facts *t, const struct cudnn_item *it, bool *inside)
{
	char dir[FACT_PATH];
	const struct toolkit *tk;

	path_dirname(it->path, dir, sizeof(dir));
	tk = toolkit_owning(t, dir);
	*inside = tk != NULL;
	if (!tk && t->active >= 0)
		tk = &t->items[t->active];
	return tk && tk->exists && tk->version[0] ? tk : NULL;
}

static bool major_listed(const char *list, int major)
{
	char buf[64], *save = NULL;

	str_copy(buf, sizeof(buf), list);
	for (char *m = strtok_r(buf, ",", &save); m; m = strtok_r(NULL, ",", &save))
		if (atoi(m) == major)
			return true;
	return false;
}

static void cudnn_build_fix(struct finding *f, const struct cudnn_item *it, int cuda)
{
	struct kb_answer dnn;
	bool have_dnn = kb_cudnn_for_cuda(cuda, &dnn) == 0;
	char cmd[64];

	if (str_starts_with(it->cuda_major_source, "/var/lib/dpkg/status") && atoi(it->version) >= 9) {
		str_printf(cmd, sizeof(cmd), "sudo apt-get install cudnn%d-cuda-%d", atoi(it->version), cuda);
		finding_fix(f, cmd, "install the cuDNN %d build for CUDA %d from NVIDIA's repository", atoi(it->version), cuda);
	} else if (str_starts_with(it->cuda_major_source, "/var/lib/dpkg/status")) {
		str_printf(cmd, sizeof(cmd), "apt-cache policy libcudnn%d", atoi(it->version));
		finding_fix(f, cmd, "list the libcudnn%d versions NVIDIA's repository has, and install the one ending in "
			    "+cuda%d.x with its -dev package (sudo apt-get install libcudnn%d=VERSION libcudnn%d-dev=VERSION)",
			    atoi(it->version), cuda, atoi(it->version), atoi(it->version));
	} else {
		finding_fix(f, NULL, "replace the libcudnn* files (and cudnn*.h) with those of NVIDIA's cuDNN archive for CUDA "
			    "%d (cudnn-linux-ARCH-VERSION_cuda%d-archive)%s%s", cuda, cuda,
			    have_dnn ? N_("; the newest release built for it is ") : "", have_dnn ? dnn.value : "");
	}
}

/*
 * cuDNN is built once per CUDA major. A build for another major than the toolkit it sits in (or, outside
 * any toolkit, the active one) fails to load or to find its cuBLAS; a release NVIDIA never built for that
 * major (data/cudnn.tsv) cannot be the right one either.
 */
static void check_cudnn_cuda(const struct facts *facts, struct findings *out)
{
	const struct cudnn_facts *c = &facts->cudnn;

	if (fact_denied(&c->status))
		return;
	for (int i = 0; i < c->count; i++) {
		const struct cudnn_item *it = &c->items[i];
		bool inside;
		const struct toolkit *tk = cudnn_toolkit(&facts->toolkits, it, &inside);
		int cuda = tk ? major_of(tk->version) : 0;
		struct kb_answer majors;
		struct finding *f;

		if (!tk)
			continue;
		if (it->kind == CUDNN_LIBRARY && it->cuda_major > 0 && it->cuda_major != cuda) {
			f = findings_add(out, CAUSE_CUDNN_MISMATCH, SEV_WARNING, "cuDNN %s at %s is built for CUDA %d, but %s CUDA %s",
					 it->version, it->path, it->cuda_major, inside ? N_("sits in the toolkit of") : N_("the active toolkit is"),
					 tk->version);
			finding_detail(f, "NVIDIA builds each cuDNN release once per CUDA major. This one needs the CUDA %d "
				       "libraries (cuBLAS, the runtime): with CUDA %d, programs fail to load it (\"libcublas.so.%d: "
				       "cannot open shared object file\") or report CUDNN_STATUS_NOT_INITIALIZED.",
				       it->cuda_major, cuda, it->cuda_major);
			finding_evidence(f, "cuDNN library", it->path, "%s (%s)", it->version, it->where);
			finding_evidence(f, "built for", it->cuda_major_source, "CUDA %d", it->cuda_major);
		} else if (kb_cudnn_cuda_majors(it->version, &majors) == 0 && !major_listed(majors.value, cuda)) {
			f = findings_add(out, CAUSE_CUDNN_MISMATCH, SEV_WARNING, "cuDNN %s has no build for CUDA %d, but %s CUDA %s",
					 it->version, cuda, inside ? N_("sits in the toolkit of") : N_("the active toolkit is"), tk->version);
			finding_detail(f, "NVIDIA built cuDNN %s only for CUDA %s, so this copy belongs to another CUDA: "
				       "programs built with CUDA %d cannot use it.", it->version, majors.value, cuda);
			finding_evidence(f, it->kind == CUDNN_HEADER ? "cuDNN header" : "cuDNN library", it->path, "%s (%s)",
					 it->version, it->where);
			finding_evidence(f, "CUDA majors with a build", majors.source, "%s", majors.value);
		} else {
			continue;
		}
		finding_unless(f, CAUSE_CUDNN_MISMATCH);	/* the header/library disagreement, when found, comes first */
		finding_evidence(f, inside ? "toolkit it sits in" : "active toolkit", tk->version_source, "CUDA %s at %s",
				 tk->version, tk->real_path);
		cudnn_build_fix(f, it, cuda);
		return;
	}
}

static const struct rule toolkit_rules[] = {
	{ CAUSE_TOOLKIT_NEWER_THAN_DRIVER, check_newer_than_driver },
	{ CAUSE_TOOLKIT_CONFLICT, check_conflict },
	{ CAUSE_TOOLKIT_ARCH_UNSUPPORTED, check_arch },
	{ CAUSE_TOOLKIT_NVCC_NOT_ON_PATH, check_nvcc_path },
	{ CAUSE_TOOLKIT_NOT_INSTALLED, check_toolkit_missing },
	{ CAUSE_CUDNN_MISSING, check_cudnn },	/* and cudnn.mismatch */
	{ CAUSE_CUDNN_MISMATCH, check_cudnn_cuda },
};

const struct rule_family rules_toolkit = { "toolkit", toolkit_rules, sizeof(toolkit_rules) / sizeof(toolkit_rules[0]) };
