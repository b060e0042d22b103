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

#include "nvidia/nvml.h"
#include "probe/facts.h"
#include "util/isolate.h"

/* The size of a call's mark: runtime_facts.last_call, and watch's copy of it. */
#define NVML_MARK_SIZE 64

void query_nvml(struct runtime_facts *rt, const char *file);
void query_cuda(struct runtime_facts *rt, const char *file);

/*
 * One device, in two parts, naming each call in mark[NVML_MARK_SIZE] first: what stays the same while the
 * driver is loaded (name, UUID, bus id, compute capability, maximum clocks and link), and what a watcher
 * asks again each sample. The live part sets d->lost and stops when the GPU has fallen off the bus.
 */
void nvml_device_identity(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d);
void nvml_device_live(char *mark, const struct nvml_fns *n, nvmlDevice_t dev, struct nvml_device *d);

/* Record the call about to be made (the parent may read it after a kill). */
static inline void query_mark(struct runtime_facts *rt, const char *call)
{
	isolate_mark(rt->last_call, sizeof(rt->last_call), call);
}

#endif
