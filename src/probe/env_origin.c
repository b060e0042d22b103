/*
 * env_origin.c - where CUDA_VISIBLE_DEVICES came from.
 *
 * A variable that hides GPUs is only half explained by its value: the user
 * also needs to know what to change. A job scheduler says so through its
 * own variables (Slurm's GPU plugin sets CUDA_VISIBLE_DEVICES beside
 * SLURM_JOB_GPUS / SLURM_STEP_GPUS / GPU_DEVICE_ORDINAL); otherwise the
 * files a login shell reads are read statically, in the order the shell
 * reads them, and the last plain assignment of the same value is the
 * origin. Nothing is run, nothing is expanded: a value built from other
 * variables ($X) is not recognised.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "util/path.h"
#include "util/str.h"

#define PROFILE_MAX (256 * 1024)
#define PROFILE_D_MAX 64

static const char VAR[] = "CUDA_VISIBLE_DEVICES";

/* The value a line `[export ]CUDA_VISIBLE_DEVICES=VALUE` assigns, unquoted, into out; false for other lines. */
static bool assignment_value(char *line, char *out, size_t outsz)
{
	char *p = line, *end;

	while (char_is_space((unsigned char)*p))
		p++;
	if (str_starts_with(p, "export") && char_is_space((unsigned char)p[6]))
		for (p += 6; char_is_space((unsigned char)*p); p++)
			;
	if (!str_starts_with(p, VAR) || p[strlen(VAR)] != '=')
		return false;
	p += strlen(VAR) + 1;
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		if (!(end = strchr(p, q)))
			return false;
		*end = '\0';
	} else {
		p[strcspn(p, " \t;#\r")] = '\0';
	}
	if (strchr(p, '$') || strchr(p, '`'))
		return false;	/* built from other variables: not read statically */
	return str_copy(out, outsz, p) == 0;
}

/* Record path:line when file assigns the same value as the environment holds; later files win. */
static void scan_file(struct env_facts *env, const struct rootfs *fs, const char *path, const char *want)
{
	char *text = NULL, *line, *next;
	int n = 0;

	if (rootfs_read(fs, path, PROFILE_MAX, &text, NULL, NULL, NULL) < 0)
		return;
	for (line = text; line; line = next) {
		char value[128];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		if (assignment_value(line, value, sizeof(value)) && strcmp(value, want) == 0) {
			str_copy(env->visible_origin, sizeof(env->visible_origin), path);
			str_printf(env->visible_origin_detail, sizeof(env->visible_origin_detail),
				   "line %d: %s=%s", n, VAR, value);
		}
	}
	free(text);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The profile.d scripts (*.sh) in the order /etc/profile's glob sources them (sorted), at most PROFILE_D_MAX. */
static void scan_profile_d(struct facts *f, const struct rootfs *fs, const char *want)
{
	DIR *d = rootfs_opendir(fs, "/etc/profile.d");
	struct dirent *de;
	char *names[PROFILE_D_MAX];
	int n = 0, dropped = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!str_ends_with(de->d_name, ".sh"))
			continue;
		if (n >= PROFILE_D_MAX) {
			dropped++;
			continue;
		}
		if ((names[n] = str_dup(de->d_name)))
			n++;
	}
	closedir(d);
	facts_dropped(f, "/etc/profile.d scripts", PROFILE_D_MAX, dropped);
	qsort(names, (size_t)n, sizeof(names[0]), compare_names);
	for (int i = 0; i < n; i++) {
		char path[FACT_PATH];

		if (path_join(path, sizeof(path), "/etc/profile.d", names[i]) == 0)
			scan_file(&f->env, fs, path, want);
		free(names[i]);
	}
}

static bool slurm_origin(struct env_facts *env, const struct facts *f)
{
	static const char *const vars[] = { "SLURM_STEP_GPUS", "SLURM_JOB_GPUS", "GPU_DEVICE_ORDINAL" };
	const char *job = facts_env(f, "SLURM_JOB_ID");

	if (!job)
		return false;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = facts_env(f, vars[i]);

		if (v) {
			str_printf(env->visible_origin, sizeof(env->visible_origin), "Slurm job %s", job);
			str_printf(env->visible_origin_detail, sizeof(env->visible_origin_detail), "%s=%s", vars[i], v);
			return true;
		}
	}
	return false;
}

/*
 * Fill f->env.visible_origin and visible_origin_detail when CUDA_VISIBLE_DEVICES is set: a Slurm job (its
 * GPU variables), else the last of /etc/environment, /etc/profile, /etc/bash.bashrc, /etc/profile.d/\*.sh,
 * ~/.bash_profile, ~/.bash_login, ~/.profile, ~/.bashrc, ~/.zshenv, ~/.zprofile, ~/.zshrc that assigns the
 * same value (HOME from the environment). Needs probe_env done. Reads each file's first PROFILE_MAX bytes.
 */
void probe_env_origin(struct facts *f, const struct probe_ctx *ctx)
{
	static const char *const system_files[] = { "/etc/environment", "/etc/profile", "/etc/bash.bashrc" };
	static const char *const home_files[] = { ".bash_profile", ".bash_login", ".profile", ".bashrc",
						  ".zshenv", ".zprofile", ".zshrc" };
	const char *want = facts_env(f, VAR), *home = facts_env(f, "HOME");
	char value[128];

	if (!want || slurm_origin(&f->env, f))
		return;
	str_copy(value, sizeof(value), want);
	str_trim(value);
	for (size_t i = 0; i < sizeof(system_files) / sizeof(system_files[0]); i++)
		scan_file(&f->env, ctx->fs, system_files[i], value);
	scan_profile_d(f, ctx->fs, value);
	if (!home || home[0] != '/')
		return;
	for (size_t i = 0; i < sizeof(home_files) / sizeof(home_files[0]); i++) {
		char path[FACT_PATH];

		if (path_join(path, sizeof(path), home, home_files[i]) == 0)
			scan_file(&f->env, ctx->fs, path, value);
	}
}
