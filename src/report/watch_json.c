/*
 * watch_json.c - a watcher's sample as one JSON object (schema
 * gpudoctor.watch/1, docs/report-schema.md): the driver's state, every
 * GPU as the doctor's facts show it, the Xid events of this sample, and the
 * findings with the sample each appeared in.
 */
#include <time.h>

#include "cause/cause.h"
#include "report/report_watch.h"

static json_t *driver_json(const struct live_sample *s)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:o}", "state", report_live_state_name(s->state),
			 "why", s->why[0] ? json_text(s->why) : json_null(),
			 "call", s->state != LIVE_OK && s->call[0] ? json_text(s->call) : json_null(),
			 "version", s->driver_version[0] ? json_text(s->driver_version) : json_null(),
			 "gpu_count", s->count >= 0 ? json_integer(s->count) : json_null());
}

static json_t *findings_json(const struct live_sample *s, const struct diagnosis *d, const struct finding_track *t)
{
	json_t *list = json_array();

	for (int i = 0; i < t->nnow && i < (int)d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o, s:I, s:b}", "id", cause_name(f->cause),
						      "severity", severity_name(f->severity),
						      "gpu", f->gpu >= 0 ? json_integer(f->gpu) : json_null(),
						      "title", json_text(f->title), "since", (json_int_t)t->now[i].since,
						      "new", finding_track_is_new(t, i, s->seq)));
	}
	return list;
}

/* See report_watch.h. */
json_t *report_watch_json(const struct live_sample *s, const struct diagnosis *d, const struct finding_track *t)
{
	json_t *gpus = json_array(), *events = json_array(), *cleared = json_array();
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	for (int i = 0; i < s->ndev; i++) {
		json_t *g = report_nvml_device_json(&s->gpu[i]);

		json_object_set_new(g, "index", json_integer(i));
		json_array_append_new(gpus, g);
	}
	for (int i = 0; i < s->nevents; i++)
		json_array_append_new(events, json_pack("{s:o, s:I}", "gpu", s->events[i].gpu >= 0
							? json_integer(s->events[i].gpu) : json_null(),
							"xid", (json_int_t)s->events[i].xid));
	for (int i = 0; i < t->ngone; i++)
		json_array_append_new(cleared, json_pack("{s:s, s:o}", "id", cause_name(t->gone[i].cause), "gpu",
							 t->gone[i].gpu >= 0 ? json_integer(t->gone[i].gpu) : json_null()));
	return json_pack("{s:s, s:I, s:s, s:f, s:f, s:o, s:o, s:b, s:o, s:s, s:o, s:o}", "schema", WATCH_SCHEMA,
			 "seq", (json_int_t)s->seq, "time", stamp, "t_s", s->t_s, "cost_ms", s->cost_ms,
			 "driver", driver_json(s), "gpus", gpus, "processes_joined", !s->procs_foreign_pids,
			 "xid_events", events, "verdict", verdict_name(d->verdict),
			 "findings", findings_json(s, d, t), "cleared", cleared);
}
