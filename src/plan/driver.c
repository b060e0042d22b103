/*
 * driver.c - the driver part of a plan: which branch this machine's GPUs
 * need and allow, and the distribution's commands for it
 * (data/driver_install.tsv, first fitting row wins).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/plan_internal.h"
#include "util/i18n.h"
#include "util/str.h"

static bool id_is(const struct facts *facts, const char *id)
{
	return strcmp(facts->system.os_id, id) == 0 || strstr(facts->system.os_id_like, id) != NULL;
}

/*
 * From os-release's ID, then ID_LIKE as a substring, Ubuntu and its derivatives tested first (they are
 * also debian-like). Never fails: DISTRO_UNKNOWN gets text-only steps.
 */
enum distro distro_of(const struct facts *facts)
{
	if (strcmp(facts->system.os_id, "ubuntu") == 0 || strcmp(facts->system.os_id, "pop") == 0 ||
	    strcmp(facts->system.os_id, "linuxmint") == 0 || id_is(facts, "ubuntu"))
		return DISTRO_UBUNTU;
	if (id_is(facts, "debian"))
		return DISTRO_DEBIAN;
	if (strcmp(facts->system.os_id, "fedora") == 0)
		return DISTRO_FEDORA;
	if (id_is(facts, "rhel") || id_is(facts, "centos") || id_is(facts, "rocky") || id_is(facts, "almalinux"))
		return DISTRO_RHEL;
	if (id_is(facts, "arch"))
		return DISTRO_ARCH;
	if (id_is(facts, "suse") || id_is(facts, "opensuse"))
		return DISTRO_SUSE;
	return DISTRO_UNKNOWN;
}

/* The distro column of data/driver_install.tsv, NULL for none. */
static const char *table_distro(enum distro d)
{
	static const char *const names[] = {
		[DISTRO_UNKNOWN] = NULL, [DISTRO_UBUNTU] = "ubuntu", [DISTRO_DEBIAN] = "debian",
		[DISTRO_FEDORA] = "fedora", [DISTRO_RHEL] = "rhel", [DISTRO_ARCH] = "arch", [DISTRO_SUSE] = "opensuse",
	};

	return names[d];
}

/* "ubuntu2404", "debian12", "rhel9", "fedora42": NVIDIA's repository directories. */
static int repo_name(const struct facts *f, enum distro d, char *out, size_t outsz)
{
	char major[16];
	const char *v = f->system.os_version_id;

	if (!v[0])
		return -1;
	switch (d) {
	case DISTRO_UBUNTU: {
		char digits[16];
		size_t n = 0;

		for (const char *c = v; *c && n + 1 < sizeof(digits); c++)
			if (*c != '.')
				digits[n++] = *c;
		digits[n] = '\0';
		return str_printf(out, outsz, "ubuntu%s", digits);
	}
	case DISTRO_DEBIAN:
	case DISTRO_RHEL:
	case DISTRO_FEDORA:
		version_prefix(v, 1, major, sizeof(major));
		return str_printf(out, outsz, "%s%s", d == DISTRO_DEBIAN ? "debian" : d == DISTRO_RHEL ? "rhel" : "fedora",
				  major);
	default:
		return -1;
	}
}

/* Replace {N}, {kernel}, {repo} and {arch} in a table command; -1 when one is needed and unknown. */
static int expand(const char *in, const char *branch, const char *kernel, const char *repo, const char *arch,
		  char *out, size_t outsz)
{
	static const char *const keys[] = { "{N}", "{kernel}", "{repo}", "{arch}" };
	const char *values[] = { branch, kernel, repo, arch };
	size_t n = 0;

	while (*in) {
		size_t k;

		for (k = 0; k < 4; k++)
			if (str_starts_with(in, keys[k]))
				break;
		if (k < 4) {
			size_t len = values[k] ? strlen(values[k]) : 0;

			if (!values[k] || !values[k][0] || n + len >= outsz)
				return -1;
			memcpy(out + n, values[k], len);
			n += len;
			in += strlen(keys[k]);
			continue;
		}
		if (n + 1 >= outsz)
			return -1;
		out[n++] = *in++;
	}
	out[n] = '\0';
	return 0;
}

