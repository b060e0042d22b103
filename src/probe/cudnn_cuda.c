/*
 * cudnn_cuda.c - which CUDA major a cuDNN library was built for.
 *
 * NVIDIA builds every cuDNN release once per CUDA major (the archives are
 * named cudnn-linux-x86_64-8.9.7.29_cuda12-archive), and a build for
 * another major than the CUDA in use fails to load or to find its cuBLAS.
 * libcudnn.so.N's own name cannot say which build it is. What can:
 *   - the libraries cuDNN's sub-libraries link against: libcudnn_ops_infer.so.8
 *     of cuDNN 8.x names libcublas.so.11 / libcublasLt.so.11 for CUDA 11
 *     (DT_NEEDED; later releases load cuBLAS at run time, and then say nothing);
 *   - the directory of an unpacked archive (..._cuda11-archive/lib, ..._cuda11.5-archive/lib);
 *   - the Debian/Ubuntu package that installed it: libcudnn8 8.9.7.29-1+cuda12.2,
 *     libcudnn9-cuda-12 (/var/lib/dpkg/status), for libraries under /usr/lib.
 * The first that answers wins; nothing is guessed.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/elf.h"
#include "util/path.h"
#include "util/str.h"

#define DPKG_STATUS "/var/lib/dpkg/status"
#define DPKG_STATUS_MAX_LINES 2000000

/* The N of a name starting with prefix followed by digits (libcublas.so.11 -> 11); 0 when not. */
static int number_after(const char *s, const char *prefix)
{
	int n = 0;

	if (!str_starts_with(s, prefix))
		return 0;
	for (s += strlen(prefix); *s >= '0' && *s <= '9' && n < 1000; s++)
		n = n * 10 + (*s - '0');
	return n;
}

/* The CUDA major a cuDNN library's DT_NEEDED names (cuBLAS, cuBLASLt, the runtime, NVRTC); 0 when none. */
static int needed_cuda_major(const struct rootfs *fs, const char *path)
{
	static const char *const libs[] = { "libcublasLt.so.", "libcublas.so.", "libcudart.so.", "libnvrtc.so." };
	struct elf_dynamic dyn;
	struct error err;

	if (elf_read_dynamic(fs, path, &dyn, &err) < 0)
		return 0;
	for (int i = 0; i < dyn.nneeded; i++)
		for (size_t k = 0; k < sizeof(libs) / sizeof(libs[0]); k++) {
			int n = number_after(dyn.needed[i], libs[k]);

			if (n > 0)
				return n;
		}
	return 0;
}

/* Read through the sub-libraries beside it (cuDNN 8 splits into _infer and _train parts, 9 into ops/cnn/adv/graph). */
static bool from_elf(const struct rootfs *fs, struct cudnn_item *it)
{
	static const char *const subs[] = { "libcudnn_ops_infer.so.", "libcudnn_cnn_infer.so.", "libcudnn_adv_infer.so.",
					     "libcudnn_ops.so.", "libcudnn_cnn.so.", "libcudnn_adv.so.", "libcudnn_graph.so.",
					     "libcudnn.so." };
	char dir[FACT_PATH];
	int major = atoi(it->version);

	path_dirname(it->path, dir, sizeof(dir));
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		char name[64], path[FACT_PATH];
		int n;

		str_printf(name, sizeof(name), "%s%d", subs[i], major);
		if (path_join(path, sizeof(path), dir, name) < 0 || !rootfs_exists(fs, path) ||
		    (n = needed_cuda_major(fs, path)) == 0)
			continue;
		it->cuda_major = n;
		str_printf(it->cuda_major_source, sizeof(it->cuda_major_source), "%s needs CUDA %d libraries (DT_NEEDED)",
			   path, n);
		return true;
	}
	return false;
}

