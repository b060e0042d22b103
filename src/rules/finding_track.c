/* finding_track.c - see finding_track.h. A few dozen findings at most: linear search is enough. */
#include "rules/finding_track.h"

#include <string.h>

static const struct track_entry *find(const struct track_entry *list, int n, enum cause_id cause, int gpu)
{
	for (int i = 0; i < n; i++)
		if (list[i].cause == cause && list[i].gpu == gpu)
			return &list[i];
	return NULL;
}

/* See finding_track.h. */
void finding_track_update(struct finding_track *t, const struct diagnosis *d, long seq)
{
	struct track_entry before[TRACK_MAX];
	int nbefore = t->nnow;

	memcpy(before, t->now, sizeof(before));
	t->nnow = t->ngone = t->dropped = 0;
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];
		const struct track_entry *old = find(before, nbefore, f->cause, f->gpu);

		if (t->nnow == TRACK_MAX) {
			t->dropped++;
			continue;
		}
		t->now[t->nnow].cause = f->cause;
		t->now[t->nnow].gpu = f->gpu;
		t->now[t->nnow].severity = f->severity;
		t->now[t->nnow].since = old ? old->since : seq;
		t->nnow++;
	}
	for (int i = 0; i < nbefore; i++)
		if (!find(t->now, t->nnow, before[i].cause, before[i].gpu))
			t->gone[t->ngone++] = before[i];
}
