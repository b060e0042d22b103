/*
 * gres.c - the GPUs Slurm's gres.conf promises this node (slurm.conf and
 * gres.conf man pages: "Name=gpu File=/dev/nvidia[0-3]", "Count=", a
 * "NodeName=" host list, "AutoDetect=nvml").
 *
 * Only what the file says is read: which GPUs slurmd will offer jobs here.
 * The rule compares it with the GPUs the driver lists (gpu.gres-mismatch).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "probe/probe_internal.h"
#include "util/str.h"

#define GRES_MAX_BYTES (256 * 1024)
/* No node has more GPUs than this: a larger number in the file is a typo, never counted (and never overflows). */
#define GRES_MAX_GPUS 1024

static const char *const gres_paths[] = { "/etc/slurm/gres.conf", "/etc/slurm-llnl/gres.conf" };

/*
 * One "lo" or "lo-hi" of a bracket's list ("0-3,5": s[0..n), without the brackets) from *i, past its
 * comma; *lo_at is where lo was written (its width and padding). 1 read, 0 at the end, -1 not a range.
 */
static int next_range(const char *s, size_t n, size_t *i, long *lo, long *hi, const char **lo_at, size_t *width)
{
	char *end;

	if (*i >= n)
		return 0;
	*lo_at = s + *i;
	*lo = *hi = strtol(*lo_at, &end, 10);
	if (end == *lo_at || end > s + n)
		return -1;
	*width = (size_t)(end - *lo_at);
	*i = (size_t)(end - s);
	if (*i < n && s[*i] == '-') {
		*hi = strtol(s + *i + 1, &end, 10);
		if (end == s + *i + 1 || end > s + n)
			return -1;
		*i = (size_t)(end - s);
	}
	if (*i < n && s[*i] != ',')
		return -1;
	(*i)++;
	return 1;
}

/*
 * The numbers a bracket "[0-3,5]" (without the brackets, n bytes) holds: 5. -1 when it is not a list of
 * numbers and ranges.
 */
static long bracket_count(const char *s, size_t n)
{
	long count = 0, lo, hi;
	size_t i = 0, width;
	const char *lo_at;
	int got;

	while ((got = next_range(s, n, &i, &lo, &hi, &lo_at, &width)) > 0) {
		if (lo < 0 || lo > GRES_MAX_GPUS || hi < lo || hi > GRES_MAX_GPUS)
			return -1;
		count += hi - lo + 1;
		if (count > GRES_MAX_GPUS)
			return -1;
	}
	return got < 0 ? -1 : count;
}

/* Whether name is in the bracket "[01-16,20]" (n bytes, without brackets) after a prefix: "07" is. */
static bool bracket_has(const char *s, size_t n, const char *digits)
{
	size_t i = 0, len = strlen(digits), width;
	const char *lo_at;
	long v, lo, hi;

	if (!len || strspn(digits, "0123456789") != len)
		return false;
	v = strtol(digits, NULL, 10);
	while (next_range(s, n, &i, &lo, &hi, &lo_at, &width) > 0)
		/* "gpu[01-16]" names gpu07, not gpu7: a padded range wants the padded width */
		if (v >= lo && v <= hi && (lo_at[0] != '0' || width == 1 || len == width))
			return true;
	return false;
}

/* Whether a Slurm host list ("gpu[01-16],login1") names node: one bracket group per item. */
static bool hostlist_has(const char *list, const char *node)
{
	const char *item = list;

	while (*item) {
		size_t n = 0;
		int depth = 0;

		while (item[n] && (item[n] != ',' || depth)) {
			depth += item[n] == '[' ? 1 : item[n] == ']' ? -1 : 0;
			n++;
		}
		{
			const char *open = memchr(item, '[', n), *close = open ? memchr(open, ']', n - (size_t)(open - item)) : NULL;

			if (!open || !close) {
				if (strlen(node) == n && strncmp(item, node, n) == 0)
					return true;
			} else {
				size_t pre = (size_t)(open - item), post = n - (size_t)(close + 1 - item);
				size_t len = strlen(node);
				char digits[32];

				if (len > pre + post && strncmp(node, item, pre) == 0 &&
				    strncmp(node + len - post, close + 1, post) == 0 && len - pre - post < sizeof(digits)) {
					str_printf(digits, sizeof(digits), "%.*s", (int)(len - pre - post), node + pre);
					if (bracket_has(open + 1, (size_t)(close - open - 1), digits))
						return true;
				}
			}
		}
		item += n + (item[n] == ',');
	}
	return false;
}

