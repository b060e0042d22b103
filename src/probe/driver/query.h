/*
 * query.h - what the isolated helper process asks the driver.
 *
 * These run only in the forked child (runtime.c). They write straight into
 * a struct runtime_facts in memory shared with the parent, and name each
 * driver function in rt->last_call before calling it, so that when a call
 * hangs or crashes the parent still knows which one it was.
 */
#ifndef GD_PROBE_DRIVER_QUERY_H
#define GD_PROBE_DRIVER_QUERY_H

#include "probe/facts.h"
#include "util/isolate.h"

void query_nvml(struct runtime_facts *rt, const char *file);
void query_cuda(struct runtime_facts *rt, const char *file);

/* Record the call about to be made (the parent may read it after a kill). */
static inline void query_mark(struct runtime_facts *rt, const char *call)
{
	isolate_mark(rt->last_call, sizeof(rt->last_call), call);
}

#endif
