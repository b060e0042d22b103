/*
 * torch_requires.c - what torch's own METADATA says it needs (Requires-Dist,
 * core metadata 2.1) against what the interpreter has installed: a pip
 * torch wheel pins every nvidia-* wheel it loads libraries from
 * ("nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and
 * platform_machine == \"x86_64\""), so a missing or different one is known
 * from two directory listings, even when the libraries themselves cannot
 * be read. This is what `pip check` reports, without running pip.
 */
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/kv.h"
#include "util/str.h"

/* torch's METADATA carries the README after its headers: tens of KiB; the headers come first. */
#define METADATA_MAX (512 * 1024)

/* See probe_internal.h. */
int python_name_normalize(const char *in, size_t len, char *out, size_t outsz)
{
	size_t o = 0;
	bool sep = false;

	for (size_t i = 0; i < len && in[i]; i++) {
		int c = (unsigned char)in[i];

		if (c == '-' || c == '_' || c == '.') {
			sep = o > 0;
			continue;
		}
		if (o + (sep ? 2 : 1) >= outsz)
			return -1;
		if (sep)
			out[o++] = '-';
		sep = false;
		out[o++] = (char)char_lower(c);
	}
	if (outsz == 0)
		return -1;
	out[o] = '\0';
	return o > 0 ? 0 : -1;
}

/* A marker's tokens: names, quoted strings, operators, parentheses. */
struct marker_lexer {
	const char *p;
	char tok[64];
	bool quoted;
};

static bool is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || char_is_digit(c) || c == '_' || c == '.' || c == '-';
}

/* The next token into lx->tok; false at the end or on one that does not fit. */
static bool lex_next(struct marker_lexer *lx)
{
	const char *p = lx->p;
	size_t n = 0;

	while (char_is_space((unsigned char)*p))
		p++;
	lx->quoted = false;
	if (!*p)
		return false;
	if (*p == '"' || *p == '\'') {
		const char *end = strchr(p + 1, *p);

		if (!end || (size_t)(end - p - 1) >= sizeof(lx->tok))
			return false;
		n = (size_t)(end - p - 1);
		memcpy(lx->tok, p + 1, n);
		lx->quoted = true;
		p = end + 1;
	} else if (*p == '(' || *p == ')') {
		lx->tok[n++] = *p++;
	} else if (strchr("=!<>~", *p)) {
		while (*p && strchr("=!<>~", *p) && n < 3)
			lx->tok[n++] = *p++;
	} else {
		while (is_name_char((unsigned char)*p) && n < sizeof(lx->tok) - 1)
			lx->tok[n++] = *p++;
		if (n == 0)
			return false;
	}
	lx->tok[n] = '\0';
	lx->p = p;
	return true;
}

static bool lex_peek_is(const struct marker_lexer *lx, const char *word)
{
	struct marker_lexer copy = *lx;

	return lex_next(&copy) && !copy.quoted && strcmp(copy.tok, word) == 0;
}

/* A marker variable's value here, or NULL when this model does not know it. */
static const char *marker_value(const char *name, const struct marker_env *env, bool *is_version)
{
	*is_version = false;
	if (strcmp(name, "python_version") == 0) {
		*is_version = true;
		return env->python_version && env->python_version[0] ? env->python_version : NULL;
	}
	if (strcmp(name, "platform_machine") == 0)
		return env->platform_machine && env->platform_machine[0] ? env->platform_machine : NULL;
	if (strcmp(name, "platform_system") == 0)
		return "Linux";
	if (strcmp(name, "sys_platform") == 0)
		return "linux";
	if (strcmp(name, "os_name") == 0)
		return "posix";
	/* The interpreters found are CPython's (the only ones torch publishes wheels for). */
	if (strcmp(name, "platform_python_implementation") == 0)
		return "CPython";
	if (strcmp(name, "implementation_name") == 0)
		return "cpython";
	/* A plain `pip install torch` asks for no extras. */
	if (strcmp(name, "extra") == 0)
		return "";
	return NULL;
}

/* One comparison "a op b", either side a variable or a string: 1, 0, or -1 unknown. */
static int compare(const char *op, const char *a, const char *b, bool version)
{
	int c;

	if (strcmp(op, "in") == 0)
		return strstr(b, a) != NULL;
	if (version && !strchr(b, '*') && version_is_valid(a) && version_is_valid(b)) {
		c = version_compare(a, b);
		if (strcmp(op, "==") == 0)
			return c == 0;
		if (strcmp(op, "!=") == 0)
			return c != 0;
		if (strcmp(op, "<") == 0)
			return c < 0;
		if (strcmp(op, "<=") == 0)
			return c <= 0;
		if (strcmp(op, ">") == 0)
			return c > 0;
		if (strcmp(op, ">=") == 0)
			return c >= 0;
		return -1;
	}
	if (strcmp(op, "==") == 0 || strcmp(op, "===") == 0)
		return strcmp(a, b) == 0;
	if (strcmp(op, "!=") == 0)
		return strcmp(a, b) != 0;
	return -1;
}

