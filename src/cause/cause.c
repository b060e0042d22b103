#include "cause/cause.h"

#include <string.h>

/* See cause.h. An out-of-range id gets row 0 rather than NULL, so callers never check; the row is static. */
const struct cause *cause_get(enum cause_id id)
{
	return &cause_table[(unsigned)id < CAUSE_COUNT ? id : 0];
}

/* The registry's id string, as docs/causes.md spells it; static, row 0's for an out-of-range id. */
const char *cause_name(enum cause_id id)
{
	return cause_get(id)->id;
}

/* Exact, case-sensitive match on the id string; *out is written only when found. */
bool cause_by_name(const char *name, enum cause_id *out)
{
	for (int i = 0; i < CAUSE_COUNT; i++) {
		if (strcmp(cause_table[i].id, name) == 0) {
			*out = (enum cause_id)i;
			return true;
		}
	}
	return false;
}

/* See cause.h: only the direct follows column, not its transitive closure. */
bool cause_follows(enum cause_id cause, enum cause_id maybe_cause)
{
	const struct cause *c = cause_get(cause);

	for (int i = 0; i < c->nfollows; i++)
		if (c->follows[i] == maybe_cause)
			return true;
	return false;
}

/* A static name for JSON and text; an out-of-range value reads "info". Never NULL. */
const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEV_INFO:
		return "info";
	case SEV_WARNING:
		return "warning";
	case SEV_ERROR:
		return "error";
	}
	return "info";
}

/* A static name for JSON and text; an out-of-range value reads "unknown". Never NULL. */
const char *stage_name(enum stage stage)
{
	static const char *const names[] = {
		[STAGE_PLATFORM] = "platform",	       [STAGE_GPU] = "gpu",
		[STAGE_KERNEL] = "kernel",	       [STAGE_DEVICE_NODES] = "device-nodes",
		[STAGE_USER_LIBS] = "user-libraries", [STAGE_CUDA] = "cuda",
		[STAGE_TOOLKIT] = "toolkit",	       [STAGE_CUDNN] = "cudnn",
		[STAGE_PYTHON] = "python",	       [STAGE_ENV] = "environment",
		[STAGE_SUMMARY] = "summary",
	};

	return (unsigned)stage < sizeof(names) / sizeof(names[0]) ? names[stage] : "unknown";
}
