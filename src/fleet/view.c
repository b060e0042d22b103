/*
 * view.c - a fleet's nodes grouped (see fleet.h): by verdict, by root cause, and by each trait's value.
 *
 * Every grouping sorts (key, position) pairs so that a key's nodes lie together in the view's node
 * order; ten thousand nodes take a few milliseconds.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "util/str.h"

struct named {
	const char *name, *source;
	size_t index;
};

/* Natural order: digit runs compare as numbers, so node2 comes before node10. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (char_is_digit((unsigned char)*a) && char_is_digit((unsigned char)*b)) {
			const char *ea, *eb;
			size_t la, lb;

			while (*a == '0' && char_is_digit((unsigned char)a[1]))
				a++;
			while (*b == '0' && char_is_digit((unsigned char)b[1]))
				b++;
			for (ea = a; char_is_digit((unsigned char)*ea); ea++)
				;
			for (eb = b; char_is_digit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = memcmp(a, b, la);

			if (c)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = natural_cmp(a->name, b->name);

	if (!c)
		c = natural_cmp(a->source, b->source);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

struct keyed {
	uint32_t key;
	size_t pos;	/* in the view's node order */
};

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Most nodes first; ties in the order of their first node. */
static int group_cmp(const void *pa, const void *pb)
{
	const struct fleet_group *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

/*
 * Group the n (key, position) pairs in k into *groups (node lists are node indices through order).
 * Returns the number of groups, or -1 when out of memory.
 */
static long group(struct keyed *k, size_t n, const size_t *order, struct fleet_group **groups)
{
	size_t ngroups = 0, g = 0;
	struct fleet_group *out;

	*groups = NULL;
	if (!n)
		return 0;
	qsort(k, n, sizeof(*k), keyed_cmp);
	for (size_t i = 0; i < n; i++)
		ngroups += i == 0 || k[i].key != k[i - 1].key;
	if (!(out = calloc(ngroups, sizeof(*out))))
		return -1;
	for (size_t i = 0, start = 0; i <= n; i++) {
		if (i < n && (i == 0 || k[i].key == k[i - 1].key))
			continue;
		/* k[start..i) share a key */
		out[g].value = k[start].key;
		out[g].count = i - start;
		out[g].first = k[start].pos;
		if (!(out[g].nodes = malloc(out[g].count * sizeof(size_t)))) {
			for (size_t j = 0; j < g; j++)
				free(out[j].nodes);
			free(out);
			return -1;
		}
		for (size_t j = start; j < i; j++)
			out[g].nodes[j - start] = order[k[j].pos];
		g++;
		start = i;
		if (i == n)
			break;
	}
	qsort(out, ngroups, sizeof(*out), group_cmp);
	*groups = out;
	return (long)ngroups;
}

/* The view's node order: natural order of names, then of sources. */
static size_t *node_order(const struct fleet *f)
{
	size_t n = fleet_count(f);
	struct named *named = malloc((n ? n : 1) * sizeof(*named));
	size_t *order = malloc((n ? n : 1) * sizeof(*order));

	if (!named || !order) {
		free(named);
		free(order);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fleet_node *node = fleet_node(f, i);

		named[i] = (struct named){ fleet_text(f, node->name), fleet_text(f, node->source), i };
	}
	qsort(named, n, sizeof(*named), named_cmp);
	for (size_t i = 0; i < n; i++)
		order[i] = named[i].index;
	free(named);
	return order;
}

/* Which key a node is grouped by; false when it takes no part. */
typedef bool (*key_of)(const struct fleet_node *node, int which, uint32_t *key);

static bool verdict_key(const struct fleet_node *node, int which, uint32_t *key)
{
	(void)which;
	*key = (uint32_t)node->verdict;
	return true;
}

static bool cause_key(const struct fleet_node *node, int which, uint32_t *key)
{
	(void)which;
	*key = node->root_cause;
	return node->verdict != FLEET_UNREADABLE && node->root_cause != 0;
}

static bool trait_key(const struct fleet_node *node, int which, uint32_t *key)
{
	*key = node->trait[which];
	return node->verdict != FLEET_UNREADABLE;
}

static long group_by(const struct fleet *f, const size_t *order, struct keyed *k, key_of key, int which,
		     struct fleet_group **groups)
{
	size_t n = 0;

	for (size_t pos = 0; pos < fleet_count(f); pos++)
		if (key(fleet_node(f, order[pos]), which, &k[n].key))
			k[n++].pos = pos;
	return group(k, n, order, groups);
}

int fleet_view_build(struct fleet_view *v, const struct fleet *f, struct error *err)
{
	size_t n = fleet_count(f);
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	size_t *order = node_order(f);
	struct fleet_group *verdicts = NULL;
	long ng;

	memset(v, 0, sizeof(*v));
	v->fleet = f;
	v->nodes = n;
	if (!k || !order)
		goto oom;
	/* verdicts: into their fixed slots, empty ones included */
	if ((ng = group_by(f, order, k, verdict_key, 0, &verdicts)) < 0)
		goto oom;
	for (long i = 0; i < ng; i++)
		v->verdict[verdicts[i].value] = verdicts[i];
	free(verdicts);
	v->readable = n - v->verdict[FLEET_UNREADABLE].count;
	if ((ng = group_by(f, order, k, cause_key, 0, &v->causes)) < 0)
		goto oom;
	v->ncauses = (size_t)ng;
	for (size_t i = 0; i < v->ncauses; i++)
		v->causes[i].title = fleet_node(f, v->causes[i].nodes[0])->summary;
	for (int t = 0; t < FLEET_NTRAITS; t++) {
		if ((ng = group_by(f, order, k, trait_key, t, &v->drift[t].values)) < 0)
			goto oom;
		v->drift[t].nvalues = (size_t)ng;
	}
	free(k);
	free(order);
	return 0;
oom:
	free(k);
	free(order);
	fleet_view_release(v);
	v->fleet = f;
	return error_set(err, "out of memory");
}

static void release_groups(struct fleet_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].nodes);
}

void fleet_view_release(struct fleet_view *v)
{
	release_groups(v->verdict, FLEET_NVERDICTS);
	release_groups(v->causes, v->ncauses);
	free(v->causes);
	for (int t = 0; t < FLEET_NTRAITS; t++) {
		release_groups(v->drift[t].values, v->drift[t].nvalues);
		free(v->drift[t].values);
	}
	memset(v, 0, sizeof(*v));
}

int fleet_view_all_ready(const struct fleet_view *v)
{
	return v->nodes > 0 && v->verdict[FLEET_READY].count == v->nodes;
}
