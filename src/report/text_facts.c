#include "report/text_facts.h"

#include "util/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_WIDTH 11

/* A section's label (marked N_ where it is named), in the text reports' language, padded to LABEL_WIDTH columns. */
static void label(struct textfmt *t, const char *name)
{
	fprintf(t->out, "  %s", tf_c(t, TF_BOLD));
	tf_pad(t, i18n_text(name), LABEL_WIDTH);
	fputs(tf_c(t, TF_RESET), t->out);
}

static void cont(struct textfmt *t)
{
	fprintf(t->out, "  %-*s", LABEL_WIDTH, "");
}

/* A section read only in part: what follows it may be missing things. */
static void denied_line(struct textfmt *t, const struct fact_status *st)
{
	if (!st->denied)
		return;
	cont(t);
	fprintf(t->out, _("%sincomplete: %s%s\n"), tf_c(t, TF_YELLOW), i18n_text(st->reason), tf_c(t, TF_RESET));
}

static void system_lines(struct textfmt *t, const struct facts *f, int detail)
{
	const struct system_facts *s = &f->system;

	label(t, N_("system"));
	fprintf(t->out, _("%s, kernel %s, %s, glibc %s\n"), s->os_pretty[0] ? s->os_pretty : _("unknown OS"),
		s->kernel_release[0] ? s->kernel_release : _("unknown"), s->arch[0] ? s->arch : _("unknown arch"),
		s->glibc_version[0] ? s->glibc_version : _("unknown"));
	if (detail > 0) {
		cont(t);
		fprintf(t->out, _("%s, %d CPUs, %.1f GiB memory (%.1f GiB available)\n"),
			s->cpu_model[0] ? s->cpu_model : _("unknown CPU"), s->cpu_count,
			(double)s->mem_total_kib / 1048576.0, (double)s->mem_available_kib / 1048576.0);
		cont(t);
		fprintf(t->out, _("user %s (uid %u%s)\n"), s->user.name, (unsigned)s->user.uid, s->user.is_root ? _(", root") : "");
	}
	if (!f->live) {
		cont(t);
		fprintf(t->out, _("read from root %s\n"), f->root);
	}
}

static void gpu_lines(struct textfmt *t, const struct facts *f)
{
	label(t, N_("gpu"));
	if (f->pci.count == 0)
		fprintf(t->out, "%s\n", f->pci.status.state == FACT_OK ? "no NVIDIA device on the PCI bus"
									 : i18n_text(f->pci.status.reason));
	for (int i = 0; i < f->pci.count; i++) {
		const struct pci_gpu *g = &f->pci.gpus[i];

		if (i)
			cont(t);
		fprintf(t->out, "%s %s [%04x:%04x]", g->address,
			g->kb_name[0] ? g->kb_name : g->name[0] ? g->name : _("NVIDIA device"), g->vendor, g->device);
		if (g->cc[0])
			fprintf(t->out, " sm_%.*s%s", (int)strcspn(g->cc, "."), g->cc,
				strchr(g->cc, '.') ? strchr(g->cc, '.') + 1 : "");
		fprintf(t->out, _(", driver %s"), g->driver[0] ? g->driver : _("none"));
		if (g->link_width > 0)
			fprintf(t->out, ", x%d %s", g->link_width, g->link_speed);
		fputc('\n', t->out);
	}
	if (f->pci.other_display_count) {
		cont(t);
		fprintf(t->out, _("other display: %s\n"), f->pci.other_display);
	}
}

