/*
 * finding_track.h - findings over a watcher's samples: which are new, which
 * went away, and since when each has been there. A finding is the same one
 * from sample to sample when its cause and GPU are (its title may change,
 * e.g. a count that grows).
 */
#ifndef GD_RULES_FINDING_TRACK_H
#define GD_RULES_FINDING_TRACK_H

#include <stdbool.h>

#include "rules/rules.h"

#define TRACK_MAX 64

struct track_entry {
	enum cause_id cause;
	int gpu;
	enum severity severity;
	long since;			/* the sample it first appeared in */
};

struct finding_track {
	struct track_entry now[TRACK_MAX];	/* this sample's, in the diagnosis's order */
	int nnow;
	struct track_entry gone[TRACK_MAX];	/* there last sample, not in this one */
	int ngone;
	int dropped;			/* findings past TRACK_MAX this sample (not tracked) */
};

/* Take sample seq's diagnosis: now[i] is d's i-th finding (for i < nnow). */
void finding_track_update(struct finding_track *t, const struct diagnosis *d, long seq);

/* Whether now[i] appeared in this very sample. */
static inline bool finding_track_is_new(const struct finding_track *t, int i, long seq)
{
	return i < t->nnow && t->now[i].since == seq;
}

#endif
