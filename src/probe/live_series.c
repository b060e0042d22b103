/*
 * live_series.c - a watcher's sample into the facts model (live.h's
 * live_apply): the devices as the driver probe would have found them, and
 * what only a series of samples shows, counted in facts->watch.
 */
#include <string.h>

#include "probe/live.h"
#include "util/str.h"

/* A GPU this busy should have its link at full speed: the link only slows down to save power when idle. */
#define LINK_BUSY_PERCENT 50

static void driver_state(struct runtime_facts *rt, const struct live_sample *s)
{
	rt->ran = true;
	rt->timeout_s = s->deadline_s;
	rt->hung = s->state == LIVE_HUNG || s->state == LIVE_STUCK;
	rt->crashed = s->state == LIVE_CRASHED && s->call[0];
	rt->signal = s->signal;
	rt->helper_stuck = s->state == LIVE_STUCK || s->stuck_pid > 0;
	rt->helper_pid = s->stuck_pid;
	str_copy(rt->last_call, sizeof(rt->last_call), s->call);
	rt->nvml_lib.attempted = s->state != LIVE_NO_LIBRARY;
	rt->nvml_lib.loaded = s->state == LIVE_OK || s->state == LIVE_INIT_FAILED;
	rt->nvml_lib.init_done = s->state == LIVE_OK || s->state == LIVE_INIT_FAILED;
	rt->nvml_lib.init = s->init;
	if (s->driver_version[0])
		str_copy(rt->nvml_driver_version, sizeof(rt->nvml_driver_version), s->driver_version);
	rt->nvml_count = s->count;
	rt->nvml_ndev = s->ndev;
	memcpy(rt->nvml, s->gpu, sizeof(s->gpu[0]) * (size_t)s->ndev);
	rt->procs_foreign_pids = s->procs_foreign_pids;
	fact_status_set(&rt->status, s->state == LIVE_OK ? FACT_OK : FACT_ERROR, "%s",
			s->state == LIVE_OK ? "" : s->why[0] ? s->why : s->call);
}

static long long rise(long long now, long long *first)
{
	if (now < 0)
		return -1;
	if (*first < 0 || now < *first)	/* the first count seen, or a reset (driver reload) starts again */
		*first = now;
	return now - *first;
}

static bool holds_memory(const struct nvml_device *d)
{
	for (int k = 0; k < d->nprocs; k++)
		if (d->procs[k].used_mib != 0)
			return true;
	return d->procs_total > 0;
}

static bool link_below_max(const struct nvml_device *d)
{
	return (d->link_gen > 0 && d->link_gen_max > 0 && d->link_gen < d->link_gen_max) ||
	       (d->link_width > 0 && d->link_width_max > 0 && d->link_width < d->link_width_max);
}

static void count_gpu(struct live_gpu *g, const struct nvml_device *d, long seq)
{
	if (d->lost) {
		if (g->lost_seq < 0)
			g->lost_seq = (int)seq;
		g->idle_held_samples = g->link_down_samples = 0;
		return;
	}
	g->lost_seq = -1;
	g->ecc_corrected_rise = rise(d->ecc_corrected, &g->ecc_corrected_first);
	g->ecc_uncorrected_rise = rise(d->ecc_uncorrected, &g->ecc_uncorrected_first);
	g->idle_held_samples = d->utilization == 0 && holds_memory(d) ? g->idle_held_samples + 1 : 0;
	g->link_down_samples = d->utilization >= LINK_BUSY_PERCENT && link_below_max(d) ? g->link_down_samples + 1 : 0;
}

static void add_event(struct live_facts *w, const struct live_event *e, long seq)
{
	if (w->nxid == MAX_LIVE_XIDS) {	/* keep the latest */
		memmove(&w->xid[0], &w->xid[1], sizeof(w->xid[0]) * (MAX_LIVE_XIDS - 1));
		w->nxid--;
	}
	w->xid[w->nxid].gpu = e->gpu;
	w->xid[w->nxid].xid = e->xid;
	w->xid[w->nxid].seq = seq;
	w->nxid++;
	w->xid_total++;
	if (e->gpu >= 0 && e->gpu < MAX_RT_DEVICES)
		w->gpu[e->gpu].xid_events++;
}

/* See live.h. */
void live_apply(struct facts *facts, const struct live_sample *s, double interval_s)
{
	struct live_facts *w = &facts->watch;

	if (!w->on) {
		memset(w, 0, sizeof(*w));
		w->on = true;
		for (int i = 0; i < MAX_RT_DEVICES; i++) {
			w->gpu[i].ecc_corrected_first = w->gpu[i].ecc_uncorrected_first = -1;
			w->gpu[i].ecc_corrected_rise = w->gpu[i].ecc_uncorrected_rise = -1;
			w->gpu[i].lost_seq = -1;
		}
	}
	w->seq = s->seq;
	w->interval_s = interval_s;
	driver_state(&facts->runtime, s);
	for (int i = 0; i < s->ndev; i++)
		count_gpu(&w->gpu[i], &s->gpu[i], s->seq);
	for (int i = 0; i < s->nevents; i++)
		add_event(w, &s->events[i], s->seq);
	w->xid_total += s->events_dropped;
}
