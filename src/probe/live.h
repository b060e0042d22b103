/*
 * live.h - the driver sampled again and again, for `watch` and `metrics`.
 *
 * One long-lived helper process (util/isolate.h's session) loads NVML,
 * initialises it and looks the GPUs up once, then answers a sample per
 * request: the live values of every GPU and the Xid events NVML queued since
 * the last one. A call that hangs or crashes costs that sample, not the
 * watcher: the sample says which call it was, and the next one starts a
 * fresh helper (never while the last one is stuck in the kernel).
 *
 * live_apply() then writes a sample into the facts model the rules read:
 * the devices into facts->runtime, and what only a series shows (counters
 * rising, a state that lasts, events) into facts->watch.
 */
#ifndef GD_PROBE_LIVE_H
#define GD_PROBE_LIVE_H

#include <stdbool.h>

#include "probe/facts.h"
#include "util/error.h"
#include "util/rootfs.h"

enum live_state {
	LIVE_OK,
	LIVE_NO_LIBRARY,	/* nothing to load, or it did not load: see why */
	LIVE_INIT_FAILED,	/* nvmlInit_v2 answered init */
	LIVE_HUNG,		/* call did not return within the deadline: the helper was killed */
	LIVE_CRASHED,		/* call crashed the helper (signal) */
	LIVE_STUCK,		/* a killed helper is still asleep in the kernel: no new one is started */
};

#define LIVE_MAX_EVENTS 16

struct live_sample {
	long seq;			/* 0, 1, ... */
	double t_s;			/* since the sampler opened */
	double cost_ms;			/* how long asking took */
	double deadline_s;		/* one driver call's */
	enum live_state state;
	char why[FACT_TEXT * 2];	/* NO_LIBRARY: the reason */
	char call[64];			/* HUNG, CRASHED, STUCK: the call in progress */
	double call_ms;
	int signal;
	int stuck_pid;
	int init;			/* nvmlInit_v2's result, when it was called */
	char driver_version[80];
	int count;			/* nvmlDeviceGetCount_v2, -1 unknown */
	int ndev;
	struct nvml_device gpu[MAX_RT_DEVICES];
	bool procs_foreign_pids;	/* in a container: the pids are the host's */
	int nevents;
	struct live_event {
		int gpu;
		long long xid;
	} events[LIVE_MAX_EVENTS];	/* Xid events that arrived since the last sample */
	int events_dropped;
};

struct live_sampler;

/*
 * Prepare to sample the NVML library probe_nvml_file names for facts (probe_libs done) on fs; deadline_s
 * bounds one driver call. No process is started until the first sample. Returns NULL with err set when
 * out of memory; a machine without a library still samples (state LIVE_NO_LIBRARY).
 */
struct live_sampler *live_open(const struct facts *facts, const struct rootfs *fs, bool load_root_libs,
			       double deadline_s, struct error *err);

/* Take one sample into out; blocks at most about three deadlines. */
void live_sample(struct live_sampler *s, struct live_sample *out);

/*
 * Write sample into facts for the rules: the devices and the driver's state into facts->runtime, the
 * series into facts->watch (facts->watch.on, the first call starts the series). interval_s is the
 * sampling period, for the counts of samples a state must last.
 */
void live_apply(struct facts *facts, const struct live_sample *sample, double interval_s);

/* End the helper and free s; NULL is fine. */
void live_close(struct live_sampler *s);

#endif
