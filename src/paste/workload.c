/*
 * workload.c - what kind of program the text says met the error: a graphics client (a game, a Vulkan or
 * OpenGL program, DXVK or vkd3d-proton under Wine or Proton), not a CUDA one. The kernel logs the same
 * application-fault Xids (13, 31, 43) for both; for a CUDA program they mean its own illegal access, for a
 * graphics client often a driver bug that comes and goes with driver versions.
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

/* Whether word (lower case) stands as a word of its own in the line, searched in its lower-case copy. */
static bool has_word(const char *lower, const char *word)
{
	size_t n = strlen(word);

	for (const char *at = strstr(lower, word); at; at = strstr(at + 1, word))
		if ((at == lower || !paste_ident_char((unsigned char)at[-1])) && !paste_ident_char((unsigned char)at[n]))
			return true;
	return false;
}

/* Words that name a graphics client (the APIs, their translation layers, a game itself), and how the evidence
 * writes each. */
static const struct {
	const char *lower, *shown;
} graphics_words[] = {
	{ "vulkan", "Vulkan" }, { "opengl", "OpenGL" }, { "dxvk", "DXVK" }, { "vkd3d", "vkd3d" }, { "proton", "Proton" },
	{ "wine", "Wine" }, { "game", "game" }, { "games", "games" }, { "gaming", "gaming" },
};

void paste_note_graphics_client(struct paste *p, const char *line, const struct paste_at *at)
{
	if (p->graphics_client_named[0])
		return;
	(void)line;
	for (size_t i = 0; i < sizeof(graphics_words) / sizeof(graphics_words[0]); i++)
		if (has_word(at->lower, graphics_words[i].lower)) {
			str_printf(p->graphics_client_named, sizeof(p->graphics_client_named), "line %lu names %s",
				   at->number, graphics_words[i].shown);
			return;
		}
}
