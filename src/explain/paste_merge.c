/*
 * paste_merge.c - one rule engine for the doctor and explain: the
 * doctor's rules run over the facts a paste showed, and the findings whose
 * rules read only what the paste showed join explain's ranked causes.
 *
 * Soundness: a rule reads sections; a finding is kept only when every
 * section its cause's rules read was seen in the paste (the table below).
 * Causes not in the table are never taken from a paste: conclusions of
 * absence (gpu.none, driver.not-installed, torch.not-installed) and causes
 * whose rules read what no paste shows (device nodes, the loader's search).
 */
#include "explain/paste_merge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/scan_internal.h"
#include "kb/kb.h"
#include "paste/paste.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

#define S(x) (1u << (x))

/*
 * confidence: how surely the rule's finding over pasted facts is the cause, 100 when the versions decide it.
 * A table of memory use is a moment's snapshot, often taken while the user's own job ran: a usual cause only.
 */
struct cause_need {
	enum cause_id cause;
	unsigned needs;
	int confidence;
	int info_confidence;	/* the same for the rule's info finding; 0: an info finding is no cause */
};

static const struct cause_need cause_needs[] = {
	/* rules_torch.c check_driver_and_arch: the selected torch's CUDA, the driver version */
	{ CAUSE_TORCH_DRIVER_TOO_OLD, S(PASTE_TORCH) | S(PASTE_DRIVER), 100, 0 },
	/* the same check: the torch build's architectures against the GPU's compute capability */
	{ CAUSE_TORCH_ARCH_UNSUPPORTED, S(PASTE_TORCH) | S(PASTE_GPU), 100, 0 },
	/* rules_torch.c check_build: the torch build, and a GPU present */
	{ CAUSE_TORCH_CPU_ONLY, S(PASTE_TORCH) | S(PASTE_GPU), 100, 0 },
	{ CAUSE_TORCH_ROCM_BUILD, S(PASTE_TORCH) | S(PASTE_GPU), 100, 0 },
	/*
	 * rules_platform.c check_wsl_driver: WSL (the kernel release), and a libcuda.so.1 outside /usr/lib/wsl in the
	 * loader cache (its other evidence, the module on disk and DKMS, no paste shows: false, never a trigger)
	 */
	{ CAUSE_WSL_DRIVER, S(PASTE_CONTAINER) | S(PASTE_LIBS), 100, 0 },
	/*
	 * rules_toolkit.c check_arch: the nvcc on PATH against each GPU's compute capability (a toolkit older than
	 * the GPU, or one that dropped it); sure as a fact, a cause only where the text builds something with it
	 */
	{ CAUSE_TOOLKIT_ARCH_UNSUPPORTED, S(PASTE_TOOLKIT) | S(PASTE_GPU), 70, 0 },
	/*
	 * rules_toolkit.c check_newer_than_driver: the nvcc (or the toolkit version a template lists) against the
	 * driver. Beyond the driver's minor-version compatibility nothing built with the toolkit runs; within it only
	 * PTX newer than the driver fails (an info finding, taken at the lower confidence below)
	 */
	{ CAUSE_TOOLKIT_NEWER_THAN_DRIVER, S(PASTE_TOOLKIT) | S(PASTE_DRIVER), 90, 40 },
	/* rules_load.c check_memory: nvidia-smi's memory row and its Processes table (the GPU table) */
	{ CAUSE_GPU_MEMORY_BUSY, S(PASTE_GPU), 50, 0 },
};

/* The table's row for cause, or NULL: a cause never taken from a paste. */
static const struct cause_need *need_of(enum cause_id cause)
{
	for (size_t i = 0; i < sizeof(cause_needs) / sizeof(cause_needs[0]); i++)
		if (cause_needs[i].cause == cause)
			return &cause_needs[i];
	return NULL;
}

/* See paste.h. */
unsigned paste_cause_needs(enum cause_id cause)
{
	const struct cause_need *n = need_of(cause);

	return n ? n->needs : 0;
}

/* How surely the rule's finding over the paste's facts is the cause (the table above); 0 when never taken. */
static int paste_cause_confidence(const struct finding *f)
{
	const struct cause_need *n = need_of(f->cause);

	return !n ? 0 : f->severity == SEV_INFO ? n->info_confidence : n->confidence;
}

static int tier(int confidence)
{
	return confidence >= 60 ? 0 : confidence >= 30 ? 1 : 2;
}

/*
 * Whether a ranks before b, as explain_rank orders: guesses from what the text speaks of after whatever the
 * paste shows, build tools last, the confidence tier, then the causal chain.
 */
static bool ranks_before(const struct explain_cause *a, const struct explain_cause *b)
{
	if (a->guessed != b->guessed)
		return !a->guessed;
	if (explain_build_tool_only(a) != explain_build_tool_only(b))
		return !explain_build_tool_only(a);
	if (tier(a->confidence) != tier(b->confidence))
		return tier(a->confidence) < tier(b->confidence);
	return a->rank < b->rank;
}

/* Move causes[i] to where it ranks among the others, which keep their order. */
static void place(struct explain_report *r, size_t i)
{
	struct explain_cause c = r->causes[i];
	size_t to = 0;

	memmove(&r->causes[i], &r->causes[i + 1], (r->count - i - 1) * sizeof(c));
	while (to < r->count - 1 && !ranks_before(&c, &r->causes[to]))
		to++;
	memmove(&r->causes[to + 1], &r->causes[to], (r->count - 1 - to) * sizeof(c));
	r->causes[to] = c;
}

