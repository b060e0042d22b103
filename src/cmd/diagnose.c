#include "cmd/diagnose.h"

#include <stdio.h>

#include "probe/probe.h"

struct facts *diagnose_collect(const struct cmd_options *opts, int *status)
{
	struct probe_ctx ctx = { 0 };
	struct rootfs_denials denied = { 0 };
	struct error err;
	struct facts *facts;

	if (rootfs_init(&ctx.fs, opts->root, &err) < 0) {
		cmd_error("gpudoctor: %s", err.msg);
		*status = EXIT_USAGE;
		return NULL;
	}
	ctx.envp = opts->envp;
	ctx.timeout_s = opts->timeout_s;
	ctx.static_only = opts->static_only;
	ctx.load_root_libs = opts->load_root_libraries;
	ctx.python = opts->python;
	ctx.deep = opts->deep;
	ctx.fast = opts->fast;
	facts = facts_new();
	if (!facts) {
		fprintf(stderr, "gpudoctor: out of memory\n");
		rootfs_release(&ctx.fs);
		*status = EXIT_INTERNAL;
		return NULL;
	}
	ctx.fs.denied = &denied;
	probe_all(facts, &ctx);
	rootfs_release(&ctx.fs);
	return facts;
}
