/*
 * plan.h - a fix as a plan: one ordered path of steps, each a command and
 * why, and separately the alternatives, each a whole path with its
 * trade-off.
 *
 * The planner reads facts (probe/facts.h) and the knowledge tables (kb/);
 * it never reads findings, so rules can ask it for their fix steps and the
 * `fix` command can compose it with the rest of a diagnosis. Every path is
 * checked against the tables (plan_check_path) before anyone shows it: a
 * path that fails a check is kept only as rejected, with the failed check.
 * Commands are text for the user; nothing here runs them.
 *
 * Each *_local field is the text beside it in the language of the text
 * reports (util/i18n.h), "" when no translation is active or it reads the
 * same; JSON, scripts and the files written from a plan use the English.
 */
#ifndef GD_PLAN_PLAN_H
#define GD_PLAN_PLAN_H

#include <stdbool.h>

#include "kb/kb.h"
#include "probe/facts.h"

#define PLAN_MAX_STEPS 24
#define PLAN_MAX_CHECKS 20
#define PLAN_MAX_PATHS 6
#define PLAN_MAX_REJECTED 8
#define PLAN_MAX_UNKNOWN 4
#define PLAN_CMD_MAX 1024
#define PLAN_MAX_GPUS KB_TORCH_MAX_GPUS

enum plan_step_kind {
	STEP_RUN,	/* a command to run */
	STEP_MANUAL,	/* done by hand: firmware setup, a file to edit (content), a choice */
	STEP_REBOOT,	/* a reboot, so a new kernel module loads */
	STEP_VERIFY,	/* a command that shows the fix worked */
};

struct plan_step {
	enum plan_step_kind kind;
	char command[PLAN_CMD_MAX];	/* "" for a manual step without one */
	char why[320];
	char why_local[480];
	char content[768];		/* text to put in a file (an edit step), "" otherwise */
	char file[FACT_PATH];		/* the file content goes to, "" otherwise */
	bool root;			/* needs root (sudo) or the host outside a container */
	bool torch;			/* part of changing PyTorch (not the driver or a prerequisite) */
	char from[32];			/* the finding's cause id it comes from, "" for the planner's own steps */
};

enum check_state { CHECK_PASS, CHECK_FAIL, CHECK_UNCHECKED };

/* One thing a path was checked for, against which table. */
struct plan_check {
	char what[24];		/* release, python, platform, index, gpu 0, driver, companions, installer, command */
	enum check_state state;
	char detail[240];
	char detail_local[360];
	const char *source;	/* the table or row source it rests on (static), NULL when none */
};

/* How a path installs PyTorch. */
enum plan_installer {
	INSTALL_NONE,		/* the path leaves PyTorch as it is */
	INSTALL_PIP,		/* PY -m pip in the diagnosed environment */
	INSTALL_UV_PIP,		/* uv pip --python PY */
	INSTALL_UV_PROJECT,	/* a uv project: pyproject.toml index, uv add */
	INSTALL_POETRY,		/* a Poetry project: poetry source add, poetry add */
	INSTALL_CONDA,		/* conda install from the pytorch channel (releases up to 2.5) */
	INSTALL_NEW_VENV,	/* a fresh venv, then its pip */
	INSTALL_SOURCE,		/* build from source */
};

/* What a path installs: the structured form the checks and the rebuild outputs read. */
struct plan_torch {
	enum plan_installer installer;
	char release[24];	/* 2.5.1 */
	char variant[16];	/* cu124 */
	char cuda[16];		/* 12.4 */
	char vision[24], audio[24];	/* "" when not installed with it */
	char index[200];	/* the variant's pip option: "--index-url URL", "-f URL", "" for PyPI */
	char conda[40];		/* conda's selector (pytorch-cuda=12.4) for INSTALL_CONDA */
	char python[16];	/* the interpreter's Python it was judged for, "" unknown */
	char interpreter[FACT_PATH];	/* what runs it afterwards */
	char min_driver[32];	/* what it needs of the driver */
	bool ptx;		/* a GPU runs it only through PTX JIT */
	char arch_list[64];	/* INSTALL_SOURCE: TORCH_CUDA_ARCH_LIST */
	char toolkit[16];	/* INSTALL_SOURCE: the CUDA toolkit to build with */
};