static void driver_lines(struct textfmt *t, const struct facts *f, int detail)
{
	const struct kmod_facts *k = &f->kmod;
	int shown = 0;

	label(t, N_("driver"));
	if (k->nvrm_version[0])
		fprintf(t->out, _("kernel module %s%s loaded"), k->nvrm_version, k->open_kernel_module ? _(" (open)") : "");
	else
		fprintf(t->out, _("kernel module not loaded"));
	fprintf(t->out, _("; modules:%s%s%s%s%s\n"), k->nvidia ? " nvidia" : "", k->nvidia_uvm ? " nvidia_uvm" : "",
		k->nvidia_drm ? " nvidia_drm" : "", k->nvidia_modeset ? " nvidia_modeset" : "",
		k->nouveau ? " nouveau" : (k->nvidia ? "" : _(" none")));
	if (detail > 0 || !k->nvidia) {
		cont(t);
		fprintf(t->out, _("module file: %s%s; DKMS: %s; Secure Boot: %s\n"),
			k->module_on_disk ? k->module_path : k->on_disk_status.reason[0] ? i18n_text(k->on_disk_status.reason) : _("none"),
			strcmp(k->module_license, "Dual MIT/GPL") == 0 ? _(" (open)") : "", k->dkms_count ? k->dkms_versions[0] : _("none"),
			k->secure_boot < 0 ? _("unknown") : k->secure_boot ? _("on") : _("off"));
	}
	cont(t);
	fprintf(t->out, _("device nodes:"));
	for (int i = 0; i < k->node_count; i++) {
		if (!detail && shown >= 6) {
			fprintf(t->out, " …");
			break;
		}
		fprintf(t->out, " %s%s", k->nodes[i].path + 5,
			k->nodes[i].can_read && k->nodes[i].can_write ? "" : _(" (no access)"));
		shown++;
	}
	fprintf(t->out, "%s\n", k->node_count ? "" : _(" none"));
	denied_line(t, &k->status);
}

static void lib_line(struct textfmt *t, const char *name, const struct lib_choice *ch, int detail)
{
	const struct lib_candidate *c = lib_choice_chosen(ch);

	label(t, name);
	if (c)
		fprintf(t->out, "%s%s%s [%s]%s\n", c->path, strcmp(c->path, c->resolved) ? " -> " : "",
			strcmp(c->path, c->resolved) ? c->resolved : "", lib_origin_name(c->origin), c->is_stub ? " STUB" : "");
	else
		fprintf(t->out, "%s\n", i18n_text(ch->status.reason));
	for (int i = 0; detail > 1 && i < ch->count; i++) {
		if (i == ch->chosen)
			continue;
		cont(t);
		fprintf(t->out, _("also %s [%s]\n"), ch->candidates[i].resolved, lib_origin_name(ch->candidates[i].origin));
	}
	if (c)
		denied_line(t, &ch->status);
}

static void toolkit_lines(struct textfmt *t, const struct facts *f, int detail)
{
	const struct toolkit_facts *tk = &f->toolkits;

	label(t, N_("toolkits"));
	if (tk->count == 0)
		fprintf(t->out, _("none\n"));
	for (int i = 0; i < tk->count; i++) {
		const struct toolkit *k = &tk->items[i];

		if (i)
			cont(t);
		fprintf(t->out, "%s%s %s%s%s%s\n", k->active ? "* " : "", k->real_path,
			k->exists ? (k->version[0] ? k->version : _("version unknown")) : _("MISSING"),
			k->active ? _(" (active: ") : "", k->active ? i18n_text(tk->active_reason) : "", k->active ? _(")") : "");
		if (detail > 1 && k->version_source[0]) {
			cont(t);
			fprintf(t->out, _("  version from %s\n"), k->version_source);
		}
	}
	if (tk->count > 0 && !tk->nvcc_on_path[0]) {
		cont(t);
		fprintf(t->out, _("no nvcc on PATH\n"));
	}
	if (tk->extension_build[0]) {
		cont(t);
		fprintf(t->out, _("CUDA extension build: %s\n"), tk->extension_build);
	}
	denied_line(t, &tk->status);
}

