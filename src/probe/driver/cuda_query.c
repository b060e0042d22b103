/*
 * cuda_query.c - the CUDA driver API: cuInit's verdict, then each device
 * as CUDA numbers it (after CUDA_VISIBLE_DEVICES).
 */
#include <stddef.h>
#include <string.h>

#include "nvidia/cuda.h"
#include "probe/driver/query.h"
#include "util/str.h"

static int attribute(struct runtime_facts *rt, const struct cuda_query_fns *c, int attr, CUdevice dev)
{
	int v = -1;

	if (!c->attribute)
		return -1;
	query_mark(rt, "cuDeviceGetAttribute");
	return c->attribute(&v, attr, dev) == CUDA_SUCCESS ? v : -1;
}

static void query_device(struct runtime_facts *rt, const struct cuda_query_fns *c, CUdevice dev, struct cuda_device *d)
{
	size_t bytes;
	int khz;

	/* Unknown until read: a crash part-way must not leave zeros that look like data. */
	memset(d, 0, sizeof(*d));
	d->mem_total_mib = -1;
	d->cc_major = d->cc_minor = d->sm_count = d->clock_mhz = d->mem_clock_mhz = d->bus_width = -1;
	if (c->name) {
		query_mark(rt, "cuDeviceGetName");
		c->name(d->name, (int)sizeof(d->name), dev);
		d->name[sizeof(d->name) - 1] = '\0';
	}
	d->cc_major = attribute(rt, c, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	d->cc_minor = attribute(rt, c, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	d->sm_count = attribute(rt, c, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
	khz = attribute(rt, c, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev);
	d->clock_mhz = khz > 0 ? khz / 1000 : -1;
	khz = attribute(rt, c, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev);
	d->mem_clock_mhz = khz > 0 ? khz / 1000 : -1;
	d->bus_width = attribute(rt, c, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev);
	if (c->total_mem) {
		query_mark(rt, "cuDeviceTotalMem_v2");
		if (c->total_mem(&bytes, dev) == CUDA_SUCCESS)
			d->mem_total_mib = (long long)(bytes >> 20);
	}
	if (c->bus_id) {
		query_mark(rt, "cuDeviceGetPCIBusId");
		if (c->bus_id(d->bus_id, (int)sizeof(d->bus_id), dev) != CUDA_SUCCESS)
			d->bus_id[0] = '\0';
		d->bus_id[sizeof(d->bus_id) - 1] = '\0';
	}
}

/*
 * In the helper child only (see query.h): may hang or crash, which the parent handles. Marks every call in
 * rt->last_call first; fields it never reaches stay -1, not 0. The library stays loaded.
 */
void query_cuda(struct runtime_facts *rt, const char *file)
{
	struct rt_library *lib = &rt->cuda_lib;
	struct cuda_query_fns c;
	struct error err;
	void *handle;
	int count;

	lib->attempted = true;
	query_mark(rt, "dlopen libcuda.so.1");
	if (dlib_open(file, cuda_query_symbols, cuda_query_nsymbols, &c, &handle, lib->host_path,
		      sizeof(lib->host_path), lib->missing, sizeof(lib->missing), &err) < 0) {
		str_copy(lib->load_error, sizeof(lib->load_error), err.msg);
		return;
	}
	lib->loaded = true;
	/* cuDriverGetVersion works without cuInit, even when cuInit fails. */
	query_mark(rt, "cuDriverGetVersion");
	if (c.driver_version(&rt->cuda_driver_version) != CUDA_SUCCESS)
		rt->cuda_driver_version = 0;
	query_mark(rt, "cuInit");
	lib->init = c.init(0);
	lib->init_done = true;
	if (lib->init != CUDA_SUCCESS)
		return;
	query_mark(rt, "cuDeviceGetCount");
	if (c.count(&count) != CUDA_SUCCESS)
		return;
	rt->cuda_count = count;
	for (int i = 0; i < count && rt->cuda_ndev < MAX_RT_DEVICES; i++) {
		CUdevice dev;

		query_mark(rt, "cuDeviceGet");
		if (c.get(&dev, i) != CUDA_SUCCESS)
			continue;
		query_device(rt, &c, dev, &rt->cuda[rt->cuda_ndev++]);
	}
}
