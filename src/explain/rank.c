/*
 * rank.c - hits into causes: one cause per id, its text filled from the
 * catalog's templates with the values the first match gave, ranked by
 * causality rather than by how often each message was printed.
 */
#include "explain/scan_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/str.h"

/* Sure signatures lead; within a tier, the cause nearest the root; then the first seen. */
static int tier(int confidence)
{
	return confidence >= 60 ? 0 : confidence >= 30 ? 1 : 2;
}

static const char *value_of(const struct explain_value *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return v[i].value;
	return NULL;
}

/* See explain/scan_internal.h. */
void explain_value_add(struct explain_value *values, int *n, const char *name, const char *value)
{
	if (!value || !value[0] || *n >= EXPLAIN_MAX_VALUES || value_of(values, *n, name))
		return;
	str_copy(values[*n].name, sizeof(values[0].name), name);
	str_copy(values[*n].value, sizeof(values[0].value), value);
	(*n)++;
}

/* tmpl with each {name} replaced by its value; NULL when a value is missing and drop_if_missing. */
static char *fill(const char *tmpl, const struct explain_value *v, int n, bool drop_if_missing)
{
	struct strbuf sb = { 0 };

	while (*tmpl) {
		const char *open = strchr(tmpl, '{'), *close = open ? strchr(open, '}') : NULL;
		char name[32];
		const char *val;

		if (!open || !close || close - open - 1 >= (ptrdiff_t)sizeof(name) || close == open + 1) {
			strbuf_add(&sb, tmpl);
			break;
		}
		strbuf_addf(&sb, "%.*s", (int)(open - tmpl), tmpl);
		memcpy(name, open + 1, (size_t)(close - open - 1));
		name[close - open - 1] = '\0';
		val = value_of(v, n, name);
		if (!val && strspn(name, "abcdefghijklmnopqrstuvwxyz_") != strlen(name)) {
			/* not a placeholder (a shell ${VAR}, a JSON brace): keep it */
			strbuf_addf(&sb, "{%s}", name);
		} else if (!val) {
			if (drop_if_missing) {
				strbuf_release(&sb);
				return NULL;
			}
			strbuf_add(&sb, "?");
		} else {
			strbuf_add(&sb, val);
		}
		tmpl = close + 1;
	}
	return strbuf_detach(&sb);
}

/*
 * The translation of a catalog template (its placeholders kept, data/explain_*.tsv's texts are messages),
 * filled like the English one; NULL when no translation is active or the catalog has none. In English
 * nothing is looked up.
 */
static char *fill_local(const char *tmpl, const struct explain_value *v, int n, bool drop_if_missing)
{
	const char *local;

	if (!i18n_active() || !tmpl || !tmpl[0] || (local = gettext(tmpl)) == tmpl || strcmp(local, tmpl) == 0)
		return NULL;
	return fill(local, v, n, drop_if_missing);
}

/* "text :: command || text || ..." with placeholders; steps naming a missing value are dropped. */
static void add_fixes(struct explain_cause *c, const char *spec)
{
	char *all = str_dup(spec), *step = all;

	while (step && *step) {
		char *next = strstr(step, " || "), *sep, *text, *cmd = NULL, *local, *tmpl;

		if (next) {
			*next = '\0';
			next += 4;
		}
		if ((sep = strstr(step, " :: "))) {
			*sep = '\0';
			cmd = fill(str_trim(sep + 4), c->values, c->nvalues, true);
		}
		tmpl = str_trim(step);
		text = fill(tmpl, c->values, c->nvalues, true);
		/* the message is the step without its "or " (tools/data2pot.awk) */
		local = text ? fill_local(tmpl + (str_starts_with(tmpl, "or ") ? 3 : 0), c->values, c->nvalues, true) : NULL;
		/* "@name": steps the planner makes from the values the text gave (plan_fix.c) */
		if (text && cmd && cmd[0] == '@') {
			explain_planned_fix(c, cmd, text, local);
		} else if (text && (!sep || cmd) && str_starts_with(text, "or ")) {
			/* "or ...": a one-step alternative to the fix, not a step of it */
			int alt = explain_add_alternative(c, text + 3, local);

			if (alt > 0)
				explain_add_fix(c, alt, text + 3, local, cmd);
		} else if (text && (!sep || cmd)) {
			explain_add_fix(c, 0, text, local, cmd);
		}
		free(text);
		free(local);
		free(cmd);
		step = next;
	}
	free(all);
}

