#include "util/i18n.h"

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LOCALEDIR
#define LOCALEDIR "/usr/local/share/locale"
#endif

static bool active;

/* Whether name is base, or base followed by a codeset or modifier ("zh_CN.UTF-8", "en_US@euro"). */
static bool is_or_variant(const char *name, const char *base)
{
	size_t n = strlen(base);

	return strncmp(name, base, n) == 0 && (name[n] == '\0' || name[n] == '.' || name[n] == '@');
}

/* See i18n.h. zh_TW and zh_HK are Traditional Chinese: not zh_CN. */
const char *i18n_known(const char *name)
{
	if (!name || !name[0])
		return NULL;
	if (is_or_variant(name, "zh_CN") || is_or_variant(name, "zh_SG") || is_or_variant(name, "zh"))
		return "zh_CN";
	if (is_or_variant(name, "C") || is_or_variant(name, "POSIX") || is_or_variant(name, "en") ||
	    strncmp(name, "en_", 3) == 0)
		return "en";
	return NULL;
}

/* See i18n.h. */
const char *i18n_choices(void)
{
	return _("en or zh_CN (also zh, zh_CN.UTF-8)");
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* See i18n.h. */
const char *i18n_from_env(char *const *envp)
{
	static const char *const locale_vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
	const char *language = env_get(envp, "LANGUAGE");

	while (language && *language) {
		char entry[64];
		size_t n = strcspn(language, ":");
		const char *lang;

		if (n < sizeof(entry)) {
			memcpy(entry, language, n);
			entry[n] = '\0';
			lang = i18n_known(entry);
			if (lang)
				return lang;
		}
		language += n;
		if (*language == ':')
			language++;
	}
	for (size_t i = 0; i < sizeof(locale_vars) / sizeof(locale_vars[0]); i++) {
		const char *v = env_get(envp, locale_vars[i]);

		if (v && v[0]) {
			const char *lang = i18n_known(v);

			return lang ? lang : "en";
		}
	}
	return "en";
}

/* Whether dir holds lang's catalog. */
static bool has_catalog(const char *dir, const char *lang)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s/LC_MESSAGES/" I18N_DOMAIN ".mo", dir, lang);

	return n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0;
}

/* The folder of this program's own file + "/locale" into buf (a build tree's build/locale); false if unknown. */
static bool beside_program(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	int m;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	m = snprintf(buf, size, "%s/locale", exe);
	return m > 0 && (size_t)m < size;
}

/* See i18n.h: the catalog's folder in this order, the first that has it. */
static bool find_catalog(const char *lang, char *buf, size_t size)
{
	const char *env = getenv("GPUDOCTOR_LOCALEDIR");

	if (env && env[0] && has_catalog(env, lang) && strlen(env) < size) {
		strcpy(buf, env);
		return true;
	}
	if (beside_program(buf, size) && has_catalog(buf, lang))
		return true;
	if (has_catalog(LOCALEDIR, lang) && strlen(LOCALEDIR) < size) {
		strcpy(buf, LOCALEDIR);
		return true;
	}
	return false;
}

/* See i18n.h. Only LC_MESSAGES changes: numbers and character classes stay the C locale's. */
bool i18n_setup(const char *lang)
{
	char dir[PATH_MAX];
	const char *messages;

	active = false;
	if (!lang || strcmp(lang, "en") == 0 || !find_catalog(lang, dir, sizeof(dir)))
		return false;
	messages = setlocale(LC_MESSAGES, "");
	if (!messages || strcmp(messages, "C") == 0 || strcmp(messages, "POSIX") == 0)
		if (!setlocale(LC_MESSAGES, "C.UTF-8"))
			return false;
	/*
	 * UTF-8 whatever LC_CTYPE says (it stays "C"): ours, and the C library's own messages (strerror),
	 * which glibc would otherwise turn into question marks.
	 */
	bind_textdomain_codeset("libc", "UTF-8");
	if (!bindtextdomain(I18N_DOMAIN, dir) || !bind_textdomain_codeset(I18N_DOMAIN, "UTF-8") ||
	    !textdomain(I18N_DOMAIN) || setenv("LANGUAGE", lang, 1) != 0)
		return false;
	active = true;
	return true;
}

/* See i18n.h. */
bool i18n_active(void)
{
	return active;
}

/* See i18n.h. */
const char *i18n_text(const char *s)
{
	return active && s && s[0] ? gettext(s) : s;
}