static void cudnn_lines(struct textfmt *t, const struct facts *f)
{
	const struct cudnn_facts *c = &f->cudnn;

	label(t, N_("cudnn"));
	if (c->count == 0)
		fprintf(t->out, _("none\n"));
	for (int i = 0; i < c->count; i++) {
		if (i)
			cont(t);
		fprintf(t->out, "%s %s %s (%s)", c->items[i].kind == CUDNN_HEADER ? _("header ") : _("library"),
			c->items[i].version, c->items[i].path, c->items[i].where);
		if (c->items[i].cuda_major > 0)
			fprintf(t->out, _(", built for CUDA %d"), c->items[i].cuda_major);
		fputc('\n', t->out);
	}
	denied_line(t, &c->status);
}

/*
 * NAME=value; a search path too wide for the line is broken after its
 * colons, so each directory stays whole and copyable.
 */
static void env_value(struct textfmt *t, const struct env_var *v)
{
	const char *p = v->value;
	int col = 2 + LABEL_WIDTH + (int)strlen(v->name) + 1;

	fprintf(t->out, "%s=", v->name);
	if (v->kind != ENV_PATHS || col + (int)strlen(p) <= t->width) {
		fprintf(t->out, "%s\n", p);
		return;
	}
	while (*p) {
		size_t n = strcspn(p, ":");

		n += p[n] == ':';
		if (col > 2 + LABEL_WIDTH + 2 && col + (int)n > t->width) {
			fputc('\n', t->out);
			cont(t);
			fputs("  ", t->out);
			col = 2 + LABEL_WIDTH + 2;
		}
		fwrite(p, 1, n, t->out);
		col += (int)n;
		p += n;
	}
	fputc('\n', t->out);
}

static void env_lines(struct textfmt *t, const struct facts *f, int detail)
{
	int shown = 0;

	label(t, N_("env"));
	for (int i = 0; i < f->env.count; i++) {
		const struct env_var *v = &f->env.vars[i];

		if (!detail && (strcmp(v->name, "PATH") == 0 || v->kind == ENV_TUNING))
			continue;
		if (shown++)
			cont(t);
		env_value(t, v);
		if (strcmp(v->name, "CUDA_VISIBLE_DEVICES") == 0 && f->env.visible_origin[0]) {
			cont(t);
			fprintf(t->out, _("  set by %s (%s)\n"), f->env.visible_origin, f->env.visible_origin_detail);
		}
	}
	if (!shown)
		fprintf(t->out, _("no CUDA-related variables set\n"));
}

static void cuda_version(char *out, size_t outsz, int v)
{
	if (v > 0)
		snprintf(out, outsz, "%d.%d", v / 1000, (v % 1000) / 10);
	else
		snprintf(out, outsz, "?");
}

/* A number, or _("unknown") for the -1 NVML leaves in what it could not read: never "-1%" or "-1 C". */
static const char *num_or_unknown(char *buf, size_t bufsz, long long v, const char *unit)
{
	if (v < 0)
		return _("unknown");
	snprintf(buf, bufsz, "%lld%s", v, unit);
	return buf;
}

static void nvml_device_lines(struct textfmt *t, const struct runtime_facts *rt, int i)
{
	const struct nvml_device *d = &rt->nvml[i];
	char used[32], total[32], util[16], temp[16], slow[160];

	cont(t);
	fprintf(t->out, _("  nvml:%d %s %s, memory used %s of %s MiB, utilization %s, temperature %s"), i, d->name, d->uuid,
		num_or_unknown(used, sizeof(used), d->mem_used_mib, ""),
		num_or_unknown(total, sizeof(total), d->mem_total_mib, ""),
		num_or_unknown(util, sizeof(util), d->utilization, "%"),
		num_or_unknown(temp, sizeof(temp), d->temperature_c, " C"));
	if (d->fan_percent >= 0)
		fprintf(t->out, _(", fan %d%%"), d->fan_percent);
	if (d->pstate >= 0)
		fprintf(t->out, ", P%d", d->pstate);
	if (gpu_clock_events_text(d->clock_events, GPU_CLOCKS_SLOWDOWNS, slow, sizeof(slow)))
		fprintf(t->out, _(", slowed: %s"), slow);
	fputc('\n', t->out);
	for (int k = 0; k < d->nprocs; k++) {
		const struct gpu_process *p = &d->procs[k];
		char mib[32];

		cont(t);
		fprintf(t->out, _("    pid %u, %s MiB"), p->pid, num_or_unknown(mib, sizeof(mib), p->used_mib, ""));
		if (p->seen)
			fprintf(t->out, ", %s: %s", p->user[0] ? p->user : "uid ?", p->command[0] ? p->command : "?");
		fputc('\n', t->out);
	}
	if (d->procs_total > 0) {
		cont(t);
		fprintf(t->out, _("    %d processes (too many to list)\n"), d->procs_total);
	}
	if (d->nprocs > 0 && rt->procs_foreign_pids) {
		cont(t);
		fprintf(t->out, _("    (pids are the host's: not visible from inside this container)\n"));
	}
}

