/*
 * kb.h - queries over the knowledge tables compiled in from the data/ tables.
 *
 * Rules ask these questions instead of carrying version literals. Every
 * answer can name its source row, so a finding can cite where a number
 * came from.
 */
#ifndef GD_KB_KB_H
#define GD_KB_KB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kb_answer {
	char value[64];		/* the answer, e.g. "550.54.14" or "12.2" */
	const char *source;	/* the row's source column (static) */
	const char *release;	/* the row's release name (static), may be NULL */
};

/* Minimum Linux driver for a CUDA toolkit version ("12.4", "12.4.131"): the GA row. */
int kb_cuda_min_driver(const char *cuda_version, struct kb_answer *out);

/*
 * Minimum Linux driver for an installed toolkit's exact release: "12.4.1" is 12.4 Update 1 (550.54.15), "11.0.3"
 * the row that names it. A version the table has no row for (a build number such as 12.4.131) gets the GA row.
 */
int kb_cuda_release_min_driver(const char *cuda_version, struct kb_answer *out);

/* The newest CUDA major.minor whose toolkit minimum this Linux driver meets. */
int kb_cuda_max_for_driver(const char *driver, struct kb_answer *out);

/* Minimum Linux driver for minor-version compatibility within a CUDA major. */
int kb_cuda_minor_compat_driver(int cuda_major, struct kb_answer *out);

/* The oldest CUDA major the table knows a minor-compatibility floor for. */
int kb_cuda_oldest_compat_major(void);

/* Raw access for table checks and `gpudoctor kb`. */
struct kb_table {
	const char *name;
	const char *const *columns;
	size_t ncolumns;
	const char *const *cells;	/* nrows * ncolumns */
	const int *lines;		/* line numbers in data/NAME.tsv */
	size_t nrows;
};

/* The compiled tables (build/gen/kb_NAME.c from data/NAME.tsv). */
extern const struct kb_table kb_table_cuda_driver, kb_table_cuda_archs, kb_table_cudnn, kb_table_error_codes,
	kb_table_gpus, kb_table_gpu_peaks, kb_table_torch_releases,
	kb_table_torch_variants, kb_table_torch_archs, kb_table_explain_signatures, kb_table_xid,
	kb_table_sm_throughput, kb_table_torch_companions, kb_table_arch_support, kb_table_driver_install,
	kb_table_cuda_images, kb_table_image_python, kb_table_cuda_sublibs, kb_table_explain_alternatives;

/* A row of data/gpus.tsv; strings are static. */
struct kb_gpu {
	size_t row;
	const char *pci_id, *name, *cc, *arch, *segment, *source;
};

/* Datasheet peaks (dense); "" where the table has no value. */
struct kb_gpu_peaks {
	const char *fp32_tflops, *tf32_tflops, *fp16_tflops, *bf16_tflops, *mem_bw_gbs, *source;
};

int kb_gpu_by_pci_id(unsigned device, struct kb_gpu *out);
/* GPUs whose name has every word of query (or the PCI id it names); shortest name first. */
int kb_gpu_find(const char *query, struct kb_gpu *out, int max);
int kb_gpu_peak_rates(const char *name, struct kb_gpu_peaks *out);
/* Column index by name, or -1. */
int kb_column(const struct kb_table *t, const char *name);
const char *kb_cell(const struct kb_table *t, size_t row, int column);
/* The cell of a row in the column of that name ("" when there is none). */
const char *kb_field(const struct kb_table *t, size_t row, const char *column);

/* PyTorch releases (data/torch_releases.tsv); strings are static, "" when unknown. */
struct kb_torch_release {
	size_t row;
	const char *version, *python, *default_variant, *released, *source;
};

/* One official wheel variant of a release (data/torch_variants.tsv). */
struct kb_torch_variant {
	size_t row;
	const char *torch, *variant, *cuda, *cudnn, *index_url, *conda, *source;
	const char *archs;	/* TORCH_CUDA_ARCH_LIST, NULL when the table has none */
};

struct kb_torch_choice {
	struct kb_torch_release release;
	struct kb_torch_variant variant;
	struct kb_answer min_driver;
};

enum kb_arch_fit {
	KB_ARCH_UNKNOWN,	/* no arch list for this build */
	KB_ARCH_NONE,		/* no kernels for this GPU */
	KB_ARCH_PTX,		/* only through JIT compilation of PTX */
	KB_ARCH_SASS,		/* compiled kernels run as they are */
};

