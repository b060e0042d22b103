/*
 * json_facts.c - struct facts as JSON, the "facts" member of every report.
 * The layout is documented in docs/report-schema.md; keep them in step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/str.h"

/* Text read from the machine may be any bytes: JSON needs valid UTF-8. */
json_t *json_text(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	copy = strdup(s);
	if (!copy)
		return json_null();
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_null();
}

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_text(s) : json_null();
}

static json_t *status_json(const struct fact_status *st)
{
	json_t *o = json_object();

	json_object_set_new(o, "state", json_string(fact_state_name(st->state)));
	if (st->reason[0])
		json_object_set_new(o, "reason", json_text(st->reason));
	return o;
}

static json_t *system_json(const struct system_facts *s)
{
	json_t *gids = json_array();

	for (int i = 0; i < s->user.ngids; i++)
		json_array_append_new(gids, json_integer(s->user.gids[i]));
	return json_pack("{s:o, s:o, s:{s:o, s:o, s:o, s:o}, s:o, s:o, s:o, s:{s:o, s:o}, s:{s:o, s:o}, s:{s:o, s:I, s:o, s:b, s:o}}",
			 "status", status_json(&s->status), "hostname", str_or_null(s->hostname),
			 "os", "id", str_or_null(s->os_id), "id_like", str_or_null(s->os_id_like),
			 "version_id", str_or_null(s->os_version_id), "pretty_name", str_or_null(s->os_pretty),
			 "kernel", str_or_null(s->kernel_release), "arch", str_or_null(s->arch),
			 "glibc", str_or_null(s->glibc_version),
			 "cpu", "model", str_or_null(s->cpu_model), "count", s->cpu_count ? json_integer(s->cpu_count) : json_null(),
			 "memory", "total_kib", s->mem_total_kib ? json_integer((json_int_t)s->mem_total_kib) : json_null(),
			 "available_kib", s->mem_available_kib ? json_integer((json_int_t)s->mem_available_kib) : json_null(),
			 "user", "name", str_or_null(s->user.name), "uid", (json_int_t)s->user.uid, "gids", gids,
			 "is_root", s->user.is_root, "source", json_text(s->user.source));
}

static json_t *hex4(unsigned v)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%04x", v & 0xffff);
	return json_string(buf);
}

static json_t *pci_json(const struct pci_facts *p)
{
	json_t *gpus = json_array();

	for (int i = 0; i < p->count; i++) {
		const struct pci_gpu *g = &p->gpus[i];
		char cls[16];

		snprintf(cls, sizeof(cls), "%06x", g->class_code);
		json_array_append_new(gpus, json_pack(
			"{s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:{s:o, s:o, s:o, s:o}, s:o, s:b, s:b, s:I, s:o}",
			"address", json_text(g->address), "vendor", hex4(g->vendor), "device", hex4(g->device),
			"subsystem_vendor", hex4(g->subsys_vendor), "subsystem_device", hex4(g->subsys_device),
			"class", cls, "name", str_or_null(g->name[0] ? g->name : g->kb_name), "driver", str_or_null(g->driver),
			"link", "speed", str_or_null(g->link_speed), "width",
			g->link_width >= 0 ? json_integer(g->link_width) : json_null(),
			"max_speed", str_or_null(g->max_link_speed), "max_width",
			g->max_link_width >= 0 ? json_integer(g->max_link_width) : json_null(),
			"numa_node", g->numa_node >= 0 ? json_integer(g->numa_node) : json_null(),
			"config_readable", g->config_readable, "fallen_off_bus", g->fallen_off_bus,
			"aer_fatal", (json_int_t)g->aer_fatal, "sysfs", json_text(g->sysfs_path)));
		json_object_set_new(json_array_get(gpus, json_array_size(gpus) - 1), "compute_capability", str_or_null(g->cc));
		json_object_set_new(json_array_get(gpus, json_array_size(gpus) - 1), "architecture", str_or_null(g->arch));
	}
	return json_pack("{s:o, s:i, s:o, s:{s:i, s:o}, s:o}", "status", status_json(&p->status), "count", p->count,
			 "gpus", gpus, "other_display", "count", p->other_display_count, "list", str_or_null(p->other_display),
			 "names_from", str_or_null(p->ids_source));
}

