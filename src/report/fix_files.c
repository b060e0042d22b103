/*
 * fix_files.c - a plan written as files: a bash script of the plan, and a
 * fresh environment as requirements.txt, environment.yml or a Dockerfile.
 * Text from the machine (paths) reaches a file only as a shell word
 * (plan_shell_word) or inside a comment with control characters refused.
 */
#include <string.h>

#include "report/report_fix.h"
#include "util/str.h"

/* A comment line's text: control characters would end the comment, so they are refused. */
static bool comment_safe(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return false;
	return true;
}

static void comment(FILE *out, const char *prefix, const char *text)
{
	fprintf(out, "%s%s\n", prefix, comment_safe(text) ? text : "(text with control characters left out)");
}

/* A string for the shell (single-quoted when needed); "''" when it cannot be one. */
static void shell_word(FILE *out, const char *s)
{
	char buf[PLAN_CMD_MAX * 2];

	fputs(plan_shell_word(s, buf, sizeof(buf)) == 0 ? buf : "''", out);
}

static void script_header(FILE *out, const struct fix_report *r, const struct plan_path *p)
{
	char line[512];

	fprintf(out, "#!/usr/bin/env bash\n# gpudoctor fix --script\n");
	if (r->root) {
		str_printf(line, sizeof(line), "#   problem: %s [%s]", r->root->title, cause_name(r->root->cause));
		comment(out, "", line);
	}
	comment(out, "#   plan:    ", p->title);
	comment(out, "#            ", p->tradeoff);
	if (p->nchecks)
		fprintf(out, "# Checked against gpudoctor's tables:\n");
	for (int i = 0; i < p->nchecks; i++) {
		str_printf(line, sizeof(line), "#   %-9s %-10s %s", plan_check_state_name(p->checks[i].state),
			   p->checks[i].what, p->checks[i].detail);
		comment(out, "", line);
	}
	fprintf(out, "# Read it before running it: steps marked (root) use sudo. It stops at the first step\n"
		     "# that fails; `bash %s --from-step N` starts again at step N.\n", "SCRIPT");
	fprintf(out, "set -euo pipefail\n\nfrom=1\nif [[ ${1:-} == --from-step ]]; then\n"
		     "  from=${2:?--from-step needs a step number}\nfi\n"
		     "step() { (( from <= $1 )); }\n"
		     "by_hand() {\n"
		     "  printf '\\n%%s\\n' \"$1\" >&2\n"
		     "  if [[ -t 0 ]]; then\n"
		     "    read -r -p 'Press Enter when it is done. ' _\n"
		     "  else\n"
		     "    printf 'This step is done by hand; then run: bash %%s --from-step %%s\\n' \"$0\" \"$2\" >&2\n"
		     "    exit 1\n"
		     "  fi\n"
		     "}\n");
}

/* Commands that change the shell itself (its variables, an activated environment), not the system. */
static bool shell_state(const char *command)
{
	return str_starts_with(command, "export ") || str_starts_with(command, "unset ") || str_starts_with(command, ". ") ||
	       str_starts_with(command, "source ") || str_starts_with(command, "conda activate ");
}

/* A by_hand call: the message is literal text (backticks, $ and all), then the step to resume from. */
static void by_hand(FILE *out, const char *message, int resume)
{
	if (strpbrk(message, "`$"))
		fprintf(out, "  # shellcheck disable=SC2016 # the message is shown as it is\n");
	fprintf(out, "  by_hand ");
	shell_word(out, message);
	fprintf(out, " %d\n", resume);
}

