/*
 * live.c - see live.h. The helper's own state (the library, NVML's device
 * handles, what never changes) lives in its copy of struct live_child; the
 * parent's copy stays as it was before the first fork, so a restarted helper
 * opens everything afresh.
 */
#include "probe/live.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/nvml.h"
#include "probe/driver/query.h"
#include "probe/probe.h"
#include "util/clock.h"
#include "util/isolate.h"
#include "util/str.h"

/* In the helper only. */
struct live_child {
	char file[4096];		/* what to dlopen, "" for nothing */
	bool opened;			/* tried in this process */
	enum live_state state;
	char why[FACT_TEXT * 2];
	int init, count;
	char driver_version[80];
	struct nvml_fns n;
	nvmlEventSet_t events;		/* NULL when the driver has no Xid events */
	int ndev;
	nvmlDevice_t dev[MAX_RT_DEVICES];
	struct nvml_device identity[MAX_RT_DEVICES];
};

struct live_sampler {
	struct isolate_session session;
	struct live_child child;	/* the parent's copy: never opened */
	const struct rootfs *fs;
	bool in_container;
	double deadline_s, start_ms;
	long seq;
	char why[FACT_TEXT * 2];	/* no library to sample: why */
};

/* dlopen, init, the handles and what stays; the answer is kept for every later sample of this helper. */
static void child_open(struct live_child *c, char *mark)
{
	struct error err;
	unsigned count;
	void *handle;
	char path[4096], missing[FACT_TEXT];

	c->opened = true;
	c->state = LIVE_NO_LIBRARY;
	c->count = -1;
	isolate_mark(mark, NVML_MARK_SIZE, "dlopen libnvidia-ml.so.1");
	if (dlib_open(c->file, nvml_symbols, nvml_nsymbols, &c->n, &handle, path, sizeof(path), missing,
		      sizeof(missing), &err) < 0) {
		str_copy(c->why, sizeof(c->why), err.msg);
		return;
	}
	isolate_mark(mark, NVML_MARK_SIZE, "nvmlInit_v2");
	c->init = c->n.init();
	if (c->init != NVML_SUCCESS) {
		c->state = LIVE_INIT_FAILED;
		return;
	}
	c->state = LIVE_OK;
	if (c->n.driver_version) {
		isolate_mark(mark, NVML_MARK_SIZE, "nvmlSystemGetDriverVersion");
		c->n.driver_version(c->driver_version, sizeof(c->driver_version));
	}
	isolate_mark(mark, NVML_MARK_SIZE, "nvmlDeviceGetCount_v2");
	if (c->n.count(&count) != NVML_SUCCESS)
		return;
	c->count = (int)count;
	if (c->n.event_set_create && c->n.register_events && c->n.event_wait) {
		isolate_mark(mark, NVML_MARK_SIZE, "nvmlEventSetCreate");
		if (c->n.event_set_create(&c->events) != NVML_SUCCESS)
			c->events = NULL;
	}
	for (unsigned i = 0; i < count && c->ndev < MAX_RT_DEVICES; i++) {
		nvmlDevice_t dev;

		isolate_mark(mark, NVML_MARK_SIZE, "nvmlDeviceGetHandleByIndex_v2");
		if (c->n.handle(i, &dev) != NVML_SUCCESS)
			continue;
		nvml_device_unknown(&c->identity[c->ndev]);
		nvml_device_identity(mark, &c->n, dev, &c->identity[c->ndev]);
		if (c->events) {
			/* a GPU without Xid events (NOT_SUPPORTED) is still sampled */
			isolate_mark(mark, NVML_MARK_SIZE, "nvmlDeviceRegisterEvents");
			c->n.register_events(dev, NVML_EVENT_TYPE_XID_CRITICAL_ERROR, c->events);
		}
		c->dev[c->ndev++] = dev;
	}
}

