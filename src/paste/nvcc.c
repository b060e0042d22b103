/*
 * nvcc.c - `nvcc -V`: "Cuda compilation tools, release 11.8, V11.8.89"
 * (the line collect_env's "CUDA runtime version" is read from).
 */
#include "paste/paste_internal.h"

#include <string.h>

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