static void runtime_lines(struct textfmt *t, const struct facts *f, int detail)
{
	const struct runtime_facts *rt = &f->runtime;
	char v[16];

	label(t, N_("runtime"));
	if (!rt->ran) {
		fprintf(t->out, "%s\n", rt->status.reason[0] ? i18n_text(rt->status.reason) : _("driver not called"));
		return;
	}
	if (rt->crashed) {	/* the probe's reason, formatted again from its parts in the reports' language */
		fprintf(t->out, _("%s crashed the helper (signal %d)"), rt->last_call, rt->signal);
		fputc('\n', t->out);
		return;
	}
	if (rt->hung) {
		fprintf(t->out, "%s\n", i18n_text(rt->status.reason));
		return;
	}
	if (rt->nvml_lib.attempted) {
		if (!rt->nvml_lib.loaded)
			fprintf(t->out, _("NVML: cannot load (%s)\n"), rt->nvml_lib.load_error);
		else if (rt->nvml_lib.init)
			fprintf(t->out, _("NVML: init failed, %s\n"), rt->nvml_lib.init_name);
		else {
			cuda_version(v, sizeof(v), rt->nvml_cuda_version);
			fprintf(t->out, _("NVML: driver %s, CUDA %s, %d GPU%s\n"), rt->nvml_driver_version, v, rt->nvml_count,
				rt->nvml_count == 1 ? "" : "s");
		}
		cont(t);
	}
	if (rt->cuda_lib.attempted) {
		if (!rt->cuda_lib.loaded)
			fprintf(t->out, _("CUDA: cannot load (%s)\n"), rt->cuda_lib.load_error);
		else if (rt->cuda_lib.init)
			fprintf(t->out, _("CUDA: cuInit failed, %s\n"), rt->cuda_lib.init_name);
		else {
			cuda_version(v, sizeof(v), rt->cuda_driver_version);
			fprintf(t->out, _("CUDA: driver API %s, %d device%s visible (%.0f ms)\n"), v, rt->cuda_count,
				rt->cuda_count == 1 ? "" : "s", rt->elapsed_ms);
		}
	} else {
		fputc('\n', t->out);
	}
	for (int i = 0; i < rt->cuda_ndev && (detail > 0 || i < 4); i++) {
		const struct cuda_device *d = &rt->cuda[i];

		cont(t);
		fprintf(t->out, _("  cuda:%d %s sm_%d%d, %lld MiB, %d SMs, %s\n"), i, d->name, d->cc_major, d->cc_minor,
			d->mem_total_mib, d->sm_count, d->bus_id);
	}
	for (int i = 0; detail > 0 && i < rt->nvml_ndev; i++)
		nvml_device_lines(t, rt, i);
}

