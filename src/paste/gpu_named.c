/*
 * gpu_named.c - a GPU named in the text's prose ("I have GeForce GT 650M", "tesla k40m的显卡", "my MX250"):
 * its name and compute capability from the GPU table. Kept apart from the GPUs nvidia-smi, lspci or collect_env
 * show: a sentence may name a card the text only asks about, so it never fills the facts model.
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "kb/kb.h"
#include "util/str.h"

/* Product lines (lower case) whose model follows as the next word or glued on ("GTX 1080", "GTX1080", "Tesla K40m"). */
static const char *const lines_of_cards[] = { "gtx", "gt", "rtx", "mx", "tesla", "quadro", "titan" };

/*
 * The card whose product line starts at s (n bytes) in the GPU table, into kb: the model after it, glued
 * ("MX250", "GTX1080") or as the next word ("GT 650M", "Tesla K40m", "GTX 1080 Ti"), tried both ways since
 * the table writes some glued and some apart. False when no model with a digit follows, or no one card
 * matches.
 */
static bool card_named(const char *s, size_t n, struct kb_gpu *kb)
{
	const char *m = s + n, *end;
	char query[48];
	bool digit = false;

	if (*m == ' ' || *m == '-')
		m++;
	for (end = m; char_is_alnum((unsigned char)*end); end++)
		digit |= char_is_digit((unsigned char)*end);
	if (!digit || end - m > 8)
		return false;
	if (str_starts_with(end, " Ti") && !char_is_alnum((unsigned char)end[3]))
		end += 3;
	for (int glued = 0; glued < 2; glued++) {
		str_printf(query, sizeof(query), "%.*s%s%.*s", (int)n, s, glued ? "" : " ", (int)(end - m), m);
		if (kb_gpu_find(query, kb, 1) == 1 && kb->name && kb->cc && kb->cc[0])
			return true;
	}
	return false;
}

void paste_note_gpu_named(struct paste *p, const char *line, const struct paste_at *at)
{
	if (p->gpu_named[0])
		return;
	for (size_t i = 0; i < sizeof(lines_of_cards) / sizeof(lines_of_cards[0]); i++) {
		size_t n = strlen(lines_of_cards[i]);

		for (const char *l = strstr(at->lower, lines_of_cards[i]); l; l = strstr(l + 1, lines_of_cards[i])) {
			const char *s = line + (l - at->lower);
			struct kb_gpu kb;

			if ((s > line && char_is_alnum((unsigned char)s[-1])) || !card_named(s, n, &kb))
				continue;
			str_copy(p->gpu_named, sizeof(p->gpu_named), kb.name);
			str_copy(p->gpu_named_cc, sizeof(p->gpu_named_cc), kb.cc);
			p->gpu_named_line = at->number;
			p->gpu_named_input = at->input;
			str_copy(p->gpu_named_text, sizeof(p->gpu_named_text), line);
			return;
		}
	}
}
