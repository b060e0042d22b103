/*
 * fleet_inputs.c - reading `gpudoctor fleet`'s inputs (see fleet_inputs.h). Only one report is held
 * at a time, as text; what is kept of it is what fleet_add keeps.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/fleet_inputs.h"
#include "util/str.h"

/* Room for n bytes and a NUL in in->buf; -1 when out of memory. */
static int reserve(struct fleet_inputs *in, size_t n)
{
	size_t cap = in->cap ? in->cap : 65536;
	char *buf;

	if (n + 1 <= in->cap)
		return 0;
	while (cap < n + 1)
		cap *= 2;
	if (!(buf = realloc(in->buf, cap)))
		return -1;
	in->buf = buf;
	in->cap = cap;
	return 0;
}

/* A node's name when its report has none: the file's name without directories and ".json". */
static void name_from_path(char *out, size_t size, const char *path)
{
	const char *base = strrchr(path, '/');

	str_copy(out, size, base && base[1] ? base + 1 : path);
	if (str_ends_with(out, ".json") && strlen(out) > 5)
		out[strlen(out) - 5] = '\0';
}

/* Reduce the report text in buf and add it (or why it is none) under source and name. */
static int add_text(struct fleet *f, const char *buf, size_t len, const char *source, const char *name,
		    struct error *err)
{
	struct fleet_report r;
	struct error why;

	if (fleet_report_read(buf, len, &r, &why) < 0)
		return fleet_add_unreadable(f, source, name, why.msg, err);
	return fleet_add(f, &r, source, name, err);
}

/* Read all of fd (at most FLEET_REPORT_MAX) into in->buf: its length, -1 with errno, -2 too large, -3 out of memory. */
static long long read_all(struct fleet_inputs *in, int fd)
{
	size_t len = 0;

	for (;;) {
		ssize_t got;

		if (len > FLEET_REPORT_MAX)
			return -2;
		if (reserve(in, len + 65536) < 0)
			return -3;
		got = read(fd, in->buf + len, in->cap - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return (long long)len;
		len += (size_t)got;
	}
}

static int add_file(struct fleet_inputs *in, struct fleet *f, const char *path, struct error *err)
{
	char name[256], why[320];
	long long len;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	name_from_path(name, sizeof(name), path);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		str_printf(why, sizeof(why), "cannot read it: %s", fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return fleet_add_unreadable(f, path, name, why, err);
	}
	len = read_all(in, fd);
	close(fd);
	if (len == -3)
		return error_set(err, "out of memory");
	if (len < 0) {
		str_printf(why, sizeof(why), "cannot read it: %s",
			   len == -2 ? "larger than 16 MiB, no report is" : strerror(errno));
		return fleet_add_unreadable(f, path, name, why, err);
	}
	return add_text(f, in->buf, (size_t)len, path, name, err);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json entries of dir, sorted (bytewise, as the locale must not change an order); NULL on error. */
static char **json_entries(DIR *dir, size_t *n)
{
	char **names = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || !str_ends_with(e->d_name, ".json"))
			continue;
		if (*n == cap) {
			char **more = realloc(names, (cap = cap ? cap * 2 : 256) * sizeof(*names));

			if (!more)
				goto oom;
			names = more;
		}
		if (!(names[*n] = strdup(e->d_name)))
			goto oom;
		(*n)++;
	}
	if (*n)
		qsort(names, *n, sizeof(*names), name_cmp);
	return names ? names : calloc(1, sizeof(*names));
oom:
	for (size_t i = 0; i < *n; i++)
		free(names[i]);
	free(names);
	return NULL;
}

int fleet_inputs_add_path(struct fleet_inputs *in, struct fleet *f, const char *path, struct error *err)
{
	struct stat st;
	char **names, why[320], name[256];
	size_t n;
	int rc = 0;
	DIR *dir;

	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return add_file(in, f, path, err);
	if (!(dir = opendir(path))) {
		name_from_path(name, sizeof(name), path);
		str_printf(why, sizeof(why), "cannot list the directory: %s", strerror(errno));
		return fleet_add_unreadable(f, path, name, why, err);
	}
	names = json_entries(dir, &n);
	closedir(dir);
	if (!names)
		return error_set(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char *file = NULL;
		size_t len = strlen(path) + strlen(names[i]) + 2;

		if (rc == 0 && (file = malloc(len))) {
			snprintf(file, len, "%s%s%s", path, str_ends_with(path, "/") ? "" : "/", names[i]);
			rc = add_file(in, f, file, err);
		} else if (rc == 0) {
			rc = error_set(err, "out of memory");
		}
		free(file);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* One report of a stream being gathered. */
struct unit {
	size_t len;
	long line;		/* where it starts */
	bool too_large;
};

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!char_is_space((unsigned char)s[i]))
			return false;
	return true;
}

/* Add the gathered report (if any) and start afresh. */
static int flush(struct fleet_inputs *in, struct fleet *f, struct unit *u, const char *name, struct error *err)
{
	char source[300];
	int rc = 0;

	str_printf(source, sizeof(source), "%s:%ld", name, u->line);
	if (u->too_large)
		rc = fleet_add_unreadable(f, source, source, "larger than 16 MiB, no report is", err);
	else if (u->len && !blank(in->buf, u->len))
		rc = add_text(f, in->buf, u->len, source, source, err);
	*u = (struct unit){ 0 };
	return rc;
}

int fleet_inputs_add_stream(struct fleet_inputs *in, struct fleet *f, FILE *fp, const char *name, struct error *err)
{
	char chunk[65536];
	struct unit u = { 0 };
	bool line_start = true;
	long line = 0;

	while (fgets(chunk, sizeof(chunk), fp)) {
		size_t n = strlen(chunk);
		bool starts = line_start;

		line_start = n > 0 && chunk[n - 1] == '\n';
		if (starts) {
			line++;
			if (chunk[0] == '{' && (u.len || u.too_large) && flush(in, f, &u, name, err) < 0)
				return -1;
			if (!u.len && !u.too_large) {
				if (blank(chunk, n))
					continue;	/* between reports */
				u.line = line;
			}
		}
		if (u.too_large)
			continue;
		if (u.len + n > FLEET_REPORT_MAX) {
			u.too_large = true;
			continue;
		}
		if (reserve(in, u.len + n) < 0)
			return error_set(err, "out of memory");
		memcpy(in->buf + u.len, chunk, n);
		u.len += n;
	}
	if (ferror(fp)) {
		char why[300];

		str_printf(why, sizeof(why), "cannot read past line %ld: %s", line, strerror(errno));
		if (flush(in, f, &u, name, err) < 0)
			return -1;
		return fleet_add_unreadable(f, name, name, why, err);
	}
	return flush(in, f, &u, name, err);
}

void fleet_inputs_release(struct fleet_inputs *in)
{
	free(in->buf);
	in->buf = NULL;
	in->cap = 0;
}
