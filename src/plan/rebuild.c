/*
 * rebuild.c - what a fresh environment gets when the broken one is
 * rebuilt instead of repaired (requirements.txt, environment.yml, a
 * Dockerfile): the plan's PyTorch where it installs one, else the one
 * installed now, else the newest for this machine; with torchvision and
 * torchaudio where the tables know them. For a container, also the
 * nvidia/cuda image whose CUDA the host's driver accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/plan_internal.h"
#include "util/str.h"

static void need_fresh(const struct plan_machine *m, const char *driver, const char *python, struct kb_torch_need *need)
{
	memset(need, 0, sizeof(*need));
	need->driver = driver;
	for (int i = 0; i < m->nccs && i < KB_TORCH_MAX_GPUS; i++)
		need->ccs[need->nccs++] = m->ccs[i];
	need->python = python;
}

/* The newest Python a release has wheels for ("3.13" from "3.9,...,3.13,3.13t"), "" unknown. */
static void newest_python(const char *release, char *out, size_t outsz)
{
	struct kb_torch_release rel;
	char list[128], *save = NULL;

	out[0] = '\0';
	if (kb_torch_release(release, &rel) < 0 || str_copy(list, sizeof(list), rel.python) < 0)
		return;
	for (char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save))
		if (!strchr(v, 't') && (!out[0] || version_compare(v, out) > 0))
			str_copy(out, outsz, v);
}

/* See plan.h. */
int plan_rebuild(const struct plan_machine *m, const struct plan *fixplan, const char *python, struct plan_path *out)
{
	const struct plan_path *main_path = fixplan && fixplan->npaths ? &fixplan->paths[0] : NULL;
	struct plan_machine fresh = *m;
	struct kb_torch_need need;
	struct kb_torch_fit fit;
	const char *driver = m->driver, *vision, *audio;
	char release[24] = "", unknown[1][96];
	int nunknown, rc = -1;

	fresh.env = NULL;
	fresh.torch = NULL;
	fresh.python = python ? python : m->python;
	memset(out, 0, sizeof(*out));
	out->ok = true;
	str_copy(out->id, sizeof(out->id), "rebuild");
	/* after the plan's driver steps the driver is what they install: judge as any */
	if (main_path && main_path->driver_branch[0]) {
		driver = NULL;
		str_copy(out->driver_branch, sizeof(out->driver_branch), main_path->driver_branch);
		str_copy(out->driver_min, sizeof(out->driver_min), main_path->driver_min);
	}
	if (main_path && main_path->torch.release[0] && main_path->torch.installer != INSTALL_SOURCE)
		str_copy(release, sizeof(release), main_path->torch.release);
	else if (m->torch)
		plan_release_of(m->torch->version, release, sizeof(release));
	need_fresh(m, driver, fresh.python, &need);
	if (!driver && !out->driver_branch[0]) {
		/* no driver here and none planned: the environment is for another machine; take the build most run */
		fresh.driver_known = false;
		need.oldest_driver = true;
	}
	if (release[0])
		rc = kb_torch_in_release(release, &need, &fit);
	if (rc < 0)
		rc = kb_torch_newest(&need, &fit, unknown, 0, &nunknown);
	if (rc < 0)
		return -1;
	out->torch.installer = INSTALL_NEW_VENV;
	str_copy(out->torch.release, sizeof(out->torch.release), fit.release.version);
	str_copy(out->torch.variant, sizeof(out->torch.variant), fit.variant.variant);
	str_copy(out->torch.cuda, sizeof(out->torch.cuda), fit.variant.cuda);
	if (str_starts_with(fit.variant.index_url, "--index-url ") || str_starts_with(fit.variant.index_url, "-f ") ||
	    str_starts_with(fit.variant.index_url, "--extra-index-url "))
		str_copy(out->torch.index, sizeof(out->torch.index), fit.variant.index_url);
	if (kb_torch_companions(fit.release.version, &vision, &audio, NULL) == 0) {
		str_copy(out->torch.vision, sizeof(out->torch.vision), vision);
		str_copy(out->torch.audio, sizeof(out->torch.audio), audio);
	}
	if (fresh.python)
		str_copy(out->torch.python, sizeof(out->torch.python), fresh.python);
	else
		newest_python(fit.release.version, out->torch.python, sizeof(out->torch.python));
	str_copy(out->torch.min_driver, sizeof(out->torch.min_driver), fit.min_driver.value);
	out->torch.ptx = fit.ptx;
	str_printf(out->title, sizeof(out->title), "torch %s with CUDA %s (%s) in a fresh environment", fit.release.version,
		   fit.variant.cuda, fit.variant.variant);
	fresh.python = out->torch.python[0] ? out->torch.python : NULL;
	plan_check_path(&fresh, out);
	return out->ok ? 0 : -1;
}

/* See plan.h. */
int plan_container(const struct plan_machine *m, const struct plan *fixplan, struct plan_path *out,
		   struct plan_image *img)
{
	const struct kb_table *t = &kb_table_image_python;
	struct kb_answer max;
	const char *limit = NULL;
	char why[240] = "no image OS in data/image_python.tsv has a Python this PyTorch supports";

	memset(img, 0, sizeof(*img));
	/* the container runtime refuses an image whose CUDA is newer than the host driver's (NVIDIA_REQUIRE_CUDA) */
	if (m->driver && kb_cuda_max_for_driver(m->driver, &max) == 0)
		limit = max.value;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *os = kb_field(t, r, "os"), *python = kb_field(t, r, "python");
		struct kb_cuda_image ci;

		if (plan_rebuild(m, fixplan, python, out) < 0)
			continue;
		if (kb_cuda_image_at_most(os, atoi(out->torch.cuda), limit, &ci) < 0) {
			str_printf(why, sizeof(why), "no supported %s image of CUDA %d.x%s%s", os, atoi(out->torch.cuda),
				   limit ? " at or below " : "", limit ? limit : "");
			continue;
		}
		str_printf(img->image, sizeof(img->image), "nvidia/cuda:%s-base-%s", ci.cuda, os);
		str_copy(img->os, sizeof(img->os), os);
		str_copy(img->python, sizeof(img->python), python);
		img->externally_managed = strcmp(kb_field(t, r, "externally_managed"), "yes") == 0;
		img->source = ci.source;
		plan_check_add(out, "image", limit || !m->driver_known ? CHECK_PASS : CHECK_UNCHECKED, ci.source,
			       "%s is a supported tag (data/cuda_images.tsv line %d)%s%s%s", img->image,
			       kb_table_cuda_images.lines[ci.row], limit ? "; the host driver runs CUDA up to " : "",
			       limit ? limit : "", limit ? ", and the wheel's own CUDA runtime through minor-version "
			       "compatibility" : "; the host driver is not known");
		plan_check_add(out, "image python", CHECK_PASS, kb_field(t, r, "source"), "%s installs Python %s", os, python);
		return 0;
	}
	str_copy(out->title, sizeof(out->title), why);
	return -1;
}