static json_t *devnodes_json(const struct kmod_facts *k)
{
	json_t *a = json_array();

	for (int i = 0; i < k->node_count; i++) {
		const struct devnode *n = &k->nodes[i];
		char mode[8];

		snprintf(mode, sizeof(mode), "%04o", n->mode);
		json_array_append_new(a, json_pack("{s:o, s:b, s:s, s:o, s:o, s:o, s:o, s:b, s:b, s:b}", "path", json_text(n->path),
						   "char_device", n->is_char_device, "mode", mode, "owner", json_text(n->owner),
						   "group", json_text(n->group), "major", n->major >= 0 ? json_integer(n->major) : json_null(),
						   "minor", n->minor >= 0 ? json_integer(n->minor) : json_null(),
						   "readable", n->can_read, "writable", n->can_write, "standin", n->from_standin));
	}
	return a;
}

static json_t *kmod_json(const struct kmod_facts *k)
{
	json_t *dkms = json_array();

	for (int i = 0; i < k->dkms_count; i++)
		json_array_append_new(dkms, json_string(k->dkms_versions[i]));
	return json_pack("{s:o, s:o, s:o, s:b, s:o, s:{s:o, s:b, s:b, s:b, s:b, s:b}, s:{s:o, s:b, s:o, s:o, s:o}, s:o, s:b, "
			 "s:b, s:o, s:o, s:b, s:o, s:o}",
			 "status", status_json(&k->status), "version", str_or_null(k->nvrm_version),
			 "nvrm", str_or_null(k->nvrm_line), "open_kernel_module", k->open_kernel_module,
			 "sys_module_version", str_or_null(k->sys_module_version),
			 "modules", "status", status_json(&k->modules_status), "nvidia", k->nvidia,
			 "nvidia_uvm", k->nvidia_uvm, "nvidia_drm", k->nvidia_drm, "nvidia_modeset", k->nvidia_modeset,
			 "nouveau", k->nouveau,
			 "module_file", "status", status_json(&k->on_disk_status), "present", k->module_on_disk,
			 "path", str_or_null(k->module_path),
			 "signed", k->module_signature_known ? json_boolean(k->module_signed) : json_null(),
			 "license", str_or_null(k->module_license),
			 "dkms", dkms, "dkms_built_for_kernel", k->dkms_built_for_kernel,
			 "nouveau_blacklisted", k->nouveau_blacklisted, "blacklist_source", str_or_null(k->blacklist_source),
			 "secure_boot", k->secure_boot < 0 ? json_null() : json_boolean(k->secure_boot == 1),
			 "nvidia_modprobe", k->nvidia_modprobe, "nvidia_smi", str_or_null(k->nvidia_smi_path),
			 "device_nodes", devnodes_json(k));
}

static json_t *candidate_json(const struct lib_candidate *c)
{
	return json_pack("{s:o, s:o, s:o, s:s, s:b, s:b}", "path", json_text(c->path), "resolved", json_text(c->resolved),
			 "version", str_or_null(c->version), "origin", lib_origin_name(c->origin), "stub", c->is_stub,
			 "missing_from_cache", c->in_cache_dir_only);
}

static json_t *choice_json(const struct lib_choice *ch)
{
	json_t *cands = json_array();
	const struct lib_candidate *c = lib_choice_chosen(ch);

	for (int i = 0; i < ch->count; i++)
		json_array_append_new(cands, candidate_json(&ch->candidates[i]));
	return json_pack("{s:o, s:o, s:o}", "status", status_json(&ch->status),
			 "chosen", c ? candidate_json(c) : json_null(), "candidates", cands);
}

static json_t *libs_json(const struct libs_facts *l)
{
	return json_pack("{s:{s:o, s:o, s:i}, s:o, s:o, s:b, s:o}",
			 "ldcache", "status", status_json(&l->ldcache_status), "source", json_text(l->ldcache_source),
			 "entries", l->ldcache_entries, "libcuda", choice_json(&l->cuda), "libnvidia_ml", choice_json(&l->nvml),
			 "stubs_on_search_path", l->stubs_on_search_path, "stubs_dir", str_or_null(l->stubs_dir));
}

