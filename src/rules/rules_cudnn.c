/*
 * rules_cudnn.c - whether the torch that imports can use cuDNN, as the
 * deep probe saw it. (cuDNN found on disk is judged with the toolkits, in
 * rules_toolkit.c.)
 *
 * A CUDA torch without a usable cuDNN still computes: convolutions,
 * RNNs and batch norm fall back to slower native kernels, or fail where
 * there is none. Nothing else in a report would say so.
 */
#include <string.h>

#include "rules/rules.h"
#include "util/str.h"

/* The CUDA wheel index of a pip build ("2.4.1+cu121" -> "cu121"), or NULL. */
static const char *wheel_index(const char *version)
{
	const char *plus = strchr(version, '+');

	return plus && str_starts_with(plus + 1, "cu") && str_is_digits(plus + 3) ? plus + 1 : NULL;
}

static void check_deep_cudnn(const struct facts *facts, struct findings *out)
{
	const struct torch_deep *d = &facts->python.deep;
	const struct python_facts *p = &facts->python;
	const struct python_env *py = p->selected >= 0 ? &p->envs[p->selected] : NULL;
	const struct torch_install *t = py && py->torch >= 0 ? &p->torches[py->torch] : NULL;
	bool disabled = d->cudnn_enabled == 0, missing = !d->cudnn[0];
	struct finding *f;

	if (!py || !d->ran || !d->ok || d->error[0] || !d->cuda[0] || d->available != 1 || (!disabled && !missing))
		return;
	f = findings_add(out, CAUSE_TORCH_CUDNN_UNUSABLE, SEV_WARNING, "torch %s %s", d->version,
			 d->cudnn_error[0] ? "cannot load the cuDNN it was built with" :
			 missing ? "has no cuDNN" : "starts with cuDNN disabled");
	finding_detail(f, "torch.cuda works, but %s. Convolutions, recurrent layers and batch norm then run on slower "
		       "native CUDA kernels, or fail where torch has none.",
		       d->cudnn_error[0] ? "torch.backends.cudnn.version() raises an error" :
		       missing ? "torch.backends.cudnn.version() is None: this build has no cuDNN" :
		       "torch.backends.cudnn.enabled is False as soon as torch is imported");
	finding_evidence(f, "torch", py->exe, "%s, cuda %s, available True", d->version, d->cuda);
	finding_evidence(f, "torch.backends.cudnn.version()", py->exe, "%s", d->cudnn[0] ? d->cudnn : "None");
	if (d->cudnn_enabled >= 0)
		finding_evidence(f, "torch.backends.cudnn.enabled", py->exe, "%s", d->cudnn_enabled ? "True" : "False");
	if (d->cudnn_error[0]) {
		finding_evidence(f, "error", py->exe, "%s", d->cudnn_error);
		finding_fix(f, "echo $LD_LIBRARY_PATH", "another cuDNN is loaded in place of torch's own: take the directory "
			    "holding it out of LD_LIBRARY_PATH (or LD_PRELOAD)");
	} else if (missing) {
		const char *index = t ? wheel_index(d->version) : NULL;

		if (index && strcmp(t->installer, "pip") == 0) {
			char cmd[FACT_PATH + 160], base[48];

			str_copy(base, sizeof(base), d->version);
			base[strcspn(base, "+")] = '\0';
			str_printf(cmd, sizeof(cmd), "%s -m pip install --force-reinstall 'torch==%s' --index-url "
				   "https://download.pytorch.org/whl/%s", py->exe, base, index);
			finding_fix(f, cmd, "reinstall PyTorch's own build, which brings cuDNN with it");
		} else {
			finding_fix(f, NULL, "install an official PyTorch CUDA build (pip wheels and conda packages bring "
				    "cuDNN), or rebuild this one with cuDNN");
		}
	} else {
		finding_fix(f, NULL, "something run at interpreter start-up sets torch.backends.cudnn.enabled = False: look "
			    "in sitecustomize.py, usercustomize.py and the .pth files on %s's path, and remove it", py->exe);
	}
}

static const struct rule cudnn_rules[] = {
	{ CAUSE_TORCH_CUDNN_UNUSABLE, check_deep_cudnn },
};

const struct rule_family rules_cudnn = { "cudnn", cudnn_rules, sizeof(cudnn_rules) / sizeof(cudnn_rules[0]) };