static int eval_or(struct marker_lexer *lx, const struct marker_env *env, int depth);

/* atom := "(" or ")" | value op value */
static int eval_atom(struct marker_lexer *lx, const struct marker_env *env, int depth)
{
	char left[64], op[8];
	const char *a, *b;
	bool left_quoted, va = false, vb = false;
	int r;

	if (!lex_next(lx))
		return -2;
	if (!lx->quoted && strcmp(lx->tok, "(") == 0) {
		if (depth > 8)
			return -2;
		r = eval_or(lx, env, depth + 1);
		if (r == -2 || !lex_next(lx) || lx->quoted || strcmp(lx->tok, ")") != 0)
			return -2;
		return r;
	}
	str_copy(left, sizeof(left), lx->tok);
	left_quoted = lx->quoted;
	if (!lex_next(lx) || lx->quoted)
		return -2;
	str_copy(op, sizeof(op), lx->tok);
	if (strcmp(op, "not") == 0) {
		if (!lex_next(lx) || strcmp(lx->tok, "in") != 0)
			return -2;
		str_copy(op, sizeof(op), "not in");
	}
	if (!lex_next(lx))
		return -2;
	a = left_quoted ? left : marker_value(left, env, &va);
	b = lx->quoted ? lx->tok : marker_value(lx->tok, env, &vb);
	if (!a || !b)
		return -1;
	if (strcmp(op, "not in") == 0)
		return strstr(b, a) == NULL;
	return compare(op, a, b, va || vb);
}

/* and binds tighter than or; three-valued: a known false wins over an unknown in "and", a true in "or". */
static int eval_and(struct marker_lexer *lx, const struct marker_env *env, int depth)
{
	int r = eval_atom(lx, env, depth);

	while (r != -2 && lex_peek_is(lx, "and")) {
		int s;

		lex_next(lx);
		s = eval_atom(lx, env, depth);
		if (s == -2)
			return -2;
		r = (r == 0 || s == 0) ? 0 : (r == -1 || s == -1) ? -1 : 1;
	}
	return r;
}

static int eval_or(struct marker_lexer *lx, const struct marker_env *env, int depth)
{
	int r = eval_and(lx, env, depth);

	while (r != -2 && lex_peek_is(lx, "or")) {
		int s;

		lex_next(lx);
		s = eval_and(lx, env, depth);
		if (s == -2)
			return -2;
		r = (r == 1 || s == 1) ? 1 : (r == -1 || s == -1) ? -1 : 0;
	}
	return r;
}

/* See probe_internal.h. */
int marker_eval(const char *marker, const struct marker_env *env)
{
	struct marker_lexer lx = { .p = marker };
	int r;

	while (char_is_space((unsigned char)*lx.p))
		lx.p++;
	if (!*lx.p)
		return 1;
	r = eval_or(&lx, env, 0);
	if (r == -2 || lex_next(&lx))
		return -1;	/* malformed, or more than this model reads */
	return r;
}

/* See probe_internal.h. */
int requires_dist_parse(const char *value, struct torch_requirement *req, const char **marker)
{
	const char *p = value, *name = p, *semi = strchr(value, ';');
	char spec[64];
	size_t n;

	memset(req, 0, sizeof(*req));
	*marker = semi ? semi + 1 : "";
	while (is_name_char((unsigned char)*p))
		p++;
	if (python_name_normalize(name, (size_t)(p - name), req->name, sizeof(req->name)) < 0)
		return -1;
	n = (size_t)((semi ? semi : p + strlen(p)) - p);
	if (n >= sizeof(spec))
		return -1;
	memcpy(spec, p, n);
	spec[n] = '\0';
	str_trim(spec);
	if (spec[0] == '[') {	/* extras of the dependency: they do not change which wheel it is */
		char *close = strchr(spec, ']');

		if (!close)
			return -1;
		memmove(spec, close + 1, strlen(close + 1) + 1);
		str_trim(spec);
	}
	if (spec[0] == '(') {	/* the older "name (==1.0)" form */
		size_t len = strlen(spec);

		if (spec[len - 1] != ')')
			return -1;
		spec[len - 1] = '\0';
		memmove(spec, spec + 1, len - 1);
		str_trim(spec);
	}
	if (!spec[0])
		return 0;
	if (strchr(spec, ',') || spec[0] == '@')
		return -1;	/* a range or a URL: more than this model compares */
	n = strspn(spec, "=!<>~");
	if (n == 0 || n > 3)
		return -1;
	memcpy(req->op, spec, n);
	req->op[n] = '\0';
	if (str_copy(req->version, sizeof(req->version), str_trim(spec + n)) < 0 || !req->version[0])
		return -1;
	return 0;
}