static json_t *origins_json(unsigned origins)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ TK_FROM_SCAN, "scan" }, { TK_FROM_DEFAULT_LINK, "/usr/local/cuda" }, { TK_FROM_CUDA_HOME, "CUDA_HOME" },
		{ TK_FROM_CUDA_PATH, "CUDA_PATH" }, { TK_FROM_CUDA_ROOT, "CUDA_ROOT" }, { TK_FROM_NVCC_PATH, "nvcc on PATH" },
	};
	json_t *a = json_array();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (origins & names[i].bit)
			json_array_append_new(a, json_string(names[i].name));
	return a;
}

static json_t *toolkits_json(const struct toolkit_facts *t)
{
	json_t *items = json_array();

	for (int i = 0; i < t->count; i++) {
		const struct toolkit *tk = &t->items[i];

		json_array_append_new(items, json_pack("{s:o, s:o, s:b, s:o, s:o, s:b, s:b, s:o}", "path", json_text(tk->path),
						       "real_path", json_text(tk->real_path), "exists", tk->exists,
						       "version", str_or_null(tk->version),
						       "version_source", str_or_null(tk->version_source), "nvcc", tk->has_nvcc,
						       "active", tk->active, "origins", origins_json(tk->origins)));
	}
	return json_pack("{s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "status", status_json(&t->status), "count", t->count,
			 "active", t->active >= 0 ? json_integer(t->active) : json_null(),
			 "active_version", t->active >= 0 ? str_or_null(t->items[t->active].version) : json_null(),
			 "active_reason", str_or_null(t->active_reason), "nvcc_on_path", str_or_null(t->nvcc_on_path),
			 "working_directory", str_or_null(t->cwd), "extension_build", str_or_null(t->extension_build),
			 "items", items);
}

static json_t *cudnn_json(const struct cudnn_facts *c)
{
	json_t *headers = json_array(), *libs = json_array();

	for (int i = 0; i < c->count; i++) {
		const struct cudnn_item *it = &c->items[i];

		json_t *o = json_pack("{s:o, s:o, s:s}", "path", json_text(it->path), "version", json_text(it->version),
				      "where", it->where);

		if (it->kind == CUDNN_LIBRARY) {
			json_object_set_new(o, "cuda_major", it->cuda_major > 0 ? json_integer(it->cuda_major) : json_null());
			json_object_set_new(o, "cuda_major_source", str_or_null(it->cuda_major_source));
		}
		json_array_append_new(it->kind == CUDNN_HEADER ? headers : libs, o);
	}
	return json_pack("{s:o, s:o, s:o}", "status", status_json(&c->status), "headers", headers, "libraries", libs);
}

static json_t *env_json(const struct env_facts *e)
{
	json_t *vars = json_object(), *idx = json_array();

	for (int i = 0; i < e->count; i++)
		json_object_set_new(vars, e->vars[i].name, json_text(e->vars[i].value));
	for (int i = 0; i < e->visible_index_count; i++)
		json_array_append_new(idx, json_integer(e->visible_indices[i]));
	return json_pack("{s:o, s:{s:s, s:o, s:o, s:o, s:o}}", "variables", vars, "cuda_visible_devices", "kind",
			 visible_kind_name(e->visible), "indices", idx, "stops_at", str_or_null(e->visible_invalid),
			 "set_by", str_or_null(e->visible_origin), "set_by_detail", str_or_null(e->visible_origin_detail));
}

static json_t *container_host_json(const struct container_host_facts *h)
{
	json_t *specs = json_array();

	for (int i = 0; i < h->ncdi; i++) {
		const struct cdi_spec *c = &h->cdi[i];

		json_array_append_new(specs, json_pack("{s:o, s:o, s:o, s:i, s:i, s:o}", "path", json_text(c->path),
						       "kind", json_text(c->kind), "driver_version", str_or_null(c->driver_version),
						       "host_paths", c->checked, "missing", c->missing,
						       "missing_example", str_or_null(c->missing_example)));
	}
	return json_pack("{s:o, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:b}, s:{s:i, s:o, s:o}, s:b, s:o}",
			 "status", status_json(&h->status), "engines", str_or_null(h->engines),
			 "toolkit", "nvidia_ctk", str_or_null(h->nvidia_ctk), "nvidia_container_cli",
			 str_or_null(h->nvidia_container_cli), "nvidia_container_runtime", str_or_null(h->nvidia_container_runtime),
			 "nvidia_container_runtime_hook", str_or_null(h->nvidia_container_runtime_hook),
			 "libnvidia_container", str_or_null(h->libnvidia_container), "config", h->toolkit_config,
			 "docker", "daemon_json", h->docker_config, "nvidia_runtime", str_or_null(h->docker_runtime),
			 "default_runtime", str_or_null(h->docker_default_runtime),
			 "containerd_nvidia_runtime", h->containerd_runtime, "cdi_specs", specs);
}