/* "..._cuda11-archive/" or "..._cuda11.5-archive/" in the path: NVIDIA's archive, unpacked. */
static bool from_archive_name(struct cudnn_item *it)
{
	const char *p = it->path;

	while ((p = strstr(p, "_cuda"))) {
		int n = number_after(p, "_cuda");
		const char *q = p + strlen("_cuda");

		while ((*q >= '0' && *q <= '9') || *q == '.')
			q++;
		if (n > 0 && str_starts_with(q, "-archive")) {
			it->cuda_major = n;
			str_printf(it->cuda_major_source, sizeof(it->cuda_major_source), "archive directory %.*s",
				   (int)(q + strlen("-archive") - it->path), it->path);
			return true;
		}
		p = q;
	}
	return false;
}

struct dpkg_cudnn {
	int cudnn_major, cuda_major;
	char package[64], version[64];
};

/* The CUDA major of an installed libcudnnN package: "-cuda-12" in its name, else "+cuda12.2" in its version. */
static void dpkg_finish(struct dpkg_cudnn *cur, bool installed, struct dpkg_cudnn *found, int *nfound)
{
	const char *v = strstr(cur->version, "+cuda"), *n = strstr(cur->package, "-cuda-");

	if (installed && cur->cudnn_major > 0 && *nfound < 4) {
		cur->cuda_major = n ? number_after(n, "-cuda-") : v ? number_after(v, "+cuda") : 0;
		if (cur->cuda_major > 0)
			found[(*nfound)++] = *cur;
	}
	memset(cur, 0, sizeof(*cur));
}

/* The installed libcudnnN runtime packages with a CUDA major (at most 4), from dpkg's status file. */
static int dpkg_cudnn_packages(const struct rootfs *fs, struct dpkg_cudnn *found)
{
	FILE *fp = rootfs_fopen(fs, DPKG_STATUS);
	struct dpkg_cudnn cur = { 0 };
	char line[1024];
	bool installed = false, line_start = true;
	int nfound = 0;
	long lines = 0;

	if (!fp)
		return 0;
	while (lines++ < DPKG_STATUS_MAX_LINES && fgets(line, sizeof(line), fp)) {
		bool whole = strchr(line, '\n') != NULL;

		if (line_start) {
			line[strcspn(line, "\r\n")] = '\0';
			if (!line[0]) {
				dpkg_finish(&cur, installed, found, &nfound);
				installed = false;
			} else if (str_starts_with(line, "Package: ")) {
				str_copy(cur.package, sizeof(cur.package), line + 9);
				/* libcudnn8, libcudnn9-cuda-12: the runtime, not -dev or -static */
				cur.cudnn_major = strstr(line, "-dev") || strstr(line, "-static") ? 0 : number_after(line + 9, "libcudnn");
			} else if (str_starts_with(line, "Version: ")) {
				str_copy(cur.version, sizeof(cur.version), line + 9);
			} else if (str_starts_with(line, "Status: ")) {
				installed = str_ends_with(line, " installed");
			}
		}
		line_start = whole;
	}
	dpkg_finish(&cur, installed, found, &nfound);
	fclose(fp);
	return nfound;
}

static bool from_dpkg(struct cudnn_item *it, const struct dpkg_cudnn *pkgs, int npkgs)
{
	if (!str_starts_with(it->path, "/usr/lib/") && !str_starts_with(it->path, "/lib/"))
		return false;	/* where the packages install; a copy elsewhere is not theirs */
	for (int i = 0; i < npkgs; i++) {
		if (pkgs[i].cudnn_major != atoi(it->version))
			continue;
		it->cuda_major = pkgs[i].cuda_major;
		str_printf(it->cuda_major_source, sizeof(it->cuda_major_source), "%s: %s %s", DPKG_STATUS,
			   pkgs[i].package, pkgs[i].version);
		return true;
	}
	return false;
}

/* See probe_internal.h. */
void cudnn_cuda_builds(struct cudnn_facts *c, const struct rootfs *fs)
{
	struct dpkg_cudnn pkgs[4];
	int npkgs = -1;

	for (int i = 0; i < c->count; i++) {
		struct cudnn_item *it = &c->items[i];

		if (it->kind != CUDNN_LIBRARY || atoi(it->version) <= 0)
			continue;
		if (from_elf(fs, it) || from_archive_name(it))
			continue;
		if (npkgs < 0)
			npkgs = dpkg_cudnn_packages(fs, pkgs);
		from_dpkg(it, pkgs, npkgs);
	}
}
