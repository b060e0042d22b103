/*
 * fix_steps.c - the fix of an explained cause: its steps and the
 * alternatives to it, filled by the catalog (rank.c) and the planner
 * (plan_fix.c) alike.
 */
#include <string.h>

#include "explain/scan_internal.h"
#include "util/str.h"

/* See scan_internal.h: a step of the fix (alt 0) or of alternative alt. */
void explain_add_fix(struct explain_cause *c, int alt, const char *text, const char *local, const char *command)
{
	if (c->nfix >= FINDING_MAX_FIX || alt < 0 || alt > c->nalt)
		return;
	/* the OOM judgement puts its step first; the catalog's copy of it is not repeated */
	for (int i = 0; command && command[0] && i < c->nfix; i++)
		if (c->fix[i].alt == alt && c->fix[i].command && strcmp(c->fix[i].command, command) == 0)
			return;
	c->fix[c->nfix].text = str_dup(text);
	c->fix[c->nfix].text_local = local ? str_dup(local) : NULL;
	c->fix[c->nfix].command = command && command[0] ? str_dup(command) : NULL;
	c->fix[c->nfix].alt = alt;
	c->nfix++;
}

/* See scan_internal.h. */
int explain_add_alternative(struct explain_cause *c, const char *title, const char *local)
{
	if (c->nalt >= FINDING_MAX_ALTS)
		return -1;
	c->alt_titles_local[c->nalt] = local ? str_dup(local) : NULL;
	c->alt_titles[c->nalt++] = str_dup(title);
	return c->nalt;
}
