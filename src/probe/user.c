/*
 * user.c - who we diagnose for: the name, uid and groups that decide
 * whether /dev/nvidia* can be opened.
 *
 * Live, that is this process. Under --root it is USER from the diagnosed
 * environment, looked up in the root's /etc/passwd and /etc/group, so that
 * a scenario can describe "alice is not in the video group".
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe_internal.h"
#include "util/kv.h"
#include "util/str.h"

#define ACCOUNT_FILE_MAX (4 * 1024 * 1024)

static const char *env_lookup(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* Split a colon-separated record into at most max fields, in place. */
static int split_fields(char *line, char **fields, int max)
{
	int n = 0;

	fields[n++] = line;
	for (char *p = line; *p && n < max; p++) {
		if (*p == ':') {
			*p = '\0';
			fields[n++] = p + 1;
		}
	}
	return n;
}

static bool has_gid(const struct user_facts *u, gid_t gid)
{
	for (int i = 0; i < u->ngids; i++)
		if (u->gids[i] == gid)
			return true;
	return false;
}

static void add_gid(struct user_facts *u, gid_t gid)
{
	if (has_gid(u, gid))
		return;
	if (u->ngids < MAX_GROUPS)
		u->gids[u->ngids++] = gid;
	else
		u->gids_dropped++;
}

/* Look the user up by name (when name is set) or by uid; fills uid, name, gid. */
static bool lookup_passwd(struct user_facts *u, const struct rootfs *fs, bool by_name)
{
	char *text = NULL, *cur, *line;
	bool found = false;

	if (rootfs_read(fs, "/etc/passwd", ACCOUNT_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return false;
	cur = text;
	while (!found && (line = line_next(&cur))) {
		char *fld[7];
		uint64_t uid, gid;

		if (split_fields(line, fld, 7) < 4 || str_to_u64(fld[2], &uid) < 0 ||
		    str_to_u64(fld[3], &gid) < 0)
			continue;
		if (by_name ? strcmp(fld[0], u->name) != 0 : (uid_t)uid != u->uid)
			continue;
		u->uid = (uid_t)uid;
		str_copy(u->name, sizeof(u->name), fld[0]);
		add_gid(u, (gid_t)gid);
		found = true;
	}
	free(text);
	return found;
}

/* Add every group of /etc/group that lists the user as a member. */
static void lookup_groups(struct user_facts *u, const struct rootfs *fs)
{
	char *text = NULL, *cur, *line;

	if (rootfs_read(fs, "/etc/group", ACCOUNT_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	cur = text;
	while ((line = line_next(&cur))) {
		char *fld[4], *save = NULL;
		uint64_t gid;

		if (split_fields(line, fld, 4) < 4 || str_to_u64(fld[2], &gid) < 0)
			continue;
		for (char *m = strtok_r(fld[3], ",", &save); m; m = strtok_r(NULL, ",", &save))
			if (strcmp(str_trim(m), u->name) == 0)
				add_gid(u, (gid_t)gid);
	}
	free(text);
}

/* Map a group or user name to its id in the diagnosed machine. */
int user_group_id(const struct rootfs *fs, const char *group, gid_t *out)
{
	char *text = NULL, *cur, *line;
	int rc = -1;
	uint64_t v;

	if (str_to_u64(group, &v) == 0) {
		*out = (gid_t)v;
		return 0;
	}
	if (rootfs_read(fs, "/etc/group", ACCOUNT_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return -1;
	cur = text;
	while (rc < 0 && (line = line_next(&cur))) {
		char *fld[4];

		if (split_fields(line, fld, 4) >= 3 && strcmp(fld[0], group) == 0 &&
		    str_to_u64(fld[2], &v) == 0) {
			*out = (gid_t)v;
			rc = 0;
		}
	}
	free(text);
	return rc;
}

/*
 * Reads the whole file through the rootfs on every call. -1 when unreadable, not listed, or the name does
 * not fit outsz (out then holds it cut).
 */
int user_id_name(const struct rootfs *fs, const char *file, unsigned id, char *out, size_t outsz)
{
	char *text = NULL, *cur, *line;
	int rc = -1;

	if (rootfs_read(fs, file, ACCOUNT_FILE_MAX, &text, NULL, NULL, NULL) < 0)
		return -1;
	cur = text;
	while (rc < 0 && (line = line_next(&cur))) {
		char *fld[4];
		uint64_t v;

		if (split_fields(line, fld, 4) >= 3 && str_to_u64(fld[2], &v) == 0 && v == id)
			rc = str_copy(out, outsz, fld[0]);
	}
	free(text);
	return rc;
}

/*
 * Live: this process's credentials, named from /etc/passwd (else $USER). Rooted: $USER (default root)
 * looked up in the root's files; an unknown user becomes uid 65534 unless named root. Live, groups beyond
 * MAX_GROUPS are counted as dropped.
 */
void probe_user(struct facts *f, const struct probe_ctx *ctx)
{
	struct user_facts *u = &f->system.user;
	const char *name = env_lookup(ctx->envp, "USER");

	if (ctx->fs->live) {
		/* getgroups fails outright for a short buffer: ask how many first */
		int n = getgroups(0, NULL);
		gid_t *groups = n > 0 ? calloc((size_t)n, sizeof(*groups)) : NULL;

		u->uid = getuid();
		add_gid(u, getgid());
		n = groups ? getgroups(n, groups) : 0;
		for (int i = 0; i < n; i++)
			add_gid(u, groups[i]);
		free(groups);
		if (!lookup_passwd(u, ctx->fs, false))
			str_copy(u->name, sizeof(u->name), name ? name : "");
		str_copy(u->source, sizeof(u->source), "process credentials");
	} else {
		str_copy(u->name, sizeof(u->name), name ? name : "root");
		if (!lookup_passwd(u, ctx->fs, true)) {
			/* Unknown users default to root only when USER says root. */
			u->uid = strcmp(u->name, "root") == 0 ? 0 : 65534;
			add_gid(u, u->uid == 0 ? 0 : 65534);
			facts_note(f, "user '%s' is not in the root's /etc/passwd", u->name);
		}
		lookup_groups(u, ctx->fs);
		str_copy(u->source, sizeof(u->source), "/etc/passwd, /etc/group");
	}
	u->is_root = u->uid == 0;
	facts_dropped(f, "groups of the user", MAX_GROUPS, u->gids_dropped);
}
