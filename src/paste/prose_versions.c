/*
 * prose_versions.c - the driver and toolkit versions a reporter states in a
 * sentence: "My nvidia driver version is 384.111", "the script installs driver
 * version 550.90.07", "the CUDA toolkit version installed (12.5)", "驱动版本是
 * 470.82.01".
 *
 * A report the paste shows (nvidia-smi, nvcc -V, an issue template's field)
 * always wins: a sentence is read only where no report gave that version
 * (paste_finish). A version the sentence names as a requirement is not the
 * machine's: "requires driver version 555.42.02", "driver 525 or newer",
 * "upgrading the driver to 555.42.02" are left alone.
 */
#include "paste/paste_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/str.h"

/* Words before the keyword that make the version a requirement or a wish, not what the machine has. */
static const char *const wanted_before[] = {
	"require", "need", "minimum", "at least", "recommend", "support", "compatible", "expect", "newer", "older",
	"want", "should", "must", "higher", "lower", "需要", "要求", "至少", "最低",
};

/* Words after the version that make it a bound: "525 or newer", "450.80+", ">= 450". */
static const char *const bound_after[] = {
	"or newer", "or later", "or higher", "or above", "or greater", "and newer", "and later", "and above", "+",
	"以上", "及以上",
};

/* Words between the keyword and the version that may stand there: "driver version is", "toolkit: ", "驱动版本为". */
static const char *const filler[] = {
	"versions", "version", "ver.", "ver", "currently", "installed", "is now", "is", "was", "of", "the", "nvidia",
	"版本号", "版本", "是", "为", "=", ":", "(", "-", "v", ",",
};

static bool is_letter(int c)
{
	return char_is_alnum(c) && !char_is_digit(c);
}

static bool any_of(const char *s, size_t n, const char *const *words, size_t nwords)
{
	char window[64];

	if (n >= sizeof(window))
		n = sizeof(window) - 1;
	memcpy(window, s, n);
	window[n] = '\0';
	for (size_t i = 0; i < nwords; i++)
		if (strstr(window, words[i]))
			return true;
	return false;
}

/* Past the filler words and blanks after a keyword, at most 40 bytes on. */
static const char *skip_filler(const char *s)
{
	const char *start = s;

	while (s - start < 40) {
		size_t i;

		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		if (*s == 'v' && char_is_digit((unsigned char)s[1]))
			return s + 1;	/* "v12.5" */
		for (i = 0; i < sizeof(filler) / sizeof(filler[0]); i++) {
			size_t k = strlen(filler[i]);

			/* a word filler must end there ("is" not "isn't"); punctuation and CJK need not */
			if (strncmp(s, filler[i], k) == 0 &&
			    !(is_letter((unsigned char)filler[i][0]) && paste_ident_char((unsigned char)s[k]))) {
				s += k;
				break;
			}
		}
		if (i == sizeof(filler) / sizeof(filler[0]))
			break;
	}
	return s;
}

/*
 * The version at s, with min_major to max_major digits before its first dot ("550.90.07", "12.5"), copied
 * to out; its length, 0 when none starts there or it runs on into more digits.
 */
static size_t version_at(const char *s, size_t min_major, size_t max_major, char *out, size_t outsz)
{
	size_t n = 0, major;

	while (char_is_digit((unsigned char)s[n]))
		n++;
	major = n;
	if (major < min_major || major > max_major || s[n] != '.' || !char_is_digit((unsigned char)s[n + 1]))
		return 0;
	for (int parts = 0; parts < 2 && s[n] == '.' && char_is_digit((unsigned char)s[n + 1]); parts++)
		for (n++; char_is_digit((unsigned char)s[n]); n++)
			;
	if (s[n] == '.' && char_is_digit((unsigned char)s[n + 1]))
		return 0;	/* an address or a fourth part: not a version */
	if (paste_ident_char((unsigned char)s[n]) || n >= outsz)
		return 0;
	memcpy(out, s, n);
	out[n] = '\0';
	return n;
}

/*
 * The version a sentence states for keyword (at each place it appears in lower), the machine's own: not
 * a requirement before it, not a bound after it. Copies it to out and returns its offset in the line, or -1.
 */
static long stated_version(const char *lower, const char *keyword, size_t min_major, size_t max_major, char *out,
			   size_t outsz)
{
	size_t k = strlen(keyword);

	for (const char *at = strstr(lower, keyword); at; at = strstr(at + k, keyword)) {
		const char *before = at - lower > 24 ? at - 24 : lower, *v;
		size_t n;

		if (is_letter((unsigned char)keyword[0]) && at > lower && paste_ident_char((unsigned char)at[-1]))
			continue;	/* "subdriver", "nvdriver" */
		if (any_of(before, (size_t)(at - before), wanted_before, sizeof(wanted_before) / sizeof(wanted_before[0])))
			continue;
		v = at + k;
		if (*v == 's')
			v++;
		v = skip_filler(v);
		/* "to 555.42.02" is where an upgrade goes, "than 450" a comparison */
		if (v - at >= 3 && (strncmp(v - 3, "to ", 3) == 0 || strncmp(v - 3, ">= ", 3) == 0))
			continue;
		if (!(n = version_at(v, min_major, max_major, out, outsz)))
			continue;
		if (any_of(v + n, strnlen(v + n, 12), bound_after, sizeof(bound_after) / sizeof(bound_after[0])))
			continue;
		return v - lower;
	}
	return -1;
}

static void keep_said(struct paste_said *said, const char *version, const struct paste_at *at)
{
	str_copy(said->version, sizeof(said->version), version);
	said->input = at->input;
	said->number = at->number;
	str_copy(said->text, sizeof(said->text), at->line);
}

void paste_note_prose_versions(struct paste *p, const char *line, const struct paste_at *at)
{
	char version[FACT_VER];

	(void)line;
	/* NVIDIA's Linux drivers have had three-digit majors since the 100 series (2007) */
	if (!p->driver_said.version[0] &&
	    (stated_version(at->lower, "driver", 3, 3, version, sizeof(version)) >= 0 ||
	     stated_version(at->lower, "驱动", 3, 3, version, sizeof(version)) >= 0) &&
	    atoi(version) >= 100)
		keep_said(&p->driver_said, version, at);
	if (!p->toolkit_said.version[0] && stated_version(at->lower, "toolkit", 1, 2, version, sizeof(version)) >= 0 &&
	    atoi(version) >= 1)
		keep_said(&p->toolkit_said, version, at);
}

/* See paste_internal.h. */
void paste_take_prose_versions(struct paste *p)
{
	struct paste_at at = { 0 };

	if (p->driver_said.version[0] && !paste_saw(p, PASTE_DRIVER)) {
		at = (struct paste_at){ p->driver_said.input, p->driver_said.number, p->driver_said.text, NULL };
		paste_driver_version(p, p->driver_said.version, &at);
	}
	if (p->toolkit_said.version[0] && !paste_saw(p, PASTE_TOOLKIT)) {
		at = (struct paste_at){ p->toolkit_said.input, p->toolkit_said.number, p->toolkit_said.text, NULL };
		paste_nvcc_version(p, p->toolkit_said.version, "the toolkit version a sentence of the paste states", &at);
	}
}