static void python_lines(struct textfmt *t, const struct facts *f, int detail)
{
	const struct python_facts *p = &f->python;
	int shown = 0;

	label(t, N_("python"));
	if (p->count == 0) {
		fprintf(t->out, _("no interpreter found\n"));
		denied_line(t, &p->status);
		return;
	}
	for (int i = 0; i < p->count; i++) {
		const struct python_env *py = &p->envs[i];
		const struct torch_install *tt = py->torch >= 0 ? &p->torches[py->torch] : NULL;

		if (!detail && i != p->selected && !tt)
			continue;
		if (shown++)
			cont(t);
		fprintf(t->out, "%s%s %s", i == p->selected ? "* " : "", py->exe, py->version[0] ? py->version : "?");
		if (tt)
			fprintf(t->out, _(", torch %s (%s%s%s%s%s)"), tt->version,
				tt->cuda[0] ? "CUDA " : tt->hip[0] ? "ROCm " : _("CPU only"), tt->cuda[0] ? tt->cuda : tt->hip,
				tt->user_site ? _(", user site") : "",
				/* on the path through PYTHONPATH or a .pth file, not as a site directory */
				py->torch_from[0] && strcmp(py->torch_from, "site") != 0 ? _(", via ") : "",
				py->torch_from[0] && strcmp(py->torch_from, "site") != 0 ? py->torch_from : "");
		else
			fprintf(t->out, _(", no torch"));
		fputc('\n', t->out);
	}
	denied_line(t, &p->status);
	if (p->deep.ran) {
		const struct torch_deep *d = &p->deep;

		cont(t);
		if (!d->ok || d->error[0]) {
			fprintf(t->out, _("import torch failed: %s\n"), d->error);
			return;
		}
		fprintf(t->out, _("import torch: %s, cuda %s, is_available() = %s (%.0f ms)\n"), d->version,
			d->cuda[0] ? d->cuda : "None", d->available == 1 ? "True" : "False", d->elapsed_ms);
		for (int i = 0; i < d->ndevices; i++) {
			cont(t);
			fprintf(t->out, _("  cuda:%d %s (sm %s): tensor test %s\n"), i, d->devices[i].name, d->devices[i].cc,
				d->devices[i].test);
		}
	}
}

static void platform_lines(struct textfmt *t, const struct facts *f)
{
	const struct container_facts *c = &f->container;

	label(t, N_("platform"));
	if (c->in_container)
		fprintf(t->out, _("container (%s: %s)"), c->runtime, c->evidence);
	else
		fprintf(t->out, _("not in a container"));
	if (c->wsl)
		fprintf(t->out, _("; WSL %d (%s), /dev/dxg %s"), c->wsl_version, c->wsl_evidence, c->dev_dxg ? _("present") : _("missing"));
	fputc('\n', t->out);
	if (f->container_host.engine && f->container_host.status.state == FACT_OK) {
		const struct container_host_facts *h = &f->container_host;

		cont(t);
		fprintf(t->out, _("container engines: %s; NVIDIA Container Toolkit %s"), h->engines,
			h->nvidia_ctk[0] || h->nvidia_container_runtime[0] || h->nvidia_container_runtime_hook[0] ||
			h->nvidia_container_cli[0] ? _("installed") : _("not found"));
		if (h->docker)
			fprintf(t->out, _(", Docker runtime %s"), h->docker_runtime[0] ? h->docker_runtime : _("not registered"));
		fprintf(t->out, _(", %d NVIDIA CDI spec%s\n"), h->ncdi, h->ncdi == 1 ? "" : "s");
	}
}

