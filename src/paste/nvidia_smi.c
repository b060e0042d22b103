/*
 * nvidia_smi.c - nvidia-smi's header ("| NVIDIA-SMI 535.54.03   Driver
 * Version: 535.54.03   CUDA Version: 12.2 |"), the GPU rows of its table
 * ("|   0  NVIDIA GeForce RTX 3090     Off  | 00000000:01:00.0  On |"), and
 * `nvidia-smi -L` ("GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-...)"),
 * which collect_env also prints under "GPU models and configuration".
 */
#include "paste/paste_internal.h"

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
			return take_row(p, line, at);
	}
	return false;
}