/*
 * PyTorch's OOM message gives the request, the capacity, and what its caching
 * allocator holds. Reserved-but-unallocated memory at least as large as the
 * request is fragmentation; memory the process does not hold is someone else's.
 */
/* An extracted size in bytes; -1 when the message did not give it. */
static double size_value(const struct explain_cause *c, const char *name)
{
	const char *v = value_of(c->values, c->nvalues, name);

	return v ? explain_parse_size(v) : -1;
}

/*
 * Memory outside the allocator that this process's own CUDA context can explain: a context that loads its
 * kernels eagerly (CUDA before 11.7, or CUDA_MODULE_LOADING=EAGER) measured 0.62 GiB against 0.27 GiB lazy
 * (pytorch/pytorch#86509), and cuDNN's and cuBLAS's handles add to it; up to this much is not someone else's.
 */
static const double held_by_context = 1.0 * (1 << 30);

static void judge_oom(struct explain_cause *c)
{
	double req = size_value(c, "requested"), total = size_value(c, "total"), reserved = size_value(c, "reserved");
	double allocated = size_value(c, "allocated"), unalloc = size_value(c, "unallocated"), free_b = size_value(c, "free");
	char verdict[400] = "", local[600] = "";
	bool tr = i18n_active();
	static const char *const grow = N_("let the caching allocator grow segments instead of fragmenting them");
	static const char *const holders = N_("list the processes holding GPU memory");

	if (unalloc < 0 && reserved >= 0 && allocated >= 0)
		unalloc = reserved - allocated;
	if (req <= 0)
		return;
	if (unalloc >= req) {
		str_printf(verdict, sizeof(verdict), "Fragmentation: PyTorch holds %.2f GiB reserved but unallocated, more "
			   "than the %.2f GiB requested, yet no free block is large enough. Set "
			   "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True first.", unalloc / (1 << 30), req / (1 << 30));
		if (tr)
			str_printf(local, sizeof(local), _("Fragmentation: PyTorch holds %.2f GiB reserved but unallocated, "
				   "more than the %.2f GiB requested, yet no free block is large enough. Set "
				   "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True first."), unalloc / (1 << 30), req / (1 << 30));
		explain_add_fix(c, 0, grow, tr ? _(grow) : NULL, "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
	} else if (total > 0 && reserved >= 0 && free_b >= 0 && total - reserved - free_b > 0.2 * total &&
		   total - reserved - free_b > held_by_context) {
		str_printf(verdict, sizeof(verdict), "Other memory: of %.2f GiB, %.2f GiB is held outside PyTorch's "
			   "allocator (other processes, another framework, the CUDA context); see who holds it.",
			   total / (1 << 30), (total - reserved - free_b) / (1 << 30));
		if (tr)
			str_printf(local, sizeof(local), _("Other memory: of %.2f GiB, %.2f GiB is held outside PyTorch's "
				   "allocator (other processes, another framework, the CUDA context); see who holds it."),
				   total / (1 << 30), (total - reserved - free_b) / (1 << 30));
		explain_add_fix(c, 0, holders, tr ? _(holders) : NULL, "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv");
	} else if (total > 0) {
		str_printf(verdict, sizeof(verdict), "Real shortage: the model, activations and batch need more than the "
			   "GPU's %.2f GiB; reduce what one step holds.", total / (1 << 30));
		if (tr)
			str_printf(local, sizeof(local), _("Real shortage: the model, activations and batch need more than "
				   "the GPU's %.2f GiB; reduce what one step holds."), total / (1 << 30));
	}
	if (verdict[0]) {
		char *d = str_dupf("%s %s", verdict, c->detail ? c->detail : "");

		if (tr) {
			char *dl = str_dupf("%s %s", local, c->detail_local ? c->detail_local : i18n_text(c->detail ? c->detail : ""));

			free(c->detail_local);
			c->detail_local = dl;
		}
		free(c->detail);
		c->detail = d;
		explain_value_add(c->values, &c->nvalues, "kind",
				  verdict[0] == 'F' ? "fragmentation" : verdict[0] == 'O' ? "other-processes" : "shortage");
	}
}

static int compare_lines(const void *pa, const void *pb)
{
	const struct explain_line *a = pa, *b = pb;

	if (a->input != b->input)
		return a->input < b->input ? -1 : 1;
	return a->number < b->number ? -1 : a->number > b->number;
}

static void merge_lines(struct explain_cause *c, const struct explain_hit *h)
{
	struct explain_line all[2 * EXPLAIN_MAX_LINES];
	int n = 0;

	for (int i = 0; i < c->nlines; i++)
		all[n++] = c->lines[i];
	for (int i = 0; i < h->nlines; i++)
		all[n++] = h->lines[i];
	qsort(all, (size_t)n, sizeof(all[0]), compare_lines);
	c->nlines = 0;
	for (int i = 0; i < n; i++) {
		if (c->nlines > 0 && compare_lines(&c->lines[c->nlines - 1], &all[i]) == 0)
			continue;
		if (c->nlines < EXPLAIN_MAX_LINES)
			c->lines[c->nlines++] = all[i];
		else
			c->lines[EXPLAIN_MAX_LINES - 1] = all[i];	/* keep the latest last */
	}
}

struct candidate {
	enum cause_id cause;
	int confidence;
	const char *title, *detail, *fix, *source, *signature;
	const char *xid_name, *xid_action;
};

static void describe(const struct explain_hit *h, struct candidate *out)
{
	memset(out, 0, sizeof(*out));
	out->signature = catalog_field(h->row, "id");
	out->cause = catalog_cause(h->row);
	out->confidence = catalog_confidence(h->row);
	out->title = catalog_field(h->row, "title");
	out->detail = catalog_field(h->row, "detail");
	out->fix = catalog_field(h->row, "fix");
	out->source = catalog_field(h->row, "source");
	if (catalog_keyed(h->row)) {
		const char *src;
		enum cause_id cause;
		int conf;

		if (catalog_xid(h->key, &cause, &conf, &out->xid_name, &out->xid_action, &src)) {
			/* the row's confidence says how surely the text is a real Xid report (100: the kernel's own
			 * line), the Xid table's how surely that Xid means its cause */
			out->cause = cause;
			out->confidence = conf * out->confidence / 100 > 0 ? conf * out->confidence / 100 : 1;
			out->source = src;
		}
	}
}

/* See explain/scan_internal.h. */
bool explain_build_tool_only(const struct explain_cause *c)
{
	return cause_get(c->cause)->stage == STAGE_TOOLKIT && c->confidence < 50;
}

/* Position of the first match: input, then line. */
static int first_cmp(const struct explain_hit *a, const struct explain_hit *b)
{
	if (a->first_input != b->first_input)
		return a->first_input < b->first_input ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

struct ranked {
	struct explain_cause cause;
	const struct explain_hit *best, *earliest;
	bool context_only;	/* only context rows (prose about the machine, "context.*") name it */
	int strongest;		/* a guess: the most one topic gave it (add_guesses) */
};

/* A guess from what the text speaks of stays below every tier a message reaches. */
#define GUESS_MAX 25

/* A cause only prose about the machine names, that no message's differential offers ("I am using a Mac"). */
static bool context_alone(const struct ranked *r)
{
	return r->context_only && r->cause.prior == 0;
}

/* Causes that keep torch from being imported at all: before them no question about the GPU is reached. */
static bool import_fails(enum cause_id cause)
{
	return cause == CAUSE_TORCH_NOT_INSTALLED || cause == CAUSE_TORCH_IMPORT_FAILED ||
	       cause == CAUSE_TORCH_WRONG_INTERPRETER || cause == CAUSE_TORCH_LIBS_UNRESOLVED ||
	       cause == CAUSE_TORCH_MULTIPLE_INSTALLS;
}

/* a's place against b's where one is a fact about the machine alone and the other keeps torch from importing */
static int context_after_import(const struct ranked *a, const struct ranked *b)
{
	if (context_alone(a) && !b->cause.suggested && import_fails(b->cause.cause))
		return 1;
	if (context_alone(b) && !a->cause.suggested && import_fails(a->cause.cause))
		return -1;
	return 0;
}

/*
 * A cause a message names outranks every cause only suggested (an alternative of an ambiguous message,
 * or of a symptom); suggested causes follow by their prior, then down the chain, then first seen.
 */
static int compare_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c;

	if (explain_build_tool_only(&a->cause) != explain_build_tool_only(&b->cause))
		return explain_build_tool_only(&a->cause) ? 1 : -1;
	if (a->cause.suggested != b->cause.suggested)
		return a->cause.suggested ? 1 : -1;
	if (a->cause.suggested && a->cause.prior != b->cause.prior)
		return b->cause.prior - a->cause.prior;
	if (tier(a->cause.confidence) != tier(b->cause.confidence))
		return tier(a->cause.confidence) < tier(b->cause.confidence) ? -1 : 1;
	/* in one tier, a fact about the machine that no message calls for follows a message that torch cannot
	 * be imported: a Mac explains "Found no NVIDIA driver", not "No module named torch" */
	if ((c = context_after_import(a, b)) != 0)
		return c;
	if (a->cause.rank != b->cause.rank)
		return a->cause.rank < b->cause.rank ? -1 : 1;
	if ((c = first_cmp(a->earliest, b->earliest)) != 0)
		return c;
	return b->cause.confidence - a->cause.confidence;
}

/*
 * The registry's causal chain over the ranking: when the first cause usually follows from another cause a
 * message in the text names too (cuInit's "no device" after libcuda.so.1 could not be opened), the cause it
 * follows from goes first, however sure each message is alone, when its message is at least as likely as
 * not (50): a guess (a WSL hint at 40) never overtakes what was seen. Suggested causes never move: only what
 * the text shows. Bounded: each move puts an earlier link of the chain first.
 */
static void put_causes_first(struct ranked *r, size_t n)
{
	for (size_t moves = 0; moves < n && !r[0].cause.suggested; moves++) {
		size_t k;

		for (k = 1; k < n; k++)
			if (!r[k].cause.suggested && r[k].cause.confidence >= 50 &&
			    cause_follows(r[0].cause.cause, r[k].cause.cause) && !cause_follows(r[k].cause.cause, r[0].cause.cause))
				break;
		if (k == n)
			return;
		{
			struct ranked root = r[k];

			memmove(&r[1], &r[0], k * sizeof(r[0]));
			r[0] = root;
		}
	}
}

static void add_values(struct explain_cause *c, const struct explain_hit *h)
{
	for (int i = 0; i < h->nvalues && c->nvalues < EXPLAIN_MAX_VALUES; i++)
		if (!value_of(c->values, c->nvalues, h->values[i].name))
			c->values[c->nvalues++] = h->values[i];
}

static void build_text(struct explain_cause *c, const struct explain_hit *h, const struct candidate *d)
{
	str_copy(c->where, sizeof(c->where), h->where);
	c->title = fill(d->title, c->values, c->nvalues, false);
	c->detail = fill(d->detail, c->values, c->nvalues, false);
	c->title_local = fill_local(d->title, c->values, c->nvalues, false);
	c->detail_local = fill_local(d->detail, c->values, c->nvalues, false);
	if (d->xid_name) {
		char *t = str_dupf("Xid %s: %s", h->key, d->xid_name);
		char *det = str_dupf("%s NVIDIA's recommended action: %s", c->detail ? c->detail : "", d->xid_action);

		if (i18n_active()) {
			char *tl = str_dupf(_("Xid %s: %s"), h->key, i18n_text(d->xid_name));
			char *dl = str_dupf(_("%s NVIDIA's recommended action: %s"),
					    c->detail_local ? c->detail_local : c->detail ? c->detail : "", i18n_text(d->xid_action));

			free(c->title_local);
			free(c->detail_local);
			c->title_local = tl;
			c->detail_local = dl;
		}
		free(c->title);
		free(c->detail);
		c->title = t;
		c->detail = det;
	}
	if (c->cause == CAUSE_RUNTIME_OUT_OF_MEMORY)
		judge_oom(c);
	add_fixes(c, d->fix);
}


static void add_check(struct explain_cause *c, size_t alt, const char *sig)
{
	const char *command = catalog_alt_field(alt, "check");

	for (int i = 0; i < c->nchecks; i++)
		if (strcmp(c->checks[i].command, command) == 0)
			return;
	if (c->nchecks < EXPLAIN_MAX_CHECKS)
		c->checks[c->nchecks++] = (struct explain_check){ command, catalog_alt_field(alt, "answers"), sig };
}

/*
 * A cause only an alternative row offers, from the hit of the message, symptom or topic it is an alternative
 * of: everything but the detail, which says why it is offered (suggest, guess_text).
 */
static void offer(struct ranked *r, size_t alt, const struct explain_hit *h)
{
	struct explain_cause *c = &r->cause;

	c->cause = catalog_alt_cause(alt);
	c->rank = cause_get(c->cause)->rank;
	c->suggested = true;
	c->prior = c->confidence = catalog_alt_weight(alt);
	c->signature = catalog_field(h->row, "id");
	c->source = catalog_alt_field(alt, "source");
	c->count = h->count;
	r->best = r->earliest = h;
	add_values(c, h);
	merge_lines(c, h);
	str_copy(c->where, sizeof(c->where), h->where);
	c->title = str_dup(catalog_alt_field(alt, "title"));
}

/* A cause only an alternative row suggests, from the hit of the message or symptom it is an alternative of. */
static void suggest(struct ranked *r, size_t alt, const struct explain_hit *h)
{
	struct explain_cause *c = &r->cause;
	const char *sig = catalog_field(h->row, "id");
	char *seen;

	offer(r, alt, h);
	seen = fill(catalog_field(h->row, "title"), c->values, c->nvalues, false);
	c->detail = str_dupf("Seen: %s. No message names this cause; it is one of the usual causes of what was seen "
			     "(a prior of %d%% among them). The check below tells it apart.", seen ? seen : sig, c->prior);
	if (i18n_active()) {
		char *seen_local = fill_local(catalog_field(h->row, "title"), c->values, c->nvalues, false);

		c->detail_local = str_dupf(_("Seen: %s. No message names this cause; it is one of the usual causes of what "
					     "was seen (a prior of %d%% among them). The check below tells it apart."),
					   seen_local ? seen_local : seen ? seen : sig, c->prior);
		free(seen_local);
	}
	free(seen);
	/* no fix of its own: its check (add_check) is the next step, and a cause no message names has no sure fix */
}

/* A guess speaks for itself with the topic that gave it the most: the row and the words that were seen. */
static void guess_text(struct explain_cause *c, size_t alt, const struct explain_hit *h)
{
	const char *sig = catalog_field(h->row, "id");
	char *seen = fill(catalog_field(h->row, "title"), h->values, h->nvalues, false);
	int weight = catalog_alt_weight(alt);

	c->signature = sig;
	c->source = catalog_alt_field(alt, "source");
	free(c->detail);
	free(c->detail_local);
	c->detail_local = NULL;
	c->detail = str_dupf("No error message or symptom was recognised, but the text speaks of %s. This is one of "
			     "the usual causes there (%d%% among them): a guess, which the check below confirms or "
			     "rules out.", seen ? seen : sig, weight);
	if (i18n_active()) {
		char *seen_local = fill_local(catalog_field(h->row, "title"), h->values, h->nvalues, false);

		c->detail_local = str_dupf(_("No error message or symptom was recognised, but the text speaks of %s. This "
					     "is one of the usual causes there (%d%% among them): a guess, which the check "
					     "below confirms or rules out."),
					   seen_local ? seen_local : seen ? seen : sig, weight);
		free(seen_local);
	}
	free(seen);
}

/*
 * The differential: every alternative of every message and symptom seen. A cause already named by a
 * message gains the check; any other becomes a suggested cause (the highest prior among the rows that
 * suggest it). r has room for every alternative row beyond the n causes.
 */
static size_t add_alternatives(const struct explain_scanner *s, struct ranked *r, size_t n)
{
	for (int i = 0; i < s->nhits; i++) {
		const struct explain_hit *h = &s->hits[i];
		const char *sig = catalog_field(h->row, "id");

		if (catalog_topic(h->row))
			continue;	/* a guess only where nothing else is: add_guesses */
		for (size_t a = 0; a < catalog_alt_rows(); a++) {
			enum cause_id cause;
			size_t k;

			if (!catalog_alt_of(a, sig))
				continue;
			cause = catalog_alt_cause(a);
			for (k = 0; k < n && r[k].cause.cause != cause; k++)
				;
			if (k == n) {
				suggest(&r[n++], a, h);
			} else if (r[k].cause.suggested) {
				merge_lines(&r[k].cause, h);
				if (first_cmp(h, r[k].earliest) < 0)
					r[k].earliest = h;
				if (catalog_alt_weight(a) > r[k].cause.prior)
					r[k].cause.prior = r[k].cause.confidence = catalog_alt_weight(a);
			} else if (catalog_alt_weight(a) > r[k].cause.prior) {
				r[k].cause.prior = catalog_alt_weight(a);
			}
			add_check(&r[k].cause, a, sig);
		}
	}
	return n;
}

/*
 * Where no message, symptom or fact names or offers a cause but the text reports trouble (an "@trouble" row:
 * an error, a failure, a question), what the text speaks of still does: each topic
 * row seen (Docker, WSL, a laptop without a GPU, nvcc) offers its alternatives as guesses, weighted by its
 * prior times the row's confidence and summed over the topics that offer the same cause, so a text about
 * a container and CUDA_VISIBLE_DEVICES ranks the cause both point at first. A guess stays below every
 * tier a message reaches (under 30) and carries the checks that tell it apart; it has no fix of its own.
 * r has room for every alternative row. Returns the number of guesses.
 */
static size_t add_guesses(const struct explain_scanner *s, struct ranked *r)
{
	size_t n = 0;
	int i;

	for (i = 0; i < s->nhits && !catalog_trouble(s->hits[i].row); i++)
		;
	if (i == s->nhits)
		return 0;	/* the text reports no trouble: what it speaks of is no guess */
	for (i = 0; i < s->nhits; i++) {
		const struct explain_hit *h = &s->hits[i];
		const char *sig = catalog_field(h->row, "id");

		if (!catalog_topic(h->row))
			continue;
		for (size_t a = 0; a < catalog_alt_rows(); a++) {
			int score;
			size_t k;

			if (!catalog_alt_of(a, sig))
				continue;
			score = catalog_alt_weight(a) * catalog_confidence(h->row) / 100;
			for (k = 0; k < n && r[k].cause.cause != catalog_alt_cause(a); k++)
				;
			if (k == n) {
				offer(&r[n++], a, h);	/* guess_text below gives it its detail */
				r[k].cause.guessed = true;
				r[k].cause.prior = 0;
				r[k].strongest = 0;
			} else {
				merge_lines(&r[k].cause, h);
				if (first_cmp(h, r[k].earliest) < 0)
					r[k].earliest = h;
			}
			/* the topic that gives the most speaks for the guess (the first one, where all give nothing) */
			if (score > r[k].strongest || !r[k].cause.detail) {
				r[k].strongest = score;
				guess_text(&r[k].cause, a, h);
			}
			r[k].cause.prior = r[k].cause.prior + score < 100 ? r[k].cause.prior + score : 100;
			r[k].cause.confidence = r[k].cause.prior < GUESS_MAX ? r[k].cause.prior : GUESS_MAX;
			add_check(&r[k].cause, a, sig);
		}
	}
	return n;
}

/*
 * See explain.h. out is zeroed first; the caller releases it with explain_report_release. out->inputs
 * borrow the scanner's names, so s must outlive out. On the out-of-memory path the text already built
 * for the causes is not freed.
 */
int explain_rank(const struct explain_scanner *s, struct explain_report *out)
{
	struct ranked *r = calloc((size_t)s->nhits + catalog_alt_rows() + 1, sizeof(*r));
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!r)
		return -1;
	for (int i = 0; i < s->nhits; i++) {
		const struct explain_hit *h = &s->hits[i];
		struct candidate d;
		size_t k;
		bool context;

		if (!catalog_names_cause(h->row))
			continue;	/* a symptom or topic names no cause: its alternatives do (add_alternatives) */
		describe(h, &d);
		context = strncmp(d.signature, "context.", 8) == 0;
		for (k = 0; k < n && r[k].cause.cause != d.cause; k++)
			;
		if (k == n) {
			r[n].cause.cause = d.cause;
			r[n].cause.rank = cause_get(d.cause)->rank;
			r[n].best = r[n].earliest = h;
			r[n].cause.confidence = d.confidence;
			r[n].context_only = context;
			n++;
		} else {
			struct candidate best;

			r[k].context_only &= context;
			describe(r[k].best, &best);
			/* the surest signature speaks for the cause; with OOM, the one that read the most numbers */
			if (d.confidence > best.confidence ||
			    (d.confidence == best.confidence && h->nvalues > r[k].best->nvalues))
				r[k].best = h;
			if (first_cmp(h, r[k].earliest) < 0)
				r[k].earliest = h;
			if (d.confidence > r[k].cause.confidence)
				r[k].cause.confidence = d.confidence;
		}
		/* signatures of one cause often match the same line: the most any one matched is the honest count */
		if (h->count > r[k].cause.count)
			r[k].cause.count = h->count;
		merge_lines(&r[k].cause, h);
	}
	for (size_t k = 0; k < n; k++) {
		struct candidate d;

		describe(r[k].best, &d);
		r[k].cause.nvalues = 0;
		add_values(&r[k].cause, r[k].best);
		/* values only other signatures of the cause read (a rank prefix, a device) join them */
		for (int i = 0; i < s->nhits; i++) {
			struct candidate other;

			if (!catalog_names_cause(s->hits[i].row))
				continue;
			describe(&s->hits[i], &other);
			if (&s->hits[i] != r[k].best && other.cause == r[k].cause.cause)
				add_values(&r[k].cause, &s->hits[i]);
		}
		r[k].cause.signature = d.signature;
		r[k].cause.source = d.source;
		build_text(&r[k].cause, r[k].best, &d);
		if (!r[k].cause.where[0])
			str_copy(r[k].cause.where, sizeof(r[k].cause.where), r[k].earliest->where);
	}
	n = add_alternatives(s, r, n);
	if (n == 0)
		n = add_guesses(s, r);
	qsort(r, n, sizeof(r[0]), compare_ranked);
	put_causes_first(r, n);
	out->causes = calloc(n + 1, sizeof(*out->causes));
	if (!out->causes) {
		for (size_t k = 0; k < n; k++)
			explain_cause_release(&r[k].cause);
		free(r);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		out->causes[k] = r[k].cause;
	out->count = n;
	out->bytes = s->bytes;
	out->lines = s->lines;
	for (int i = 0; i < s->ninputs; i++)
		out->inputs[i] = s->inputs[i];
	out->ninputs = s->ninputs;
	free(r);
	return 0;
}

/* See explain.h: a cause's own strings (the title, detail, note and fix steps it built). */
void explain_cause_release(struct explain_cause *c)
{
	free(c->title);
	free(c->detail);
	free(c->title_local);
	free(c->detail_local);
	free(c->doctor_note);
	free(c->doctor_note_local);
	for (int k = 0; k < c->nfix; k++) {
		free(c->fix[k].text);
		free(c->fix[k].text_local);
		free(c->fix[k].command);
	}
	for (int k = 0; k < c->nalt; k++) {
		free(c->alt_titles[k]);
		free(c->alt_titles_local[k]);
	}
}

/* See explain.h. */
bool explain_recognised(const struct explain_report *r)
{
	for (size_t i = 0; i < r->count; i++)
		if (!r->causes[i].guessed)
			return true;
	return false;
}

/* Free every cause's strings and the array, and zero r; the input names stay the scanner's. */
void explain_report_release(struct explain_report *r)
{
	for (size_t i = 0; i < r->count; i++)
		explain_cause_release(&r->causes[i]);
	free(r->causes);
	memset(r, 0, sizeof(*r));
}

/*
 * Digits with an optional '.' fraction, parsed without the locale, then a unit matched as a prefix (so
 * "2.00 GiB" and "5 MiBs" both read). No sign; -1 without digits or a known unit.
 */
double explain_parse_size(const char *text)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {
		{ "bytes", 1 }, { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "TiB", 1099511627776.0 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
	};
	double whole = 0, frac = 0, scale = 1;
	const char *p = text;
	bool digits = false;

	while (*p == ' ')
		p++;
	for (; *p >= '0' && *p <= '9'; p++, digits = true)
		whole = whole * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true)
			frac += (*p - '0') * (scale /= 10);
	if (!digits)
		return -1;
	while (*p == ' ')
		p++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strncmp(p, units[i].unit, strlen(units[i].unit)) == 0)
			return (whole + frac) * units[i].scale;
	return -1;
}
