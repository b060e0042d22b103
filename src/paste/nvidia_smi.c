/*
 * nvidia_smi.c - nvidia-smi's header ("| NVIDIA-SMI 535.54.03   Driver
 * Version: 535.54.03   CUDA Version: 12.2 |"), the GPU rows of its table
 * ("|   0  NVIDIA GeForce RTX 3090     Off  | 00000000:01:00.0  On |"), and
 * `nvidia-smi -L` ("GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-...)"),
 * which collect_env also prints under "GPU models and configuration".
 * The row under each GPU row gives its memory, temperature, P-state and
 * utilisation, and the Processes table who holds the memory: they fill
 * the driver's device list (runtime.nvml), as NVML would report it.
 */
#include "paste/paste_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

/* "CUDA Version: 12.2" -> 12020, as NVML reports it */
static int cuda_version_number(const char *v)
{
	int major = atoi(v), minor = strchr(v, '.') ? atoi(strchr(v, '.') + 1) : 0;

	return major > 0 ? major * 1000 + minor * 10 : 0;
}

static bool take_header(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *d = strstr(line, "Driver Version: "), *c = strstr(line, "CUDA Version: ");
	char word[FACT_VER];

	if (!d || !strstr(line, "NVIDIA-SMI"))
		return false;
	paste_word(word, sizeof(word), d + strlen("Driver Version: "));
	paste_driver_version(p, word, at);
	if (c) {
		paste_word(word, sizeof(word), c + strlen("CUDA Version: "));
		p->facts->runtime.nvml_cuda_version = cuda_version_number(word);
	}
	return true;
}

/* "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-1f9e...)" */
static bool take_list(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *v = paste_after(line, "GPU "), *colon;
	char name[FACT_TEXT];
	const char *uuid;

	if (!v || !char_is_digit((unsigned char)*v) || !(colon = strstr(v, ": ")) || colon - v > 3)
		return false;
	colon += 2;
	uuid = strstr(colon, " (UUID: ");
	str_printf(name, sizeof(name), "%.*s", (int)(uuid ? uuid - colon : (long)strlen(colon)), colon);
	paste_gpu(p, atoi(v), name, "", at);
	return true;
}

/* A cell of a "|"-separated row, trimmed. */
static void cell(const char *row, int k, char *out, size_t outsz)
{
	const char *s = row;

	for (int i = 0; i <= k && s; i++)
		s = strchr(s + (i ? 1 : 0), '|');
	if (!s) {
		out[0] = '\0';
		return;
	}
	s++;
	str_printf(out, outsz, "%.*s", (int)strcspn(s, "|"), s);
	str_copy(out, outsz, str_trim(out));
}

/* "|   0  NVIDIA GeForce RTX 3090     Off  | 00000000:01:00.0  On |                  N/A |" */
static bool take_row(struct paste *p, const char *line, const struct paste_at *at)
{
	char first[FACT_TEXT], second[64], name[FACT_TEXT], bus[32];
	const char *s;
	size_t n;
	int index;

	cell(line, 0, first, sizeof(first));
	cell(line, 1, second, sizeof(second));
	if (!char_is_digit((unsigned char)first[0]))
		return false;
	index = atoi(first);
	s = first + strspn(first, "0123456789");
	if (!char_is_space((unsigned char)*s))
		return false;
	while (char_is_space((unsigned char)*s))
		s++;
	/* the name runs to the persistence mode (On/Off) or, in the newer layout, the TCC/WDDM mode */
	str_copy(name, sizeof(name), s);
	n = strlen(name);
	while (n > 0 && !char_is_space((unsigned char)name[n - 1]))
		n--;
	while (n > 0 && char_is_space((unsigned char)name[n - 1]))
		n--;
	name[n] = '\0';
	paste_word(bus, sizeof(bus), second);
	if (strlen(bus) < 7 || bus[strlen(bus) - 2] != '.')
		bus[0] = '\0';	/* not a bus id: "N/A" or a layout we do not read */
	/* "00000000:01:00.0" is the domain nvidia-smi prints with 8 digits; sysfs names use 4 */
	if (strlen(bus) == 16)
		memmove(bus, bus + 4, strlen(bus + 4) + 1);
	if (!name[0])
		return false;
	paste_gpu(p, index, name, bus, at);
	p->smi_gpu = index;
	return true;
}

/* NVML's entry for the table's GPU index, what the table does not say unknown; NULL past the bound. */
static struct nvml_device *smi_device(struct paste *p, int index)
{
	struct runtime_facts *rt = &p->facts->runtime;

	if (index < 0 || index >= MAX_RT_DEVICES) {
		facts_dropped(p->facts, "GPUs in nvidia-smi's table", MAX_RT_DEVICES, 1);
		return NULL;
	}
	while (rt->nvml_ndev <= index)
		nvml_device_unknown(&rt->nvml[rt->nvml_ndev++]);
	return &rt->nvml[index];
}

/* "1234MiB" -> 1234; -1 when the word is not a MiB count ("N/A" on Windows' WDDM) */
static long long mib(const char *w)
{
	char *end;
	long long v = strtoll(w, &end, 10);

	return end != w && strcmp(end, "MiB") == 0 && v >= 0 ? v : -1;
}

