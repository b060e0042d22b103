/*
 * nvcc.c - the CUDA toolkit a paste shows: `nvcc -V` ("Cuda compilation tools, release 11.8, V11.8.89", the
 * line collect_env's "CUDA runtime version" is read from), and prose that says a versioned toolkit is installed.
 */
#include "paste/paste_internal.h"

#include <string.h>
#include <strings.h>

#include "util/str.h"

bool paste_read_nvcc(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *v = strstr(line, "Cuda compilation tools, release "), *full;
	char word[FACT_VER];

	if (!v)
		return false;
	/* the full version after ", V"; the release alone ("11.8") when it is missing */
	if ((full = strstr(v, ", V")))
		paste_word(word, sizeof(word), full + 3);
	else
		paste_word(word, sizeof(word), v + strlen("Cuda compilation tools, release "));
	word[strcspn(word, ",")] = '\0';
	paste_nvcc_version(p, word, "nvcc -V (the paste)", at);
	return true;
}

/* The length of the version (digits, a dot, digits: "9.0", "11.8") at s, 0 where none starts there. */
static int version_length(const char *s)
{
	int n = 0;

	while (char_is_digit((unsigned char)s[n]))
		n++;
	if (n == 0 || s[n] != '.' || !char_is_digit((unsigned char)s[n + 1]))
		return 0;
	for (n++; char_is_digit((unsigned char)s[n]); n++)
		;
	return n;
}

/* Where the version after "cuda" at s starts ("cuda9.0", "CUDA 10.1", "CUDA Toolkit 11.8"), NULL when none does. */
static const char *cuda_with_version(const char *s)
{
	s += 4;
	if (*s == ' ')
		s++;
	if (!strncasecmp(s, "toolkit ", 8))
		s += 8;
	return version_length(s) ? s : NULL;
}

/*
 * A sentence that says a versioned CUDA toolkit is installed ("I am sure cuda9.0 in my computer is installed
 * correctly", "I have installed CUDA 10.1"): the text's claim that a toolkit is there, which a build that
 * finds none then contradicts (pytorch/extension-cpp#26). "installed" must be within 40 bytes of the
 * version, with no negation or driver between them; an install that a line says fixed the error tells the
 * opposite and is not taken.
 */
void paste_note_toolkit_installed(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *cuda, *version, *installed, *from, *to;
	char between[64], before[16];

	if (p->toolkit_installed[0] || !(installed = strstr(line, "installed")) || strstr(at->lower, "fixed") ||
	    strstr(at->lower, "solved") || strstr(at->lower, "never"))
		return;
	for (const char *l = strstr(at->lower, "cuda"); l; l = strstr(l + 4, "cuda")) {
		cuda = line + (l - at->lower);
		if (!(version = cuda_with_version(cuda)))
			continue;
		from = cuda < installed ? cuda : installed;
		to = cuda < installed ? installed : version;
		if (to - from > 40)
			continue;
		str_copy(between, sizeof(between), from);
		between[to - from < (long)sizeof(between) ? to - from : (long)sizeof(between) - 1] = '\0';
		/* and the words just before: "haven't installed CUDA 12.1" */
		str_copy(before, sizeof(before), from - line > 12 ? from - 12 : line);
		before[from - line > 12 ? 12 : from - line] = '\0';
		if (str_casestr(between, "not ") || strstr(between, "n't") || str_casestr(between, "driver") ||
		    str_casestr(before, "not ") || strstr(before, "n't"))
			continue;
		str_printf(p->toolkit_installed, sizeof(p->toolkit_installed), "%.*s", version_length(version), version);
		p->toolkit_installed_line = at->number;
		return;
	}
}