/* What NVML queued since the last sample, without waiting. */
static void child_events(struct live_child *c, struct live_sample *out)
{
	nvmlEventData_t data;

	if (!c->events)
		return;
	for (int guard = 0; guard < 4 * LIVE_MAX_EVENTS; guard++) {
		isolate_mark(out->call, NVML_MARK_SIZE, "nvmlEventSetWait_v2");
		if (c->n.event_wait(c->events, &data, 0) != NVML_SUCCESS)
			return;
		if (data.eventType != NVML_EVENT_TYPE_XID_CRITICAL_ERROR)
			continue;
		if (out->nevents == LIVE_MAX_EVENTS) {
			out->events_dropped++;
			continue;
		}
		out->events[out->nevents].gpu = -1;
		for (int i = 0; i < c->ndev; i++)
			if (c->dev[i] == data.device)
				out->events[out->nevents].gpu = i;
		out->events[out->nevents++].xid = (long long)data.eventData;
	}
}

/* In the helper, once per request. */
static void child_sample(void *shared, void *arg)
{
	struct live_sample *out = shared;
	struct live_child *c = arg;

	if (!c->opened)
		child_open(c, out->call);
	out->state = c->state;
	str_copy(out->why, sizeof(out->why), c->why);
	out->init = c->init;
	out->count = c->count;
	str_copy(out->driver_version, sizeof(out->driver_version), c->driver_version);
	out->ndev = 0;
	out->nevents = out->events_dropped = 0;
	if (c->state != LIVE_OK)
		return;
	for (int i = 0; i < c->ndev; i++) {
		out->gpu[i] = c->identity[i];
		nvml_device_live(out->call, &c->n, c->dev[i], &out->gpu[i]);
	}
	out->ndev = c->ndev;
	child_events(c, out);
}

/* See live.h. */
struct live_sampler *live_open(const struct facts *facts, const struct rootfs *fs, bool load_root_libs,
			       double deadline_s, struct error *err)
{
	struct live_sampler *s = calloc(1, sizeof(*s));
	const char *why;

	if (!s) {
		error_set(err, "out of memory");
		return NULL;
	}
	s->fs = fs;
	s->in_container = facts->container.in_container;
	s->deadline_s = deadline_s;
	s->start_ms = clock_ms();
	why = probe_nvml_file(facts, fs, load_root_libs, s->child.file, sizeof(s->child.file));
	if (why) {
		str_copy(s->why, sizeof(s->why), why);
		return s;
	}
	if (isolate_session_open(&s->session, sizeof(struct live_sample), child_sample, &s->child, err) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* See live.h. */
void live_sample(struct live_sampler *s, struct live_sample *out)
{
	struct isolate_limits limits = { s->deadline_s, s->deadline_s * 3 };
	struct isolate_outcome how;
	struct error err;
	double t0 = clock_ms();
	long seq = s->seq++;

	if (!s->session.shared) {
		memset(out, 0, sizeof(*out));
		out->state = LIVE_NO_LIBRARY;
		str_copy(out->why, sizeof(out->why), s->why);
	} else if (isolate_session_ask(&s->session, &limits, &how, &err) < 0) {
		memset(out, 0, sizeof(*out));
		out->state = LIVE_CRASHED;
		str_printf(out->why, sizeof(out->why), "cannot start the driver helper: %s", err.msg);
	} else {
		memcpy(out, isolate_session_shared(&s->session), sizeof(*out));
		if (how.hung || how.over_budget || how.stuck || how.crashed) {
			out->ndev = 0;
			out->nevents = 0;
			out->state = how.stuck && !how.hung && !how.over_budget ? LIVE_STUCK
				     : how.crashed && !how.hung && !how.over_budget ? LIVE_CRASHED : LIVE_HUNG;
			out->call_ms = how.call_ms;
			out->signal = how.signal;
			out->stuck_pid = how.stuck ? how.pid : 0;
		}
	}
	out->seq = seq;
	out->deadline_s = s->deadline_s;
	out->t_s = (t0 - s->start_ms) / 1000.0;
	if (out->state == LIVE_OK)
		out->procs_foreign_pids = probe_join_processes(out->gpu, out->ndev, s->in_container, s->fs);
	out->cost_ms = clock_ms() - t0;
}

/* See live.h. */
void live_close(struct live_sampler *s)
{
	if (!s)
		return;
	isolate_session_close(&s->session);
	free(s);
}
