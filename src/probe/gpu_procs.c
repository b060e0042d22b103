/*
 * gpu_procs.c - who the processes on each GPU are: NVML gives a pid and the
 * memory it holds; /proc gives its owner and command line.
 *
 * The driver helper only asks the driver, so the join happens here, after
 * it returns. Inside a container NVML reports the host's pids, which mean
 * nothing (or another process) in the container's pid namespace: there the
 * processes stay unjoined and the facts say why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/str.h"

#define PROC_STATUS_MAX (64 * 1024)
#define PROC_CMDLINE_MAX 4096

/* "Uid:\t1001\t1001\t1001\t1001": the real uid, the first field (proc(5)). */
static long long status_uid(const char *text)
{
	const char *p = strstr(text, "\nUid:");
	char *end;
	long long uid;

	if (!p)
		return -1;
	p += 5;
	uid = strtoll(p, &end, 10);
	return end == p || uid < 0 ? -1 : uid;
}

/* cmdline's arguments are NUL-separated; join them with spaces, cut to the buffer. */
static void join_cmdline(const char *raw, size_t len, char *out, size_t outsz)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < outsz; i++)
		out[n++] = raw[i] ? raw[i] : ' ';
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

/* The name of uid as a process already joined knows it, so /etc/passwd is read once per user. */
static bool known_user(const struct nvml_device *devs, int ndev, long long uid, char *out, size_t outsz)
{
	for (int i = 0; i < ndev; i++)
		for (int k = 0; k < devs[i].nprocs; k++) {
			const struct gpu_process *q = &devs[i].procs[k];

			if (q->seen && q->uid == uid && q->user[0]) {
				str_copy(out, outsz, q->user);
				return true;
			}
		}
	return false;
}

static void join_process(const struct nvml_device *devs, int ndev, struct gpu_process *p, const struct rootfs *fs)
{
	char path[64], *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "/proc/%u/status", p->pid);
	if (rootfs_read(fs, path, PROC_STATUS_MAX, &text, &len, NULL, NULL) < 0)
		return;	/* gone since NVML listed it, or not ours to see */
	p->uid = status_uid(text);
	free(text);
	if (p->uid >= 0 && !known_user(devs, ndev, p->uid, p->user, sizeof(p->user)) &&
	    user_id_name(fs, "/etc/passwd", (unsigned)p->uid, p->user, sizeof(p->user)) < 0)
		p->user[0] = '\0';
	p->seen = true;
	snprintf(path, sizeof(path), "/proc/%u/cmdline", p->pid);
	if (rootfs_read(fs, path, PROC_CMDLINE_MAX, &text, &len, NULL, NULL) == 0) {
		join_cmdline(text, len, p->command, sizeof(p->command));
		free(text);
	}
}

/* See probe.h. */
bool probe_join_processes(struct nvml_device *devs, int ndev, bool in_container, const struct rootfs *fs)
{
	if (in_container)
		return true;
	for (int i = 0; i < ndev; i++)
		for (int k = 0; k < devs[i].nprocs; k++)
			join_process(devs, ndev, &devs[i].procs[k], fs);
	return false;
}

/* See probe.h. */
void probe_gpu_processes(struct facts *f, const struct probe_ctx *ctx)
{
	struct runtime_facts *rt = &f->runtime;

	rt->procs_foreign_pids = probe_join_processes(rt->nvml, rt->nvml_ndev, f->container.in_container, ctx->fs);
}
