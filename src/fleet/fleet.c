/*
 * fleet.c - the nodes read so far, each reduced to ids of shared texts (see fleet.h).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "fleet/fleet.h"
#include "util/i18n.h"
#include "util/intern.h"

struct fleet {
	struct intern texts;
	struct fleet_node *nodes;
	size_t count, cap;
};

/* N_: JSON keys and English words; the text and Markdown reports show them translated (i18n_text). */
static const char *const verdict_names[FLEET_NVERDICTS] = { N_("ready"), N_("degraded"), N_("broken"), N_("no-gpu"),
							    N_("unreadable") };
static const char *const trait_labels[FLEET_NTRAITS] = { N_("driver"), N_("CUDA toolkit"), "cuDNN", "torch",
							 N_("GPU count"), N_("GPU model") };
static const char *const trait_keys[FLEET_NTRAITS] = { "driver", "cuda", "cudnn", "torch", "gpu_count", "gpu_model" };

const char *fleet_verdict_name(enum fleet_verdict v)
{
	return v < FLEET_NVERDICTS ? verdict_names[v] : "?";
}

const char *fleet_trait_label(enum fleet_trait t)
{
	return t < FLEET_NTRAITS ? trait_labels[t] : "?";
}

const char *fleet_trait_key(enum fleet_trait t)
{
	return t < FLEET_NTRAITS ? trait_keys[t] : "?";
}

struct fleet *fleet_new(void)
{
	return calloc(1, sizeof(struct fleet));
}

void fleet_free(struct fleet *f)
{
	if (!f)
		return;
	intern_release(&f->texts);
	free(f->nodes);
	free(f);
}

/* Room for one more node, zeroed; NULL when out of memory. */
static struct fleet_node *new_node(struct fleet *f)
{
	if (f->count == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct fleet_node *nodes = realloc(f->nodes, cap * sizeof(*nodes));

		if (!nodes)
			return NULL;
		f->nodes = nodes;
		f->cap = cap;
	}
	return &f->nodes[f->count];
}

/* Intern each text into its id; false when out of memory. */
static bool intern_all(struct fleet *f, uint32_t *const ids[], const char *const texts[], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((*ids[i] = intern_add(&f->texts, texts[i])) == UINT32_MAX)
			return false;
	return true;
}

int fleet_add(struct fleet *f, const struct fleet_report *r, const char *source, const char *name_if_none,
	      struct error *err)
{
	struct fleet_node *n = new_node(f);

	if (!n)
		return error_set(err, "out of memory");
	*n = (struct fleet_node){ .verdict = r->verdict };
	uint32_t *const ids[] = { &n->name, &n->source, &n->root_cause, &n->summary };
	const char *const texts[] = { r->hostname[0] ? r->hostname : name_if_none, source, r->root_cause, r->summary };

	if (!intern_all(f, ids, texts, sizeof(ids) / sizeof(ids[0])))
		return error_set(err, "out of memory");
	for (int t = 0; t < FLEET_NTRAITS; t++)
		if ((n->trait[t] = intern_add(&f->texts, r->trait[t])) == UINT32_MAX)
			return error_set(err, "out of memory");
	f->count++;
	return 0;
}

int fleet_add_unreadable(struct fleet *f, const char *source, const char *name, const char *why,
			 struct error *err)
{
	struct fleet_node *n = new_node(f);

	if (!n)
		return error_set(err, "out of memory");
	*n = (struct fleet_node){ .verdict = FLEET_UNREADABLE };
	uint32_t *const ids[] = { &n->name, &n->source, &n->why };
	const char *const texts[] = { name, source, why };

	if (!intern_all(f, ids, texts, sizeof(ids) / sizeof(ids[0])))
		return error_set(err, "out of memory");
	f->count++;
	return 0;
}

size_t fleet_count(const struct fleet *f)
{
	return f->count;
}

const struct fleet_node *fleet_node(const struct fleet *f, size_t i)
{
	return i < f->count ? &f->nodes[i] : NULL;
}

const char *fleet_text(const struct fleet *f, uint32_t id)
{
	return intern_get(&f->texts, id);
}
