/*
 * finding.h - what rules produce: a diagnosis with evidence and a fix.
 *
 * A finding names a cause of the registry (cause/cause.h) and owns all of
 * its strings. Rules only add findings; a finding may also carry directions
 * for the reconcile step that runs after every family (rules/reconcile.c):
 * join another finding, stand only when others do not, withdraw others.
 * That is how the driver's answer joins a static finding without any
 * family reading another's output.
 */
#ifndef GD_RULES_FINDING_H
#define GD_RULES_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "cause/cause.h"

#define FINDING_MAX_EVIDENCE 12
#define FINDING_MAX_FIX 32
#define FINDING_MAX_ALTS 4
#define FINDING_MAX_BLOCKERS 8
#define FINDING_MAX_LINKS 6

/*
 * Each *_local field is the text in the language of the text reports (util/i18n.h), formatted from the
 * translated format with its %s arguments translated where the catalog has them; NULL when no translation
 * is active or it reads the same as the English one. JSON uses only the English fields.
 */
struct evidence {
	char *fact;	/* what was observed: "kernel module" (a literal: translated when shown) */
	char *value;	/* "not loaded" */
	char *value_local;
	char *source;	/* where: "/proc/modules" */
};

struct fix_step {
	char *text;	/* what to do and why */
	char *text_local;
	char *command;	/* exact command, or NULL */
	int alt;	/* 0: a step of the fix; k: a step of the k-th alternative (alt_titles[k - 1]) */
};

/* Directions for the reconcile step; see rules/reconcile.h. */
struct finding_links {
	enum cause_id joins[FINDING_MAX_LINKS];		/* merge into the first of these present */
	int njoins;
	bool join_fixes;				/* bring the fix steps along when joining */
	enum cause_id unless[FINDING_MAX_LINKS];	/* stand only when none of these is present */
	int nunless;
	enum cause_id withdraws[FINDING_MAX_LINKS];	/* remove these (at error) and list them; else go */
	int nwithdraws;
	bool unless_errors;				/* stand only when no error remains */
};

struct finding {
	enum cause_id cause;
	enum severity severity;
	enum stage stage;
	int gpu;			/* the GPU it is about (NVML's index), -1 when not one GPU's */
	char *title;
	char *summary;			/* the verdict's one line when this is the root cause; NULL: the title */
	char *detail;
	char *title_local, *summary_local, *detail_local;	/* see struct evidence */
	struct evidence evidence[FINDING_MAX_EVIDENCE];
	int nevidence;
	int evidence_dropped;		/* added past FINDING_MAX_EVIDENCE: counted, shown as a count */
	struct fix_step fix[FINDING_MAX_FIX];	/* grouped by alt when shown; order kept within a group */
	int nfix;
	int fix_dropped;
	char *alt_titles[FINDING_MAX_ALTS];	/* the alternatives to the fix, each a whole path instead of it */
	char *alt_titles_local[FINDING_MAX_ALTS];
	int nalt;
	int filling;			/* the group finding_fix adds to: 0 the fix, k alternative k, -1 none (full) */
	enum cause_id blocked_by[FINDING_MAX_BLOCKERS];	/* causes present that this follows from */
	int nblocked;
	unsigned origin;		/* which check made it, and its order there: the last tiebreak */
	struct finding_links links;
};

struct findings {
	struct finding *items;
	size_t count, cap;
};

/*
 * Append a finding of cause at the cause's usual stage; returns it (owned by
 * the list) or NULL when out of memory. The finding_* functions below take
 * NULL and do nothing, so a failed allocation needs no check at each call.
 */
struct finding *findings_add(struct findings *list, enum cause_id cause, enum severity sev,
			     const char *title_fmt, ...) __attribute__((format(printf, 4, 5)));
/* The finding sits at another stage than its cause's usual one (docs/causes.md says when). */
void finding_stage(struct finding *f, enum stage stage);
/* The GPU (NVML index) the finding is about, for per-GPU views (watch, metrics); NULL f is ignored. */
void finding_gpu(struct finding *f, int gpu);
void finding_detail(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What the verdict says when f is the root cause, where its title alone would mislead ("7 of 8 GPUs ready; ..."). */
void finding_summary(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_evidence(struct finding *f, const char *fact, const char *source, const char *value_fmt, ...)
	__attribute__((format(printf, 4, 5)));
void finding_fix(struct finding *f, const char *command, const char *text_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Start an alternative: the finding_fix calls after it are its steps, a
 * whole path instead of the fix ("disable Secure Boot instead"). Past
 * FINDING_MAX_ALTS its steps are counted in fix_dropped.
 */
void finding_alternative(struct finding *f, const char *title_fmt, ...) __attribute__((format(printf, 2, 3)));
/* A step for the fix (alt 0) or alternative alt of f, whichever group finding_fix is filling. */
void finding_fix_alt(struct finding *f, int alt, const char *command, const char *text_fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * finding_fix and finding_alternative for a text formatted elsewhere (a plan's step): text copied as it
 * is, with local (NULL: none; one that reads as text counts as none) as its localized copy. Dropped and
 * counted as finding_fix and finding_alternative do; NULL f is ignored.
 */
void finding_fix_text(struct finding *f, const char *command, const char *text, const char *local);
void finding_alternative_text(struct finding *f, const char *title, const char *local);

/*
 * Set the localized text of the last evidence row, fix step or alternative added to f (a copy of local;
 * NULL for none), for copies from one finding to another. Does nothing when there is none.
 */
void finding_last_evidence_local(struct finding *f, const char *local);
void finding_last_fix_local(struct finding *f, const char *local);
void finding_last_alternative_local(struct finding *f, const char *local);

/* The text to show in the text reports: local when there is one, else english. */
static inline const char *finding_text(const char *english, const char *local)
{
	return local ? local : english;
}

/* Reconcile directions (at most FINDING_MAX_LINKS of each). */
void finding_joins(struct finding *f, enum cause_id target);
void finding_unless(struct finding *f, enum cause_id other);
void finding_withdraws(struct finding *f, enum cause_id other);
void finding_unless_errors(struct finding *f);

/* The first finding of a cause, or NULL. */
const struct finding *findings_get(const struct findings *list, enum cause_id cause);
struct finding *findings_find(struct findings *list, enum cause_id cause);
/* Remove the finding at index i, releasing its strings. */
void findings_remove_at(struct findings *list, size_t i);
/* Move every finding of src to the end of list (src is left empty); false when out of memory. */
bool findings_take(struct findings *list, struct findings *src);
void findings_release(struct findings *list);
void finding_release(struct finding *f);

/* Whether a fix step with this command is already there. */
bool findings_fix_has(const struct finding *f, const char *command);

#endif
