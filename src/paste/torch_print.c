/*
 * torch_print.c - what `python -c "import torch; print(torch.__version__,
 * torch.version.cuda)"` and its variants print: "2.3.0+cu121 12.1",
 * "2.3.0+cpu None", "2.1.0+cu121 12.1 True", or at a Python prompt the
 * repr alone: '2.3.0+cu121'. At a prompt (">>> " or IPython's "In [2]: ")
 * the line after torch.__version__, torch.version.cuda or
 * torch.cuda.is_available() is its value ('2.1.0', '12.1', None, False;
 * IPython writes "Out[2]: " before it), whatever it looks like.
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

/* 2.3.0, 2.3.0+cu121, 2.4.0a0+git1234, 1.13.1+cu117 */
static bool torch_version_like(const char *w)
{
	int dots = 0;

	if (!char_is_digit((unsigned char)w[0]))
		return false;
	for (; *w && *w != '+'; w++) {
		if (*w == '.')
			dots++;
		else if (!char_is_digit((unsigned char)*w) && !(*w >= 'a' && *w <= 'z'))
			return false;
	}
	return dots == 2;
}

enum { REPL_NONE, REPL_VERSION, REPL_CUDA, REPL_AVAILABLE };

/* The expression after a Python prompt, print( ) taken off: what it asks of torch, or REPL_NONE. */
static int repl_question(const char *line)
{
	static const struct {
		const char *expr;
		int asked;
	} known[] = {
		{ "torch.__version__", REPL_VERSION },
		{ "torch.version.cuda", REPL_CUDA },
		{ "torch.cuda.is_available()", REPL_AVAILABLE },
	};
	char expr[64];
	const char *e = paste_after(line, ">>> ");
	size_t n;

	if (!e && (e = paste_after(line, "In [")) && (e = strstr(e, "]: ")))
		e += 3;
	if (!e)
		return REPL_NONE;
	str_copy(expr, sizeof(expr), str_starts_with(e, "print(") ? e + 6 : e);
	n = strlen(expr);
	while (n > 0 && (expr[n - 1] == ' ' || expr[n - 1] == ';'))
		expr[--n] = '\0';
	if (str_starts_with(e, "print(") && n > 0 && expr[n - 1] == ')')
		expr[--n] = '\0';
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(expr, known[i].expr) == 0)
			return known[i].asked;
	return REPL_NONE;
}

/* The line after a prompt that asked: the value, quotes and IPython's "Out[2]: " taken off. */
static bool take_repl_answer(struct paste *p, int asked, const char *line, const struct paste_at *at)
{
	char value[48];
	const char *v = line;
	size_t n;

	if (paste_after(v, "Out[") && strstr(v, "]: "))
		v = strstr(v, "]: ") + 3;
	str_copy(value, sizeof(value), v[0] == '\'' ? v + 1 : v);
	n = strlen(value);
	if (v[0] == '\'' && n > 0 && value[n - 1] == '\'')
		value[--n] = '\0';
	if (strchr(value, ' '))
		return false;
	switch (asked) {
	case REPL_VERSION:
		if (!torch_version_like(value))
			return false;
		paste_torch_version(p, value, true, at);
		return true;
	case REPL_CUDA:
		if (strcmp(value, "None") != 0 && !(char_is_digit((unsigned char)value[0]) &&
						    strspn(value, "0123456789.") == n))
			return false;
		paste_torch_cuda(p, value, at);
		return true;
	case REPL_AVAILABLE:
		if (strcmp(value, "True") != 0 && strcmp(value, "False") != 0)
			return false;
		p->cuda_available = value[0] == 'T';
		p->cuda_available_line = at->number;
		return true;
	default:
		return false;
	}
}

bool paste_read_torch_print(struct paste *p, const char *line, const struct paste_at *at)
{
	char words[4][48];
	int n = 0;
	const char *s = line;
	int asked = p->repl_asked;

	/* a prompt line asks; the next line answers (and no later one) */
	if ((p->repl_asked = repl_question(line)) != REPL_NONE)
		return true;
	if (asked != REPL_NONE && take_repl_answer(p, asked, line, at))
		return true;

	if (!char_is_digit((unsigned char)line[0]) && line[0] != '\'')
		return false;
	while (*s && n < 4) {
		while (char_is_space((unsigned char)*s))
			s++;
		if (!*s)
			break;
		paste_word(words[n], sizeof(words[n]), s);
		s += strcspn(s, " \t");
		n++;
	}
	if (*s)
		return false;	/* more words: not a print of versions */
	if (n == 1 && words[0][0] == '\'') {
		/* '2.3.0+cu121': only a version with its local tag says which torch it is */
		size_t len = strlen(words[0]);

		if (len < 3 || words[0][len - 1] != '\'' || !strchr(words[0], '+'))
			return false;
		words[0][len - 1] = '\0';
		if (!torch_version_like(words[0] + 1))
			return false;
		paste_torch_version(p, words[0] + 1, true, at);
		return true;
	}
	if (n == 1 && strchr(words[0], '+') && torch_version_like(words[0])) {
		/* print(torch.__version__) alone: "1.8.1+cu102" */
		paste_torch_version(p, words[0], true, at);
		return true;
	}
	if (n < 2 || !torch_version_like(words[0]))
		return false;
	if (strcmp(words[1], "None") != 0 && !(char_is_digit((unsigned char)words[1][0]) && strchr(words[1], '.') &&
					       strspn(words[1], "0123456789.") == strlen(words[1])))
		return false;
	if (n == 3 && strcmp(words[2], "True") != 0 && strcmp(words[2], "False") != 0)
		return false;
	if (n == 4)
		return false;
	paste_torch_version(p, words[0], true, at);
	paste_torch_cuda(p, words[1], at);
	if (n == 3) {	/* print(torch.__version__, torch.version.cuda, torch.cuda.is_available()) */
		p->cuda_available = words[2][0] == 'T';
		p->cuda_available_line = at->number;
	}
	return true;
}