struct plan_path {
	char id[32];		/* same-release, nearest, newest, upgrade-driver, newest-new-driver, ... */
	char title[200];
	char tradeoff[320];
	char title_local[300], tradeoff_local[480];
	struct plan_step steps[PLAN_MAX_STEPS];
	int nsteps;
	int steps_dropped;	/* past PLAN_MAX_STEPS: a path that lost steps fails its checks */
	struct plan_check checks[PLAN_MAX_CHECKS];
	int nchecks;
	bool ok;		/* no check failed */
	struct plan_torch torch;	/* installer INSTALL_NONE: torch stays */
	char driver_branch[16];	/* the branch its driver steps install ("580", "newest"), "" none */
	char driver_min[32];	/* the driver version those steps must reach */
};

/* What is wrong, as far as the planner is concerned. */
enum plan_problem {
	PROBLEM_NONE,
	PROBLEM_NOT_INSTALLED,		/* no torch in the diagnosed interpreter */
	PROBLEM_CPU_BUILD,		/* a CPU-only torch */
	PROBLEM_ROCM_BUILD,		/* an AMD build */
	PROBLEM_TORCH_DRIVER_TOO_OLD,	/* the torch build needs a newer driver */
	PROBLEM_NO_KERNELS,		/* the torch build has no code for a GPU */
	PROBLEM_LIBS_UNRESOLVED,	/* its CUDA wheels are missing */
	PROBLEM_NO_DRIVER,		/* a GPU and no driver */
	PROBLEM_DRIVER_TOO_OLD,		/* the driver is older than current CUDA releases need */
};

/* Distribution families, from os-release (ID, then ID_LIKE). */
enum distro {
	DISTRO_UNKNOWN,
	DISTRO_UBUNTU,
	DISTRO_DEBIAN,
	DISTRO_FEDORA,
	DISTRO_RHEL,	/* RHEL, Rocky, Alma, CentOS */
	DISTRO_ARCH,
	DISTRO_SUSE,
};

enum distro distro_of(const struct facts *facts);

/* The machine as the planner sees it; built from facts, or by explain from what a text shows. */
struct plan_machine {
	const struct facts *facts;	/* may be NULL (explain without a machine) */
	const struct python_env *env;	/* the diagnosed interpreter, NULL none */
	const struct torch_install *torch;	/* what it imports, NULL none */
	const char *driver;		/* the installed driver's version, NULL none or unknown */
	bool driver_known;		/* false: explain knows nothing of the driver */
	char ccs[PLAN_MAX_GPUS][8];	/* every usable GPU's compute capability ("8.6") */
	const char *gpu_names[PLAN_MAX_GPUS];	/* "" when unknown */
	int nccs;
	int gpus_unknown;		/* GPUs whose compute capability is not in the tables */
	const char *python;		/* "3.10", NULL unknown */
	const char *arch;		/* uname -m, NULL unknown */
	bool container, wsl;
	const char *venv_dir;		/* --venv DIR: a fresh environment there, NULL: the planner's choice */
};

struct plan_rejected {
	char id[32];
	char title[200];
	char failed[240];	/* the first failed check */
	char title_local[300], failed_local[360];
};

struct plan {
	enum plan_problem problem;
	struct plan_path paths[PLAN_MAX_PATHS];	/* [0] the plan, the rest alternatives; all passed their checks */
	int npaths;
	struct plan_rejected rejected[PLAN_MAX_REJECTED];
	int nrejected;
	char unknown[PLAN_MAX_UNKNOWN][96];	/* newer releases not judged for lack of data */
	int nunknown;
	char note[320];		/* why there is no path, or what the plan cannot cover (a literal: translated when shown) */
};

/* The machine of a diagnosis; gpus from PCI (not those given to VFIO), else from the driver's device list. */
void plan_machine_from_facts(const struct facts *f, struct plan_machine *m);

/*
 * Paths from this machine to a working PyTorch for a problem, best first,
 * each checked. Returns how many passed (0: plan->note says why), -1 when
 * out of memory is not possible here: never fails otherwise.
 */
