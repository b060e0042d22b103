/*
 * torch_print.c - what `python -c "import torch; print(torch.__version__,
 * torch.version.cuda)"` and its variants print: "2.3.0+cu121 12.1",
 * "2.3.0+cpu None", "2.1.0+cu121 12.1 True", or at a Python prompt the
 * repr alone: '2.3.0+cu121'.
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

bool paste_read_torch_print(struct paste *p, const char *line, const struct paste_at *at)
{
	char words[4][48];
	int n = 0;
	const char *s = line;

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
	if (n == 3)	/* print(torch.__version__, torch.version.cuda, torch.cuda.is_available()) */
		p->cuda_available = words[2][0] == 'T';
	return true;
}
