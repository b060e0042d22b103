/*
 * devnodes.c - /dev/nvidia* and whether the diagnosed user may open them.
 *
 * Live, we stat the nodes and ask access(2). Under --root any file at a
 * device path stands for the node; its content may describe it in ls -l
 * style ("crw-rw---- root video 195 0"), an empty file meaning
 * "crw-rw-rw- root root". We never open a real device node here.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "probe/probe_internal.h"
#include "util/str.h"


/* "crw-rw----" -> 0660; returns -1 on anything else. */
static int parse_mode(const char *s, unsigned *mode, bool *is_char)
{
	static const char rwx[] = "rwxrwxrwx";
	unsigned m = 0;

	if (strlen(s) < 10 || (s[0] != 'c' && s[0] != '-' && s[0] != 'b'))
		return -1;
	for (int i = 0; i < 9; i++) {
		if (s[1 + i] == rwx[i] || (i % 3 == 2 && (s[1 + i] == 's' || s[1 + i] == 't')))
			m |= 1u << (8 - i);
		else if (s[1 + i] != '-' && s[1 + i] != 'S' && s[1 + i] != 'T')
			return -1;
	}
	*mode = m;
	*is_char = s[0] == 'c';
	return 0;
}

/* Fill node from a stand-in file; a malformed one becomes a probe note. */
static void read_standin(struct facts *f, const struct rootfs *fs, struct devnode *node)
{
	char line[256], *save = NULL, *tok[5] = { 0 };
	int n = 0;

	node->from_standin = true;
	node->is_char_device = true;
	node->mode = 0666;
	str_copy(node->owner, sizeof(node->owner), "root");
	str_copy(node->group, sizeof(node->group), "root");
	node->major = node->minor = -1;
	if (rootfs_read_line(fs, node->path, line, sizeof(line)) < 0 || !*str_trim(line))
		return;
	for (char *t = strtok_r(line, " \t", &save); t && n < 5; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	if (parse_mode(tok[0], &node->mode, &node->is_char_device) < 0) {
		facts_note(f, "stand-in %s: cannot parse mode '%s'", node->path, tok[0]);
		return;
	}
	if (tok[1])
		str_copy(node->owner, sizeof(node->owner), tok[1]);
	if (tok[2])
		str_copy(node->group, sizeof(node->group), tok[2]);
	if (tok[3] && tok[4]) {
		node->major = atoi(tok[3]);
		node->minor = atoi(tok[4]);
	}
}

static bool user_in_group(const struct user_facts *u, gid_t gid)
{
	for (int i = 0; i < u->ngids; i++)
		if (u->gids[i] == gid)
			return true;
	return false;
}

/* Classic Unix permission check: owner bits, else group bits, else other. */
static void standin_access(const struct rootfs *fs, const struct user_facts *u, struct devnode *node)
{
	unsigned bits;
	gid_t gid;
	uint64_t uid;

	if (u->is_root) {
		node->can_read = node->can_write = true;
		return;
	}
	if (strcmp(node->owner, u->name) == 0 ||
	    (str_to_u64(node->owner, &uid) == 0 && uid == (uint64_t)u->uid))
		bits = (node->mode >> 6) & 7;	/* owner by name, or by uid as in `ls -n` */
	else if (user_group_id(fs, node->group, &gid) == 0 && user_in_group(u, gid))
		bits = (node->mode >> 3) & 7;
	else
		bits = node->mode & 7;
	node->can_read = bits & 4;
	node->can_write = bits & 2;
}

static void read_live(const struct rootfs *fs, struct devnode *node)
{
	struct stat st;

	if (rootfs_stat(fs, node->path, &st) < 0)
		return;
	node->is_char_device = S_ISCHR(st.st_mode);
	node->mode = st.st_mode & 0777;
	/* Names, as ls shows them, so fixes can say "the video group". */
	if (user_id_name(fs, "/etc/passwd", st.st_uid, node->owner, sizeof(node->owner)) < 0)
		snprintf(node->owner, sizeof(node->owner), "%u", (unsigned)st.st_uid);
	if (user_id_name(fs, "/etc/group", st.st_gid, node->group, sizeof(node->group)) < 0)
		snprintf(node->group, sizeof(node->group), "%u", (unsigned)st.st_gid);
	node->major = node->is_char_device ? (int)major(st.st_rdev) : -1;
	node->minor = node->is_char_device ? (int)minor(st.st_rdev) : -1;
	node->can_read = rootfs_access(fs, node->path, R_OK) == 0;
	node->can_write = rootfs_access(fs, node->path, W_OK) == 0;
}

static void add_node(struct facts *f, const struct probe_ctx *ctx, const char *path)
{
	struct kmod_facts *k = &f->kmod;
	struct devnode *node;
	struct stat st;

	if (rootfs_lstat(ctx->fs, path, &st) < 0 || S_ISDIR(st.st_mode))
		return;
	if (k->node_count >= MAX_DEVNODES) {
		facts_dropped(f, "NVIDIA device nodes", MAX_DEVNODES, 1);
		return;
	}
	node = &k->nodes[k->node_count++];
	str_copy(node->path, sizeof(node->path), path);
	node->present = true;
	if (ctx->fs->live) {
		read_live(ctx->fs, node);
	} else {
		read_standin(f, ctx->fs, node);
		standin_access(ctx->fs, &f->system.user, node);
	}
}

static int compare_nodes(const void *a, const void *b)
{
	return strcmp(((const struct devnode *)a)->path, ((const struct devnode *)b)->path);
}

static void scan_dir(struct facts *f, const struct probe_ctx *ctx, const char *dir, const char *prefix)
{
	DIR *d = rootfs_opendir(ctx->fs, dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[FACT_PATH];

		if (de->d_name[0] == '.' || !str_starts_with(de->d_name, prefix))
			continue;
		if (path_join(path, sizeof(path), dir, de->d_name) == 0)
			add_node(f, ctx, path);
	}
	closedir(d);
}

/*
 * The nodes present under /dev and /dev/nvidia-caps, sorted by path; absent ones are not recorded. Live,
 * access is what access(2) grants this process; rooted, stand-in files are parsed and checked against
 * f->system.user, so probe_system must have run. Never opens a device.
 */
void probe_devnodes(struct facts *f, const struct probe_ctx *ctx)
{
	scan_dir(f, ctx, "/dev", "nvidia");
	scan_dir(f, ctx, "/dev/nvidia-caps", "nvidia-cap");
	qsort(f->kmod.nodes, (size_t)f->kmod.node_count, sizeof(f->kmod.nodes[0]), compare_nodes);
}
