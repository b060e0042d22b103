/*
 * template_fields.c - the "Environment" list of an issue template, filled in
 * by hand: "- NVIDIA Driver Version: 550.120", "**CUDA Toolkit:** 12.8",
 * "nvcc version: 12.5". Bug templates of CUDA projects ask for these two
 * versions by name; the reporter types them, so the keys vary in case and
 * markup but not in words.
 *
 * Only keys that name one thing are read: a bare "CUDA version" is the
 * driver's (nvidia-smi), the toolkit's or torch's, and is left alone.
 */
#include "paste/paste_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/str.h"

static const char *const driver_keys[] = {
	"driver version", "driver", "nvidia driver", "nvidia driver version", "nvidia-driver version", "gpu driver",
	"gpu driver version", "nvidia gpu driver", "nvidia gpu driver version",
};

static const char *const toolkit_keys[] = {
	"cuda toolkit", "cuda toolkit version", "cuda-toolkit version", "cuda toolkit installed", "nvcc version",
	"nvcc", "nvcc -v", "nvcc --version",
};

static bool is_key(const char *key, size_t n, const char *const *keys, size_t nkeys)
{
	for (size_t i = 0; i < nkeys; i++)
		if (strlen(keys[i]) == n && strncasecmp(key, keys[i], n) == 0)
			return true;
	return false;
}

/* Skip list markers and emphasis: "- ", "* ", "+ ", "**", "__", "`". */
static const char *skip_markup(const char *s)
{
	for (;;) {
		if ((*s == '-' || *s == '*' || *s == '+') && s[1] == ' ')
			s += 2;
		else if (*s == '*' || *s == '_' || *s == '`' || *s == ' ')
			s++;
		else
			return s;
	}
}

/* The version that starts value ("v12.8", "550.120 (open kernel module)"): digits and dots only. */
static bool take_version(const char *value, char *out, size_t outsz)
{
	size_t n;

	value = skip_markup(value);
	if (*value == 'v' || *value == 'V')
		value++;
	n = strspn(value, "0123456789.");
	if (n == 0 || n >= outsz || value[n - 1] == '.' || !memchr(value, '.', n))
		return false;
	/* "12.8.0-1" or "550.120," end the version; "12.8x" is no version */
	if (value[n] && !strchr(" ,;)(*`_-", value[n]))
		return false;
	memcpy(out, value, n);
	out[n] = '\0';
	return true;
}

bool paste_read_template_fields(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *key = skip_markup(line), *colon = strchr(key, ':');
	char version[FACT_VER];
	size_t n;

	if (!colon || colon - key > 40)
		return false;
	n = (size_t)(colon - key);
	/* "**Driver Version:** 550" puts the closing emphasis after the colon; "Driver Version**:" before it */
	while (n > 0 && strchr("*_` ", key[n - 1]))
		n--;
	if (!take_version(colon + 1, version, sizeof(version)))
		return false;
	if (is_key(key, n, driver_keys, sizeof(driver_keys) / sizeof(driver_keys[0]))) {
		/* NVIDIA's Linux driver versions have had a three-digit major since the 100 series (2007) */
		if (atoi(version) < 100)
			return false;
		paste_driver_version(p, version, at);
		return true;
	}
	if (is_key(key, n, toolkit_keys, sizeof(toolkit_keys) / sizeof(toolkit_keys[0]))) {
		if (atoi(version) < 1 || atoi(version) > 99)
			return false;
		paste_nvcc_version(p, version, "the toolkit version the paste lists", at);
		return true;
	}
	return false;
}