/* The GPUs one File= value names: "/dev/nvidia[0-3]" 4, "/dev/nvidia0,/dev/nvidia1" 2; -1 unreadable. */
static long files_count(const char *v)
{
	long count = 0;

	while (*v) {
		size_t n = strcspn(v, ",["), total = 0;

		if (v[n] == '[') {
			const char *close = strchr(v + n, ']');
			long k;

			if (!close || (k = bracket_count(v + n + 1, (size_t)(close - v - n - 1))) < 0)
				return -1;
			count += k;
			if (count > GRES_MAX_GPUS)
				return -1;
			total = (size_t)(close + 1 - v);
			total += strcspn(v + total, ",");
		} else {
			if (++count > GRES_MAX_GPUS)
				return -1;
			total = n;
		}
		v += total + (v[total] == ',');
	}
	return count;
}

/* This node's name for Slurm: SLURMD_NODENAME, else the short host name (the machine's /etc/hostname). */
static void node_name(struct facts *f, const struct probe_ctx *ctx)
{
	const char *env = facts_env(f, "SLURMD_NODENAME");
	char host[128] = "";

	if (env && env[0]) {
		str_copy(f->gres.node, sizeof(f->gres.node), env);
		return;
	}
	if (rootfs_read_line(ctx->fs, "/etc/hostname", host, sizeof(host)) < 0 && ctx->fs->live)
		gethostname(host, sizeof(host) - 1);
	host[strcspn(host, ". \t")] = '\0';
	str_copy(f->gres.node, sizeof(f->gres.node), host);
}

/* The value of key (case-insensitive, "Key=") among the line's words, or NULL. */
static const char *value_of(char *const words[], int n, const char *key)
{
	size_t k = strlen(key);

	for (int i = 0; i < n; i++)
		if (strncasecmp(words[i], key, k) == 0 && words[i][k] == '=')
			return words[i] + k + 1;
	return NULL;
}

/* One line: a Name=gpu line for this node adds its GPUs; AutoDetect=nvml anywhere says Slurm asks NVML. */
static void take_line(struct gres_facts *g, char *line, unsigned long number)
{
	char *words[16], *save = NULL;
	int n = 0;
	const char *name, *nodes, *files, *count, *detect;
	long k = -1;

	for (char *tok = strtok_r(line, " \t\r", &save); tok && n < 16; tok = strtok_r(NULL, " \t\r", &save))
		words[n++] = tok;
	if ((detect = value_of(words, n, "AutoDetect")) && strcasecmp(detect, "off") != 0)
		g->autodetect = true;
	name = value_of(words, n, "Name");
	if (!name || strcasecmp(name, "gpu") != 0)
		return;
	nodes = value_of(words, n, "NodeName");
	if (nodes && !hostlist_has(nodes, g->node))
		return;
	if ((files = value_of(words, n, "File")))
		k = files_count(files);
	else if ((count = value_of(words, n, "Count")))
		k = strtol(count, NULL, 10);
	if (k < 0 || k > GRES_MAX_GPUS || g->gpus + k > GRES_MAX_GPUS)
		return;
	g->gpus = (g->gpus < 0 ? 0 : g->gpus) + (int)k;
	if (files && !g->files[0]) {
		str_copy(g->files, sizeof(g->files), files);
		g->line = number;
	}
}

/* See probe.h. */
void probe_gres(struct facts *f, const struct probe_ctx *ctx)
{
	struct gres_facts *g = &f->gres;
	struct error err = { 0 };
	char *text = NULL, *line, *save = NULL;
	size_t len;
	unsigned long number = 0;

	g->gpus = -1;
	for (size_t i = 0; i < sizeof(gres_paths) / sizeof(gres_paths[0]) && !text; i++)
		if (rootfs_read(ctx->fs, gres_paths[i], GRES_MAX_BYTES, &text, &len, NULL, &err) == 0)
			str_copy(g->path, sizeof(g->path), gres_paths[i]);
		else if (err.code == EACCES)
			break;
	if (!text) {
		if (err.code == EACCES) {
			fact_status_set(&g->status, FACT_UNKNOWN, "gres.conf: permission denied");
			g->status.denied = true;
		} else
			fact_status_set(&g->status, FACT_ABSENT, "no gres.conf (not a Slurm node)");
		return;
	}
	node_name(f, ctx);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#');

		number++;
		if (hash)
			*hash = '\0';
		take_line(g, line, number);
	}
	free(text);
	if (g->autodetect && g->gpus >= 0 && !g->files[0])
		g->gpus = -1;	/* Count= beside AutoDetect: NVML decides */
	fact_status_set(&g->status, FACT_OK, "%s", g->path);
}
