/*
 * paste.c - the paste reader: splits text into lines, offers each line to
 * the report readers, and fills the facts model the doctor's rules read.
 */
#include "paste/paste_internal.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "probe/probe_internal.h"
#include "util/i18n.h"
#include "util/str.h"

static const struct {
	const char *name, *what;
} sections[PASTE_NSECTIONS] = {
	[PASTE_OS] = { "os", N_("the operating system") },
	[PASTE_GPU] = { "gpu", N_("the GPU") },
	[PASTE_DRIVER] = { "driver", N_("the driver version") },
	[PASTE_TORCH] = { "torch", N_("the torch build (version and CUDA)") },
	[PASTE_TOOLKIT] = { "toolkit", N_("the CUDA toolkit (nvcc)") },
	[PASTE_CUDNN] = { "cudnn", N_("the cuDNN libraries") },
	[PASTE_KERNLOG] = { "kernel-log", N_("the kernel log") },
	[PASTE_CONTAINER] = { "container", N_("the container or WSL") },
	[PASTE_LIBS] = { "libraries", N_("the loader cache (ldconfig -p)") },
};

/* See paste.h: the caller frees it with paste_free. */
struct paste *paste_new(void)
{
	struct paste *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (!(p->facts = facts_new()) || !(p->klog = calloc(1, sizeof(struct kernlog_scan)))) {
		paste_free(p);
		return NULL;
	}
	str_copy(p->facts->root, sizeof(p->facts->root), "(the paste)");
	p->facts->live = false;
	p->facts->from_paste = true;
	p->facts->python.selected = -1;
	p->facts->toolkits.active = -1;
	p->facts->libs.cuda.chosen = p->facts->libs.nvml.chosen = -1;
	p->facts->kmod.secure_boot = -1;
	p->facts->runtime.nvml_count = p->facts->runtime.cuda_count = -1;
	p->facts->python.deep.available = -1;
	p->run_gpus = p->first_run_gpus = -1;
	p->cuda_available = -1;
	p->smi_gpu = -1;
	return p;
}

/* See paste.h. NULL is fine. */
void paste_free(struct paste *p)
{
	if (!p)
		return;
	facts_free(p->facts);
	free(p->klog);
	free(p);
}

void paste_mark(struct paste *p, enum paste_section s, const struct paste_at *at)
{
	struct paste_line *l = &p->first[s];

	if (!(p->seen & (1u << s))) {
		l->input = at->input;
		l->number = at->number;
		str_copy(l->text, sizeof(l->text), at->line);
	}
	p->seen |= 1u << s;
}

const char *paste_after(const char *line, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(line, prefix, n) == 0 ? line + n : NULL;
}

