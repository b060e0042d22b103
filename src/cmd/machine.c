#include "cmd/machine.h"

#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

/*
 * See machine.h: m is zeroed first; returns EXIT_USAGE for any root that cannot be opened. The rootfs logs
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
