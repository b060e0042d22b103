/*
 * fixes.h - fix steps that depend on the distribution, shared by rules.
 *
 * Commands here are shown to the user, never run by gpudoctor.
 */
#ifndef GD_RULES_FIXES_H
#define GD_RULES_FIXES_H

#include "probe/facts.h"
#include "rules/finding.h"

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

void fix_install_driver(struct finding *f, const struct facts *facts);
void fix_blacklist_nouveau(struct finding *f, const struct facts *facts);
void fix_rebuild_module(struct finding *f, const struct facts *facts);
void fix_rebuild_initramfs(struct finding *f, const struct facts *facts);
/* "or keep this driver": the newest PyTorch wheel that runs on it and the first GPU. */
void fix_torch_for_driver(struct finding *f, const struct facts *facts, const char *driver);

#endif