void paste_word(char *out, size_t outsz, const char *s)
{
	size_t n;

	while (char_is_space((unsigned char)*s))
		s++;
	n = strcspn(s, " \t");
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* The interpreter and torch the paste describes: one of each, made on first need. */
struct torch_install *paste_torch(struct paste *p)
{
	struct python_facts *py = &p->facts->python;

	if (py->count == 0) {
		struct python_env *e = &py->envs[0];

		str_copy(e->exe, sizeof(e->exe), "python");
		str_copy(e->real_exe, sizeof(e->real_exe), "python");
		str_copy(e->found_by, sizeof(e->found_by), "the paste");
		e->on_path = true;
		e->pip = true;	/* a paste cannot show pip missing: assume the usual */
		e->kind = PY_OTHER;
		e->torch = e->torch_shadowed = -1;
		py->count = 1;
		py->selected = 0;
		str_copy(py->selected_reason, sizeof(py->selected_reason), "the paste");
	}
	if (py->ntorch == 0) {
		struct torch_install *t = &py->torches[0];

		str_copy(t->dir, sizeof(t->dir), "the paste");
		str_copy(t->installer, sizeof(t->installer), "unknown");
		py->ntorch = 1;
		py->envs[0].torch = 0;
		str_copy(py->envs[0].torch_from, sizeof(py->envs[0].torch_from), "site");
	}
	return &py->torches[0];
}

/* The release a torch version names: "2.3.0" of "2.3.0+cu121", "1.7.0" of "1.7.0a0+8f9c2b1" or "1.7.0xxxx". */
static void torch_release(const char *version, char *out, size_t outsz)
{
	size_t n = strspn(version, "0123456789.");

	while (n > 0 && version[n - 1] == '.')
		n--;
	str_printf(out, outsz, "%.*s", (int)n, version);
}

/* See paste_internal.h. */
void paste_note_torch_version(struct paste *p, const char *version, bool imported, const struct paste_at *at)
{
	char release[48];
	const char *listed, *other;

	torch_release(version, release, sizeof(release));
	if (!strchr(release, '.'))
		return;
	if (imported && !p->torch_imported[0]) {
		str_copy(p->torch_imported, sizeof(p->torch_imported), release);
		p->torch_imported_line = at->number;
	} else if (!imported && !p->torch_listed[0]) {
		str_copy(p->torch_listed, sizeof(p->torch_listed), release);
		p->torch_listed_line = at->number;
	}
	other = imported ? p->torch_listed : p->torch_imported;
	if (p->torch_versions_differ_named[0] || !other[0] || version_compare(release, other) == 0)
		return;
	listed = imported ? p->torch_listed : release;
	str_printf(p->torch_versions_differ_named, sizeof(p->torch_versions_differ_named),
		   "line %lu lists torch %s, line %lu imports torch %s",
		   imported ? p->torch_listed_line : at->number, listed,
		   imported ? at->number : p->torch_imported_line, imported ? release : p->torch_imported);
	p->torch_versions_differ_line = at->number;
	p->torch_versions_differ_input = at->input;
	str_copy(p->torch_versions_differ_text, sizeof(p->torch_versions_differ_text), at->line ? at->line : "");
}

/* A local tag says which build: +cu121 is CUDA 12.1, +cpu none, +rocm5.7 ROCm. */
void paste_torch_version(struct paste *p, const char *version, bool authoritative, const struct paste_at *at)
{
	struct torch_install *t;
	const char *tag = strchr(version, '+');

	if (!char_is_digit((unsigned char)version[0]))
		return;
	paste_note_torch_version(p, version, authoritative, at);
	t = paste_torch(p);
	if (t->version[0] && !authoritative)
		return;	/* what `import torch` printed wins over package lists */
	str_copy(t->version, sizeof(t->version), version);
	str_copy(t->dist_version, sizeof(t->dist_version), version);
	if (!tag) {
		p->facts->python.status.state = FACT_OK;	/* a torch, build unknown: not yet a seen section */
		if (p->torch_cuda_known)	/* torch.version.cuda came first */
			paste_mark(p, PASTE_TORCH, at);
		return;
	}
	tag++;
	if (str_starts_with(tag, "cu") && str_is_digits(tag + 2) && strlen(tag + 2) >= 3) {
		/* cu121 -> 12.1, cu92 -> 9.2 */
		size_t n = strlen(tag + 2);

		str_printf(t->cuda, sizeof(t->cuda), "%.*s.%s", (int)(n - 1), tag + 2, tag + 2 + n - 1);
	} else if (str_starts_with(tag, "cu") && str_is_digits(tag + 2) && strlen(tag + 2) == 2) {
		str_printf(t->cuda, sizeof(t->cuda), "%c.%c", tag[2], tag[3]);
	} else if (strcmp(tag, "cpu") == 0 || str_starts_with(tag, "cpu.")) {
		t->cuda[0] = '\0';
	} else if (str_starts_with(tag, "rocm")) {
		t->cuda[0] = '\0';
		str_copy(t->hip, sizeof(t->hip), tag + 4);
	} else {
		return;
	}
	p->torch_cuda_known = true;
	paste_mark(p, PASTE_TORCH, at);
}

void paste_torch_cuda(struct paste *p, const char *cuda, const struct paste_at *at)
{
	struct torch_install *t = paste_torch(p);

	if (strcmp(cuda, "None") == 0 || strcmp(cuda, "Could not collect") == 0 || cuda[0] == '\0')
		t->cuda[0] = '\0';
	else if (char_is_digit((unsigned char)cuda[0]))
		str_copy(t->cuda, sizeof(t->cuda), cuda);
	else
		return;
	p->torch_cuda_known = true;
	if (t->version[0])
		paste_mark(p, PASTE_TORCH, at);
}

void paste_driver_version(struct paste *p, const char *version, const struct paste_at *at)
{
	struct runtime_facts *rt = &p->facts->runtime;

	if (!version_is_valid(version) || !strchr(version, '.'))
		return;
	if (!rt->nvml_driver_version[0])
		str_copy(rt->nvml_driver_version, sizeof(rt->nvml_driver_version), version);
	paste_mark(p, PASTE_DRIVER, at);
}

/* See paste_internal.h. */
bool paste_ident_char(int c)
{
	return char_is_alnum(c) || c == '_';
}

void paste_gpu(struct paste *p, int index, const char *name, const char *bus, const struct paste_at *at)
{
	struct pci_facts *pci = &p->facts->pci;
	struct pci_gpu *g = NULL;
	struct kb_gpu kb;
	const char *short_name = name;

	if (!name[0])
		return;
	/* the same GPU seen twice (collect_env's list, then nvidia-smi's table) is one GPU */
	for (int i = 0; i < pci->count && !g; i++)
		if (bus[0] && pci->gpus[i].address[0] ? strcmp(pci->gpus[i].address, bus) == 0 : index == i)
			g = &pci->gpus[i];
	if (!g) {
		if (pci->count >= MAX_PCI_GPUS) {
			facts_dropped(p->facts, "GPUs in the paste", MAX_PCI_GPUS, 1);
			return;
		}
		g = &pci->gpus[pci->count++];
		g->link_width = g->max_link_width = -1;
		g->numa_node = -1;
		g->vendor = 0x10de;
	}
	if (!g->name[0] || strlen(name) > strlen(g->name))
		str_copy(g->name, sizeof(g->name), name);
	if (bus[0])
		str_copy(g->address, sizeof(g->address), bus);
	if (str_starts_with(short_name, "NVIDIA "))
		short_name += strlen("NVIDIA ");
	if (!g->cc[0] && !strstr(name, "...") && kb_gpu_find(short_name, &kb, 1) == 1 && kb.name &&
	    str_casecmp(kb.name, short_name) == 0) {
		str_copy(g->kb_name, sizeof(g->kb_name), kb.name);
		str_copy(g->cc, sizeof(g->cc), kb.cc);
		str_copy(g->arch, sizeof(g->arch), kb.arch);
	}
	paste_mark(p, PASTE_GPU, at);
}

void paste_nvcc_version(struct paste *p, const char *version, const char *source, const struct paste_at *at)
{
	struct toolkit_facts *tk = &p->facts->toolkits;
	struct toolkit *t = &tk->items[0];

	if (!char_is_digit((unsigned char)version[0]))
		return;
	if (tk->count == 0) {
		tk->count = 1;
		tk->active = 0;
		str_copy(t->path, sizeof(t->path), "nvcc (the paste)");
		str_copy(t->real_path, sizeof(t->real_path), t->path);
		str_copy(tk->active_reason, sizeof(tk->active_reason), "the nvcc the paste shows");
		str_copy(tk->nvcc_on_path, sizeof(tk->nvcc_on_path), "nvcc");
		t->exists = t->has_nvcc = t->active = true;
		t->origins = TK_FROM_NVCC_PATH;
	}
	str_copy(t->version, sizeof(t->version), version);
	str_copy(t->version_source, sizeof(t->version_source), source);
	paste_mark(p, PASTE_TOOLKIT, at);
}

void paste_cudnn_library(struct paste *p, const char *path, const struct paste_at *at)
{
	struct cudnn_facts *c = &p->facts->cudnn;
	const char *so = strstr(path, ".so.");
	struct cudnn_item *it;

	for (int i = 0; i < c->count; i++)
		if (strcmp(c->items[i].path, path) == 0)
			return;
	if (c->count >= MAX_CUDNN) {
		c->dropped++;
		facts_dropped(p->facts, "cuDNN libraries in the paste", MAX_CUDNN, 1);
		return;
	}
	it = &c->items[c->count++];
	it->kind = CUDNN_LIBRARY;
	str_copy(it->path, sizeof(it->path), path);
	str_copy(it->where, sizeof(it->where), "the paste");
	if (so)
		str_copy(it->version, sizeof(it->version), so + 4);
	paste_mark(p, PASTE_CUDNN, at);
}

void paste_kernel_release(struct paste *p, const char *release, const struct paste_at *at)
{
	struct system_facts *sys = &p->facts->system;
	struct container_facts *c = &p->facts->container;

	if (!char_is_digit((unsigned char)release[0]))
		return;
	str_copy(sys->kernel_release, sizeof(sys->kernel_release), release);
	paste_mark(p, PASTE_OS, at);
	/* WSL 2 kernels are "...-microsoft-standard-WSL2"; WSL 1 reports the Windows build: "4.4.0-19041-Microsoft" */
	if (str_casestr(release, "microsoft")) {
		c->wsl = true;
		c->wsl_version = strstr(release, "WSL2") || strstr(release, "microsoft-standard") ? 2 :
				 strstr(release, "-Microsoft") ? 1 : 0;
		str_printf(c->wsl_evidence, sizeof(c->wsl_evidence), "kernel release %s (the paste)", release);
		paste_mark(p, PASTE_CONTAINER, at);
	}
}

/* The readers in the order they are offered a line; the first that takes it ends the offer. */
static bool (*const readers[])(struct paste *, const char *, const struct paste_at *) = {
	paste_read_collect_env, paste_read_nvidia_smi, paste_read_nvcc, paste_read_platform, paste_read_kernel,
	paste_read_ldconfig,
	paste_read_container, paste_read_packages, paste_read_torch_print, paste_read_template_fields,
};

/*
 * A cheap test first: every report line the readers take holds a digit, or is one of collect_env's
 * value lines; lines of a log that hold neither (most prose) go no further.
 */
void paste_line(struct paste *p, const char *line, size_t len, int input, unsigned long number)
{
	char buf[PASTE_LINE_MAX], lower[PASTE_LINE_MAX];
	struct paste_at at = { input, number, buf, lower };
	const char *s;
	size_t n;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	/* a NUL inside the line ends it here */
	len = strlen(buf);
	while (len > 0 && (char_is_space((unsigned char)buf[len - 1])))
		buf[--len] = '\0';
	if (len == 0) {
		p->cudnn_list = false;
		return;
	}
	/* reports are often pasted indented (a code block, a quote) */
	for (s = buf; char_is_space((unsigned char)*s); s++)
		;
	for (n = 0; s[n]; n++)
		lower[n] = (char)char_lower((unsigned char)s[n]);
	lower[n] = '\0';
	paste_note_sudo_python(p, s, &at);
	paste_note_ld_library_path(p, s, &at);
	paste_note_visible_devices(p, s, &at);
	paste_note_nouveau_blacklist(p, s, &at);
	paste_note_toolkit_installed(p, s, &at);
	paste_note_graphics_client(p, s, &at);
	paste_note_gpu_named(p, s, &at);
	paste_note_prose_versions(p, s, &at);
	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++)
		if (readers[i](p, s, &at))
			return;
}

