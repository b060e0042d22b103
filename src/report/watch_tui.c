/* watch_tui.c - placeholder until the full-screen view lands: no terminal is taken, lines are used. */
#include "report/report_watch.h"

struct watch_tui *watch_tui_open(const struct report_opts *o)
{
	(void)o;
	return NULL;
}

void watch_tui_draw(struct watch_tui *ui, const struct live_sample *s, const struct diagnosis *d,
		    const struct finding_track *t)
{
	(void)ui, (void)s, (void)d, (void)t;
}

bool watch_tui_wait(struct watch_tui *ui, int ms)
{
	(void)ui, (void)ms;
	return true;
}

void watch_tui_close(struct watch_tui *ui)
{
	(void)ui;
}