static void script_step(FILE *out, int n, const struct plan_step *s)
{
	char line[512];

	fputc('\n', out);
	str_printf(line, sizeof(line), "# %d. %s%s%s", n, s->kind == STEP_MANUAL ? "(by hand) " : "", s->why,
		   s->root ? " (root)" : "");
	comment(out, "", line);
	fprintf(out, "if step %d; then\n", n);
	if (s->kind == STEP_RUN && shell_state(s->command)) {
		/* the script's own shell is not the user's: say it instead of doing it here */
		str_printf(line, sizeof(line), "In your shell (a script cannot change it): %s", s->command);
		by_hand(out, line, n + 1);
		fprintf(out, "fi\n");
		return;
	}
	switch (s->kind) {
	case STEP_RUN:
	case STEP_VERIFY:
		/* a path quoted by plan_shell_word may hold a literal $: single quotes keep it one */
		if (strchr(s->command, '\'') && strchr(s->command, '$'))
			fprintf(out, "  # shellcheck disable=SC2016 # single quotes keep the text as it is\n");
		if (comment_safe(s->command))
			fprintf(out, "  %s\n", s->command);
		else
			fprintf(out, "  echo 'step %d cannot be written safely; see gpudoctor fix' >&2; exit 1\n", n);
		break;
	case STEP_REBOOT:
		fprintf(out, "  printf 'Reboot now, then run: bash %%s --from-step %d\\n' \"$0\" >&2\n"
			     "  exit 0\n", n + 1);
		break;
	case STEP_MANUAL:
		if (s->file[0] && s->content[0] && comment_safe(s->file)) {
			/* done when the file already has the lines' key: the index URL, or the first line */
			const char *key = strstr(s->content, "url = \"");
			char probe[256];

			if (key)
				str_printf(probe, sizeof(probe), "%.*s", (int)strcspn(key + 7, "\""), key + 7);
			else
				str_printf(probe, sizeof(probe), "%.*s", (int)strcspn(s->content, "\n"), s->content);
			fprintf(out, "  if ! grep -qF ");
			shell_word(out, probe);
			fputc(' ', out);
			shell_word(out, s->file);
			fprintf(out, "; then\n    cat >&2 <<'GPUDOCTOR_LINES'\n%s%sGPUDOCTOR_LINES\n    by_hand ", s->content,
				str_ends_with(s->content, "\n") ? "" : "\n");
			str_printf(line, sizeof(line), "Add the lines above to %s.", s->file);
			fputs("  ", out);
			by_hand(out, line, n + 1);
			fprintf(out, "  fi\n");
		} else if (s->command[0]) {
			str_printf(line, sizeof(line), "%s: %s", s->why, s->command);
			by_hand(out, line, n + 1);
		} else {
			by_hand(out, s->why, n + 1);
		}
		break;
	}
	fprintf(out, "fi\n");
}

/* See report_fix.h. The alternatives follow as comments: the script runs the plan only. */
int report_fix_script(FILE *out, const struct fix_report *r)
{
	const struct plan *pl = &r->plan;

	if (pl->npaths == 0) {
		fprintf(out, "#!/usr/bin/env bash\n# gpudoctor fix --script: %s\necho 'gpudoctor found no checked plan for "
			     "this machine; run gpudoctor fix for details' >&2\nexit 1\n",
			r->nothing_to_fix ? "nothing to fix" : "no plan");
		return r->nothing_to_fix ? 0 : -1;
	}
	script_header(out, r, &pl->paths[0]);
	for (int i = 0; i < pl->paths[0].nsteps; i++)
		script_step(out, i + 1, &pl->paths[0].steps[i]);
	fprintf(out, "\necho 'gpudoctor fix: every step ran.' >&2\n");
	for (int a = 1; a < pl->npaths; a++) {
		const struct plan_path *p = &pl->paths[a];

		fprintf(out, "\n# Alternative %c (instead of the plan, not run by this script):\n", 'A' + a - 1);
		comment(out, "#   ", p->title);
		comment(out, "#   ", p->tradeoff);
		for (int i = 0; i < p->nsteps; i++)
			if (p->steps[i].command[0])
				comment(out, "#     $ ", p->steps[i].command);
			else
				comment(out, "#     (by hand) ", p->steps[i].why);
	}
	return 0;
}

/* The machine a rebuilt environment was judged for, as comment lines. */
static void judged_for(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb, const char *lead)
{
	const struct plan_machine *m = &r->machine;
	char line[512];

	for (int i = 0; i < rb->path.nchecks; i++) {
		str_printf(line, sizeof(line), "%s%-9s %-12s %s", lead, plan_check_state_name(rb->path.checks[i].state),
			   rb->path.checks[i].what, rb->path.checks[i].detail);
		comment(out, "", line);
	}
	if (m->driver) {
		str_printf(line, sizeof(line), "%sthis machine: driver %s%s%s%s", lead, m->driver,
			   rb->path.driver_branch[0] ? ", to be upgraded as the plan says (branch " : "",
			   rb->path.driver_branch[0] ? rb->path.driver_branch : "", rb->path.driver_branch[0] ? ")" : "");
		comment(out, "", line);
	}
}

static int rebuild_failed(FILE *out, const struct fix_rebuild *rb, const char *what)
{
	char line[400];

	str_printf(line, sizeof(line), "# gpudoctor fix %s: no checked PyTorch for a fresh environment here: %s", what,
		   rb->why);
	comment(out, "", line);
	return -1;
}

/*
 * The index line in requirement-file spelling ("-f" becomes --find-links), then one pin a line, each after
 * lead ("" for requirements.txt, "      - " for environment.yml's pip list, where quote keeps the option a string).
 */
static void requirement_lines(FILE *out, const struct plan_torch *t, const char *lead, bool quote)
{
	bool find_links = str_starts_with(t->index, "-f ");
	char pins[200], *save = NULL;

	if (t->index[0])
		fprintf(out, "%s%s%s%s%s\n", lead, quote ? "\"" : "", find_links ? "--find-links " : "",
			find_links ? t->index + 3 : t->index, quote ? "\"" : "");
	plan_pins(t, find_links, "torch", pins, sizeof(pins));
	for (char *pin = strtok_r(pins, " ", &save); pin; pin = strtok_r(NULL, " ", &save))
		fprintf(out, "%s%s\n", lead, pin);
}

