/*
 * watch_text.c - a watcher's sample as plain lines, for a pipe or a log:
 * one line per GPU with its numbers, then what changed in the findings.
 * A value the GPU does not report is "-".
 */
#include <string.h>
#include <time.h>

#include "cause/cause.h"
#include "report/report_watch.h"
#include "report/textfmt.h"
#include "util/i18n.h"
#include "util/str.h"

/* See report_watch.h. */
const char *report_live_state_name(enum live_state state)
{
	static const char *const names[] = { "ok", "no-library", "init-failed", "hung", "crashed", "stuck" };

	return (unsigned)state < sizeof(names) / sizeof(names[0]) ? names[state] : "unknown";
}

/* "%d" with a unit, or "-" */
static const char *num(char *buf, size_t size, long long v, const char *unit)
{
	if (v < 0)
		return "-";
	str_printf(buf, size, "%lld%s", v, unit);
	return buf;
}

static void gpu_line(FILE *out, const char *clock, int i, const struct nvml_device *d)
{
	char util[8], mutil[8], temp[8], fan[8], pstate[8], mem[40], power[32], sm[16], link[24];

	if (d->lost) {
		fprintf(out, _("%s gpu%d lost (fell off the bus)\n"), clock, i);
		return;
	}
	if (d->mem_used_mib >= 0 && d->mem_total_mib > 0)
		str_printf(mem, sizeof(mem), "%lld/%lldMiB", d->mem_used_mib, d->mem_total_mib);
	else
		str_copy(mem, sizeof(mem), "-");
	if (d->power_w >= 0)
		str_printf(power, sizeof(power), d->power_limit_w > 0 ? "%.0f/%.0fW" : "%.0fW", d->power_w, d->power_limit_w);
	else
		str_copy(power, sizeof(power), "-");
	if (d->link_gen > 0 && d->link_width > 0)
		str_printf(link, sizeof(link), "gen%dx%d", d->link_gen, d->link_width);
	else
		str_copy(link, sizeof(link), "-");
	fprintf(out, "%s gpu%d %4s mem %4s %s %s %s sm %s P%s fan %s pcie %s", clock, i,
		num(util, sizeof(util), d->utilization, "%"), num(mutil, sizeof(mutil), d->mem_utilization, "%"), mem,
		num(temp, sizeof(temp), d->temperature_c, "C"), power, num(sm, sizeof(sm), d->sm_clock_mhz, "MHz"),
		num(pstate, sizeof(pstate), d->pstate, ""),
		num(fan, sizeof(fan), d->fan_percent, "%"), link);
	if (d->clock_events > 0 && (d->clock_events & (long long)GPU_CLOCKS_SLOWDOWNS)) {
		char why[160];

		gpu_clock_events_text(d->clock_events, GPU_CLOCKS_SLOWDOWNS, why, sizeof(why));
		fprintf(out, _(" slowed: %s"), why);
	}
	if (d->ecc_uncorrected > 0 || d->ecc_corrected > 0)
		fprintf(out, " ecc %lld/%lld", d->ecc_corrected < 0 ? 0 : d->ecc_corrected,
			d->ecc_uncorrected < 0 ? 0 : d->ecc_uncorrected);
	fprintf(out, " procs %d\n", d->procs_total > 0 ? d->procs_total : d->nprocs);
}

/* See report_watch.h. */
void report_watch_lines(FILE *out, const struct live_sample *s, const struct diagnosis *d,
			const struct finding_track *t, const struct report_opts *o)
{
	struct textfmt tf = { out, o->color, o->width > 20 ? o->width : 80 };
	char clock[16];
	time_t now = time(NULL);
	struct tm tm;

	strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
	if (s->state != LIVE_OK)
		fprintf(out, _("%s no sample: %s%s%s\n"), clock, report_live_state_name(s->state),
			s->why[0] || s->call[0] ? ": " : "", s->why[0] ? s->why : s->call);
	for (int i = 0; i < s->ndev; i++)
		gpu_line(out, clock, i, &s->gpu[i]);
	for (int i = 0; i < t->nnow && i < (int)d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		if (!finding_track_is_new(t, i, s->seq))
			continue;
		fprintf(out, "%s %s%s%s %s: %s\n", clock, tf_c(&tf, f->severity == SEV_ERROR ? TF_RED : TF_YELLOW),
			_(severity_name(f->severity)), tf_c(&tf, TF_RESET), cause_name(f->cause),
			f->title_local ? f->title_local : f->title);
		for (int k = 0; k < f->nfix; k++)
			if (f->fix[k].command && f->fix[k].alt == 0)
				fprintf(out, _("%s   try: %s\n"), clock, f->fix[k].command);
	}
	for (int i = 0; i < t->ngone; i++) {
		if (t->gone[i].gpu >= 0)
			fprintf(out, _("%s cleared %s (gpu%d)\n"), clock, cause_name(t->gone[i].cause), t->gone[i].gpu);
		else
			fprintf(out, _("%s cleared %s\n"), clock, cause_name(t->gone[i].cause));
	}
}
