/*
 * paste_internal.h - shared by the paste readers (the src/paste readers) only.
 *
 * Each reader takes one line (NUL-terminated, newline and trailing blanks
 * removed, cut at PASTE_LINE_MAX) and returns whether the line was its
 * report's; the dispatcher (paste.c) offers the line to each in turn.
 */
#ifndef GD_PASTE_PASTE_INTERNAL_H
#define GD_PASTE_PASTE_INTERNAL_H

#include "paste/paste.h"

struct paste_at {
	int input;
	unsigned long number;
	const char *line;
	/* the text the notes and readers are offered (the line without its indentation), in ASCII lower case, at
	 * the same offsets: a word searched in any case with strstr, once per line, not with str_casestr per word */
	const char *lower;
};

/* A byte of an identifier or word (ASCII letter, digit, '_'): what a word of its own must not touch. */
bool paste_ident_char(int c);
/* Record that the line at showed section s (the first such line is kept for evidence). */
void paste_mark(struct paste *p, enum paste_section s, const struct paste_at *at);
/* The text after prefix when line starts with it, else NULL. */
const char *paste_after(const char *line, const char *prefix);
/* Copy the first blank-separated word of s into out. */
void paste_word(char *out, size_t outsz, const char *s);

/* The interpreter and torch the paste describes (one of each), made on first need. */
struct torch_install *paste_torch(struct paste *p);
/* The torch build from a version with a local tag ("2.3.0+cu121", "2.3.0+cpu", "2.0.1+rocm5.4.2"). */
void paste_torch_version(struct paste *p, const char *version, bool authoritative, const struct paste_at *at);
/*
 * Keep torch's version as a package list shows it (imported false) or as the import printed it (true), and
 * name the first disagreement of the two (paste.torch_versions_differ_named). paste_torch_version calls it.
 */
void paste_note_torch_version(struct paste *p, const char *version, bool imported, const struct paste_at *at);
/* torch.version.cuda as printed: "12.1", or "None"/"" for a CPU build. */
void paste_torch_cuda(struct paste *p, const char *cuda, const struct paste_at *at);
void paste_driver_version(struct paste *p, const char *version, const struct paste_at *at);
/* A GPU by name (and bus address, "" unknown); its compute capability from the GPU table. */
void paste_gpu(struct paste *p, int index, const char *name, const char *bus, const struct paste_at *at);
/* The toolkit version the paste shows, and where it read it ("nvcc -V (the paste)"), as the toolkit on PATH. */
void paste_nvcc_version(struct paste *p, const char *version, const char *source, const struct paste_at *at);
void paste_cudnn_library(struct paste *p, const char *path, const struct paste_at *at);
/* The kernel release (uname -r) and what it says about WSL. */
void paste_kernel_release(struct paste *p, const char *release, const struct paste_at *at);

/* The readers, one per report. */
bool paste_read_collect_env(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_nvidia_smi(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_nvcc(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_packages(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_sudo_python(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_ld_library_path(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_visible_devices(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_nouveau_blacklist(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_toolkit_installed(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_graphics_client(struct paste *p, const char *line, const struct paste_at *at);
void paste_note_gpu_named(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_torch_print(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_platform(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_kernel(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_ldconfig(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_container(struct paste *p, const char *line, const struct paste_at *at);
bool paste_read_template_fields(struct paste *p, const char *line, const struct paste_at *at);
/* The driver and toolkit versions a sentence states (prose_versions.c), and taking them where no report gave one. */
void paste_note_prose_versions(struct paste *p, const char *line, const struct paste_at *at);
void paste_take_prose_versions(struct paste *p);

#endif
