#include "cmd/machine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probe/interpreter.h"
#include "probe/probe.h"
#include "util/i18n.h"

/* The value of name in envp (the diagnosed environment), or NULL. */
static const char *env_value(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

/* --python must name an interpreter on that machine: a usage error otherwise, never a guess. */
static int check_python(const struct machine *m, const struct cmd_options *opts)
{
	char cwd[ROOTFS_PATH_MAX], found[ROOTFS_PATH_MAX];
	struct error err;

	if (!opts->python)
		return 0;
	if (interpreter_find(&m->fs, opts->python, env_value(opts->envp, "PATH"),
			     m->fs.live && getcwd(cwd, sizeof(cwd)) ? cwd : NULL, found, sizeof(found), &err) == 0)
		return 0;
	/* two whole sentences, so that each translates */
	if (m->fs.live)
		cmd_error(_("gpudoctor: --python '%s' is not an interpreter: %s"), opts->python, err.msg);
	else
		cmd_error(_("gpudoctor: --python '%s' is not an interpreter in the --root image: %s"), opts->python,
			  err.msg);
	return EXIT_USAGE;
}

/*
 * See machine.h: m is zeroed first; returns EXIT_USAGE for any root that cannot be opened, or a --python
 * that names no interpreter (interpreter_find) in it. The rootfs logs
 * refusals into m->denied, a pointer into m itself, so m must not be copied or moved once open.
 */
int machine_open(struct machine *m, const struct cmd_options *opts)
{
	struct error err;

	memset(m, 0, sizeof(*m));
	if (rootfs_init(&m->fs, opts->root, &err) < 0) {
		cmd_error("gpudoctor: %s", err.msg);
		return EXIT_USAGE;
	}
	m->fs.denied = &m->denied;
	if (check_python(m, opts) != 0) {
		rootfs_release(&m->fs);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * See machine.h. Clears the refusal log first, so each call reports its own. Blocks while the driver is
 * called and Python runs (see probe_all); prints only when out of memory.
 */
struct facts *machine_probe(struct machine *m, const struct cmd_options *opts)
{
	struct probe_ctx ctx = { 0 };
	struct facts *facts = facts_new();

	if (!facts) {
		fprintf(stderr, "gpudoctor: out of memory\n");
		return NULL;
	}
	memset(&m->denied, 0, sizeof(m->denied));	/* each probe counts its own refusals */
	ctx.fs = &m->fs;
	ctx.envp = opts->envp;
	ctx.timeout_s = opts->timeout_s;
	ctx.static_only = opts->static_only;
	ctx.load_root_libs = opts->load_root_libraries;
	ctx.python = opts->python;
	ctx.deep = opts->deep;
	ctx.fast = opts->fast;
	probe_all(facts, &ctx);
	return facts;
}

/* Release the rootfs; facts from machine_probe are the caller's to free. Safe after a failed open. */
void machine_close(struct machine *m)
{
	rootfs_release(&m->fs);
}
