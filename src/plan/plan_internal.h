/*
 * plan_internal.h - what the planner's files share: the environment's
 * installer and the steps that install, remove and verify PyTorch.
 */
#ifndef GD_PLAN_PLAN_INTERNAL_H
#define GD_PLAN_PLAN_INTERNAL_H

#include "plan/plan.h"

/* Whether the diagnosed environment has a package that moves with torch ("torchvision", "torchaudio"). */
bool plan_env_has(const struct plan_machine *m, const char *name);
/* A torch version without its local tag: "2.5.1+cu124" -> "2.5.1". */
void plan_release_of(const char *version, char *out, size_t outsz);
/* Whether the environment's conda torch came from the pytorch channel (which conda can still replace, up to 2.5). */
bool plan_conda_pytorch_channel(const struct plan_machine *m);
/*
 * The steps that replace the environment's torch and companions with
 * p->torch (release, variant, index, companions and installer filled in);
 * sets p->torch.interpreter to what runs PyTorch afterwards.
 */
void plan_install_steps(const struct plan_machine *m, struct plan_path *p);
/* The driver version the machine needs: need_min, or higher where a GPU's architecture needs more. */
void plan_driver_need(const struct plan_machine *m, const char *need_min, char *out, size_t outsz);
/* The closing checks: import torch and compute on every GPU with interpreter, then gpudoctor itself. */
void plan_verify_steps(struct plan_path *p, const char *interpreter);

#endif