static json_t *container_json(const struct container_facts *c)
{
	return json_pack("{s:b, s:o, s:o, s:o, s:b, s:b, s:{s:b, s:o, s:o, s:b, s:b, s:b}}",
			 "in_container", c->in_container, "runtime", str_or_null(c->runtime),
			 "evidence", str_or_null(c->evidence),
			 "cgroup_version", c->cgroup_version ? json_integer(c->cgroup_version) : json_null(),
			 "nvidia_mounts", c->nvidia_mounts, "nvidia_image", c->nvidia_image,
			 "wsl", "detected", c->wsl, "version", c->wsl_version ? json_integer(c->wsl_version) : json_null(),
			 "evidence", str_or_null(c->wsl_evidence), "dev_dxg", c->dev_dxg, "lib_dir", c->wsl_lib_dir,
			 "libcuda", c->wsl_libcuda);
}

static json_t *int_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *cuda_version_json(int v)
{
	char buf[16];

	if (v <= 0)
		return json_null();
	snprintf(buf, sizeof(buf), "%d.%d", v / 1000, (v % 1000) / 10);
	return json_string(buf);
}

static json_t *library_json(const struct rt_library *l)
{
	return json_pack("{s:b, s:b, s:o, s:o, s:o, s:o, s:o}", "attempted", l->attempted, "loaded", l->loaded,
			 "path", str_or_null(l->path), "load_error", str_or_null(l->load_error),
			 "missing_symbols", str_or_null(l->missing),
			 "init", l->init_done ? json_text(l->init_name) : json_null(),
			 "init_code", l->init_done ? json_integer(l->init) : json_null());
}

static const char *compute_mode_name(int m)
{
	static const char *const names[] = { "default", "exclusive_thread", "prohibited", "exclusive_process" };

	return m >= 0 && m < 4 ? names[m] : NULL;
}

