/*
 * collect_env.c - `python -m torch.utils.collect_env`, as
 * torch/utils/collect_env.py prints it: "Key: value" lines (env_info_fmt),
 * multi-line values (GPU models, cuDNN's "Probably one of the following:")
 * on the lines after, and "[pip3] name==version" / "[conda] name version
 * build channel" package lines (read by packages.c).
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

/* "Ubuntu 22.04.4 LTS (x86_64)", "Mac OSX 10.15.7 (x86_64)", "Microsoft Windows 11 Pro" */
static void take_os(struct paste *p, const char *v, const struct paste_at *at)
{
	struct system_facts *sys = &p->facts->system;
	const char *open = strrchr(v, '(');
	size_t n = strlen(v);

	if (!v[0] || strcmp(v, "Could not collect") == 0)
		return;
	if (str_starts_with(v, "Microsoft Windows"))
		str_copy(sys->os_id, sizeof(sys->os_id), "windows");
	else if (str_starts_with(v, "Mac OSX") || str_starts_with(v, "macOS"))
		str_copy(sys->os_id, sizeof(sys->os_id), "macos");
	if (open && v[n - 1] == ')' && open > v) {
		str_printf(sys->os_pretty, sizeof(sys->os_pretty), "%.*s", (int)(open - v - 1), v);
		str_printf(sys->arch, sizeof(sys->arch), "%.*s", (int)(v + n - 1 - open - 1), open + 1);
	} else {
		str_copy(sys->os_pretty, sizeof(sys->os_pretty), v);
	}
	paste_mark(p, PASTE_OS, at);
}

/* "Linux-5.15.107+-x86_64-with-glibc2.31": platform.platform(), the kernel release between system and machine */
static void take_platform(struct paste *p, const char *v, const struct paste_at *at)
{
	static const char *const machines[] = { "-x86_64", "-aarch64", "-ppc64le", "-s390x" };
	const char *rel = paste_after(v, "Linux-");
	char release[FACT_TEXT];

	if (!rel) {
		/* "Windows-10-10.0.22631-SP0", "macOS-14.1-arm64-arm-64bit" */
		if (str_starts_with(v, "Windows-") || str_starts_with(v, "macOS-")) {
			str_copy(p->facts->system.os_id, sizeof(p->facts->system.os_id), v[0] == 'W' ? "windows" : "macos");
			paste_mark(p, PASTE_OS, at);
		}
		return;
	}
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		const char *m = strstr(rel, machines[i]);

		if (m) {
			str_printf(release, sizeof(release), "%.*s", (int)(m - rel), rel);
			paste_kernel_release(p, release, at);
			if (!p->facts->system.arch[0])
				str_copy(p->facts->system.arch, sizeof(p->facts->system.arch), machines[i] + 1);
			return;
		}
	}
}

/* "3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0] (64-bit runtime)" or, before 1.4, "3.7" */
static void take_python(struct paste *p, const char *v)
{
	struct python_facts *py = &p->facts->python;
	char word[32];
	int dots = 0;
	size_t i;

	paste_word(word, sizeof(word), v);
	for (i = 0; word[i] && (char_is_digit((unsigned char)word[i]) || word[i] == '.'); i++)
		if (word[i] == '.' && ++dots == 2)
			break;
	word[i] = '\0';
	if (!word[0] || !strchr(word, '.'))
		return;
	/* the first interpreter slot is the one a torch of the paste gets (paste.c) */
	str_copy(py->envs[0].version, sizeof(py->envs[0].version), word);
}

bool paste_read_collect_env(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *v;

	if (p->cudnn_list) {
		/* "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.2" one per line, until a blank line */
		if ((line[0] == '/' || strchr(line, '\\')) && str_casestr(line, "cudnn")) {
			paste_cudnn_library(p, line, at);
			return true;
		}
		p->cudnn_list = false;
	}
	if ((v = paste_after(line, "PyTorch version: "))) {
		p->in_collect_env = true;
		paste_torch_version(p, v, true, at);
		return true;
	}
	if ((v = paste_after(line, "Is CUDA available: "))) {
		if (strcmp(v, "True") == 0 || strcmp(v, "Yes") == 0)
			p->cuda_available = 1;
		else if (strcmp(v, "False") == 0 || strcmp(v, "No") == 0)
			p->cuda_available = 0;
		p->cuda_available_line = at->number;
		return true;
	}
	if ((v = paste_after(line, "Is debug build: "))) {
		if (strcmp(v, "True") == 0 || strcmp(v, "Yes") == 0)
			p->facts->python.torches[0].debug = true;
		return true;
	}
	if ((v = paste_after(line, "CUDA used to build PyTorch: "))) {
		/* "None" for a CPU build, "Could not collect" too (torch.version.cuda is None); "N/A" without torch */
		if (strcmp(v, "N/A") != 0 && p->facts->python.ntorch > 0)
			paste_torch_cuda(p, v, at);
		return true;
	}
	if ((v = paste_after(line, "ROCM used to build PyTorch: "))) {
		if (char_is_digit((unsigned char)v[0]) && p->facts->python.ntorch > 0) {
			str_copy(p->facts->python.torches[0].hip, sizeof(p->facts->python.torches[0].hip), v);
			p->facts->python.torches[0].cuda[0] = '\0';
			paste_mark(p, PASTE_TORCH, at);
		}
		return true;
	}
	if ((v = paste_after(line, "OS: "))) {
		take_os(p, v, at);
		return true;
	}
	if ((v = paste_after(line, "Libc version: glibc-"))) {
		str_copy(p->facts->system.glibc_version, sizeof(p->facts->system.glibc_version), v);
		return true;
	}
	if ((v = paste_after(line, "Python version: "))) {
		take_python(p, v);
		return true;
	}
	if ((v = paste_after(line, "Python platform: "))) {
		take_platform(p, v, at);
		return true;
	}
	if ((v = paste_after(line, "CUDA runtime version: "))) {
		/* collect_env runs `nvcc --version` for this: the toolkit's version, not torch's */
		paste_nvcc_version(p, v, "nvcc -V (the paste)", at);
		return true;
	}
	if ((v = paste_after(line, "GPU models and configuration: "))) {
		/* one GPU on this line, several on the lines after it (read as `nvidia-smi -L` lines) */
		if (str_starts_with(v, "GPU "))
			paste_read_nvidia_smi(p, v, at);
		return true;
	}
	if ((v = paste_after(line, "Nvidia driver version: "))) {
		paste_driver_version(p, v, at);
		return true;
	}
	if ((v = paste_after(line, "cuDNN version: "))) {
		if (str_starts_with(v, "Probably one of the following"))
			p->cudnn_list = true;
		else if (v[0] == '/' || strchr(v, '\\'))
			paste_cudnn_library(p, v, at);
		return true;
	}
	if ((v = paste_after(line, "[pip3] ")) || (v = paste_after(line, "[pip] ")) || (v = paste_after(line, "[conda] ")))
		return paste_read_packages(p, v, at);
	return false;
}
