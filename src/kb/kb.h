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
	kb_table_sm_throughput;

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
bool kb_python_supported(const char *list, const char *python);
int kb_torch_pip_command(const struct kb_torch_variant *v, char *out, size_t outsz);
int kb_torch_variant_min_driver(const struct kb_torch_variant *v, struct kb_answer *out);
/*
 * The newest release and CUDA variant that runs on this driver, has kernels
 * (or PTX) for compute capability cc, and exists for this Python. Any of
 * the three may be NULL for "any". -1 when nothing fits.
 */
int kb_torch_for(const char *driver, const char *cc, const char *python, struct kb_torch_choice *out);

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
/* The newest cuDNN (major.minor) that ships builds for a CUDA major. */
int kb_cudnn_for_cuda(int cuda_major, struct kb_answer *out);

/* A status code of the CUDA driver API, the runtime or NVML (data/error_codes.tsv). */
struct kb_error {
	size_t row;
	const char *api, *name, *value, *meaning, *note, *source;
};

/* Codes matching a number ("34", every API) or an exact name; returns how many. */
int kb_error_lookup(const char *code, struct kb_error *out, int max);

#endif
