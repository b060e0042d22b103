/*
 * fuzz_site_names.c - the names the static torch probe reads from
 * directory listings, not from file contents: torch-*.dist-info (the
 * installed version, and its INSTALLER), nvidia_*.dist-info (the CUDA
 * wheels beside torch) in site-packages, and the *.json files of conda-meta
 * (pytorch-, pytorch-cuda-, cudatoolkit-, cpuonly- records; conda's
 * record files are named NAME-VERSION-BUILD.json and only the name is read).
 *
 * Input: one entry name per line. Each usable name (1 to 255 bytes, no
 * '/', not "." or "..") becomes a directory in the venv's site-packages,
 * holding an INSTALLER file, and an empty file in the venv's conda-meta.
 * Both directories are made afresh for every input.
 */
#include <string.h>

#include "harness.h"

#define CONDA_META HARNESS_VENV "/conda-meta"
#define MAX_NAMES 64

/* A real torch/version.py (torch 2.10 built for CUDA 13.0), so that the probe reads the listings. */
static const char version_py[] = "from typing import Optional\n\n"
				 "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
				 "__version__ = '2.10.0a0+gite67e3d9'\n"
				 "debug = False\n"
				 "cuda: Optional[str] = '13.0'\n"
				 "git_version = 'e67e3d95f3ab863c8b44a6b16ce9f25d40b0d517'\n"
				 "hip: Optional[str] = None\n"
				 "xpu: Optional[str] = None\n";

static void add_name(const char *name)
{
	char path[sizeof(HARNESS_SITE) + 256 + 16];

	strcpy(path, HARNESS_SITE "/");
	strcat(path, name);
	strcat(path, "/INSTALLER");
	harness_write(path, "pip\n", 4);
	strcpy(path, CONDA_META "/");
	strcat(path, name);
	harness_write(path, "", 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const harness_probe_fn probes[] = { probe_python, NULL };
	static char venv[] = "VIRTUAL_ENV=" HARNESS_VENV;
	static char *const env[] = { venv, NULL };
	static int made;
	const char *p = (const char *)data, *end = p + size;
	int n = 0;

	if (!made++)
		harness_make_venv();
	harness_remove(HARNESS_SITE);
	harness_remove(CONDA_META);
	harness_write(HARNESS_SITE "/torch/version.py", version_py, sizeof(version_py) - 1);
	harness_mkdir(CONDA_META);
	while (p < end && n < MAX_NAMES) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((eol ? eol : end) - p);
		char name[256];

		if (len > 0 && len < sizeof(name) && !memchr(p, '/', len) && !memchr(p, '\0', len)) {
			memcpy(name, p, len);
			name[len] = '\0';
			if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
				add_name(name);
				n++;
			}
		}
		p += len + 1;
	}
	harness_run_probes(env, probes);
	return 0;
}