/* A step with why as it was formatted elsewhere, and its localized copy why_local ("" none). */
static void add_step_text(struct plan_path *p, enum plan_step_kind kind, const char *cmd, const char *why,
			  const char *why_local)
{
	struct plan_step *s = plan_step_add(p, kind, cmd, "%s", why);

	if (s)
		plan_text_copy(s->why, sizeof(s->why), s->why_local, sizeof(s->why_local), why, why_local);
}

/*
 * Each ' ;; '-separated command of a cell as a step (joined: all of them as one step, with &&); text that
 * is no command becomes one manual step. why_local: why in the reports' language ("" none).
 */
static int add_cell_steps(struct plan_path *p, const char *cell, const char *branch, const char *kernel,
			  const char *repo, const char *arch, const char *why, const char *why_local, bool joined)
{
	char buf[PLAN_CMD_MAX * 2], cmd[PLAN_CMD_MAX], all[PLAN_CMD_MAX] = "";
	const char *cur = cell;

	if (!str_starts_with(cell, "sudo ") && !str_starts_with(cell, "wget ") && !str_starts_with(cell, "git ")) {
		struct plan_step *s = plan_step_add(p, STEP_MANUAL, NULL, "%s: %s", why, cell);

		if (s && why_local[0]) {
			char *local = i18n_local_dupf(s->why, "%s: %s", why_local, cell);

			if (!local || str_copy(s->why_local, sizeof(s->why_local), local) < 0)
				s->why_local[0] = '\0';
			free(local);
		}
		return 0;
	}
	while (cur && *cur) {
		const char *sep = strstr(cur, " ;; ");
		size_t len = sep ? (size_t)(sep - cur) : strlen(cur);

		if (len >= sizeof(buf))
			return -1;
		memcpy(buf, cur, len);
		buf[len] = '\0';
		if (expand(buf, branch, kernel, repo, arch, cmd, sizeof(cmd)) < 0)
			return -1;
		if (joined) {
			/* one step: the commands belong together (enabling a repository) */
			if (str_printf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", all[0] ? " && " : "", cmd) < 0)
				return -1;
		} else {
			add_step_text(p, STEP_RUN, cmd, why, why_local);
		}
		cur = sep ? sep + 4 : NULL;
	}
	if (joined && all[0])
		add_step_text(p, STEP_RUN, all, why, why_local);
	return 0;
}

/* The driver version GPUs need and the last branch that serves them (0: no limit). */
static void gpu_bounds(const struct plan_machine *m, char *need, size_t needsz, int *max_branch, const char **limit_by)
{
	*max_branch = 0;
	*limit_by = NULL;
	for (int i = 0; i < m->nccs; i++) {
		struct kb_arch_support sup;
		struct kb_sm sm;
		struct kb_answer first;

		/* a driver older than the first CUDA that knew the architecture cannot drive it */
		if (kb_sm_support(m->ccs[i], &sm) == 0 && sm.added_in[0] && kb_cuda_min_driver(sm.added_in, &first) == 0 &&
		    (!need[0] || version_compare(first.value, need) > 0))
			str_copy(need, needsz, first.value);
		if (kb_arch_support(m->ccs[i], &sup) == 0 && sup.last_driver_branch[0] &&
		    (*max_branch == 0 || atoi(sup.last_driver_branch) < *max_branch)) {
			*max_branch = atoi(sup.last_driver_branch);
			*limit_by = m->gpu_names[i][0] ? m->gpu_names[i] : sup.arch;
		}
	}
}

/* See plan_internal.h: the driver needed, the GPUs' own floor included. */
void plan_driver_need(const struct plan_machine *m, const char *need_min, char *out, size_t outsz)
{
	int max_branch;
	const char *limit_by;

	str_copy(out, outsz, need_min ? need_min : "");
	gpu_bounds(m, out, outsz, &max_branch, &limit_by);
}

/* The branch a row installs for these bounds, 0 when it does not fit; *newest for the follow-the-newest rows. */
static int row_branch(const struct kb_driver_install *row, int need_major, int max_branch, bool *newest)
{
	int b;

	*newest = false;
	if (strcmp(row->branch, "newest") == 0) {
		*newest = true;
		return max_branch ? (need_major <= max_branch ? max_branch : 0) : (need_major ? need_major : 1);
	}
	if (strcmp(row->branch, "N") == 0)
		b = max_branch ? max_branch : need_major;
	else
		b = atoi(row->branch);
	if (b <= 0 || b < need_major || (max_branch && b > max_branch))
		return 0;
	return b;
}

static bool row_serves(const struct plan_machine *m, const struct kb_driver_install *row)
{
	for (int i = 0; i < m->nccs; i++)
		if (!kb_cc_in_range(row->serves, m->ccs[i]))
			return false;
	return true;
}

/* Where the distribution is unknown, or the driver is not this system's to change: one manual step. */
static void manual_driver(const struct plan_machine *m, struct plan_path *p, const char *need, int max_branch)
{
	char at_least[64] = "", at_most[96] = "", least_local[96] = "", most_local[160] = "";
	struct plan_step *s;

	if (need[0])
		plan_textf(at_least, sizeof(at_least), least_local, sizeof(least_local), " %s or newer", need);
	if (max_branch)
		plan_textf(at_most, sizeof(at_most), most_local, sizeof(most_local), " (branch %d at most: the last that "
			   "supports these GPUs)", max_branch);
	if (m->wsl) {
		if ((s = plan_step_add(p, STEP_MANUAL, NULL, "on Windows, install the NVIDIA Windows driver%s%s from "
				       "https://www.nvidia.com/Download/index.aspx; WSL uses it: never install a Linux "
				       "driver inside WSL", at_least, at_most)))
			plan_step_local(s, "on Windows, install the NVIDIA Windows driver%s%s from "
					"https://www.nvidia.com/Download/index.aspx; WSL uses it: never install a Linux "
					"driver inside WSL", plan_text(at_least, least_local), plan_text(at_most, most_local));
	} else if (m->container) {
		if ((s = plan_step_add(p, STEP_MANUAL, NULL, "on the host, not in this container: install the NVIDIA "
				       "driver%s%s, then start the container again", at_least, at_most)))
			plan_step_local(s, "on the host, not in this container: install the NVIDIA driver%s%s, then start "
					"the container again", plan_text(at_least, least_local), plan_text(at_most, most_local));
	} else if ((s = plan_step_add(p, STEP_MANUAL, NULL, "install the NVIDIA driver%s%s from your distribution's "
				      "packages, or NVIDIA's from https://www.nvidia.com/Download/index.aspx", at_least,
				      at_most))) {
		plan_step_local(s, "install the NVIDIA driver%s%s from your distribution's packages, or NVIDIA's from "
				"https://www.nvidia.com/Download/index.aspx", plan_text(at_least, least_local),
				plan_text(at_most, most_local));
	}
	if (p->nsteps > 0)
		p->steps[p->nsteps - 1].root = true;
}

/* See plan.h. */
int plan_driver_steps(const struct plan_machine *m, const char *need_min, struct plan_path *p, char *why,
		      size_t whysz, char *why_local, size_t localsz)
{
	const struct facts *f = m->facts;
	struct kb_driver_install rows[48];
	char need[32] = "", repo[32] = "", branch[16], text[200], text_local[300], setup_local[200];
	const char *limit_by, *distro, *kernel, *arch;
	enum distro d;
	int max_branch, nrows, need_major;

	if (need_min)
		str_copy(need, sizeof(need), need_min);
	gpu_bounds(m, need, sizeof(need), &max_branch, &limit_by);
	need_major = need[0] ? atoi(need) : 0;
	if (max_branch && need_major > max_branch) {
		plan_textf(why, whysz, why_local, localsz, "it needs driver %s, but %s is served by branch %d at the newest",
			   need, limit_by, max_branch);
		return -1;
	}
	str_copy(p->driver_min, sizeof(p->driver_min), need);
	if (max_branch)
		str_printf(p->driver_branch, sizeof(p->driver_branch), "%d", max_branch);
	else
		str_copy(p->driver_branch, sizeof(p->driver_branch), "newest");
	d = f ? distro_of(f) : DISTRO_UNKNOWN;
	distro = table_distro(d);
	if (m->wsl || m->container || !distro) {
		manual_driver(m, p, need, max_branch);
		if (!m->wsl && !m->container)
			plan_step_add(p, STEP_REBOOT, "sudo reboot", N_("reboot so the new kernel module loads"));
		return 0;
	}
	kernel = f->system.kernel_release[0] ? f->system.kernel_release : "\"$(uname -r)\"";
	arch = !m->arch || strcmp(m->arch, "x86_64") == 0 ? "x86_64" : "\"$(uname -m)\"";
	repo_name(f, d, repo, sizeof(repo));
	nrows = kb_driver_install_rows(distro, rows, (int)(sizeof(rows) / sizeof(rows[0])));
	for (int i = 0; i < nrows; i++) {
		const struct kb_driver_install *row = &rows[i];
		int saved = p->nsteps, b;
		bool newest;

		if (!kb_release_matches(row->releases, f->system.os_version_id) ||
		    (strcmp(row->kernel, "*") != 0 && !strstr(f->system.kernel_release, row->kernel)) || !row_serves(m, row) ||
		    !(b = row_branch(row, need_major, max_branch, &newest)))
			continue;
		str_printf(branch, sizeof(branch), "%d", b);
		if (newest && max_branch)
			plan_textf(text, sizeof(text), text_local, sizeof(text_local), "install the NVIDIA driver (branch "
				   "%d: the newest these GPUs support)", max_branch);
		else if (newest)
			plan_textf(text, sizeof(text), text_local, sizeof(text_local), "%s",
				   N_("install the NVIDIA driver (the newest branch)"));
		else
			plan_textf(text, sizeof(text), text_local, sizeof(text_local), "install the NVIDIA driver (branch %s)",
				   branch);
		str_copy(setup_local, sizeof(setup_local), i18n_active() ?
			 i18n_text(N_("first enable the repository the driver comes from")) : "");
		if ((strcmp(row->setup, "-") != 0 &&
		     add_cell_steps(p, row->setup, branch, kernel, repo, arch, "first enable the repository the driver "
				    "comes from", setup_local, true) < 0) ||
		    add_cell_steps(p, row->steps, branch, kernel, repo, arch, text, text_local, false) < 0) {
			p->nsteps = saved;	/* a placeholder this machine cannot fill: try the next row */
			continue;
		}
		if (!newest)
			str_copy(p->driver_branch, sizeof(p->driver_branch), branch);
		plan_step_add(p, STEP_REBOOT, "sudo reboot", N_("reboot so the new kernel module loads"));
		plan_check_add(p, "driver install", CHECK_PASS, row->source,
			       "data/driver_install.tsv line %d: %s %s, %s modules, branch %s, serves compute capability %s",
			       kb_table_driver_install.lines[row->row], row->distro, row->releases, row->flavour, row->branch,
			       row->serves);
		return 0;
	}
	/* two sentences, not " of " as an argument: a translation orders its words itself */
	if (need[0])
		plan_textf(why, whysz, why_local, localsz, "no way to install a driver of %s on %s %s is in the tables", need,
			   distro, f->system.os_version_id[0] ? f->system.os_version_id : N_("(release unknown)"));
	else
		plan_textf(why, whysz, why_local, localsz, "no way to install a driver on %s %s is in the tables", distro,
			   f->system.os_version_id[0] ? f->system.os_version_id : N_("(release unknown)"));
	return -1;
}