/* See report.h. */
json_t *report_nvml_device_json(const struct nvml_device *d)
{
	json_t *procs = json_array(), *events = json_null(), *o;
	char cc[32] = "";

	for (int i = 0; i < d->nprocs; i++) {
		const struct gpu_process *p = &d->procs[i];

		json_array_append_new(procs, json_pack("{s:i, s:o, s:o, s:o, s:o}", "pid", (int)p->pid,
						       "used_mib", int_or_null(p->used_mib),
						       "uid", int_or_null(p->uid), "user", str_or_null(p->user),
						       "command", str_or_null(p->command)));
	}
	if (d->clock_events >= 0) {
		events = json_array();
		for (int b = 0; b < 63; b++)
			if ((unsigned long long)d->clock_events & (1ULL << b))
				json_array_append_new(events, gpu_clock_event_name(1ULL << b)
							      ? json_string(gpu_clock_event_name(1ULL << b))
							      : json_sprintf("0x%llx", 1ULL << b));
	}
	if (d->cc_major >= 0 && d->cc_minor >= 0)
		snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o}, s:o, s:o, s:o, s:o, s:o}",
			 "name", str_or_null(d->name), "uuid", str_or_null(d->uuid), "bus_id", str_or_null(d->bus_id),
			 "compute_capability", str_or_null(cc),
			 "memory_total_mib", int_or_null(d->mem_total_mib), "memory_used_mib", int_or_null(d->mem_used_mib),
			 "utilization", int_or_null(d->utilization), "temperature_c", int_or_null(d->temperature_c),
			 "power_w", d->power_w >= 0 ? json_real(d->power_w) : json_null(),
			 "power_limit_w", d->power_limit_w >= 0 ? json_real(d->power_limit_w) : json_null(),
			 "persistence_mode", tristate(d->persistence),
			 "compute_mode", compute_mode_name(d->compute_mode) ? json_string(compute_mode_name(d->compute_mode)) : json_null(),
			 "mig", "current", tristate(d->mig_current), "pending", tristate(d->mig_pending),
			 "instances", int_or_null(d->mig_instances),
			 "ecc_uncorrected", int_or_null(d->ecc_uncorrected), "retired_pages_pending", tristate(d->retired_pending),
			 "row_remap_pending", tristate(d->remap_pending), "row_remap_failure", tristate(d->remap_failure),
			 "processes", procs);
	json_object_set_new(o, "retired_pages", d->retired_sbe < 0 && d->retired_dbe < 0 ? json_null()
		: json_pack("{s:o, s:o}", "single_bit", int_or_null(d->retired_sbe), "double_bit", int_or_null(d->retired_dbe)));
	json_object_set_new(o, "clock_events", events);
	json_object_set_new(o, "temperature_slowdown_c", int_or_null(d->temp_slowdown_c));
	json_object_set_new(o, "fan_percent", int_or_null(d->fan_percent));
	json_object_set_new(o, "pstate", int_or_null(d->pstate));
	json_object_set_new(o, "memory_utilization", int_or_null(d->mem_utilization));
	json_object_set_new(o, "clocks", json_pack("{s:o, s:o, s:o, s:o}", "sm_mhz", int_or_null(d->sm_clock_mhz),
						   "sm_max_mhz", int_or_null(d->sm_clock_max_mhz),
						   "memory_mhz", int_or_null(d->mem_clock_mhz),
						   "memory_max_mhz", int_or_null(d->mem_clock_max_mhz)));
	json_object_set_new(o, "pcie", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "generation", int_or_null(d->link_gen),
						 "width", int_or_null(d->link_width),
						 "max_generation", int_or_null(d->link_gen_max),
						 "max_width", int_or_null(d->link_width_max),
						 "tx_kbps", int_or_null(d->pcie_tx_kbps), "rx_kbps", int_or_null(d->pcie_rx_kbps)));
	json_object_set_new(o, "ecc_corrected", int_or_null(d->ecc_corrected));
	json_object_set_new(o, "lost", json_boolean(d->lost));
	return o;
}

static json_t *cuda_device_json(const struct cuda_device *d)
{
	char cc[32] = "";

	if (d->cc_major >= 0 && d->cc_minor >= 0)
		snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name", str_or_null(d->name),
			 "bus_id", str_or_null(d->bus_id), "compute_capability", str_or_null(cc),
			 "memory_total_mib", int_or_null(d->mem_total_mib), "sm_count", int_or_null(d->sm_count),
			 "clock_mhz", int_or_null(d->clock_mhz), "memory_clock_mhz", int_or_null(d->mem_clock_mhz),
			 "bus_width", int_or_null(d->bus_width));
}

static json_t *runtime_json(const struct runtime_facts *rt)
{
	json_t *nd = json_array(), *cd = json_array();

	for (int i = 0; i < rt->nvml_ndev; i++)
		json_array_append_new(nd, report_nvml_device_json(&rt->nvml[i]));
	for (int i = 0; i < rt->cuda_ndev; i++)
		json_array_append_new(cd, cuda_device_json(&rt->cuda[i]));
	return json_pack("{s:o, s:b, s:f, s:f, s:b, s:b, s:b, s:o, s:o, s:{s:o, s:o, s:o, s:o, s:i, s:o, s:o}, s:{s:o, s:o, s:o, s:o}}",
			 "status", status_json(&rt->status), "ran", rt->ran, "timeout_s", rt->timeout_s,
			 "elapsed_ms", rt->elapsed_ms, "hung", rt->hung, "crashed", rt->crashed,
			 "helper_stuck", rt->helper_stuck,
			 "signal", rt->crashed ? json_integer(rt->signal) : json_null(),
			 "last_call", (rt->hung || rt->crashed) ? str_or_null(rt->last_call) : json_null(),
			 "nvml", "library", library_json(&rt->nvml_lib), "driver_version", str_or_null(rt->nvml_driver_version),
			 "cuda_version", cuda_version_json(rt->nvml_cuda_version), "count", int_or_null(rt->nvml_count),
			 "lost", rt->nvml_lost, "devices", nd, "processes_joined", json_boolean(!rt->procs_foreign_pids),
			 "cuda", "library", library_json(&rt->cuda_lib),
			 "driver_version", cuda_version_json(rt->cuda_driver_version), "count", int_or_null(rt->cuda_count),
			 "devices", cd);
}

