#include "rules/fixes.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/i18n.h"
#include "util/str.h"

/*
 * Steps of a plan path as fix steps of f, in the group f is filling; verification by gpudoctor itself left
 * out, and every verification when checks is false (an alternative ends as the fix does).
 */
static void add_path_steps(struct finding *f, const struct plan_path *p, bool checks)
{
	for (int i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];

		if (s->kind == STEP_VERIFY && (!checks || str_starts_with(s->command, "gpudoctor")))
			continue;
		if (s->content[0]) {
			char text[sizeof(s->why) + sizeof(s->content) + 2], *local;

			str_printf(text, sizeof(text), "%s:\n%s", s->why, s->content);
			local = s->why_local[0] ? i18n_local_dupf(text, "%s:\n%s", s->why_local, s->content) : NULL;
			finding_fix_text(f, s->command[0] ? s->command : NULL, text, local);
			free(local);
		} else {
			finding_fix_text(f, s->command[0] ? s->command : NULL, s->why, s->why_local);
		}
	}
}

/*
 * Appends the driver install steps the planner gives this machine (data/driver_install.tsv), reboot
 * included; a text-only step where the distribution is unknown. Only adds fix steps: nothing is run.
 */
void fix_install_driver(struct finding *f, const struct facts *facts)
{
	struct plan_machine m;
	struct plan_path *p = calloc(1, sizeof(*p));
	char why[240], why_local[400], text[300], local[600] = "";

	if (!p)
		return;
	plan_machine_from_facts(facts, &m);
	if (plan_driver_steps(&m, NULL, p, why, sizeof(why), why_local, sizeof(why_local)) == 0) {
		add_path_steps(f, p, true);
	} else {
		/* why is formatted (no msgid): its localized copy goes in whole */
		str_printf(text, sizeof(text), "no install route in the tables fits: %s", why);
		if (why_local[0])
			str_printf(local, sizeof(local), _("no install route in the tables fits: %s"), why_local);
		finding_fix_text(f, NULL, text, local[0] ? local : NULL);
	}
	free(p);
}

/* See fixes.h: the plan's path as the fix, two of its alternatives after it; `gpudoctor fix` shows them all. */
void fix_from_plan(struct finding *f, const struct plan *plan, const struct facts *facts)
{
	if (plan->npaths == 0) {
		finding_fix(f, NULL, "no checked way to a working PyTorch: %s (`gpudoctor fix` shows what was tried)",
			    plan->note);
		return;
	}
	add_path_steps(f, &plan->paths[0], true);
	for (int i = 1; i < plan->npaths && i <= 2; i++) {
		const struct plan_path *p = &plan->paths[i];
		char title[sizeof(p->title) + sizeof(p->tradeoff) + 4], *local = NULL;

		str_printf(title, sizeof(title), "%s (%s)", p->title, p->tradeoff);
		if (p->title_local[0] || p->tradeoff_local[0])
			local = i18n_local_dupf(title, "%s (%s)", plan_text(p->title, p->title_local),
						plan_text(p->tradeoff, p->tradeoff_local));
		finding_alternative_text(f, title, local);
		free(local);
		add_path_steps(f, &plan->paths[i], false);
	}
	if (plan->npaths > 3) {
		int more = plan->npaths - 3;

		if (facts->from_paste)
			finding_alternative(f, "%d more way%s, each checked: gpudoctor fix lists them (run it on the pasted "
					    "machine)", more, more > 1 ? "s" : "");
		else
			finding_alternative(f, "%d more way%s, each checked: gpudoctor fix lists them", more,
					    more > 1 ? "s" : "");
		if (f && f->filling > 0)
			finding_fix_text(f, "gpudoctor fix", f->alt_titles[f->filling - 1], f->alt_titles_local[f->filling - 1]);
	}
}

/* See fixes.h. */
void fix_torch_plan(struct finding *f, const struct facts *facts, enum plan_problem problem)
{
	struct plan *plan;
	struct plan_machine m;

	if (!f || !(plan = malloc(sizeof(*plan))))
		return;
	plan_machine_from_facts(facts, &m);
	plan_torch(&m, problem, plan);
	fix_from_plan(f, plan, facts);
	free(plan);
}

/* Appends one step: the distribution's initramfs tool, or a text-only step when it is unknown. */
void fix_rebuild_initramfs(struct finding *f, const struct facts *facts)
{
	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
	case DISTRO_DEBIAN:
		finding_fix(f, "sudo update-initramfs -u", "rebuild the initramfs so the change applies at boot");
		break;
	case DISTRO_FEDORA:
	case DISTRO_RHEL:
	case DISTRO_SUSE:
		finding_fix(f, "sudo dracut --force", "rebuild the initramfs so the change applies at boot");
		break;
	case DISTRO_ARCH:
		finding_fix(f, "sudo mkinitcpio -P", "rebuild the initramfs so the change applies at boot");
		break;
	case DISTRO_UNKNOWN:
		finding_fix(f, NULL, "rebuild the initramfs with your distribution's tool");
		break;
	}
}