/* The facts the cause's rules read, as values: what the paste said. */
static void add_fact_values(struct explain_cause *c, const struct paste *p, unsigned needs)
{
	const struct facts *f = p->facts;
	const struct torch_install *t = f->python.ntorch > 0 ? &f->python.torches[0] : NULL;

	if ((needs & S(PASTE_TORCH)) && t) {
		explain_value_add(c->values, &c->nvalues, "torch", t->version);
		explain_value_add(c->values, &c->nvalues, "torch_cuda", t->cuda[0] ? t->cuda : "None");
	}
	if (needs & S(PASTE_DRIVER))
		explain_value_add(c->values, &c->nvalues, "driver", facts_driver_version(f));
	if ((needs & S(PASTE_GPU)) && f->pci.count > 0)
		explain_value_add(c->values, &c->nvalues, "gpu", f->pci.gpus[0].name);
}

/*
 * A step the planner wrote that holds on the paste's system too: on Windows and macOS only pip's own
 * commands (the planner writes Linux's: sudo, shell quoting, distribution packages).
 */
static bool step_fits(const struct fix_step *st, bool linux)
{
	return linux || (st->command && str_starts_with(st->command, "python -m pip "));
}

/*
 * The rule's fix (its steps and alternatives) in place of what c has: it was planned from the versions the
 * paste printed, where the catalog's steps are general ones (two plans mixed would contradict each other).
 * Off Linux only the pip steps of the fix are taken, no alternative. When nothing of the rule's fits, c keeps
 * its own.
 */
static void take_fix(struct explain_cause *c, const struct finding *f, bool linux)
{
	bool any = false;

	for (int i = 0; i < f->nfix && !any; i++)
		any = f->fix[i].alt == 0 && step_fits(&f->fix[i], linux);
	if (!any)
		return;
	for (int i = 0; i < c->nfix; i++) {
		free(c->fix[i].text);
		free(c->fix[i].text_local);
		free(c->fix[i].command);
	}
	for (int k = 0; k < c->nalt; k++) {
		free(c->alt_titles[k]);
		free(c->alt_titles_local[k]);
	}
	c->nfix = c->nalt = 0;
	for (int k = 0; linux && k < f->nalt; k++) {
		c->alt_titles_local[c->nalt] = f->alt_titles_local[k] ? str_dup(f->alt_titles_local[k]) : NULL;
		c->alt_titles[c->nalt++] = str_dup(f->alt_titles[k]);
	}
	for (int i = 0; i < f->nfix && c->nfix < FINDING_MAX_FIX; i++) {
		if (!step_fits(&f->fix[i], linux) || (f->fix[i].alt && !linux) || f->fix[i].alt > c->nalt)
			continue;
		c->fix[c->nfix].text = str_dup(f->fix[i].text);
		c->fix[c->nfix].text_local = f->fix[i].text_local ? str_dup(f->fix[i].text_local) : NULL;
		c->fix[c->nfix].command = f->fix[i].command ? str_dup(f->fix[i].command) : NULL;
		c->fix[c->nfix++].alt = f->fix[i].alt;
	}
}

