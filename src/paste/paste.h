/*
 * paste.h - the facts a pasted text shows about the machine it came from.
 *
 * People paste more than the error: `python -m torch.utils.collect_env`,
 * nvidia-smi's header and table, `nvidia-smi -L`, `nvcc -V`, pip and conda
 * package lists, `uname -a`, os-release, dmesg lines, lspci, the docker run
 * line, a shell prompt. The paste reader recognises those lines one by one
 * (cheap, bounded, no state beyond a few flags) and fills the same struct
 * facts the doctor's probes fill. Every section it saw is FACT_OK; every
 * other one is FACT_UNKNOWN with the reason "not in the paste", so a rule
 * that reads it can never take the paste's silence for absence.
 */
#ifndef GD_PASTE_PASTE_H
#define GD_PASTE_PASTE_H

#include <stdbool.h>
#include <stddef.h>

#include "cause/cause.h"
#include "probe/facts.h"

/* Only the first bytes of all inputs together are read for facts: reports are pasted before the log grows. */
#define PASTE_MAX_BYTES (8u << 20)
#define PASTE_LINE_MAX 1024	/* longer lines are read cut to this */

/* What a paste can show; each maps to the facts section(s) it fills. */
enum paste_section {
	PASTE_OS,		/* system: OS name, kernel release, architecture, glibc */
	PASTE_GPU,		/* pci: the GPUs' names (and their compute capability from the GPU table) */
	PASTE_DRIVER,		/* runtime: the driver version and the CUDA version it supports (as nvidia-smi says) */
	PASTE_TORCH,		/* python: the torch build (its version and the CUDA it was built with, or none) */
	PASTE_TOOLKIT,		/* toolkits: the nvcc on PATH */
	PASTE_CUDNN,		/* cudnn: the libraries collect_env lists */
	PASTE_KERNLOG,		/* kernlog: NVRM lines (Xids, refusals) */
	PASTE_CONTAINER,	/* container: WSL, a container prompt */
	PASTE_LIBS,		/* libs: libcuda.so.1 and libnvidia-ml.so.1 in the loader cache (ldconfig -p) */
	PASTE_NSECTIONS
};

/* The first line that showed a section: for evidence. */
struct paste_line {
	int input;		/* the scanner's input index */
	unsigned long number;	/* 1-based within that input; 0 when not seen */
	char text[200];
};