int kb_torch_release(const char *version, struct kb_torch_release *out);
int kb_torch_variants(const char *version, struct kb_torch_variant *out, int max);
const char *kb_torch_arch_list(const char *version, const char *variant);
enum kb_arch_fit kb_arch_fit(const char *archs, const char *cc);
/*
 * For compute capability cc: the newest release of the arch table, and the newest release (with its variant)
 * that has a Linux CUDA wheel running on cc, "" when none has. Strings are static.
 */
void kb_torch_releases_for_cc(const char *cc, const char **newest, const char **fits, const char **variant);
bool kb_python_supported(const char *list, const char *python);
int kb_torch_pip_command(const struct kb_torch_variant *v, char *out, size_t outsz);
int kb_torch_variant_min_driver(const struct kb_torch_variant *v, struct kb_answer *out);
/*
 * The newest release and CUDA variant that runs on this driver, has kernels
 * (or PTX) for compute capability cc, and exists for this Python. Any of
 * the three may be NULL for "any". -1 when nothing fits.
 */
int kb_torch_for(const char *driver, const char *cc, const char *python, struct kb_torch_choice *out);

/* What a machine needs of a torch wheel; fields left NULL/0 ask nothing. */
#define KB_TORCH_MAX_GPUS 8
struct kb_torch_need {
	const char *driver;			/* the installed driver, NULL: any */
	const char *ccs[KB_TORCH_MAX_GPUS];	/* every GPU's compute capability ("8.6") */
	int nccs;
	const char *python;			/* "3.11", NULL: any */
	bool vision, audio;			/* torchvision / torchaudio are installed and must move along */
	bool oldest_driver;			/* of a release's fitting variants, the one the most drivers run */
};

/* Why a variant does or does not fit, the first reason found in this order. */
enum kb_torch_verdict {
	KB_TORCH_FITS,
	KB_TORCH_CPU_BUILD,		/* no CUDA in it */
	KB_TORCH_UNKNOWN_PYTHON,	/* no data: the release's Python list */
	KB_TORCH_NO_PYTHON,		/* no wheel for this Python */
	KB_TORCH_UNKNOWN_ARCHS,		/* no data: the variant's architecture list */
	KB_TORCH_NO_KERNELS,		/* neither code nor PTX for a GPU */
	KB_TORCH_DRIVER_TOO_OLD,	/* the driver is older than the variant needs */
	KB_TORCH_UNKNOWN_COMPANION,	/* no data: the matching torchvision/torchaudio */
};

/* One variant judged against a need. Strings are static. */
struct kb_torch_fit {
	struct kb_torch_release release;
	struct kb_torch_variant variant;
	enum kb_torch_verdict verdict;
	struct kb_answer min_driver;	/* what it needs: with PTX JIT, the toolkit's own minimum */
	bool ptx;			/* a GPU runs it only through PTX JIT */
	const char *vision, *audio;	/* the matching companions, "" when unknown */
};

/* Judge variant v of release rel; never fails (the verdict says why not). */
void kb_torch_judge(const struct kb_torch_release *rel, const struct kb_torch_variant *v,
		    const struct kb_torch_need *need, struct kb_torch_fit *out);
/* A sentence for a verdict: "no wheel for Python 3.8", "no data on its architectures". */
const char *kb_torch_verdict_text(enum kb_torch_verdict verdict);

/*
 * The newest fitting release, its fitting variant with the newest CUDA.
 * Releases newer than the answer that were passed over for lack of data
 * are listed in unknown ("2.10.0 cu126: no data on its architectures"), at
 * most max_unknown. -1 when nothing fits.
 */
int kb_torch_newest(const struct kb_torch_need *need, struct kb_torch_fit *out, char unknown[][96], int max_unknown,
		    int *nunknown);
/* The fitting variant of one release (the newest CUDA among them); -1 when none fits. */
int kb_torch_in_release(const char *version, const struct kb_torch_need *need, struct kb_torch_fit *out);

/* The oldest release newer than `after` with a fitting variant (the smallest step up); -1 when none. */
int kb_torch_nearest(const char *after, const struct kb_torch_need *need, struct kb_torch_fit *out);

