#include "cluster/slurm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/str.h"
#include "util/subprocess.h"

#define SCONTROL_OUTPUT_MAX 65536

static const char *const scontrol_paths[] = {
	"/usr/bin/scontrol", "/usr/local/bin/scontrol", "/opt/slurm/bin/scontrol", "/usr/sbin/scontrol",
};

/* See slurm.h. */
int slurm_open(struct slurm *s, char *const envp[], double timeout_s, struct error *err)
{
	memset(s, 0, sizeof(*s));
	s->timeout_s = timeout_s;
	for (size_t i = 0; i < sizeof(scontrol_paths) / sizeof(scontrol_paths[0]) && !s->scontrol[0]; i++)
		if (access(scontrol_paths[i], X_OK) == 0)
			str_copy(s->scontrol, sizeof(s->scontrol), scontrol_paths[i]);
	if (!s->scontrol[0])
		return error_set(err, "scontrol not found (looked in /usr/bin, /usr/local/bin, /opt/slurm/bin, /usr/sbin)");
	for (size_t i = 0; envp && envp[i]; i++)
		if (str_starts_with(envp[i], "SLURM_CONF=") && !(s->env[0] = str_dup(envp[i])))
			return error_set(err, "out of memory");
	return 0;
}

void slurm_close(struct slurm *s)
{
	free(s->env[0]);
	s->env[0] = NULL;
}

/* See slurm.h. */
int slurm_node_name(char *const envp[], char *out, size_t outsz)
{
	char host[256];

	for (size_t i = 0; envp && envp[i]; i++)
		if (str_starts_with(envp[i], "SLURMD_NODENAME=") && envp[i][strlen("SLURMD_NODENAME=")]) {
			str_copy(out, outsz, envp[i] + strlen("SLURMD_NODENAME="));
			return 0;
		}
	if (gethostname(host, sizeof(host)) < 0 || !host[0])
		return -1;
	host[sizeof(host) - 1] = '\0';
	host[strcspn(host, ".")] = '\0';	/* Slurm's NodeName is the short name */
	str_copy(out, outsz, host);
	return 0;
}

/* Run scontrol with args (NULL-terminated, at most 6); its stdout in *res. */
static int run(const struct slurm *s, const char *const args[], struct subprocess_result *res, struct error *err)
{
	char *argv[8];
	int n = 0;

	argv[n++] = (char *)s->scontrol;
	for (int i = 0; args[i] && n < 7; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	if (subprocess_run(argv, s->env, "/", s->timeout_s, SCONTROL_OUTPUT_MAX, res, err) < 0)
		return -1;
	if (res->timed_out) {
		subprocess_result_release(res);
		return error_set(err, "scontrol %s did not answer within %g s", args[0], s->timeout_s);
	}
	if (res->exit_code != 0) {
		char why[160];

		/* scontrol says why on stderr, or on stdout ("Node x not found") */
		str_copy(why, sizeof(why), res->err[0] ? str_trim(res->err) : res->out[0] ? str_trim(res->out) : "no message");
		why[strcspn(why, "\n")] = '\0';
		subprocess_result_release(res);
		return error_set(err, "scontrol %s failed: %s", args[0], why);
	}
	return 0;
}

/* The value of " Key=" in text, up to the end of the line (Reason holds spaces) or the next space. */
static void field(const char *text, const char *key, bool to_eol, char *out, size_t outsz)
{
	const char *v = strstr(text, key);
	size_t n;

	out[0] = '\0';
	if (!v)
		return;
	v += strlen(key);
	n = to_eol ? strcspn(v, "\n") : strcspn(v, " \n");
	str_printf(out, outsz, "%.*s", (int)n, v);
}

/* See slurm.h. */
int slurm_show_node(const struct slurm *s, const char *name, struct slurm_node *out, struct error *err)
{
	const char *args[] = { "show", "node", name, NULL };
	struct subprocess_result res;
	char state[128];
	char *suffix;

	memset(out, 0, sizeof(*out));
	str_copy(out->name, sizeof(out->name), name);
	if (run(s, args, &res, err) < 0)
		return -1;
	if (!strstr(res.out, "NodeName=")) {
		subprocess_result_release(&res);
		return error_set(err, "scontrol show node %s: no such node", name);
	}
	field(res.out, " State=", false, state, sizeof(state));
	out->drained = strstr(state, "DRAIN") != NULL;
	field(res.out, " Reason=", true, out->reason, sizeof(out->reason));
	/* "Reason=gpudoctor: ... [root@2026-12-03T17:07:59]": the user and time Slurm appends */
	if ((suffix = strrchr(out->reason, '[')) && suffix > out->reason && suffix[-1] == ' ')
		suffix[-1] = '\0';
	subprocess_result_release(&res);
	return 0;
}

/* See slurm.h. The reason is one argument: no shell splits or expands it. */
int slurm_drain(const struct slurm *s, const char *name, const char *reason, struct error *err)
{
	char node[160], why[300];
	const char *args[] = { "update", node, "State=DRAIN", why, NULL };
	struct subprocess_result res;

	str_printf(node, sizeof(node), "NodeName=%s", name);
	str_printf(why, sizeof(why), "Reason=%s", reason);
	if (run(s, args, &res, err) < 0)
		return -1;
	subprocess_result_release(&res);
	return 0;
}

/* See slurm.h. */
int slurm_resume(const struct slurm *s, const char *name, struct error *err)
{
	char node[160];
	const char *args[] = { "update", node, "State=RESUME", NULL };
	struct subprocess_result res;

	str_printf(node, sizeof(node), "NodeName=%s", name);
	if (run(s, args, &res, err) < 0)
		return -1;
	subprocess_result_release(&res);
	return 0;
}

/* See slurm.h. */
bool slurm_drained_by_us(const struct slurm_node *n)
{
	return n->drained && str_starts_with(n->reason, SLURM_REASON_PREFIX);
}