/* See report_fix.h. */
int report_fix_requirements(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb)
{
	const struct plan_torch *t = &rb->path.torch;
	bool find_links = str_starts_with(t->index, "-f ");

	if (!rb->ok)
		return rebuild_failed(out, rb, "--requirements");
	fprintf(out, "# requirements.txt from gpudoctor fix: torch %s built for CUDA %s (%s)\n", t->release, t->cuda,
		t->variant);
	fprintf(out, "# Checked against gpudoctor's tables:\n");
	judged_for(out, r, rb, "#   ");
	fprintf(out, "# Install into a fresh virtual environment:\n"
		     "#   python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt\n");
	if (t->index[0] && !find_links)
		fprintf(out, "# pip applies the index line to the whole file: keep other packages in a second file.\n");
	requirement_lines(out, t, "", false);
	return 0;
}

/* See report_fix.h. */
int report_fix_conda_env(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb)
{
	const struct plan_torch *t = &rb->path.torch;

	if (!rb->ok)
		return rebuild_failed(out, rb, "--conda-env");
	fprintf(out, "# environment.yml from gpudoctor fix: torch %s built for CUDA %s (%s), from PyTorch's wheels\n"
		     "# (its conda channel ends with 2.5). Checked against gpudoctor's tables:\n", t->release, t->cuda,
		t->variant);
	judged_for(out, r, rb, "#   ");
	fprintf(out, "# Create and use it:  conda env create -f environment.yml && conda activate torch-%s\n", t->variant);
	fprintf(out, "name: torch-%s\nchannels:\n  - conda-forge\ndependencies:\n  - python=%s\n  - pip\n  - pip:\n",
		t->variant, t->python);
	requirement_lines(out, t, "      - ", true);
	return 0;
}

/* See report_fix.h. */
int report_fix_dockerfile(FILE *out, const struct fix_report *r, const struct fix_rebuild *rb)
{
	const struct plan_torch *t = &rb->path.torch;
	char pins[200];

	if (!rb->ok)
		return rebuild_failed(out, rb, "--dockerfile");
	plan_pins(t, str_starts_with(t->index, "-f "), "torch", pins, sizeof(pins));
	fprintf(out, "# syntax=docker/dockerfile:1\n"
		     "# Dockerfile from gpudoctor fix: torch %s built for CUDA %s (%s) on %s.\n"
		     "# The wheel brings its own CUDA libraries; the image's CUDA only has to be one the host driver runs.\n"
		     "# Checked against gpudoctor's tables:\n", t->release, t->cuda, t->variant, rb->image.image);
	judged_for(out, r, rb, "#   ");
	fprintf(out, "# The host needs the NVIDIA driver and the NVIDIA Container Toolkit, set up for Docker:\n"
		     "#   sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker\n");
	fprintf(out, "FROM %s\n", rb->image.image);
	fprintf(out, "ARG DEBIAN_FRONTEND=noninteractive\n"
		     "RUN apt-get update \\\n"
		     " && apt-get install -y --no-install-recommends python3 python3-venv \\\n"
		     " && rm -rf /var/lib/apt/lists/*\n");
	fprintf(out, "# a venv: %s\n", rb->image.externally_managed ? "the distribution's Python refuses pip (PEP 668)" :
		"PyTorch stays apart from the distribution's Python packages");
	fprintf(out, "RUN python3 -m venv /opt/venv\nENV PATH=/opt/venv/bin:$PATH\n");
	fprintf(out, "RUN pip install --no-cache-dir %s%s%s\n", pins, t->index[0] ? " " : "", t->index);
	fprintf(out, "CMD [\"python\", \"-c\", \"import torch; assert torch.cuda.is_available(), 'CUDA is not available'; "
		     "print(torch.__version__, torch.version.cuda, [torch.cuda.get_device_name(i) for i in "
		     "range(torch.cuda.device_count())])\"]\n");
	fprintf(out, "# Build it, and run it with every GPU:\n"
		     "#   docker build -t torch-%s .\n"
		     "#   docker run --rm --gpus all torch-%s\n"
		     "# With docker compose (compose.yaml):\n"
		     "#   services:\n"
		     "#     torch:\n"
		     "#       build: .\n"
		     "#       deploy:\n"
		     "#         resources:\n"
		     "#           reservations:\n"
		     "#             devices:\n"
		     "#               - driver: nvidia\n"
		     "#                 count: all\n"
		     "#                 capabilities: [gpu]\n", t->variant, t->variant);
	(void)r;
	return 0;
}