/* A library a CUDA library loads itself at run time (data/cuda_sublibs.tsv); strings are static. */
struct kb_sublib {
	const char *child;	/* its soname; a trailing '*': the file of that prefix beside the parent, or its DT_NEEDED */
	bool dlopen;		/* loaded by dlopen (else through the parent's DT_NEEDED) */
	const char *runpath;	/* the parent's DT_RUNPATH as shipped ("$ORIGIN"), "" for none: for an unreadable parent */
	const char *source;
};

/* The libraries the library with soname parent loads, in the table's order; at most max, the count returned. */
int kb_cuda_sublibs(const char *parent, struct kb_sublib *out, int max);

/* torchvision and torchaudio released with a torch version (data/torch_companions.tsv); "" unknown. -1 no row. */
int kb_torch_companions(const char *version, const char **vision, const char **audio, const char **source);

/* When an architecture stops being served (data/arch_support.tsv); strings static, "" = still served. */
struct kb_arch_support {
	size_t row;
	const char *sm, *arch, *last_torch, *last_torch_variant, *last_cuda_toolkit, *last_driver_branch, *note, *source;
};
int kb_arch_support(const char *cc, struct kb_arch_support *out);

/* A row of data/driver_install.tsv: one way to install the driver on a distribution family. Strings static. */
struct kb_driver_install {
	size_t row;
	const char *distro, *releases, *flavour, *branch, *serves, *kernel, *steps, *setup, *note, *source;
};
/* The rows of a distribution family ("ubuntu", "rhel"...) in the table's order of preference; returns how many. */
int kb_driver_install_rows(const char *distro, struct kb_driver_install *out, int max);
/* Whether os-release's VERSION_ID is in a releases cell ("22.04,24.04", "9" also matches "9.4", "*" anything). */
bool kb_release_matches(const char *list, const char *version_id);
/* Whether compute capability cc ("8.6") is in a serves cell ("5.0-9.0", "7.5-", "-"). */
bool kb_cc_in_range(const char *range, const char *cc);

/* A row of data/cuda_images.tsv: an nvidia/cuda image set. */
struct kb_cuda_image {
	size_t row;
	const char *cuda, *os, *flavours, *example_tag, *note, *source;
};
/*
 * The newest image set with a base flavour on os ("ubuntu22.04") whose CUDA has this major and is at most
 * limit ("12.4", a major.minor; NULL: any); -1 when none.
 */
int kb_cuda_image_at_most(const char *os, int major, const char *limit, struct kb_cuda_image *out);

/* A row of data/cuda_archs.tsv: when nvcc gained and lost an sm_XX target. */
struct kb_sm {
	size_t row;
	const char *sm, *arch, *added_in, *deprecated_in, *removed_in, *source;
};

enum kb_toolkit_fit {
	KB_TOOLKIT_UNKNOWN,
	KB_TOOLKIT_OK,
	KB_TOOLKIT_DEPRECATED,	/* still compiles, with a warning */
	KB_TOOLKIT_TOO_OLD,	/* the toolkit predates the architecture */
	KB_TOOLKIT_REMOVED,	/* the toolkit dropped the architecture */
};

int kb_sm_support(const char *cc, struct kb_sm *out);
/* Can a toolkit of this CUDA version compile for compute capability cc? */
enum kb_toolkit_fit kb_toolkit_fit(const char *cuda, const char *cc, struct kb_sm *sm);
/*
 * The newest cuDNN of a major that a PyTorch wheel for a CUDA major pinned
 * ("8.9.2.26" for cuDNN 8, CUDA 12): a version of the nvidia-cudnn-cuNN
 * wheel that exists. out->release is that torch release. -1 when none.
 */
int kb_cudnn_wheel(int cudnn_major, int cuda_major, struct kb_answer *out);
/* The newest cuDNN (major.minor) that ships builds for a CUDA major. */
int kb_cudnn_for_cuda(int cuda_major, struct kb_answer *out);
/*
 * The CUDA majors NVIDIA built a cuDNN release for ("11,12" for 8.9.7), from its MAJOR.MINOR row of
 * data/cudnn.tsv; -1 when the version has no minor, is not listed, or its row does not say.
 */
int kb_cudnn_cuda_majors(const char *cudnn, struct kb_answer *out);

/* A status code of the CUDA driver API, the runtime or NVML (data/error_codes.tsv). */
struct kb_error {
	size_t row;
	const char *api, *name, *value, *meaning, *note, *source;
};

/* Codes matching a number ("34", every API) or an exact name; returns how many. */
int kb_error_lookup(const char *code, struct kb_error *out, int max);

#endif
