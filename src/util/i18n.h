/*
 * i18n.h - the language of the text reports (gettext, domain "gpudoctor").
 *
 * English is the program's own text: nothing is set up for it and gettext
 * returns its argument. For another language, i18n_setup points gettext at
 * the catalog and makes glibc use it even where the machine has no locale
 * of that language (a container with only C.UTF-8). Only the text and
 * Markdown formats are translated; JSON, cause ids, commands and fact values
 * stay English.
 */
#ifndef GD_UTIL_I18N_H
#define GD_UTIL_I18N_H

#include <stdarg.h>
#include <stdbool.h>
#include <libintl.h>

/* Mark a string for translation and translate it now; N_ only marks (translate later with _ / gettext). */
#define _(s) gettext(s)
#define N_(s) (s)

#define I18N_DOMAIN "gpudoctor"

/*
 * The language gpudoctor knows for name ("en", "zh_CN"), from a --lang value or one entry of LANGUAGE,
 * LC_ALL, LC_MESSAGES or LANG: "zh", "zh_CN", "zh_CN.UTF-8", "zh_CN.utf8", "zh_CN.GB2312" ... give
 * "zh_CN"; "en", "en_US.UTF-8", "C", "POSIX", "C.UTF-8" give "en". NULL when it is none of these
 * (another language, or empty). Static strings.
 */
const char *i18n_known(const char *name);

/* The languages --lang takes, for its usage error: "en, zh_CN (also zh, zh_CN.UTF-8)". */
const char *i18n_choices(void);

/*
 * The language of the environment envp, in gettext's order: the first entry of LANGUAGE (a colon list)
 * that i18n_known knows, else LC_ALL, else LC_MESSAGES, else LANG (the first of these that is set and
 * not empty decides, as in setlocale). Another language or nothing set: "en". Static string.
 */
const char *i18n_from_env(char *const *envp);

/*
 * Make lang ("en" or "zh_CN", from i18n_known) the language of what this process prints. For "en" does
 * nothing. Otherwise: LC_MESSAGES from the environment, or C.UTF-8 where that locale is not installed
 * or is C/POSIX (glibc ignores LANGUAGE under "C"); the catalog's folder, the first that holds
 * LANG/LC_MESSAGES/gpudoctor.mo of: $GPUDOCTOR_LOCALEDIR, the program's own folder + "/locale" (a build
 * tree), the LOCALEDIR compiled in; and LANGUAGE=lang in this process's environment, which gettext reads
 * at each call. The caller must have copied the environment it passes to other programs before this
 * (setenv may change the array in place). Returns false when no catalog was found (then English).
 */
bool i18n_setup(const char *lang);

/* Whether a translation is active (i18n_setup found a catalog for a language other than English). */
bool i18n_active(void);

/* gettext(s) when a translation is active and s is not NULL or empty, else s: no lookup for English. */
const char *i18n_text(const char *s);

/*
 * The localized text of fmt with ap (util/i18n_format.c): the catalog's fmt, its %s arguments translated
 * where the catalog has them (a code word marked N_, a data table's text; an argument already localized
 * passes as it is). A new string the caller frees; NULL when no translation is active, when it reads the
 * same as english (the English text of the same format and arguments), or on failure. ap is consumed.
 */
char *i18n_local_vdupf(const char *english, const char *fmt, va_list ap);
/* i18n_local_vdupf with its arguments given here. */
char *i18n_local_dupf(const char *english, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