struct paste {
	struct facts *facts;			/* owned */
	unsigned seen;				/* 1 << enum paste_section */
	struct paste_line first[PASTE_NSECTIONS];
	unsigned long long bytes;		/* read so far */
	/* what a docker or podman run line asked for: 1 with a GPU flag, 0 without one, -1 none seen */
	int run_gpus;
	char run_line[200];
	/* the first run line alone: 0 without a GPU flag, 1 with one, -1 none; where it had none and a later line
	 * has one, the later line is the fix being tried and the error came from the first */
	int first_run_gpus;
	char first_run_line[200];
	/* the first line whose prose names docker, podman or a container ("the text names docker (line 3)"),
	 * empty when none: a sign of where the error came from, not a fact about the machine */
	char container_named[64];
	/* the first line that uses an nvidia/cuda image of a flavour without nvcc ("line 4 uses
	 * nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04, a runtime image (no nvcc)"), empty when none */
	char cuda_image_named[160];
	/* the first line that shows a hosted notebook (Google Colab, Kaggle: "the text shows Google Colab (line
	 * 4)"), empty when none: there the driver is always installed and a GPU is an option of the runtime */
	char notebook_named[64];
	/* the first line that installs torch or says it imports elsewhere ("pip3 install torch", "conda install
	 * pytorch", "in python3, import torch is fine": "line 3 installs torch"), empty when none */
	char torch_install_named[64];
	/* the toolkit version the first line whose prose says a versioned CUDA toolkit is installed gives ("9.0"
	 * of "I am sure cuda9.0 in my computer is installed correctly"), and that line; "" and 0 when none: a
	 * build that finds no toolkit then missed one that is there */
	char toolkit_installed[16];
	unsigned long toolkit_installed_line;
	/* the first line that names a graphics client (a game, Vulkan, OpenGL, DXVK, vkd3d, Wine, Proton: "line 2
	 * names Vulkan"), empty when none: an application-fault Xid from such a program is not a CUDA error */
	char graphics_client_named[48];
	/* the first GPU the prose names that the GPU table knows ("GeForce GT 650M"), its compute capability, and
	 * the line; "" when none. Not a fact about the machine (facts->pci): the text may only ask about it */
	char gpu_named[64], gpu_named_cc[8];
	unsigned long gpu_named_line;
	int gpu_named_input;
	char gpu_named_text[200];
	unsigned long fix_said_line;		/* the last line saying solved, fixed or "should work", 0 none */
	/* the first line that runs Python with sudo ("sudo python3 setup.py install": "line 3 runs Python with
	 * sudo"), empty when none: root's environment picks another interpreter than the user's */
	char sudo_python_named[64];
	/* the first printed LD_LIBRARY_PATH that holds a cuDNN directory ("line 21 shows LD_LIBRARY_PATH with
	 * /apps/cudnn/v8.0.3/lib64"), empty when none: that cuDNN is loaded before the one torch ships */
	char cudnn_ld_path_named[160];
	char stubs_ld_path_named[160];	/* the same for a toolkit's stubs directory (libcuda.so for linking) */
	unsigned long ld_path_echo_line;	/* the last line that ran echo $LD_LIBRARY_PATH, 0 none */
	/* the first line that sets CUDA_VISIBLE_DEVICES to a value that can hide every GPU ("line 2 sets
	 * CUDA_VISIBLE_DEVICES=-1"), empty when none */
	char visible_devices_named[96];
	/* the first line that blacklists nouveau (a kernel command line, a modprobe.d line: "line 1 blacklists
	 * nouveau"), empty when none: someone set up the NVIDIA driver's install */
	char nouveau_blacklist_named[48];
	/* torch's version as a package list shows it (pip list, pip freeze, conda list, collect_env's [pip3] and
	 * [conda] lines, or prose naming such a list) and as `import torch` prints it, with their lines; where a
	 * list and the import disagree ("line 3 lists torch 1.7.0, line 9 imports torch 1.4.0"), two installs
	 * sit side by side (or the list is another environment's) */
	char torch_listed[48], torch_imported[48];
	unsigned long torch_listed_line, torch_imported_line;
	char torch_versions_differ_named[160];
	unsigned long torch_versions_differ_line;	/* the later of the two lines, and its input and text */
	int torch_versions_differ_input;
	char torch_versions_differ_text[200];
	/* the driver and toolkit versions a sentence states ("my driver version is 384.111"), the first of each:
	 * taken at paste_finish where no report (nvidia-smi, nvcc -V, a template's field) showed that version */
	struct paste_said {
		char version[FACT_VER];
		int input;
		unsigned long number;
		char text[200];
	} driver_said, toolkit_said;
	/* torch.cuda.is_available() as the paste printed it (collect_env's "Is CUDA available", a print's
	 * third word): 1 True, 0 False, -1 not shown */
	int cuda_available;
	unsigned long cuda_available_line;	/* the line that printed it (the last such line) */
	/* parser state carried from line to line */
	bool in_collect_env;			/* after "PyTorch version:" (collect_env's first line) */
	bool cudnn_list;			/* after "cuDNN version: Probably one of the following:" */
	bool smi_table;				/* inside nvidia-smi's GPU table */
	bool smi_processes;			/* inside its Processes table */
	int smi_gpu;				/* the pci.gpus index of the table row being read, -1 */
	bool torch_cuda_known;			/* the CUDA build of torch is known (a +tag, collect_env, a print) */
	int repl_asked;				/* what the last Python prompt line asked (torch_print.c), 0 none */
	void *klog;				/* the kernel log reader's state (struct kernlog_scan) */
};

/* A reader with an empty model; NULL when out of memory. */
struct paste *paste_new(void);
void paste_free(struct paste *p);

/*
 * Read the complete lines of text (n bytes, the last may lack its newline) from input; line_base is the
 * number of lines of that input before text. Reads nothing past PASTE_MAX_BYTES in all.
 */
void paste_feed(struct paste *p, const char *text, size_t n, int input, unsigned long line_base);
/* Read one line (no newline); number is its line number. For tests and paste_feed. */
void paste_line(struct paste *p, const char *line, size_t len, int input, unsigned long number);
/* Set every section's status: OK where seen, UNKNOWN "not in the paste" elsewhere. Call once, after the last feed. */
void paste_finish(struct paste *p);

/* Whether the paste showed that section, or anything at all. */
bool paste_saw(const struct paste *p, enum paste_section s);
bool paste_saw_any(const struct paste *p);
/* Whether the paste shows Windows or macOS (not WSL, which is Linux): the fix planner's commands are Linux's. */
bool paste_not_linux(const struct paste *p);
/* "the torch build", "the driver version", ...: what a section is, for "not in the paste: ...". */
const char *paste_section_what(enum paste_section s);
/* The JSON's name: "os", "gpu", "driver", "torch", "toolkit", "cudnn", "kernel-log", "container", "libraries". */
const char *paste_section_name(enum paste_section s);

/*
 * The sections the rules behind cause read, as a mask of 1 << enum paste_section; 0 when the rules'
 * findings for that cause are never taken from a paste (they conclude from absence, or read what a
 * paste cannot show).
 */
unsigned paste_cause_needs(enum cause_id cause);

#endif
