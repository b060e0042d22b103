/*
 * judge.c - what a test or bench run means: which GPU passed, which failed
 * and why, and each measurement against the GPU's peak (datasheet from
 * data/gpu_peaks.tsv, else computed from its SMs, clocks and bus width).
 */
#include "compute/judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "util/i18n.h"
#include "util/str.h"

/* CUDA says "0000:3B:00.0", sysfs "0000:3b:00.0", NVML "00000000:3B:00.0": compare the last 12 characters. */
static bool same_bus(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la >= 12 && lb >= 12 && strcasecmp(a + la - 12, b + lb - 12) == 0;
}

static double number(const char *s)
{
	double v;

	return s && str_to_decimal(s, &v) == 0 ? v : 0;
}

static int fp32_per_clock(int major, int minor)
{
	const struct kb_table *t = &kb_table_sm_throughput;
	char cc[16];

	str_printf(cc, sizeof(cc), "%d.%d", major, minor);
	for (size_t r = 0; r < t->nrows; r++)
		if (strcmp(kb_field(t, r, "cc"), cc) == 0)
			return atoi(kb_field(t, r, "fp32_per_clock"));
	return 0;
}

/*
 * See judge.h. f may be NULL (peaks are then computed); out->source is static. A peak the clocks cannot
 * give stays 0 (unknown).
 */
void compute_peaks(const struct compute_gpu *g, const struct facts *f, struct gpu_peaks *out)
{
	struct kb_gpu_peaks p;
	int per_clock;

	memset(out, 0, sizeof(*out));
	for (int i = 0; f && i < f->pci.count; i++) {
		if (!same_bus(f->pci.gpus[i].address, g->bus_id) || !f->pci.gpus[i].kb_name[0] ||
		    kb_gpu_peak_rates(f->pci.gpus[i].kb_name, &p) < 0)
			continue;
		out->fp32 = number(p.fp32_tflops);
		out->tf32 = number(p.tf32_tflops);
		out->fp16 = number(p.fp16_tflops);
		out->bf16 = number(p.bf16_tflops);
		out->mem_bw = number(p.mem_bw_gbs);
		out->source = p.source;
		str_copy(out->name, sizeof(out->name), f->pci.gpus[i].kb_name);
		return;
	}
	/* Not in the datasheet table: what the clocks allow. */
	per_clock = fp32_per_clock(g->cc_major, g->cc_minor);
	if (per_clock > 0 && g->sm_count > 0 && g->clock_khz > 0)
		out->fp32 = (double)g->sm_count * per_clock * 2.0 * g->clock_khz * 1e3 / 1e12;
	if (g->mem_clock_khz > 0 && g->bus_width > 0)
		out->mem_bw = g->mem_clock_khz * 1e3 * 2.0 * (g->bus_width / 8.0) / 1e9;	/* double data rate */
	out->computed = true;
	out->source = "computed from SMs x FP32 results/clock (data/sm_throughput.tsv) x 2 x clock, and memory clock x 2 x bus width";
}

static void identify(struct compute_view *v, const struct facts *f)
{
	const struct runtime_facts *rt = &f->runtime;

	for (int i = 0; i < rt->nvml_ndev; i++) {
		if (!same_bus(rt->nvml[i].bus_id, v->gpu->bus_id))
			continue;
		str_copy(v->uuid, sizeof(v->uuid), rt->nvml[i].uuid);
		v->ecc_before = rt->nvml[i].ecc_uncorrected;
		v->remap_pending_before = rt->nvml[i].remap_pending;
	}
}

static void after_run(struct compute_view *v, const struct facts *after)
{
	const struct runtime_facts *rt = after ? &after->runtime : NULL;

	for (int i = 0; rt && i < rt->nvml_ndev; i++) {
		if (!same_bus(rt->nvml[i].bus_id, v->gpu->bus_id))
			continue;
		v->ecc_after = rt->nvml[i].ecc_uncorrected;
		v->remap_pending_after = rt->nvml[i].remap_pending;
	}
}

/*
 * Write fmt (a msgid) with its arguments into en in English, and into local in the text reports' language:
 * the catalog's text, its %s arguments translated where the catalog has them (the N_-marked step names,
 * "the helper"); local is "" when no translation is active or it reads the same. The English copy goes to
 * JSON, which stays English; the text report shows local when it has one.
 */