static const char *python_kind_name(enum python_kind k)
{
	static const char *const names[] = { "system", "venv", "conda", "pyenv", "other" };

	return (unsigned)k < 5 ? names[k] : "other";
}

/* The import path besides the site directories, and the .pth files that run code at start-up. */
static json_t *import_path_json(const struct python_env *py)
{
	json_t *dirs = json_array(), *imports = json_array();

	for (int k = 0; k < py->npath_dirs; k++) {
		const struct path_dir *d = &py->path_dirs[k];

		json_array_append_new(dirs, json_pack("{s:o, s:s, s:o, s:o}", "dir", json_text(d->dir),
			"from", d->after_site == PATH_AFTER_ALL ? "editable finder" : d->after_site < 0 ? "PYTHONPATH" : ".pth",
			"pth", d->pth[0] ? json_text(d->pth) : json_null(),
			"after", d->after_site >= 0 ? json_text(py->site_dirs[d->after_site]) : json_null()));
	}
	for (int k = 0; k < py->npth_imports; k++) {
		char path[FACT_PATH + 64];

		str_printf(path, sizeof(path), "%s/%s", py->site_dirs[py->pth_imports[k].site], py->pth_imports[k].name);
		json_array_append_new(imports, json_text(path));
	}
	return json_pack("{s:o, s:o}", "dirs", dirs, "pth_imports", imports);
}

/* torch's nvidia-* requirements that apply here, and what is installed for each. */
static json_t *requirements_json(const struct torch_install *t)
{
	json_t *a = json_array();

	for (int k = 0; k < t->nreqs; k++) {
		const struct torch_requirement *r = &t->reqs[k];
		char spec[48];

		str_printf(spec, sizeof(spec), "%s%s", r->op, r->version);
		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:b}", "name", json_text(r->name),
			"spec", str_or_null(spec), "installed", str_or_null(r->installed), "met", r->met));
	}
	return a;
}