/* See paste.h. Lines are split at '\n'; a NUL inside a line ends what is read of it. */
void paste_feed(struct paste *p, const char *text, size_t n, int input, unsigned long line_base)
{
	const char *end = text + n;
	unsigned long number = line_base;

	while (text < end && p->bytes < PASTE_MAX_BYTES) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *stop = nl ? nl : end;

		number++;
		paste_line(p, text, (size_t)(stop - text), input, number);
		p->bytes += (unsigned long long)(stop - text) + (nl ? 1 : 0);
		text = nl ? nl + 1 : end;
	}
}

static void set_status(struct fact_status *st, bool seen)
{
	if (seen)
		fact_status_set(st, FACT_OK, "from the paste");
	else
		fact_status_set(st, FACT_UNKNOWN, "not in the paste");
}

/* See paste.h. Sections no report fills (kernel module, libraries, container host) stay unknown. */
void paste_finish(struct paste *p)
{
	struct facts *f = p->facts;

	paste_take_prose_versions(p);
	set_status(&f->system.status, paste_saw(p, PASTE_OS));
	set_status(&f->pci.status, paste_saw(p, PASTE_GPU));
	set_status(&f->kmod.status, false);
	set_status(&f->kmod.modules_status, false);
	set_status(&f->kmod.on_disk_status, false);
	set_status(&f->libs.ldcache_status, paste_saw(p, PASTE_LIBS));
	set_status(&f->libs.cuda.status, f->libs.cuda.count > 0);
	set_status(&f->libs.nvml.status, f->libs.nvml.count > 0);
	if (paste_saw(p, PASTE_LIBS))
		str_copy(f->libs.ldcache_source, sizeof(f->libs.ldcache_source), "ldconfig -p (the paste)");
	set_status(&f->toolkits.status, paste_saw(p, PASTE_TOOLKIT));
	set_status(&f->cudnn.status, paste_saw(p, PASTE_CUDNN));
	set_status(&f->container_host.status, false);
	set_status(&f->runtime.status, paste_saw(p, PASTE_DRIVER));
	set_status(&f->kernlog.status, paste_saw(p, PASTE_KERNLOG));
	set_status(&f->python.status, paste_saw(p, PASTE_TORCH));
	for (int i = 0; i < f->python.ntorch; i++)
		set_status(&f->python.torches[i].elf_status, false);
	if (paste_saw(p, PASTE_KERNLOG))
		str_copy(f->kernlog.source, sizeof(f->kernlog.source), "the paste");
}

bool paste_saw(const struct paste *p, enum paste_section s)
{
	return p && (p->seen & (1u << s));
}

bool paste_not_linux(const struct paste *p)
{
	const char *id = p->facts->system.os_id;

	return strcmp(id, "windows") == 0 || strcmp(id, "macos") == 0;
}

bool paste_saw_any(const struct paste *p)
{
	return p && p->seen;
}

const char *paste_section_what(enum paste_section s)
{
	return s < PASTE_NSECTIONS ? sections[s].what : "?";
}

const char *paste_section_name(enum paste_section s)
{
	return s < PASTE_NSECTIONS ? sections[s].name : "?";
}
