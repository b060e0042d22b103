/*
 * health.c - `gpudoctor health`: the doctor for schedulers. Files and the
 * driver only (Python is never run), the node's layers only
 * (rules/node_health.h), one short line, and a hard time budget: a health
 * check must never hang the daemon that runs it (slurmd, node-problem-
 * detector).
 *
 * Exit status: 0 healthy, 1 unhealthy, 2 unknown (or a usage error), the
 * codes node-problem-detector's custom plugins use.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/time.h>
#include <unistd.h>

#include "cluster/slurm.h"
#include "cmd/machine.h"
#include "cmd/options.h"
#include "report/report.h"
#include "report/report_health.h"
#include "rules/node_health.h"
#include "util/i18n.h"
#include "util/str.h"

#define HEALTH_BUDGET_S 5.0
#define NPD_MESSAGE_MAX 80	/* node-problem-detector's default max_output_length */

/* Written by the budget's alarm, which may only call async-signal-safe functions: prepared in advance. */
static char overrun_line[128];
static size_t overrun_len;

static void on_overrun(int sig)
{
	(void)sig;
	if (write(STDOUT_FILENO, overrun_line, overrun_len) < 0) {
		/* nothing more can be said */
	}
	_exit(EXIT_USAGE);	/* 2: unknown */
}

/*
 * The whole run's budget: past it the line says so and the process ends with "unknown". The driver probe
 * gets a quarter of it per call (and, as always, three calls' worth in all), so it gives up and kills its
 * helper process before the alarm; the alarm is for what no deadline covers. local: the line's prose in
 * the text reports' language (see use_local).
 */
static void arm_budget(double budget_s, bool json, bool local)
{
	struct itimerval t = { { 0, 0 }, { (long)budget_s, (long)((budget_s - (long)budget_s) * 1e6) } };
	struct sigaction sa;

	if (local) {	/* the status word stays English, outside the msgid */
		char prose[96];

		str_printf(prose, sizeof(prose), _("the check did not finish within %.1f s"), budget_s);
		str_printf(overrun_line, sizeof(overrun_line), "unknown: %s\n", prose);
	} else {
		str_printf(overrun_line, sizeof(overrun_line),
			   json ? "{\"schema\": \"gpudoctor.health/1\", \"status\": \"unknown\", \"message\": "
				  "\"unknown: the check did not finish within %.1f s\"}\n"
				: "unknown: the check did not finish within %.1f s\n",
			   budget_s);
	}
	overrun_len = strlen(overrun_line);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_overrun;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &t, NULL);
}

static void disarm_budget(void)
{
	struct itimerval t = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &t, NULL);
}

/*
 * One --slurm check at a time per node: slurmd may start the next before a slow one ends. The lock is
 * held until the process exits (the descriptor is never closed). Root's is in /run, a user's in /tmp.
 */
static bool take_lock(char *why, size_t whysz)
{
	char path[64];
	int fd;

	if (geteuid() == 0)
		str_copy(path, sizeof(path), "/run/gpudoctor-health.lock");
	else
		str_printf(path, sizeof(path), "/tmp/gpudoctor-health-%u.lock", (unsigned)geteuid());
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		str_printf(why, whysz, "cannot open the lock %s", path);
		return false;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		str_printf(why, whysz, "another gpudoctor health --slurm is running (%s)", path);
		return false;
	}
	return true;
}

/*
 * --slurm: drain this node when it is unhealthy, with a reason that says it is gpudoctor's; resume it when
 * it is healthy again, only from a drain of gpudoctor's own (never an admin's). Unknown changes nothing.
 * Appends what it did to line; returns the exit status, 2 (unknown) when Slurm could not be asked.
 */
static int act_on_slurm(const struct cmd_options *opts, double budget, const struct node_health *h, int status,
			char *line, size_t linesz)
{
	struct error err = { 0 };
	struct slurm s;
	struct slurm_node node;
	char name[128], reason[200], why[160];
	size_t used = strlen(line);

	if (!take_lock(why, sizeof(why))) {
		str_printf(line, linesz, "unknown: %s", why);
		return EXIT_USAGE;
	}
	if (slurm_node_name(opts->envp, name, sizeof(name)) < 0) {
		str_printf(line + used, linesz - used, "; slurm: no node name (SLURMD_NODENAME or the host name)");
		return EXIT_USAGE;
	}
	if (slurm_open(&s, opts->envp, budget / 4, &err) < 0 || slurm_show_node(&s, name, &node, &err) < 0) {
		str_printf(line + used, linesz - used, "; slurm: %s", err.msg);
		slurm_close(&s);
		return EXIT_USAGE;
	}
	if (h->status == NODE_UNHEALTHY && !node.drained) {
		str_printf(reason, sizeof(reason), "%s %s", SLURM_REASON_PREFIX, line + strlen("unhealthy: "));
		if (slurm_drain(&s, name, reason, &err) == 0)
			str_printf(line + used, linesz - used, "; drained %s", name);
	} else if (h->status == NODE_UNHEALTHY) {
		str_printf(line + used, linesz - used, "; %s already drained%s", name,
			   slurm_drained_by_us(&node) ? "" : " by someone else");
	} else if (h->status == NODE_HEALTHY && slurm_drained_by_us(&node)) {
		if (slurm_resume(&s, name, &err) == 0)
			str_printf(line + used, linesz - used, "; resumed %s", name);
	} else if (node.drained) {
		str_printf(line + used, linesz - used, "; %s drained by someone else, left alone", name);
	}
	slurm_close(&s);
	if (err.msg[0]) {	/* a drain or resume that failed: the node is not as the line says */
		str_printf(line + used, linesz - used, "; slurm: %s", err.msg);
		return EXIT_USAGE;
	}
	return status;
}

