/*
 * platform.c - `uname -a` ("Linux HOST 5.15.0-91-generic #101-Ubuntu SMP
 * ... x86_64 x86_64 x86_64 GNU/Linux", "Linux HOST
 * 5.15.133.1-microsoft-standard-WSL2 #1 SMP ... x86_64 GNU/Linux", "Darwin
 * HOST 23.1.0 Darwin Kernel Version 23.1.0: ...; root:xnu-.../RELEASE_ARM64_T6000
 * arm64") and /etc/os-release lines (os-release(5): NAME=, ID=, ID_LIKE=,
 * VERSION_ID=, PRETTY_NAME=).
 */
#include "paste/paste_internal.h"

#include <stddef.h>
#include <string.h>

#include "util/str.h"

static bool take_uname(struct paste *p, const char *line, const struct paste_at *at)
{
	struct system_facts *sys = &p->facts->system;
	char host[64], release[FACT_TEXT], last[32] = "", prev[32] = "";
	const char *rest;
	bool darwin = false;

	if (!(rest = paste_after(line, "Linux ")) && !(darwin = (rest = paste_after(line, "Darwin ")) != NULL))
		return false;
	if (!(darwin ? strstr(line, "Darwin Kernel Version") != NULL : strstr(line, " SMP") || strstr(line, "GNU/Linux")))
		return false;
	paste_word(host, sizeof(host), rest);
	rest = strstr(rest, host) + strlen(host);
	paste_word(release, sizeof(release), rest);
	/* the machine: the last word, or the one before "GNU/Linux" */
	for (const char *s = rest; *s;) {
		while (char_is_space((unsigned char)*s))
			s++;
		if (!*s)
			break;
		str_copy(prev, sizeof(prev), last);
		paste_word(last, sizeof(last), s);
		s += strcspn(s, " \t");
	}
	str_copy(sys->arch, sizeof(sys->arch), strcmp(last, "GNU/Linux") == 0 ? prev : last);
	if (darwin) {
		str_copy(sys->os_id, sizeof(sys->os_id), "macos");
		str_copy(sys->os_pretty, sizeof(sys->os_pretty), "macOS (Darwin)");
	}
	paste_kernel_release(p, release, at);
	return true;
}