/* Appends the modprobe.d blacklist, the initramfs rebuild and a reboot, in that order. */
void fix_blacklist_nouveau(struct finding *f, const struct facts *facts)
{
	finding_fix(f, "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf",
		    "stop the open-source nouveau driver from claiming the GPU");
	fix_rebuild_initramfs(f, facts);
	finding_fix(f, "sudo reboot", "reboot; the nvidia module can then bind the GPU");
}

/*
 * Appends headers, DKMS build and modprobe steps for the running kernel; with its release unknown the
 * commands say "$(uname -r)", for the user's shell to expand. Text only for headers on other distributions.
 */
void fix_rebuild_module(struct finding *f, const struct facts *facts)
{
	const char *rel = facts->system.kernel_release[0] ? facts->system.kernel_release : "\"$(uname -r)\"";
	char cmd[256];

	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
	case DISTRO_DEBIAN:
		str_printf(cmd, sizeof(cmd), "sudo apt-get install linux-headers-%s", rel);
		break;
	case DISTRO_FEDORA:
	case DISTRO_RHEL:
		str_printf(cmd, sizeof(cmd), "sudo dnf install kernel-devel-%s", rel);
		break;
	default:
		str_printf(cmd, sizeof(cmd), "install the kernel headers for %s", rel);
		break;
	}
	finding_fix(f, strncmp(cmd, "sudo", 4) == 0 ? cmd : NULL, "%s", strncmp(cmd, "sudo", 4) == 0 ?
		    "install the headers of the running kernel, which DKMS needs" : cmd);
	str_printf(cmd, sizeof(cmd), "sudo dkms autoinstall -k %s", rel);
	finding_fix(f, cmd, "build the NVIDIA module for the running kernel");
	finding_fix(f, "sudo modprobe nvidia", "load it (or reboot)");
}

/*
 * Appends the NVIDIA Container Toolkit's repository and package for the distribution, as NVIDIA's install
 * guide gives them (docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html);
 * a text step where the guide has no commands for it.
 */
void fix_install_container_toolkit(struct finding *f, const struct facts *facts)
{
	switch (distro_of(facts)) {
	case DISTRO_UBUNTU:
	case DISTRO_DEBIAN:
		finding_fix(f, "curl -fsSL https://nvidia.github.io/libnvidia-container/gpgkey | sudo gpg --dearmor -o "
			    "/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg && curl -s -L "
			    "https://nvidia.github.io/libnvidia-container/stable/deb/nvidia-container-toolkit.list | sed "
			    "'s#deb https://#deb [signed-by=/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg] https://#g' | "
			    "sudo tee /etc/apt/sources.list.d/nvidia-container-toolkit.list",
			    "add NVIDIA's container toolkit repository");
		finding_fix(f, "sudo apt-get update && sudo apt-get install -y nvidia-container-toolkit",
			    "install the NVIDIA Container Toolkit");
		break;
	case DISTRO_FEDORA:
	case DISTRO_RHEL:
		finding_fix(f, "curl -s -L https://nvidia.github.io/libnvidia-container/stable/rpm/nvidia-container-toolkit.repo | "
			    "sudo tee /etc/yum.repos.d/nvidia-container-toolkit.repo", "add NVIDIA's container toolkit repository");
		finding_fix(f, "sudo dnf install -y nvidia-container-toolkit", "install the NVIDIA Container Toolkit");
		break;
	case DISTRO_SUSE:
		finding_fix(f, "sudo zypper ar https://nvidia.github.io/libnvidia-container/stable/rpm/nvidia-container-toolkit.repo",
			    "add NVIDIA's container toolkit repository");
		finding_fix(f, "sudo zypper --gpg-auto-import-keys install -y nvidia-container-toolkit",
			    "install the NVIDIA Container Toolkit");
		break;
	case DISTRO_ARCH:
		finding_fix(f, "sudo pacman -S nvidia-container-toolkit", "install the NVIDIA Container Toolkit (Arch's extra repository)");
		break;
	case DISTRO_UNKNOWN:
		finding_fix(f, NULL, "install the nvidia-container-toolkit package from NVIDIA's repository for your distribution "
			    "(NVIDIA Container Toolkit install guide)");
		break;
	}
}
