/*
 * fix_json.c - `gpudoctor fix --json` (schema gpudoctor.fix/1,
 * docs/fix.md): the plan, the alternatives and what was rejected, with
 * every check, for programs and for the scenario tests.
 */
#include "report/report_fix.h"

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_text(s) : json_null();
}

static json_t *step_json(const struct plan_step *s)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:b, s:b, s:s}", "kind", plan_step_kind_name(s->kind), "command",
			      str_or_null(s->command), "why", json_text(s->why), "root", s->root, "torch", s->torch,
			      "from", s->from[0] ? s->from : "plan");

	if (o && s->file[0]) {
		json_object_set_new(o, "file", json_text(s->file));
		json_object_set_new(o, "content", json_text(s->content));
	}
	return o;
}

static json_t *torch_json(const struct plan_torch *t)
{
	if (!t->release[0])
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o}",
			 "installer", plan_installer_name(t->installer), "release", t->release, "variant", str_or_null(t->variant),
			 "cuda", str_or_null(t->cuda), "torchvision", str_or_null(t->vision), "torchaudio",
			 str_or_null(t->audio), "index", str_or_null(t->index), "conda", str_or_null(t->conda), "python",
			 str_or_null(t->python), "interpreter", str_or_null(t->interpreter), "min_driver",
			 str_or_null(t->min_driver), "ptx", t->ptx, "arch_list", str_or_null(t->arch_list), "toolkit",
			 str_or_null(t->toolkit));
}

/* See report_fix.h. */
json_t *report_fix_path_json(const struct plan_path *p)
{
	json_t *steps = json_array(), *checks = json_array();

	for (int i = 0; i < p->nsteps; i++)
		json_array_append_new(steps, step_json(&p->steps[i]));
	for (int i = 0; i < p->nchecks; i++)
		json_array_append_new(checks, json_pack("{s:o, s:s, s:o, s:o}", "what", json_text(p->checks[i].what),
							"state", plan_check_state_name(p->checks[i].state), "detail",
							json_text(p->checks[i].detail), "source", str_or_null(p->checks[i].source)));
	return json_pack("{s:s, s:o, s:o, s:b, s:o, s:o, s:o, s:o}", "id", p->id, "title", json_text(p->title), "tradeoff",
			 json_text(p->tradeoff), "ok", p->ok, "steps", steps, "checks", checks, "torch", torch_json(&p->torch),
			 "driver", p->driver_branch[0] ? json_pack("{s:s, s:o}", "branch", p->driver_branch, "min",
								   str_or_null(p->driver_min)) : json_null());
}

static json_t *machine_json(const struct plan_machine *m, enum plan_installer installer)
{
	json_t *gpus = json_array();

	for (int i = 0; i < m->nccs; i++)
		json_array_append_new(gpus, json_pack("{s:o, s:s}", "name", json_text(m->gpu_names[i]), "capability",
						      m->ccs[i]));
	return json_pack("{s:o, s:o, s:o, s:s, s:o, s:o, s:i, s:o, s:b, s:b}", "interpreter",
			 str_or_null(m->env ? m->env->exe : NULL), "python", str_or_null(m->python), "torch",
			 str_or_null(m->torch ? m->torch->version : NULL), "installer", plan_installer_name(installer),
			 "driver", str_or_null(m->driver), "gpus", gpus, "gpus_unknown", m->gpus_unknown, "arch",
			 str_or_null(m->arch), "container", m->container, "wsl", m->wsl);
}

/* See report_fix.h. */
json_t *report_fix_json(const struct fix_report *r, const struct diagnosis *d, const struct facts *facts)
{
	const struct plan *pl = &r->plan;
	json_t *alts = json_array(), *rejected = json_array(), *unknown = json_array(), *addressed = json_array(),
	       *also = json_array();

	for (int i = 1; i < pl->npaths; i++)
		json_array_append_new(alts, report_fix_path_json(&pl->paths[i]));
	for (int i = 0; i < pl->nrejected; i++)
		json_array_append_new(rejected, json_pack("{s:s, s:o, s:o}", "id", pl->rejected[i].id, "title",
							  json_text(pl->rejected[i].title), "failed",
							  json_text(pl->rejected[i].failed)));
	for (int i = 0; i < pl->nunknown; i++)
		json_array_append_new(unknown, json_text(pl->unknown[i]));
	for (int i = 0; i < r->naddressed; i++)
		json_array_append_new(addressed, json_string(cause_name(r->addressed[i]->cause)));
	for (int i = 0; i < r->nalso; i++)
		json_array_append_new(also, json_string(cause_name(r->also[i]->cause)));
	return json_pack("{s:s, s:s, s:o, s:s, s:b, s:o, s:o, s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "schema", FIX_SCHEMA,
			 "verdict", verdict_name(d->verdict), "root_cause",
			 r->root ? json_string(cause_name(r->root->cause)) : json_null(), "problem",
			 plan_problem_name(r->problem), "nothing_to_fix", r->nothing_to_fix, "machine",
			 machine_json(&r->machine, plan_env_installer(&r->machine)), "plan",
			 pl->npaths ? report_fix_path_json(&pl->paths[0]) : json_null(), "alternatives", alts,
			 "shared_steps", r->nshared, "rejected", rejected, "unknown", unknown, "note", str_or_null(pl->note),
			 "addressed", addressed, "also", also, "facts", report_facts_json(facts));
}
