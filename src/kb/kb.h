/*
 * kb.h - queries over the knowledge tables compiled in from the data/ tables.
 *
 * Rules ask these questions instead of carrying version literals. Every
 * answer can name its source row, so a finding can cite where a number
 * came from.
 */
#ifndef GD_KB_KB_H
#define GD_KB_KB_H

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
extern const struct kb_table kb_cuda_driver, kb_gpus, kb_gpu_peaks;

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

#endif
