/*
 * facts_builder.h - hand-built machines (struct facts) for rule tests.
 */
#ifndef GD_TESTS_FACTS_BUILDER_H
#define GD_TESTS_FACTS_BUILDER_H

#include "testutil.h"

#include "probe/facts.h"
#include "rules/rules.h"
#include "util/str.h"

static inline void add_gpu(struct facts *f, const char *driver)
{
	struct pci_gpu *g = &f->pci.gpus[f->pci.count++];

	f->pci.status.state = FACT_OK;
	str_copy(g->address, sizeof(g->address), "0000:01:00.0");
	g->vendor = 0x10de;
	g->device = 0x2684;
	g->class_code = 0x030000;
	str_copy(g->driver, sizeof(g->driver), driver);
	str_copy(g->name, sizeof(g->name), "AD102 [GeForce RTX 4090]");
	g->link_width = g->max_link_width = 16;
	g->config_readable = true;
	str_copy(g->sysfs_path, sizeof(g->sysfs_path), "/sys/bus/pci/devices/0000:01:00.0");
}

static inline void add_lib(struct lib_choice *c, const char *soname, const char *version)
{
	struct lib_candidate *l = &c->candidates[c->count];

	str_copy(l->soname, sizeof(l->soname), soname);
	snprintf(l->path, sizeof(l->path), "/usr/lib/x86_64-linux-gnu/%s", soname);
	snprintf(l->resolved, sizeof(l->resolved), "/usr/lib/x86_64-linux-gnu/%.*s%s",
		 (int)(strlen(soname) - 1), soname, version);
	str_copy(l->version, sizeof(l->version), version);
	l->origin = LIB_FROM_LDCACHE;
	c->status.state = FACT_OK;
	c->chosen = c->count++;
}

static inline void add_node(struct facts *f, const char *path)
{
	struct devnode *n = &f->kmod.nodes[f->kmod.node_count++];

	str_copy(n->path, sizeof(n->path), path);
	n->present = n->is_char_device = n->can_read = n->can_write = true;
	n->mode = 0666;
	str_copy(n->owner, sizeof(n->owner), "root");
	str_copy(n->group, sizeof(n->group), "root");
}

static inline struct facts *base_machine(void)
{
	struct facts *f = facts_new();

	assert_non_null(f);
	str_copy(f->root, sizeof(f->root), "/");
	f->system.status.state = FACT_OK;
	str_copy(f->system.kernel_release, sizeof(f->system.kernel_release), "6.1.0-13-amd64");
	str_copy(f->system.os_id, sizeof(f->system.os_id), "debian");
	str_copy(f->system.user.name, sizeof(f->system.user.name), "alice");
	f->system.user.uid = 1000;
	f->pci.status.state = FACT_OK;
	f->kmod.modules_status.state = FACT_OK;
	f->kmod.on_disk_status.state = FACT_OK;
	f->kmod.secure_boot = 0;
	f->libs.ldcache_status.state = FACT_OK;
	f->libs.cuda.status.state = FACT_ABSENT;
	f->libs.nvml.status.state = FACT_ABSENT;
	return f;
}

/* A working machine: GPU bound to nvidia 535.104.05, nodes usable, libraries matching. */
static inline struct facts *healthy_machine(void)
{
	struct facts *f = base_machine();

	add_gpu(f, "nvidia");
	f->kmod.status.state = FACT_OK;
	str_copy(f->kmod.nvrm_version, sizeof(f->kmod.nvrm_version), "535.104.05");
	f->kmod.nvidia = f->kmod.nvidia_uvm = f->kmod.nvidia_modeset = f->kmod.nvidia_drm = true;
	f->kmod.module_on_disk = true;
	str_copy(f->kmod.module_path, sizeof(f->kmod.module_path),
		 "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko");
	add_node(f, "/dev/nvidia-uvm");
	add_node(f, "/dev/nvidia0");
	add_node(f, "/dev/nvidiactl");
	add_lib(&f->libs.cuda, "libcuda.so.1", "535.104.05");
	add_lib(&f->libs.nvml, "libnvidia-ml.so.1", "535.104.05");
	return f;
}

/* Tests name causes by their public id strings: the contract they check. */
static inline const char *id_of(const struct finding *f)
{
	return f ? cause_name(f->cause) : "";
}

static inline const struct finding *find_id(const struct findings *list, const char *id)
{
	enum cause_id cause;

	if (!cause_by_name(id, &cause))
		fail_msg("%s is not a cause of the registry", id);
	return findings_get(list, cause);
}

static inline size_t index_of(const struct diagnosis *d, const char *id)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(id_of(&d->findings.items[i]), id) == 0)
			return i;
	fail_msg("no finding %s", id);
	return 0;
}

#endif
