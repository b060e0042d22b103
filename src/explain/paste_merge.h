/*
 * paste_merge.h - explain's causes joined with what the doctor's rules
 * conclude from the facts a paste showed.
 */
#ifndef GD_EXPLAIN_PASTE_MERGE_H
#define GD_EXPLAIN_PASTE_MERGE_H

#include "explain/explain.h"

/*
 * Finish the scanner's paste, run the doctor's rules over its facts and merge into r the findings whose
 * rules read only what the paste showed (paste_cause_needs): a cause a signature found too becomes
 * EXPLAIN_FROM_BOTH, sure (100) and takes the rule's fix first; another is added as EXPLAIN_FROM_FACTS.
 * r->paste then borrows the scanner's paste: s must outlive r. 0, or -1 when out of memory (r stays valid).
 */
int explain_merge_paste(struct explain_scanner *s, struct explain_report *r);

/*
 * "the driver version, the GPU": what the top cause's rules would read that the paste did not show; false
 * none. local: in the text reports' language (util/i18n.h), else English.
 */
bool explain_paste_missing(const struct explain_report *r, const struct explain_cause *c, bool local, char *out,
			   size_t outsz);

#endif