static int status_exit(enum node_status s)
{
	return s == NODE_HEALTHY ? EXIT_READY : s == NODE_UNHEALTHY ? EXIT_NOT_READY : EXIT_USAGE;
}

/*
 * Whether the line's prose follows the text reports' language: only for a person reading it. --npd's
 * message becomes a node condition, --slurm's a drain reason, both stored by the scheduler and shown to
 * every admin (and --npd has 80 bytes, a third of them in Chinese): those and JSON stay English.
 */
static bool use_local(const struct cmd_options *o)
{
	return o->format != FORMAT_JSON && !o->npd && !o->slurm && i18n_active();
}

static int run_health(const struct cmd_options *given)
{
	struct cmd_options opts = *given;
	double budget = given->timeout_s > 0 ? given->timeout_s : HEALTH_BUDGET_S;
	struct node_health h;
	struct machine m;
	struct diagnosis d;
	struct cmd_out o;
	struct facts *facts;
	char line[512];
	FILE *out;
	int status;

	arm_budget(budget, given->format == FORMAT_JSON, use_local(given));
	opts.timeout_s = budget / 4;
	opts.fast = true;	/* never run an interpreter: the node's layers only */
	opts.deep = false;
	opts.python = NULL;
	if ((status = machine_open(&m, &opts)))
		return status;
	facts = machine_probe(&m, &opts);
	machine_close(&m);
	if (!facts)
		return EXIT_INTERNAL;
	rules_run(facts, &d);
	node_health_judge(facts, &d, &h);
	status = status_exit(h.status);
	if (use_local(given))
		report_health_line_local(line, sizeof(line), &h, facts);
	else
		report_health_line(line, sizeof(line), &h, facts);
	if (given->slurm)
		status = act_on_slurm(given, budget, &h, status, line, sizeof(line));
	disarm_budget();
	if (!(out = cmd_out_open(&o))) {
		diagnosis_release(&d);
		facts_free(facts);
		return EXIT_INTERNAL;
	}
	if (given->format == FORMAT_JSON) {
		status = cmd_write_json(out, report_health_json(&h, &d, line), status);
	} else {
		if (given->npd)
			report_health_fit(line, NPD_MESSAGE_MAX);
		fprintf(out, "%s\n", line);
	}
	diagnosis_release(&d);
	facts_free(facts);
	return cmd_out_close(&o, given, status);
}

/* After the machine's --root and --load-root-libraries: --timeout as the whole check's budget. */
static const struct cmd_option health_only[] = {
	{ "timeout", 0, "SECONDS", OPT_TIMEOUT, N_("the whole check's budget (default 5); past it the answer is "
	  "unknown") },
	{ "slurm", 0, NULL, OPT_SLURM, N_("as Slurm's HealthCheckProgram: drain this node (SLURMD_NODENAME, else "
	  "the host name) when unhealthy, with a reason starting \"gpudoctor:\"; resume it when healthy again, "
	  "only from such a drain, never an admin's") },
	{ "npd", 0, NULL, OPT_NPD, N_("node-problem-detector's custom plugin protocol: the message cut to 80 "
	  "characters") },
};
static CMD_OPTION_GROUP(health_options, health_only);

static const struct cmd_option_group *const groups[] = { &cmd_root_options, &health_options, NULL };

const struct command cmd_health = {
	.name = "health",
	.run = run_health,
	.summary = N_("a node's GPU health for schedulers: one line, exit 0/1/2"),
	.usage = "gpudoctor health [options]",
	.description = N_("The doctor narrowed to what a node owns: the GPUs on the bus, the kernel module, device "
		       "nodes, the driver libraries and the driver API (Python is never run; a user's "
		       "environment never makes a node unhealthy). Prints one line: healthy, unhealthy with the "
		       "cause id and what is wrong, or unknown. Here --timeout is the whole check's budget "
		       "(default 5 s): past it the answer is unknown, never a hang."),
	.epilogue = N_("Exit status: 0 healthy, 1 unhealthy, 2 unknown or usage error, 3 internal\n"
		    "error (node-problem-detector reads 0 OK, 1 problem, 2 unknown).\n"),
	.groups = groups,
};