/* One line: where the kernel log came from and what the NVIDIA driver said in it. */
static void kernlog_lines(struct textfmt *t, const struct facts *f, int detail)
{
	const struct kernlog_facts *k = &f->kernlog;

	if (k->status.state != FACT_OK) {
		if (detail > 0) {
			label(t, N_("kernel log"));
			fprintf(t->out, "%s\n", i18n_text(k->status.reason));
		}
		return;
	}
	label(t, N_("kernel log"));
	fprintf(t->out, _("%s%s: "), k->source, k->this_boot_only ? _(", this boot") : _(", boots not told apart"));
	if (k->nxids) {
		const struct klog_xid *x = &k->xids[k->nxids - 1];

		fprintf(t->out, _("%d Xid event%s, latest Xid %d%s%s"), k->nxids, k->nxids == 1 ? "" : "s", x->xid,
			x->bus_id[0] ? _(" on ") : "", x->bus_id);
	} else {
		fprintf(t->out, _("no Xid event"));
	}
	if (k->gsp_refused)
		fprintf(t->out, _("; the open module refused %s (no GSP)"), k->gsp_bus_id[0] ? k->gsp_bus_id : _("a GPU"));
	if (k->legacy_branch[0])
		fprintf(t->out, _("; %s left to the %s legacy driver"), k->legacy_gpu[0] ? k->legacy_gpu : _("a GPU"), k->legacy_branch);
	if (k->probe_failed)
		fprintf(t->out, _("; nvidia probe failed%s%s"), k->probe_failed_bus_id[0] ? _(" on ") : "", k->probe_failed_bus_id);
	fputc('\n', t->out);
}

/* Slurm's gres.conf, only on a Slurm node: what it promises this node. */
static void gres_lines(struct textfmt *t, const struct facts *f)
{
	const struct gres_facts *g = &f->gres;

	if (g->status.state != FACT_OK)
		return;
	label(t, N_("slurm"));
	if (g->gpus >= 0)
		fprintf(t->out, _("%s promises %s %d GPU%s%s%s%s\n"), g->path, g->node[0] ? g->node : _("this node"), g->gpus,
			g->gpus == 1 ? "" : "s", g->files[0] ? " (File=" : "", g->files, g->files[0] ? ")" : "");
	else
		fprintf(t->out, _("%s promises %s no GPU count%s\n"), g->path, g->node[0] ? g->node : _("this node"),
			g->autodetect ? _(" (AutoDetect: Slurm asks NVML)") : "");
}

/* Every layer's lines, unwrapped: a line is as long as its facts make it. */
static void facts_lines(struct textfmt *t, const struct facts *f, int detail)
{
	system_lines(t, f, detail);
	platform_lines(t, f);
	gpu_lines(t, f);
	driver_lines(t, f, detail);
	kernlog_lines(t, f, detail);
	gres_lines(t, f);
	lib_line(t, N_("libcuda"), &f->libs.cuda, detail);
	if (detail > 0)
		lib_line(t, N_("libnvml"), &f->libs.nvml, detail);
	runtime_lines(t, f, detail);
	toolkit_lines(t, f, detail);
	cudnn_lines(t, f);
	python_lines(t, f, detail);
	env_lines(t, f, detail);
	for (int i = 0; i < f->note_count; i++) {
		label(t, i ? "" : N_("notes"));
		fprintf(t->out, "%s\n", f->notes[i]);
	}
	for (int i = 0; i < f->nlimits; i++) {
		char text[160];

		fact_limit_text(&f->limits[i], text, sizeof(text));
		label(t, i || f->note_count ? "" : N_("notes"));
		fprintf(t->out, "%s\n", text);
	}
}

/*
 * See text_facts.h. Also prints the model's notes and dropped-data counts,
 * under "notes", at every detail. The lines are composed in memory and then
 * broken to the terminal's width after their label, so that no fact (a
 * container engine list, a long path) makes the report wider than its prose.
 */
void text_facts_summary(struct textfmt *t, const struct facts *f, int detail)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct textfmt inner = *t;

	if (!mem) { /* out of memory: the lines as they come, unbroken */
		facts_lines(t, f, detail);
		return;
	}
	inner.out = mem;
	facts_lines(&inner, f, detail);
	if (fclose(mem) == 0 && text)
		tf_reflow(t, text, 2 + LABEL_WIDTH, 2 + LABEL_WIDTH + 2);
	free(text);
}