static int by_position(const void *a, const void *b)
{
	const struct explain_line *x = a, *y = b;

	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* Whether lines[0..n) hold that line already (a sentence can state two facts: "toolkit 12.5 ... driver 550.90.07"). */
static bool line_listed(const struct explain_line *lines, int n, const struct paste_line *l)
{
	for (int i = 0; i < n; i++)
		if (lines[i].input == l->input && lines[i].number == l->number)
			return true;
	return false;
}

/* The report lines the rule's facts came from, each once, in the order of the text. */
static void add_lines(struct explain_cause *c, const struct paste *p, unsigned needs)
{
	for (int s = 0; s < PASTE_NSECTIONS && c->nlines < EXPLAIN_MAX_LINES; s++) {
		const struct paste_line *l = &p->first[s];

		if (!(needs & S(s)) || l->number == 0 || line_listed(c->lines, c->nlines, l))
			continue;
		c->lines[c->nlines].input = l->input;
		c->lines[c->nlines].number = l->number;
		str_copy(c->lines[c->nlines].text, sizeof(c->lines[0].text), l->text);
		c->nlines++;
		c->count++;
	}
	qsort(c->lines, (size_t)c->nlines, sizeof(c->lines[0]), by_position);
}

/* The rule's conclusion, then the report lines it read: "...; the pasted machine has 470.182.03 (line 21: ...)". */
static void paste_evidence(struct explain_cause *c, const struct paste *p, const struct finding *f, unsigned needs)
{
	size_t used = (size_t)snprintf(c->paste_evidence, sizeof(c->paste_evidence), "%s", f->title);
	struct explain_line at[PASTE_NSECTIONS];
	int n = 0;

	for (int s = 0; s < PASTE_NSECTIONS; s++) {
		if (!(needs & S(s)) || p->first[s].number == 0 || line_listed(at, n, &p->first[s]))
			continue;
		at[n].input = p->first[s].input;
		at[n].number = p->first[s].number;
		str_copy(at[n].text, sizeof(at[n].text), p->first[s].text);
		n++;
	}
	qsort(at, (size_t)n, sizeof(at[0]), by_position);
	for (int i = 0; i < n && used < sizeof(c->paste_evidence); i++)
		used += (size_t)snprintf(c->paste_evidence + used, sizeof(c->paste_evidence) - used, "%sline %lu: %.60s%s",
					 i ? "; " : " (", at[i].number, at[i].text, i == n - 1 ? ")" : "");
	c->paste_evidence_local[0] = '\0';
	if (!i18n_active())
		return;
	used = (size_t)snprintf(c->paste_evidence_local, sizeof(c->paste_evidence_local), "%s",
				finding_text(f->title, f->title_local));
	for (int i = 0; i < n && used < sizeof(c->paste_evidence_local); i++)
		used += (size_t)snprintf(c->paste_evidence_local + used, sizeof(c->paste_evidence_local) - used,
					 _("%sline %lu: %.60s%s"), i ? _("; ") : _(" ("), at[i].number, at[i].text,
					 i == n - 1 ? _(")") : "");
}

static int merge_finding(struct explain_report *r, const struct paste *p, const struct finding *f, unsigned needs)
{
	struct explain_cause *c = NULL;
	size_t i;

	for (i = 0; i < r->count && !c; i++)
		if (r->causes[i].cause == f->cause)
			c = &r->causes[i];
	if (c) {
		i--;
		c->from = EXPLAIN_FROM_BOTH;
		if (c->suggested) {
			/* a cause the differential only offered, now shown: the rule's words replace the guess */
			c->suggested = false;
			c->guessed = false;
			c->prior = 0;
			free(c->detail);
			free(c->detail_local);
			c->detail = f->detail ? str_dup(f->detail) : NULL;
			c->detail_local = f->detail_local ? str_dup(f->detail_local) : NULL;
			free(c->title);
			free(c->title_local);
			c->title = str_dup(f->title);
			c->title_local = f->title_local ? str_dup(f->title_local) : NULL;
		}
	} else {
		struct explain_cause *grown = realloc(r->causes, (r->count + 1) * sizeof(*grown));

		if (!grown)
			return -1;
		r->causes = grown;
		i = r->count++;
		c = &r->causes[i];
		memset(c, 0, sizeof(*c));
		c->cause = f->cause;
		c->signature = "paste.facts";
		c->source = "docs/causes.md: the doctor's rule over the facts the paste shows";
		c->rank = cause_get(f->cause)->rank;
		c->title = str_dup(f->title);
		c->detail = f->detail ? str_dup(f->detail) : NULL;
		c->title_local = f->title_local ? str_dup(f->title_local) : NULL;
		c->detail_local = f->detail_local ? str_dup(f->detail_local) : NULL;
		c->from = EXPLAIN_FROM_FACTS;
		add_lines(c, p, needs);
	}
	/* the rule's own conclusion from what the paste printed; a message that named the cause more surely keeps that */
	if (paste_cause_confidence(f) > c->confidence || c->from == EXPLAIN_FROM_FACTS)
		c->confidence = paste_cause_confidence(f);
	paste_evidence(c, p, f, needs);
	add_fact_values(c, p, needs);
	take_fix(c, f, !paste_not_linux(p));
	place(r, i);
	return 0;
}

/*
 * fmt with ap into en (English), and while a translation is active the catalog's fmt with the same arguments
 * into local ("" otherwise): the evidence a settled or ruled-out cause carries.
 */
static void format_both(char *en, size_t ensz, char *local, size_t localsz, const char *fmt, va_list ap)
{
	va_list again;
	char *l;

	va_copy(again, ap);
	vsnprintf(en, ensz, fmt, ap);
	l = i18n_local_vdupf(en, fmt, again);
	va_end(again);
	str_copy(local, localsz, l ? l : "");
	free(l);
}

/*
 * r->causes[i], a cause the differential only offered, leaves the report: a fact the paste showed rules it
 * out, and fmt says which (in English, and while a translation is active in the catalog's words too).
 */
static void rule_out(struct explain_report *r, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void rule_out(struct explain_report *r, size_t i, const char *fmt, ...)
{
	struct explain_ruled_out *o;
	va_list ap;

	if (r->nruled_out < EXPLAIN_MAX_RULED_OUT) {
		o = &r->ruled_out[r->nruled_out++];
		o->cause = r->causes[i].cause;
		va_start(ap, fmt);
		format_both(o->by, sizeof(o->by), o->by_local, sizeof(o->by_local), fmt, ap);
		va_end(ap);
	}
	explain_cause_release(&r->causes[i]);
	memmove(&r->causes[i], &r->causes[i + 1], (r->count - i - 1) * sizeof(r->causes[0]));
	r->count--;
}

/* The torch the paste showed, when it showed which build it is; NULL otherwise. */
static const struct torch_install *torch_shown(const struct paste *p)
{
	const struct python_facts *py = &p->facts->python;

	if (!paste_saw(p, PASTE_TORCH) || !p->torch_cuda_known || py->ntorch < 1)
		return NULL;
	return &py->torches[0];
}

/*
 * What torch.cuda.is_available() True rules out: a build, driver or machine that cannot run CUDA at all.
 * What stays is what differs between that check and the failing program: CUDA_VISIBLE_DEVICES, another
 * interpreter, a container.
 */
static bool cuda_works_rules_out(enum cause_id cause)
{
	return cause == CAUSE_TORCH_CPU_ONLY || cause == CAUSE_TORCH_ROCM_BUILD || cause == CAUSE_TORCH_DRIVER_TOO_OLD ||
	       cause == CAUSE_DRIVER_NOT_INSTALLED || cause == CAUSE_DRIVER_NOT_LOADED || cause == CAUSE_GPU_NONE;
}

/*
 * The differential offers the usual causes of what was seen; some the paste's own facts contradict. A torch
 * built with CUDA is no CPU-only or ROCm build; a driver nvidia-smi (or collect_env, or /proc) reported is
 * installed and loaded; an NVIDIA GPU in nvidia-smi's table or lspci is a GPU; a driver at least as new as
 * the torch build's CUDA needs (data/torch_variants.tsv) is not too old for it; torch.cuda.is_available()
 * printed True (the last time the paste printed it) rules out all of those. Only causes no message names
 * leave (a message is a stronger witness than a fact of another moment), and each leaves with its fact.
 */
static void rule_out_contradicted(struct explain_report *r, const struct paste *p)
{
	const struct torch_install *t = torch_shown(p);
	const struct runtime_facts *rt = &p->facts->runtime;
	const struct pci_facts *pci = &p->facts->pci;
	struct kb_torch_variant v = { 0 };
	struct kb_answer need;

	for (size_t i = 0; i < r->count;) {
		const struct explain_cause *c = &r->causes[i];
		unsigned long line;

		if (!c->suggested || c->from != EXPLAIN_FROM_SIGNATURE) {
			i++;
			continue;
		}
		if (p->cuda_available == 1 && cuda_works_rules_out(c->cause)) {
			rule_out(r, i, N_("line %lu shows torch.cuda.is_available() True"), p->cuda_available_line);
			continue;
		}
		switch (c->cause) {
		case CAUSE_TORCH_CPU_ONLY:
		case CAUSE_TORCH_ROCM_BUILD:
			if (t && t->cuda[0] && !t->hip[0]) {
				rule_out(r, i, N_("line %lu shows torch %s, built with CUDA %s"),
					 p->first[PASTE_TORCH].number, t->version, t->cuda);
				continue;
			}
			break;
		case CAUSE_DRIVER_NOT_INSTALLED:
		case CAUSE_DRIVER_NOT_LOADED:
			if (paste_saw(p, PASTE_DRIVER) && rt->nvml_driver_version[0]) {
				rule_out(r, i, N_("line %lu shows NVIDIA driver %s answering"),
					 p->first[PASTE_DRIVER].number, rt->nvml_driver_version);
				continue;
			}
			break;
		case CAUSE_GPU_NONE:
			if (paste_saw(p, PASTE_GPU) && pci->count > 0) {
				line = p->first[PASTE_GPU].number;
				rule_out(r, i, N_("line %lu shows an NVIDIA GPU, %s"), line,
					 pci->gpus[0].kb_name[0] ? pci->gpus[0].kb_name :
					 pci->gpus[0].name[0] ? pci->gpus[0].name : "NVIDIA");
				continue;
			}
			break;
		case CAUSE_TORCH_DRIVER_TOO_OLD:
			v.cuda = t ? t->cuda : NULL;
			if (t && t->cuda[0] && paste_saw(p, PASTE_DRIVER) && rt->nvml_driver_version[0] &&
			    kb_torch_variant_min_driver(&v, &need) == 0 &&
			    version_compare(rt->nvml_driver_version, need.value) >= 0) {
				rule_out(r, i, N_("the pasted driver %s is new enough for torch %s: CUDA %s needs %s"),
					 rt->nvml_driver_version, t->version, t->cuda, need.value);
				continue;
			}
			break;
		default:
			break;
		}
		i++;
	}
}

/*
 * When the paste's facts settle the top cause, the causes the differential only offered for what was seen
 * (a symptom's usual causes) drop away; the top cause counts them, so the report can say what settled it.
 */
static void drop_settled_alternatives(struct explain_report *r)
{
	size_t kept = 1;

	if (r->count == 0 || r->causes[0].from == EXPLAIN_FROM_SIGNATURE || r->causes[0].confidence < 100)
		return;
	for (size_t i = 1; i < r->count; i++) {
		struct explain_cause *c = &r->causes[i];

		if (c->suggested && c->from == EXPLAIN_FROM_SIGNATURE) {
			explain_cause_release(c);
			r->causes[0].settled++;
			continue;
		}
		r->causes[kept++] = *c;
	}
	r->count = kept;
}

/*
 * A prediction from versions that torch itself contradicted: where the paste shows
 * torch.cuda.is_available() True, torch is neither a CPU or ROCm build nor refused by the driver
 * (a forward-compatibility package, say, let an older driver run it).
 */
static bool contradicted(const struct paste *p, enum cause_id cause)
{
	return p->cuda_available == 1 &&
	       (cause == CAUSE_TORCH_CPU_ONLY || cause == CAUSE_TORCH_ROCM_BUILD || cause == CAUSE_TORCH_DRIVER_TOO_OLD);
}

/*
 * What the platform the paste shows explains first. Under WSL the CUDA driver is the Windows driver's,
 * reached through /usr/lib/wsl/lib: a missing libcuda, no driver, no device, a device busy or unavailable,
 * a failed cuInit and a cuDNN sub-library that cannot load (it opens libcuda.so, which only the Windows
 * driver's folder provides) are WSL's driver set-up before anything else (NVIDIA's CUDA on WSL user guide:
 * no Linux driver inside WSL, libcuda from the Windows driver).
 */
static const enum cause_id wsl_explains[] = {
	CAUSE_CUDA_LIB_MISSING, CAUSE_DRIVER_NOT_INSTALLED, CAUSE_DRIVER_NOT_LOADED, CAUSE_GPU_NONE,
	CAUSE_GPU_MIG_OR_COMPUTE_MODE, CAUSE_CUDA_INIT_FAILED, CAUSE_CONTAINER_NO_GPU, CAUSE_CUDNN_MISSING,
};

/* Where the text already offers cause after the first, or r->count when it does not. */
static size_t offered_at(const struct explain_report *r, enum cause_id cause)
{
	size_t i;

	for (i = 1; i < r->count && r->causes[i].cause != cause; i++)
		;
	return i;
}

/*
 * Where the text offered cause, when the first cause is one of the n in explained (what a platform explains
 * first); r->count otherwise.
 */
static size_t offered_for(const struct explain_report *r, const enum cause_id *explained, size_t n,
			  enum cause_id cause)
{
	for (size_t k = 0; k < n && r->count >= 2; k++)
		if (r->causes[0].cause == explained[k])
			return offered_at(r, cause);
	return r->count;
}

/* fmt with ap as c's evidence from the paste (and, while a translation is active, the catalog's fmt too). */
static void vevidence(struct explain_cause *c, const char *fmt, va_list ap)
{
	format_both(c->paste_evidence, sizeof(c->paste_evidence), c->paste_evidence_local,
		    sizeof(c->paste_evidence_local), fmt, ap);
}

static void evidence(struct explain_cause *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void evidence(struct explain_cause *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vevidence(c, fmt, ap);
	va_end(ap);
}

/*
 * r->causes[i] settled by what the paste shows: moved first, at the first cause's confidence at least, from
 * both the text and the paste, with fmt as its evidence.
 */
static void settle_first(struct explain_report *r, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void settle_first(struct explain_report *r, size_t i, const char *fmt, ...)
{
	struct explain_cause settled = r->causes[i];
	va_list ap;

	if (settled.confidence < r->causes[0].confidence)
		settled.confidence = r->causes[0].confidence;
	settled.suggested = false;
	settled.guessed = false;
	settled.from = EXPLAIN_FROM_BOTH;
	va_start(ap, fmt);
	vevidence(&settled, fmt, ap);
	va_end(ap);
	memmove(&r->causes[1], &r->causes[0], i * sizeof(settled));
	r->causes[0] = settled;
}

/*
 * When the paste shows WSL (a kernel release, or the text naming it) and the first cause is one WSL
 * explains, wsl.driver, where the text already offered it, moves first at the same confidence; its
 * evidence says which line showed WSL.
 */
static void settle_by_platform(struct explain_report *r, const struct paste *p)
{
	const struct container_facts *c = &p->facts->container;
	size_t i;

	if (!c->wsl || (i = offered_for(r, wsl_explains, sizeof(wsl_explains) / sizeof(wsl_explains[0]),
					CAUSE_WSL_DRIVER)) == r->count)
		return;
	/* first, not where its place in the chain would put it: the Windows driver comes before the kernel
	 * driver, the device and cuInit that the other causes name */
	settle_first(r, i, N_("under WSL%s the CUDA driver is the Windows driver's, so %s starts there: %s"),
		     c->wsl_version == 2 ? " 2" : "", cause_name(r->causes[0].cause), c->wsl_evidence);
}

/*
 * A container started without GPUs has no driver libraries, no device nodes and no nvidia-smi in it: what
 * a missing driver or no GPU looks like from inside (NVIDIA Container Toolkit: GPUs are given with --gpus
 * or the NVIDIA runtime). When the paste shows a container (a prompt with a container id as the host, a
 * run line without a GPU flag, or prose naming docker or a container), shows no run line that asked for
 * GPUs, and the first cause is one of those two, container.no-gpu, where the text already offered it,
 * moves first at the same confidence; its evidence says what showed the container (where the differential
 * already put it first, the evidence is added in place). The first run line decides: a later one with a GPU
 * flag is the fix being tried (or that worked), not what failed. A driver that cannot be reached (nvidia-smi's "couldn't communicate", the host's nvidia-smi mounted in by hand) counts too,
 * but only where a prompt or a run line shows the container.
 */
static void settle_by_container(struct explain_report *r, const struct paste *p)
{
	const struct container_facts *c = &p->facts->container;
	char shown[240];
	bool already = r->count > 0 && r->causes[0].cause == CAUSE_CONTAINER_NO_GPU && r->causes[0].suggested;
	size_t i;

	/* GPUs asked for from the start: a container without them is not what failed */
	if ((r->count < 2 && !already) || p->first_run_gpus == 1)
		return;
	/* a guess from the word "container" is not confirmed by the same word: only a prompt or a run line is */
	if (already && r->causes[0].guessed && !c->in_container && p->first_run_gpus != 0)
		return;
	/* a kernel module not loaded is a host's fault more often than not: only a container the paste shows
	 * for certain (its prompt, its run line) explains it */
	if (!already && (r->causes[0].cause == CAUSE_DRIVER_NOT_LOADED ? !c->in_container && p->first_run_gpus != 0 :
			 r->causes[0].cause != CAUSE_DRIVER_NOT_INSTALLED && r->causes[0].cause != CAUSE_GPU_NONE))
		return;
	if (c->in_container)
		str_copy(shown, sizeof(shown), c->evidence);
	else if (p->first_run_gpus == 0)
		str_printf(shown, sizeof(shown), "%s", p->first_run_line);
	else if (p->container_named[0])
		str_copy(shown, sizeof(shown), p->container_named);
	else
		return;
	if (already) {	/* the differential put it first: the container the paste shows confirms it */
		settle_first(r, 0, N_("a container started without GPUs has no NVIDIA driver, device or nvidia-smi in "
				      "it: %s"), shown);
		return;
	}
	i = offered_at(r, CAUSE_CONTAINER_NO_GPU);
	if (i == r->count)
		return;
	settle_first(r, i, N_("a container started without GPUs has no NVIDIA driver, device or nvidia-smi in it, "
			      "so %s starts there: %s"), cause_name(r->causes[0].cause), shown);
}

/*
 * A hosted notebook (Google Colab, Kaggle) installs the NVIDIA driver in every runtime and attaches a GPU
 * only when the notebook's settings ask for one: there a missing driver, no device, no libcuda or no GPU
 * visible means the runtime has no GPU. When the text shows such a notebook and the first cause is one of
 * those, gpu.none, where the text already offered it, moves first; its evidence names the setting.
 */
static const enum cause_id notebook_explains[] = {
	CAUSE_DRIVER_NOT_INSTALLED, CAUSE_CONTAINER_NO_GPU, CAUSE_CUDA_LIB_MISSING, CAUSE_ENV_VISIBLE_DEVICES,
	CAUSE_CUDA_INIT_FAILED,
};

static void settle_by_notebook(struct explain_report *r, const struct paste *p)
{
	size_t i;

	if (!p->notebook_named[0] ||
	    (i = offered_for(r, notebook_explains, sizeof(notebook_explains) / sizeof(notebook_explains[0]),
			     CAUSE_GPU_NONE)) == r->count)
		return;
	settle_first(r, i, N_("a hosted notebook always has the NVIDIA driver and has a GPU only when its runtime "
			      "asks for one (Colab: Runtime > Change runtime type; Kaggle: Settings > Accelerator), "
			      "so %s starts there: %s"), cause_name(r->causes[0].cause), p->notebook_named);
}

/*
 * The torch build the paste shows settles what the differential could only suggest: torch.version.cuda None
 * (or a +cpu tag) is a CPU-only build, a ROCm version a ROCm build, whatever GPU the machine has. Where the
 * text offered that cause, it moves first with the fact. (The rule itself concludes them only with a GPU
 * shown too, to tell the build from a machine without one.) The build decides it: sure, and the other
 * usual causes of the symptom drop away.
 */
static void settle_by_build(struct explain_report *r, const struct paste *p)
{
	const struct torch_install *t = torch_shown(p);
	enum cause_id cause;
	size_t i;

	if (!t || t->cuda[0] || r->count == 0)
		return;
	cause = t->hip[0] ? CAUSE_TORCH_ROCM_BUILD : CAUSE_TORCH_CPU_ONLY;
	if (!r->causes[0].suggested)
		return;	/* a message names a cause: the build is beside the point */
	if ((i = r->causes[0].cause == cause ? 0 : offered_at(r, cause)) == r->count)
		return;
	if (t->hip[0])
		settle_first(r, i, N_("line %lu shows torch %s, a ROCm %s build: it has no CUDA"),
			     p->first[PASTE_TORCH].number, t->version, t->hip);
	else
		settle_first(r, i, N_("line %lu shows torch %s without CUDA (torch.version.cuda is None)"),
			     p->first[PASTE_TORCH].number, t->version);
	r->causes[0].confidence = 100;	/* the build decides it, as the rule's versions would */
}

/*
 * "No module named torch" where the text shows torch installed (pip list, a pip or conda install line, "in
 * python3 import torch is fine"): torch is there, for another interpreter. Where the text offered that cause,
 * it moves first with the line that showed the install.
 */
static void settle_by_install(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id not_found[] = { CAUSE_TORCH_NOT_INSTALLED };
	const struct python_facts *py = &p->facts->python;
	char shown[96];
	size_t i;

	if (py->ntorch > 0 && py->torches[0].version[0] && p->first[PASTE_TORCH].number)
		str_printf(shown, sizeof(shown), "line %lu shows torch %s", p->first[PASTE_TORCH].number,
			   py->torches[0].version);
	else if (py->ntorch > 0 && py->torches[0].version[0])
		str_printf(shown, sizeof(shown), "the text shows torch %s", py->torches[0].version);
	else if (p->torch_install_named[0])
		str_copy(shown, sizeof(shown), p->torch_install_named);
	else
		return;
	if ((i = offered_for(r, not_found, 1, CAUSE_TORCH_WRONG_INTERPRETER)) == r->count)
		return;
	settle_first(r, i, N_("torch is installed (%s), yet the program cannot import it: another interpreter runs it"),
		     shown);
}

/*
 * "No module named torch" from a program run with sudo: sudo gives it root's PATH (sudoers' secure_path) and
 * home, so it runs the system's python, not the venv's, conda's or the one with torch in ~/.local. Where
 * the text offered another interpreter, that moves first with the line that ran sudo.
 */
static void settle_by_sudo(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id not_found[] = { CAUSE_TORCH_NOT_INSTALLED };
	size_t i;

	if (!p->sudo_python_named[0] ||
	    (i = offered_for(r, not_found, 1, CAUSE_TORCH_WRONG_INTERPRETER)) == r->count)
		return;
	settle_first(r, i, N_("%s: sudo runs root's environment (its own PATH and home), so another Python runs "
			      "than the one torch was installed into"), p->sudo_python_named);
	if (r->causes[0].nfix == 0) {
		static const char see[] = N_("see which Python you run and which one sudo runs: two different paths "
					     "mean sudo's has no torch"),
				  run[] = N_("run the program as your own user, without sudo; where it needs root, give "
					     "sudo your interpreter by its full path: sudo \"$(command -v python3)\" and the "
					     "same arguments");

		explain_add_fix(&r->causes[0], 0, see, i18n_active() ? _(see) : NULL,
				"command -v python3; sudo sh -c 'command -v python3'");
		explain_add_fix(&r->causes[0], 0, run, i18n_active() ? _(run) : NULL, NULL);
	}
}

/*
 * A cuDNN that is not the one torch was built with, where the text prints LD_LIBRARY_PATH with a cuDNN
 * directory in it: the loader searches LD_LIBRARY_PATH before a wheel's RUNPATH, so that directory's cuDNN
 * is the one loaded (pytorch/pytorch#80637). Where the text offered shadowing, it moves first with the line.
 */
static void settle_by_ld_path(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id mismatch[] = { CAUSE_CUDNN_MISMATCH };
	size_t i;

	if (!p->cudnn_ld_path_named[0] ||
	    (i = offered_for(r, mismatch, 1, CAUSE_ENV_LIBRARY_SHADOWING)) == r->count)
		return;
	settle_first(r, i, N_("%s: the loader takes cuDNN from there before the one torch ships"),
		     p->cudnn_ld_path_named);
}

/*
 * nouveau blacklisted in the text, and the text still reads as no NVIDIA driver (nouveau bound to the GPU,
 * negativo17/nvidia-driver#73): the blacklist is the NVIDIA driver's install step, so the driver is there and
 * nouveau still loads first, from an initramfs built before the blacklist. driver.not-loaded moves first.
 */
static void settle_by_nouveau_blacklist(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id not_installed[] = { CAUSE_DRIVER_NOT_INSTALLED };
	size_t i;

	if (!p->nouveau_blacklist_named[0] ||
	    (i = offered_for(r, not_installed, 1, CAUSE_DRIVER_NOT_LOADED)) == r->count)
		return;
	settle_first(r, i, N_("%s: that is the NVIDIA driver's install step, so nouveau still loads before the installed "
			      "driver (an initramfs built before the blacklist keeps it)"),
		     p->nouveau_blacklist_named);
}

/*
 * A stubs directory on the LD_LIBRARY_PATH the text prints, where the text offered cuda.stub-library: the loader
 * finds the toolkit's link-time libcuda.so there before the driver's, and CUDA calls fail as if no driver were
 * installed (tensorflow/tensorflow#36974, where removing the entry fixed it). It moves first.
 */
static void settle_by_stubs_path(struct explain_report *r, const struct paste *p)
{
	size_t i;

	if (!p->stubs_ld_path_named[0] || (i = offered_at(r, CAUSE_CUDA_STUB_LIBRARY)) == r->count)
		return;
	settle_first(r, i, N_("%s: the loader finds the toolkit's stub libcuda.so there before the driver's"),
		     p->stubs_ld_path_named);
}

/*
 * No toolkit found where the text says a versioned one is installed ("I am sure cuda9.0 in my computer is
 * installed correctly"): the build missed a toolkit that is there, outside PATH and CUDA_HOME
 * (pytorch/extension-cpp#26, solved by setting CUDA_HOME). toolkit.nvcc-not-on-path, where the text offered
 * it, moves first with the line that said so. conda's cudatoolkit and the runtime images, settled after this,
 * hold no nvcc whatever is said.
 */
static void settle_by_toolkit_said(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id not_found[] = { CAUSE_TOOLKIT_NOT_INSTALLED };
	size_t i;

	if (!p->toolkit_installed[0] ||
	    (i = offered_for(r, not_found, 1, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH)) == r->count)
		return;
	settle_first(r, i, N_("line %lu says CUDA %s is installed: the build did not find a toolkit that is there"),
		     p->toolkit_installed_line, p->toolkit_installed);
}

/*
 * No nvcc where the text shows conda's cudatoolkit: that package holds CUDA's runtime libraries for the
 * programs conda installs, not the compiler (NVIDIA/apex#473, conda-forge/cudatoolkit-dev-feedstock#80), so
 * the environment has no toolkit to find. toolkit.not-installed, where the text offered it, moves first
 * (or keeps its place) with the line that showed the package, and the fix says which nvcc is needed.
 */
static void settle_by_conda_toolkit(struct explain_report *r, const struct paste *p)
{
	const struct python_facts *py = &p->facts->python;
	const char *version;
	char major_minor[16];
	size_t i;

	if (r->count == 0 || py->ntorch < 1 || !(version = py->torches[0].conda_cudatoolkit)[0])
		return;
	if (r->causes[0].cause == CAUSE_TOOLKIT_NOT_INSTALLED)
		i = 0;
	else if (r->causes[0].cause == CAUSE_TOOLKIT_NVCC_NOT_ON_PATH)
		i = offered_at(r, CAUSE_TOOLKIT_NOT_INSTALLED);
	else
		return;
	if (i == r->count)
		return;
	str_copy(major_minor, sizeof(major_minor), version);
	if (strchr(major_minor, '.') && strchr(strchr(major_minor, '.') + 1, '.'))
		*strchr(strchr(major_minor, '.') + 1, '.') = '\0';
	settle_first(r, i, N_("the text shows conda's cudatoolkit %s: it holds CUDA's runtime libraries, not nvcc"),
		     version);
	if (r->causes[0].nfix == 0) {
		char *text = str_dupf("install NVIDIA's CUDA %s toolkit, which has nvcc, and set CUDA_HOME to the "
				      "directory above its bin",
				      major_minor);
		char *local = i18n_active() ?
			str_dupf(_("install NVIDIA's CUDA %s toolkit, which has nvcc, and set CUDA_HOME to the directory "
				   "above its bin"),
				 major_minor) : NULL;

		if (text)
			explain_add_fix(&r->causes[0], 0, text, local, NULL);
		free(text);
		free(local);
	}
}

/*
 * No nvcc inside a container from an nvidia/cuda base or runtime image: those flavours hold no compiler (only
 * devel does), so there is no toolkit to put on PATH. toolkit.not-installed, where the text offered it, moves
 * first with the line that named the image, and the fix names the devel flavour of the same tag.
 */
static void settle_by_cuda_image(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id not_on_path[] = { CAUSE_TOOLKIT_NVCC_NOT_ON_PATH };
	size_t i;

	if (!p->cuda_image_named[0] ||
	    (i = offered_for(r, not_on_path, 1, CAUSE_TOOLKIT_NOT_INSTALLED)) == r->count)
		return;
	settle_first(r, i, N_("%s: only the devel images have the CUDA compiler"), p->cuda_image_named);
	if (r->causes[0].nfix == 0) {
		/* no tag is printed: tags are deleted six months after their release's end of life */
		static const char use[] = N_("build on the devel flavour of the image (the same tag with devel in place of "
					     "runtime or base, where NVIDIA still publishes it), or install the CUDA "
					     "toolkit's compiler in the image");

		explain_add_fix(&r->causes[0], 0, use, i18n_active() ? _(use) : NULL, NULL);
	}
}

/*
 * No GPU found where the text sets CUDA_VISIBLE_DEVICES to a value that can hide them all (-1, empty, not an
 * index, or indices without GPU 0): CUDA enumerates only the devices the variable lists. Where the text
 * offered env.visible-devices, it moves first with the line that set it; so it does before a CPU build of
 * torch that only the symptom offered.
 */
static void settle_by_visible_devices(struct explain_report *r, const struct paste *p)
{
	static const enum cause_id no_gpu[] = { CAUSE_CUDA_INIT_FAILED, CAUSE_GPU_NONE, CAUSE_TORCH_CUDA_UNAVAILABLE };
	size_t i;

	if (!p->visible_devices_named[0] || r->count < 2)
		return;
	/* a CPU build only offered by the symptom ("is_available() returned FALSE"), not shown by the text */
	if (r->causes[0].cause == CAUSE_TORCH_CPU_ONLY && r->causes[0].suggested)
		i = offered_at(r, CAUSE_ENV_VISIBLE_DEVICES);
	else
		i = offered_for(r, no_gpu, sizeof(no_gpu) / sizeof(no_gpu[0]), CAUSE_ENV_VISIBLE_DEVICES);
	if (i == r->count)
		return;
	settle_first(r, i, N_("%s: CUDA sees only the GPUs that variable lists, and this value can list none"),
		     p->visible_devices_named);
}

/*
 * A package list and the import disagreeing on torch's version (the scanner turned it into a hit of the row
 * that reads two installs): the cause keeps its place, as the text ranked it, and says which lines disagree.
 */
static void show_torch_versions(struct explain_report *r, const struct paste *p)
{
	size_t i;

	if (!p->torch_versions_differ_named[0])
		return;
	for (i = 0; i < r->count && r->causes[i].cause != CAUSE_TORCH_MULTIPLE_INSTALLS; i++)
		;
	if (i == r->count || r->causes[i].paste_evidence[0])
		return;
	r->causes[i].from = EXPLAIN_FROM_BOTH;
	evidence(&r->causes[i], N_("%s: the import finds another copy than the list shows"),
		 p->torch_versions_differ_named);
}

/* What the text around the error shows, beside the reports it holds: the settlements that read it. */
static void settle_by_context(struct explain_report *r, const struct paste *p)
{
	settle_by_container(r, p);
	settle_by_notebook(r, p);
	settle_by_sudo(r, p);
	settle_by_ld_path(r, p);
	settle_by_stubs_path(r, p);
	settle_by_nouveau_blacklist(r, p);
	settle_by_toolkit_said(r, p);
	settle_by_conda_toolkit(r, p);
	settle_by_cuda_image(r, p);
	settle_by_visible_devices(r, p);
	settle_by_install(r, p);
	show_torch_versions(r, p);
}

/* See explain/paste_merge.h. */
int explain_merge_paste(struct explain_scanner *s, struct explain_report *r)
{
	struct diagnosis d;
	int rc = 0;

	paste_finish(s->paste);
	r->paste = s->paste;
	if (!paste_saw_any(s->paste)) {
		rule_out_contradicted(r, s->paste);	/* is_available() printed alone marks no section either */
		settle_by_context(r, s->paste);	/* prose and commands mark no report section */
		return 0;
	}
	rules_run(s->paste->facts, &d);
	for (size_t i = 0; i < d.findings.count && rc == 0; i++) {
		const struct finding *f = &d.findings.items[i];
		unsigned needs = paste_cause_needs(f->cause);

		/* a cause the table does not list has confidence 0 (and needs nothing) */
		if (paste_cause_confidence(f) == 0 || (needs & ~s->paste->seen) || contradicted(s->paste, f->cause))
			continue;
		rc = merge_finding(r, s->paste, f, needs);
	}
	diagnosis_release(&d);
	if (rc == 0) {
		rule_out_contradicted(r, s->paste);
		settle_by_build(r, s->paste);
		settle_by_platform(r, s->paste);
		settle_by_context(r, s->paste);
		drop_settled_alternatives(r);
	}
	return rc;
}

/* See explain/paste_merge.h. Only for a cause a paste can show, and only what it did not show of it. */
bool explain_paste_missing(const struct explain_report *r, const struct explain_cause *c, bool local, char *out,
			   size_t outsz)
{
	unsigned needs = paste_cause_needs(c->cause);
	size_t used = 0;

	out[0] = '\0';
	if (!r->paste || needs == 0 || c->from != EXPLAIN_FROM_SIGNATURE)
		return false;
	for (int s = 0; s < PASTE_NSECTIONS; s++)
		if ((needs & S(s)) && !paste_saw(r->paste, (enum paste_section)s))
			used += (size_t)snprintf(out + used, used < outsz ? outsz - used : 0, "%s%s",
						 !used ? "" : local ? _(", ") : ", ",
						 local ? i18n_text(paste_section_what((enum paste_section)s))
						       : paste_section_what((enum paste_section)s));
	return out[0] != '\0';
}