/* KEY=value or KEY="value" */
static bool take_os_release(struct paste *p, const char *line, const struct paste_at *at)
{
	static const struct {
		const char *key;
		size_t off, size;
	} keys[] = {
		{ "ID=", offsetof(struct system_facts, os_id), sizeof(((struct system_facts *)0)->os_id) },
		{ "ID_LIKE=", offsetof(struct system_facts, os_id_like), sizeof(((struct system_facts *)0)->os_id_like) },
		{ "VERSION_ID=", offsetof(struct system_facts, os_version_id), sizeof(((struct system_facts *)0)->os_version_id) },
		{ "PRETTY_NAME=", offsetof(struct system_facts, os_pretty), sizeof(((struct system_facts *)0)->os_pretty) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = paste_after(line, keys[i].key);
		char value[FACT_TEXT];
		size_t n;

		if (!v)
			continue;
		str_copy(value, sizeof(value), v[0] == '"' || v[0] == '\'' ? v + 1 : v);
		n = strlen(value);
		if (n > 0 && (value[n - 1] == '"' || value[n - 1] == '\''))
			value[n - 1] = '\0';
		if (!value[0] || (strchr(value, ' ') != NULL && i != 3))
			return false;
		str_copy((char *)&p->facts->system + keys[i].off, keys[i].size, value);
		paste_mark(p, PASTE_OS, at);
		return true;
	}
	return false;
}

/* /proc/version: "Linux version 5.4.91-microsoft-standard-WSL2 (oe-user@oe-host) (gcc version 9.3.0 ...) #1 SMP ..." */
static bool take_proc_version(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *v = strstr(line, "Linux version ");
	char release[FACT_TEXT];

	if (!v || !strstr(v, " (") || !strchr(v, '#'))
		return false;
	paste_word(release, sizeof(release), v + strlen("Linux version "));
	paste_kernel_release(p, release, at);
	return true;
}

/*
 * WSL named in the text ("On WSL Ubuntu 22.04", "inside WSL2", "Windows Subsystem for Linux", "Ubuntu
 * Subsystem on Windows"): as sure a sign of the platform as the kernel release, which prose rarely
 * quotes. The upper-case word, or the lower-case one as prose writes it ("install the webui on wsl",
 * "I'm using wsl 1"), but never inside a path or a name: /usr/lib/wsl/lib and wsl_version are not
 * claims. Never takes the line.
 */
static bool ascii_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool wsl_starts_word(const char *line, const char *w)
{
	return w == line || !(ascii_letter((unsigned char)w[-1]) || char_is_digit((unsigned char)w[-1]) ||
			      w[-1] == '/' || w[-1] == '_' || w[-1] == '-');
}

/*
 * The first "WSL" in line that is a word of its own ("WSL", "WSL2", "WSL 2", "WSLInterop"), else the
 * first lower-case "wsl" word ("wsl", "wsl2", "wsl 1", "wsl.exe"; not "wsl/lib", "wsl_x", "wsl-x"), or NULL.
 */
static const char *wsl_word(const char *line)
{
	for (const char *w = strstr(line, "WSL"); w; w = strstr(w + 3, "WSL")) {
		if (wsl_starts_word(line, w) && (!ascii_letter((unsigned char)w[3]) || str_starts_with(w, "WSLInterop")))
			return w;
	}
	for (const char *w = strstr(line, "wsl"); w; w = strstr(w + 3, "wsl")) {
		if (wsl_starts_word(line, w) && !ascii_letter((unsigned char)w[3]) && w[3] != '/' && w[3] != '\\' &&
		    w[3] != '_' && w[3] != '-')
			return w;
	}
	return NULL;
}

static void note_wsl_named(struct paste *p, const char *line, const struct paste_at *at)
{
	struct container_facts *c = &p->facts->container;
	const char *w = wsl_word(line);
	const char *v;
	int version = 0;

	if (w) {
		v = w + 3 + (w[3] == ' ');
		version = *v == '2' ? 2 : *v == '1' ? 1 : 0;
	} else if (!strstr(line, "ubsystem") || /* a fast filter: str_casestr on every line of a big log costs */
		   (!str_casestr(line, "Windows Subsystem for Linux") && !str_casestr(line, "Subsystem on Windows"))) {
		return;
	}
	if (c->wsl)
		return;	/* the kernel release (or an earlier line) said it first */
	c->wsl = true;
	c->wsl_version = version;
	str_printf(c->wsl_evidence, sizeof(c->wsl_evidence), "the text names WSL (line %lu)", at->number);
	paste_mark(p, PASTE_CONTAINER, at);
}

/* w starts a word (a URL's host counts) or a path of its own: not inside a longer name (mycolab, /data/content) */
static bool notebook_starts_word(const char *line, const char *w)
{
	return w == line || !(ascii_letter((unsigned char)w[-1]) || char_is_digit((unsigned char)w[-1]) ||
			      w[-1] == '_' || w[-1] == '-' ||
			      (w[0] == '/' && w[-1] != ' ' && w[-1] != '\t' && w[-1] != '\'' && w[-1] != '"'));
}

static const char *notebook_word(const char *line, const char *w)
{
	for (const char *s = strstr(line, w); s; s = strstr(s + 1, w))
		if (notebook_starts_word(line, s) && !ascii_letter((unsigned char)s[strlen(w)]))
			return s;
	return NULL;
}

/*
 * A hosted notebook in the text: Google Colab named ("Colab", "colab.research.google.com", "from
 * google.colab import drive") or its working directory /content, where notebooks start; Kaggle named, or
 * its /kaggle/working and /kaggle/input folders. Both platforms install the NVIDIA driver in every runtime
 * and attach a GPU only when the notebook's settings ask for one (Colab: Runtime > Change runtime type;
 * Kaggle: Settings > Accelerator). Never takes the line.
 */
static void note_notebook_named(struct paste *p, const char *line, const struct paste_at *at)
{
	static const struct {
		const char *word, *platform;
	} signs[] = {
		{ "Colab", "Google Colab" }, { "colab", "Google Colab" }, { "COLAB", "Google Colab" },
		{ "/content", "Google Colab" },
		{ "Kaggle", "Kaggle" }, { "kaggle", "Kaggle" },
	};

	if (p->notebook_named[0] || (!strstr(line, "olab") && !strstr(line, "OLAB") && !strstr(line, "/content") &&
				      !strstr(line, "aggle")))
		return;	/* a fast filter: nearly every line of a log names neither */
	for (size_t i = 0; i < sizeof(signs) / sizeof(signs[0]); i++)
		if (notebook_word(line, signs[i].word)) {
			str_printf(p->notebook_named, sizeof(p->notebook_named), "the text shows %s (line %lu)",
				   signs[i].platform, at->number);
			return;
		}
}

bool paste_read_platform(struct paste *p, const char *line, const struct paste_at *at)
{
	if (take_uname(p, line, at) || take_proc_version(p, line, at) || take_os_release(p, line, at))
		return true;
	note_wsl_named(p, line, at);
	note_notebook_named(p, line, at);
	return false;
}