static json_t *python_json(const struct python_facts *p)
{
	json_t *envs = json_array(), *torches = json_array();
	const struct torch_deep *d = &p->deep;

	for (int i = 0; i < p->count; i++) {
		const struct python_env *py = &p->envs[i];
		json_t *sites = json_array();

		for (int s = 0; s < py->nsite; s++)
			json_array_append_new(sites, json_text(py->site_dirs[s]));
		json_array_append_new(envs, json_pack("{s:o, s:o, s:o, s:o, s:s, s:s, s:b, s:b, s:o, s:o, s:o}",
			"exe", json_text(py->exe), "real_exe", json_text(py->real_exe), "version", str_or_null(py->version),
			"prefix", json_text(py->prefix), "kind", python_kind_name(py->kind), "found_by", py->found_by,
			"on_path", py->on_path, "selected", i == p->selected, "site_dirs", sites,
			"torch", py->torch >= 0 ? json_integer(py->torch) : json_null(),
			"torch_shadowed", py->torch_shadowed >= 0 ? json_integer(py->torch_shadowed) : json_null()));
		{
			json_t *o = json_array_get(envs, json_array_size(envs) - 1);

			json_object_set_new(o, "project", py->project[0] ? json_pack("{s:o, s:s}", "dir",
				json_text(py->project), "tool", py->project_tool) : json_null());
			json_object_set_new(o, "venv_tool", str_or_null(py->venv_tool));
			json_object_set_new(o, "pip", json_boolean(py->pip));
			json_object_set_new(o, "externally_managed", json_boolean(py->externally_managed));
			json_object_set_new(o, "import_path", import_path_json(py));
			json_object_set_new(o, "torch_from", str_or_null(py->torch_from));
			json_object_set_new(o, "torch_shadowed_from", str_or_null(py->torch_shadowed_from));
		}
	}
	for (int i = 0; i < p->ntorch; i++) {
		const struct torch_install *t = &p->torches[i];
		json_t *libs = json_array(), *sass = json_array(), *ptx = json_array(), *o;

		for (int k = 0; k < t->nlibs; k++)
			json_array_append_new(libs, json_pack("{s:s, s:o, s:o, s:b, s:o, s:b}", "soname", t->libs[k].soname,
				"path", str_or_null(t->libs[k].path), "origin", str_or_null(t->libs[k].origin),
				"shadows_runpath", t->libs[k].shadows_runpath, "loaded_by", str_or_null(t->libs[k].loaded_by),
				"dlopen", t->libs[k].dlopen));
		for (int k = 0; k < t->nsass; k++)
			json_array_append_new(sass, json_integer(t->sass[k]));
		for (int k = 0; k < t->nptx; k++)
			json_array_append_new(ptx, json_integer(t->ptx[k]));
		o = json_pack("{s:o, s:o, s:o, s:o, s:b, s:s, s:o, s:b}", "dir", json_text(t->dir),
			"version", str_or_null(t->version), "cuda", str_or_null(t->cuda), "hip", str_or_null(t->hip),
			"debug", t->debug, "installer", t->installer, "dist_version", str_or_null(t->dist_version),
			"user_site", t->user_site);
		json_object_set_new(o, "libtorch_cuda", str_or_null(t->libtorch_cuda));
		{
			json_t *w = json_array();

			for (int k = 0; k < t->nwheels; k++)
				json_array_append_new(w, json_text(t->wheels[k]));
			json_object_set_new(o, "nvidia_wheels", w);
			w = json_array();
			for (int k = 0; k < t->npackages; k++)
				json_array_append_new(w, json_text(t->packages[k]));
			json_object_set_new(o, "packages", w);
			json_object_set_new(o, "conda", t->conda_pytorch[0] || t->conda_cpuonly ?
				json_pack("{s:o, s:o, s:o, s:b, s:b, s:b}", "pytorch", str_or_null(t->conda_pytorch),
					  "pytorch_cuda", str_or_null(t->conda_pytorch_cuda),
					  "cudatoolkit", str_or_null(t->conda_cudatoolkit), "cpuonly", t->conda_cpuonly,
					  "torchvision", t->conda_vision, "torchaudio", t->conda_audio) :
				json_null());
		}
		json_object_set_new(o, "cuda_libraries", libs);
		json_object_set_new(o, "metadata", str_or_null(t->metadata));
		json_object_set_new(o, "requirements", t->reqs_checked ? requirements_json(t) : json_null());
		json_object_set_new(o, "requirements_skipped", json_integer(t->reqs_skipped));
		json_object_set_new(o, "archs", t->archs_known ? json_pack("{s:o, s:o, s:b}", "sass", sass, "ptx", ptx,
			"sampled", t->archs_truncated) : json_null());
		if (!t->archs_known) {
			json_decref(sass);
			json_decref(ptx);
		}
		json_array_append_new(torches, o);
	}
	json_t *devices = json_array(), *out;

	for (int i = 0; i < d->ndevices; i++)
		json_array_append_new(devices, json_pack("{s:o, s:o, s:o}", "name", json_text(d->devices[i].name),
			"capability", str_or_null(d->devices[i].cc), "tensor_test", str_or_null(d->devices[i].test)));
	out = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:b, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:o, s:o}}",
		"status", status_json(&p->status), "uv", str_or_null(p->uv), "conda", str_or_null(p->conda),
		"poetry", str_or_null(p->poetry), "selected", p->selected >= 0 ? json_integer(p->selected) : json_null(),
		"selected_reason", str_or_null(p->selected_reason), "interpreters", envs, "torch", torches,
		"deep", "ran", d->ran, "ok", d->ok, "error", str_or_null(d->error), "version", str_or_null(d->version),
		"cuda", str_or_null(d->cuda), "available", tristate(d->available),
		"device_count", d->ok && !d->error[0] ? json_integer(d->device_count) : json_null(), "arch_list", str_or_null(d->arch_list),
		"cudnn", str_or_null(d->cudnn), "warning", str_or_null(d->warning), "tensor_test", str_or_null(d->tensor_test),
		"elapsed_ms", d->elapsed_ms, "file", str_or_null(d->file), "devices", devices);
	if (out) {
		json_t *deep = json_object_get(out, "deep");

		json_object_set_new(deep, "cudnn_enabled", d->ok && !d->error[0] ? tristate(d->cudnn_enabled) : json_null());
		json_object_set_new(deep, "cudnn_error", str_or_null(d->cudnn_error));
	}
	return out;
}

