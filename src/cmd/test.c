/*
 * test.c - `gpudoctor test`: prove each GPU computes correctly.
 */
#include "cmd/compute_cmd.h"
#include "util/i18n.h"

static int run_test(const struct cmd_options *opts)
{
	return cmd_compute(opts, false);
}

static const struct cmd_option_group *const groups[] = { &cmd_machine_options, &cmd_compute_options, NULL };

const struct command cmd_test = {
	.name = "test",
	.run = run_test,
	.summary = N_("prove each GPU computes correctly (kernels, copies, matmuls)"),
	.usage = "gpudoctor test [options]",
	.description = "For each GPU, through the CUDA driver (no Python, no toolkit): JIT-compiles small PTX "
		       "kernels, checks every word a kernel writes, a host -> device -> device -> host round trip "
		       "of random data, and 256x256 matrix products of random data for about two seconds "
		       "(--duration), each equal bit for bit to the host's result and to the first run. Watches "
		       "the GPUs' uncorrectable ECC counters and (as root) the kernel log for Xid events. Runs in "
		       "a helper process: one driver call may take --timeout, the whole run --max-time.",
	.epilogue = "Exit status: 0 every GPU passed, 1 a GPU failed or there is no usable GPU,\n"
		    "2 usage error, 3 internal error.\n",
	.groups = groups,
};