/* See probe_internal.h. */
void torch_requires_read(struct facts *f, const struct rootfs *fs, const struct marker_env *env,
			 struct torch_install *t)
{
	char *text = NULL, *cur, *line;

	if (!t->metadata[0] || rootfs_read(fs, t->metadata, METADATA_MAX, &text, NULL, NULL, NULL) < 0) {
		t->metadata[0] = '\0';
		return;
	}
	cur = text;
	while ((line = line_next(&cur))) {
		struct torch_requirement req;
		const char *marker;
		char *value;
		int holds;

		if (!line[0] || line[0] == '\r')
			break;	/* the headers end at the first blank line; the description follows */
		if (!str_starts_with(line, "Requires-Dist:"))
			continue;
		value = str_trim(line + strlen("Requires-Dist:"));
		if (!str_starts_with(value, "nvidia-") && !str_starts_with(value, "nvidia_"))
			continue;
		if (requires_dist_parse(value, &req, &marker) < 0 || (holds = marker_eval(marker, env)) < 0) {
			t->reqs_skipped++;
			continue;
		}
		if (!holds)
			continue;
		if (t->nreqs >= MAX_TORCH_REQS) {
			facts_dropped(f, "nvidia-* requirements of torch", MAX_TORCH_REQS, 1);
			continue;
		}
		t->reqs[t->nreqs++] = req;
	}
	free(text);
}

/* "nvidia_cudnn_cu12-9.1.0.70.dist-info" -> whether it is req's package, and its version. */
static bool dist_info_matches(const char *entry, const char *name, char *version, size_t versionsz)
{
	const char *dash = strchr(entry, '-'), *end;
	char norm[64];

	if (!dash || !str_ends_with(entry, ".dist-info"))
		return false;
	end = entry + strlen(entry) - strlen(".dist-info");
	if (end <= dash || python_name_normalize(entry, (size_t)(dash - entry), norm, sizeof(norm)) < 0 ||
	    strcmp(norm, name) != 0 || (size_t)(end - dash - 1) >= versionsz)
		return false;
	memcpy(version, dash + 1, (size_t)(end - dash - 1));
	version[end - dash - 1] = '\0';
	return true;
}

/* Whether installed satisfies op version, as pip compares the pins torch uses. */
static bool satisfies(const struct torch_requirement *r)
{
	int c;

	if (!r->installed[0])
		return false;
	if (!r->op[0])
		return true;
	if (strcmp(r->op, "==") == 0 || strcmp(r->op, "===") == 0)
		return strcmp(r->installed, r->version) == 0 || version_compare(r->installed, r->version) == 0;
	c = version_compare(r->installed, r->version);
	if (strcmp(r->op, ">=") == 0)
		return c >= 0;
	if (strcmp(r->op, ">") == 0)
		return c > 0;
	if (strcmp(r->op, "<=") == 0)
		return c <= 0;
	if (strcmp(r->op, "<") == 0)
		return c < 0;
	if (strcmp(r->op, "!=") == 0)
		return c != 0;
	return true;	/* "~=": not judged */
}

/* See probe_internal.h. */
void torch_requires_check(const struct rootfs *fs, const struct python_env *py, struct torch_install *t)
{
	for (int s = 0; s < py->nsite; s++) {
		DIR *d = rootfs_opendir(fs, py->site_dirs[s]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (!str_starts_with(de->d_name, "nvidia"))
				continue;
			for (int i = 0; i < t->nreqs; i++) {
				struct torch_requirement *r = &t->reqs[i];

				/* the first site directory that has it is the one importlib.metadata and pip read */
				if (!r->installed[0])
					dist_info_matches(de->d_name, r->name, r->installed, sizeof(r->installed));
			}
		}
		closedir(d);
	}
	for (int i = 0; i < t->nreqs; i++)
		t->reqs[i].met = satisfies(&t->reqs[i]);
	t->reqs_checked = true;
}