int plan_torch(const struct plan_machine *m, enum plan_problem problem, struct plan *out);

/*
 * Driver steps for this machine reaching at least need_min (NULL: any
 * version that supports its GPUs), appended to p, reboot included. Returns
 * 0, or -1 with why set when no driver serves every GPU at that version, and why_local to it in the
 * reports' language ("" when none, as plan_textf).
 */
int plan_driver_steps(const struct plan_machine *m, const char *need_min, struct plan_path *p, char *why,
		      size_t whysz, char *why_local, size_t localsz);

/* How PyTorch changes in the diagnosed environment (--venv, or a system interpreter: a fresh venv). */
enum plan_installer plan_env_installer(const struct plan_machine *m);

/* Check p against the tables (adds its checks, sets p->ok); see check.c. */
void plan_check_path(const struct plan_machine *m, struct plan_path *p);

/*
 * The PyTorch a fresh environment gets (requirements.txt, environment.yml):
 * the plan's release where it installs one, else the installed release,
 * else the newest for this machine, judged for python (NULL: the
 * machine's), with torchvision and torchaudio where known. out->torch holds
 * it, out->checks what it was checked for. -1 when nothing passes.
 */
int plan_rebuild(const struct plan_machine *m, const struct plan *fixplan, const char *python, struct plan_path *out);

/* An nvidia/cuda base image for a container of the rebuilt environment. */
struct plan_image {
	char image[96];		/* nvidia/cuda:12.4.1-base-ubuntu22.04 */
	char os[24];		/* ubuntu22.04 */
	char python[16];	/* the image distribution's Python 3 */
	bool externally_managed;
	const char *source;
};
/* plan_rebuild for the first image OS whose Python fits, and the image; -1 (out->title says why) when none. */
int plan_container(const struct plan_machine *m, const struct plan *fixplan, struct plan_path *out,
		   struct plan_image *img);

/* Step builders; they never fail: a path that runs out of room counts steps_dropped (and fails its checks). */
struct plan_step *plan_step_add(struct plan_path *p, enum plan_step_kind kind, const char *command,
				const char *why_fmt, ...) __attribute__((format(printf, 4, 5)));
/* Set s->why_local to fmt localized with these arguments (already in the reports' language); "" as plan_textf. */
void plan_step_local(struct plan_step *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* plan_check_add returns the check it listed, NULL past PLAN_MAX_CHECKS (counted all the same). */
struct plan_check *plan_check_add(struct plan_path *p, const char *what, enum check_state state, const char *source,
				  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Set c->detail_local to fmt localized with these arguments (already in the reports' language); "" as plan_textf. */
void plan_check_local(struct plan_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Format fmt into out (cut at outsz) and, when a translation is active, its localized copy into local
 * (util/i18n.h: the catalog's fmt, %s arguments translated where the catalog has them); local is "" when
 * no translation is active, it reads the same, or it does not fit in localsz.
 */
void plan_textf(char *out, size_t outsz, char *local, size_t localsz, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Copy english and local (NULL or "": none) into a plan text and its localized copy, cut at their sizes. */
void plan_text_copy(char *out, size_t outsz, char *local, size_t localsz, const char *english, const char *localized);

/* The text to show in the text reports: local when there is one, else english. */
static inline const char *plan_text(const char *english, const char *local)
{
	return local && local[0] ? local : english;
}

/* The requirement pins of t: "torch==2.5.1 torchvision==0.20.1"; with find_links the variant too ("+cu110"). */
int plan_pins(const struct plan_torch *t, bool find_links, const char *torch_name, char *out, size_t outsz);

/* A word for the shell: as it is when safe, else in single quotes; -1 when it cannot be (control characters). */
int plan_shell_word(const char *word, char *out, size_t outsz);

/* "pip", "uv pip", "uv project", ... for reports. */
const char *plan_installer_name(enum plan_installer installer);
const char *plan_problem_name(enum plan_problem problem);
const char *plan_step_kind_name(enum plan_step_kind kind);
const char *plan_check_state_name(enum check_state state);

#endif