/*
 * The row under a GPU row: "| 30%   34C    P8    22W / 350W |   1234MiB / 24576MiB |      0%      Default |"
 * (the fan, N/A on passively cooled GPUs, may be missing in older layouts).
 */
static bool take_usage_row(struct paste *p, const char *line)
{
	char c0[FACT_TEXT], c1[64], c2[64], used[32], total[32], w[32];
	const char *slash, *s;
	struct nvml_device *d;

	cell(line, 0, c0, sizeof(c0));
	cell(line, 1, c1, sizeof(c1));
	cell(line, 2, c2, sizeof(c2));
	if (!(slash = strchr(c1, '/')))
		return false;
	paste_word(used, sizeof(used), c1);
	s = slash + 1;
	while (char_is_space((unsigned char)*s))
		s++;
	paste_word(total, sizeof(total), s);
	if (mib(used) < 0 || mib(total) <= 0 || !(d = smi_device(p, p->smi_gpu)))
		return false;
	d->mem_used_mib = mib(used);
	d->mem_total_mib = mib(total);
	for (s = c0; *s; s += strcspn(s, " ")) {
		while (*s == ' ')
			s++;
		paste_word(w, sizeof(w), s);
		if (w[0] == 'P' && char_is_digit((unsigned char)w[1]))
			d->pstate = atoi(w + 1);
		else if (char_is_digit((unsigned char)w[0]) && w[strlen(w) - 1] == 'C')
			d->temperature_c = atoi(w);
	}
	paste_word(w, sizeof(w), c2);
	if (char_is_digit((unsigned char)w[0]) && strchr(w, '%'))
		d->utilization = atoi(w);
	p->smi_gpu = -1;
	return true;
}

/* A process type in the table: C compute, G graphics, C+G, M (MPS), M+C. */
static bool process_type(const char *w)
{
	return strcmp(w, "C") == 0 || strcmp(w, "G") == 0 || strcmp(w, "C+G") == 0 || strcmp(w, "M") == 0 ||
	       strcmp(w, "M+C") == 0;
}

/*
 * A row of the Processes table: "|    0   N/A  N/A      1234      C   python                 4000MiB |"
 * (GI and CI ids since 450; before them "|    0      1234      C   python      4000MiB |").
 */
static bool take_process_row(struct paste *p, const char *line)
{
	char words[12][FACT_TEXT / 2], body[FACT_TEXT * 2];
	int n = 0, type = -1;
	const char *s;
	struct nvml_device *d;
	struct gpu_process *proc;
	long long used;

	cell(line, 0, body, sizeof(body));
	for (s = body; *s && n < 12; n++) {
		paste_word(words[n], sizeof(words[n]), s);
		s += strcspn(s, " \t");
		while (char_is_space((unsigned char)*s))
			s++;
	}
	for (int i = 2; i < n - 1 && type < 0; i++)
		if (process_type(words[i]) && str_is_digits(words[i - 1]))
			type = i;
	if (type < 0 || !str_is_digits(words[0]))
		return false;
	used = mib(words[n - 1]);
	if (!(d = smi_device(p, atoi(words[0]))))
		return true;
	if (d->nprocs >= MAX_RT_PROCS) {
		d->procs_total = d->procs_total > 0 ? d->procs_total + 1 : d->nprocs + 1;
		return true;
	}
	proc = &d->procs[d->nprocs++];
	memset(proc, 0, sizeof(*proc));
	proc->pid = (unsigned)strtoul(words[type - 1], NULL, 10);
	proc->used_mib = used;
	proc->uid = -1;
	/* the name nvidia-smi shows, cut short by it ("...n/python3") */
	for (int i = type + 1; i < n - 1; i++) {
		size_t len = strlen(proc->command);

		snprintf(proc->command + len, sizeof(proc->command) - len, "%s%s", len ? " " : "", words[i]);
	}
	return true;
}

/* /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.223.02  Sat Oct  7 ..." */
static bool take_nvrm_version(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *v = strstr(line, "NVRM version: NVIDIA "), *m;
	char word[FACT_VER];

	if (!v || !(m = strstr(v, "Kernel Module ")))
		return false;
	paste_word(word, sizeof(word), m + strlen("Kernel Module "));
	paste_driver_version(p, word, at);
	return true;
}

bool paste_read_nvidia_smi(struct paste *p, const char *line, const struct paste_at *at)
{
	if (take_nvrm_version(p, line, at))
		return true;
	if (take_header(p, line, at))
		return true;
	if (take_list(p, line, at))
		return true;
	if (line[0] == '|') {
		if (strstr(line, "GPU  Name")) {
			p->smi_table = true;
			p->smi_processes = false;
			return true;
		}
		if (strstr(line, "Processes:")) {
			p->smi_table = false;
			p->smi_processes = true;
			return true;
		}
		if (p->smi_table)
			return take_row(p, line, at) || (p->smi_gpu >= 0 && take_usage_row(p, line));
		if (p->smi_processes)
			return take_process_row(p, line);
	}
	return false;
}
