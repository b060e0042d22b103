/*
 * compute_cmd.h - what `gpudoctor test` and `gpudoctor bench` share: read
 * the machine as the doctor does and stop at once, with its root cause,
 * when there is no usable GPU; otherwise compute on every GPU in the
 * isolated helper (compute/), with the ECC counters read and the kernel
 * log watched around the run, and report.
 */
#ifndef GD_CMD_COMPUTE_CMD_H
#define GD_CMD_COMPUTE_CMD_H

#include "cmd/cmd.h"
#include "cmd/options.h"

/* The options of both: the machine's, --duration and --max-time. */
extern const struct cmd_option_group cmd_compute_options;

int cmd_compute(const struct cmd_options *opts, bool bench);

#endif