/* facts.slurm_gres: docs/report-schema.md. */
static json_t *gres_json(const struct gres_facts *g)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:b, s:o}", "status", status_json(&g->status), "path",
			 str_or_null(g->path), "node", str_or_null(g->node), "gpus",
			 g->gpus >= 0 ? json_integer(g->gpus) : json_null(), "autodetect", g->autodetect, "files",
			 str_or_null(g->files));
}

/* facts.kernel_log: docs/report-schema.md. Each driver message is null when the log did not hold it. */
static json_t *kernlog_json(const struct kernlog_facts *k)
{
	json_t *xids = json_array(), *o;

	for (int i = 0; i < k->nxids; i++)
		json_array_append_new(xids, json_pack("{s:o, s:i, s:o, s:o}", "bus_id", str_or_null(k->xids[i].bus_id),
			"xid", k->xids[i].xid, "seconds", k->xids[i].seconds >= 0 ? json_real(k->xids[i].seconds) : json_null(),
			"text", json_text(k->xids[i].text)));
	o = json_pack("{s:o, s:b, s:o, s:b, s:o, s:i, s:o}", "status", status_json(&k->status), "denied", k->status.denied,
		      "source", str_or_null(k->source), "this_boot_only", k->this_boot_only, "boot_by", str_or_null(k->boot_by),
		      "lines", k->lines, "xids", xids);
	json_object_set_new(o, "open_module_needs_gsp", k->gsp_refused ?
		json_pack("{s:o, s:o}", "bus_id", str_or_null(k->gsp_bus_id), "pci_id", str_or_null(k->gsp_pci_id)) : json_null());
	json_object_set_new(o, "probe_failed", k->probe_failed ?
		json_pack("{s:o}", "bus_id", str_or_null(k->probe_failed_bus_id)) : json_null());
	json_object_set_new(o, "legacy", k->legacy_branch[0] ?
		json_pack("{s:o, s:o, s:o}", "gpu", str_or_null(k->legacy_gpu), "branch", json_text(k->legacy_branch),
			  "ignored_by", str_or_null(k->legacy_ignoring)) : json_null());
	json_object_set_new(o, "no_gpu_found", json_boolean(k->no_gpu_found));
	json_object_set_new(o, "release_refused", k->release_refused ?
		json_pack("{s:o}", "bus_id", str_or_null(k->release_refused_bus_id)) : json_null());
	return o;
}

/*
 * See report.h: the caller owns the result. Only reads f; strings from the machine go through json_text,
 * so bytes that are not UTF-8 never make the dump fail.
 */
json_t *report_facts_json(const struct facts *f)
{
	json_t *notes = json_array(), *limits = json_array();

	for (int i = 0; i < f->note_count; i++)
		json_array_append_new(notes, json_text(f->notes[i]));
	for (int i = 0; i < f->nlimits; i++) {
		char text[160];

		fact_limit_text(&f->limits[i], text, sizeof(text));
		json_array_append_new(notes, json_text(text));
		json_array_append_new(limits, json_pack("{s:s, s:i, s:i}", "what", f->limits[i].what, "limit",
							f->limits[i].limit, "dropped", f->limits[i].dropped));
	}
	return json_pack("{s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "root", json_text(f->root),
			 "live", f->live, "notes", notes, "limits", limits, "system", system_json(&f->system), "pci", pci_json(&f->pci),
			 "driver", kmod_json(&f->kmod), "libraries", libs_json(&f->libs),
			 "toolkits", toolkits_json(&f->toolkits), "cudnn", cudnn_json(&f->cudnn),
			 "environment", env_json(&f->env), "container", container_json(&f->container),
			 "container_host", container_host_json(&f->container_host),
			 "runtime", runtime_json(&f->runtime), "kernel_log", kernlog_json(&f->kernlog),
			 "slurm_gres", gres_json(&f->gres),
			 "python", python_json(&f->python));
}