static void say(char *en, size_t en_size, char *local, size_t local_size, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void say(char *en, size_t en_size, char *local, size_t local_size, const char *fmt, ...)
{
	va_list ap;
	char *l;

	va_start(ap, fmt);
	vsnprintf(en, en_size, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	l = i18n_local_vdupf(en, fmt, ap);
	va_end(ap);
	str_copy(local, local_size, l ? l : "");
	free(l);
}

static void judge_gpu(struct compute_view *v)
{
	const struct compute_gpu *g = v->gpu;
	char *en = v->verdict, *lo = v->verdict_local;
	size_t ns = sizeof(v->verdict), nl = sizeof(v->verdict_local);

	v->pass = false;
	if (g->failed_step[0]) {
		say(en, ns, lo, nl, N_("%s failed: %s%s%s"), g->failed_step, g->error_name, g->error_text[0] ? " - " : "",
		    g->error_text);
	} else if (g->pattern_mismatches) {
		say(en, ns, lo, nl, N_("wrong results: %lu of %lu words the kernel wrote are wrong (first at index %ld: "
		    "0x%08x, expected 0x%08x)"), g->pattern_mismatches, g->pattern_words, g->first_bad, g->got, g->want);
	} else if (g->copy_mismatches) {
		say(en, ns, lo, nl, N_("corrupted copies: %lu of %lu words came back different"), g->copy_mismatches,
		    g->copy_words);
	} else if (g->gemm_wrong || g->gemm_unstable) {
		say(en, ns, lo, nl, N_("matrix products: %d of %d differ from the exact result, %d from the first run"),
		    g->gemm_wrong, g->gemm_runs, g->gemm_unstable);
	} else if (v->ecc_before >= 0 && v->ecc_after > v->ecc_before) {
		say(en, ns, lo, nl, N_("uncorrectable ECC errors rose from %lld to %lld during the run"), v->ecc_before,
		    v->ecc_after);
	} else if (v->remap_pending_after > 0 && v->remap_pending_before <= 0) {
		say(en, ns, lo, nl, "%s", N_("a memory row remapping became pending during the run"));
	} else {
		v->pass = true;
		say(en, ns, lo, nl, N_("computes correctly: %lu pattern words, %lu copied words and %d matrix products "
		    "(%dx%d) exact"), g->pattern_words, g->copy_words, g->gemm_runs, g->gemm_n, g->gemm_n);
	}
}

/* The run's failure: why it stopped, or why the driver never ran. */
static void judge_run(struct compute_report *out, const struct compute_run *run, const struct isolate_outcome *how)
{
	char *en = out->failure, *lo = out->failure_local;
	size_t ns = sizeof(out->failure), nl = sizeof(out->failure_local);
	const char *call = run->last_call[0] ? run->last_call : N_("the helper");

	if (how->hung)
		say(en, ns, lo, nl, N_("%s did not return within %g s (--timeout, the deadline of one driver call): the "
		    "driver or a GPU hangs"), call, run->call_s);
	else if (how->over_budget)
		say(en, ns, lo, nl, N_("the run did not finish within its budget of %g s (--max-time); every driver call "
		    "returned in time, so the GPU is slow or the budget short, not hung"), run->total_s);
	else if (how->crashed)
		say(en, ns, lo, nl, N_("%s crashed the helper (signal %d)"), call, how->signal);
	else if (!run->loaded)
		say(en, ns, lo, nl, N_("cannot load the CUDA driver: %s"), run->load_error);
	else if (run->init != 0)
		say(en, ns, lo, nl, N_("cuInit failed: %s (%d)"), run->init_name[0] ? run->init_name : "error", run->init);
	else if (run->ngpus == 0)
		say(en, ns, lo, nl, "%s", N_("CUDA sees no GPU"));
	if (how->stuck) {
		char sen[240], slo[480];
		size_t n = strlen(en), m;

		say(sen, sizeof(sen), slo, sizeof(slo), N_("the helper (pid %d) did not exit when killed (state %c): it is "
		    "stuck in the kernel, in the driver"), how->pid, how->state);
		if (slo[0] && n && !lo[0])
			str_copy(lo, nl, en);	/* the first part read the same in either language */
		m = strlen(lo);
		str_printf(en + n, ns - n, "%s%s", n ? "; " : "", sen);
		if (slo[0])
			str_printf(lo + m, nl - m, "%s%s", m ? _("; ") : "", slo);
	}
}

/*
 * See judge.h. out is zeroed, then borrows run (out->run and each view's gpu point into it), so run must
 * outlive out. before may be NULL too. Pure: prints nothing, reads nothing.
 */
void compute_judge(const struct compute_run *run, const struct isolate_outcome *how, const struct facts *before,
		   const struct facts *after, struct compute_report *out)
{
	memset(out, 0, sizeof(*out));
	out->run = run;
	out->how = *how;
	out->pass = true;
	judge_run(out, run, how);
	if (out->failure[0])
		out->pass = false;
	for (int i = 0; i < run->ngpus; i++) {
		struct compute_view *v = &out->views[out->n++];

		v->gpu = &run->gpus[i];
		v->ecc_before = v->ecc_after = -1;
		v->remap_pending_before = v->remap_pending_after = -1;
		if (before)
			identify(v, before);
		after_run(v, after);
		compute_peaks(v->gpu, before, &v->peaks);
		judge_gpu(v);
		/* a helper killed part-way through a GPU leaves it unjudged, not passed */
		if ((how->hung || how->over_budget || how->crashed) && v->pass) {
			v->pass = false;
			say(v->verdict, sizeof(v->verdict), v->verdict_local, sizeof(v->verdict_local), "%s",
			    N_("not finished: the helper stopped"));
		}
		if (!v->pass)
			out->pass = false;
	}
}
