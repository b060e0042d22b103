/*
 * env_vars.c - the environment variables the text shows.
 *
 * LD_LIBRARY_PATH's value where the text prints it: the line after `echo
 * $LD_LIBRARY_PATH`, or an `env` line "LD_LIBRARY_PATH=...". An `export
 * LD_LIBRARY_PATH=...` line is what the user set or tried, not what the
 * program ran with, and is left out. What is kept is the first directory of
 * it that holds cuDNN by its name: the loader searches LD_LIBRARY_PATH before
 * a wheel's RUNPATH, so a cuDNN there is the one torch loads
 * (pytorch/pytorch#80637). So is the first toolkit stubs directory: its
 * libcuda.so is for linking only, and a program that loads it instead of the
 * driver's gets cudaErrorStubLibrary (CUDA Runtime API, error 34).
 *
 * CUDA_VISIBLE_DEVICES where the text sets it for the program: in Python
 * (os.environ["CUDA_VISIBLE_DEVICES"] = "1"), before a command
 * (CUDA_VISIBLE_DEVICES=1 python train.py) or with export. Kept only when the
 * value can hide every GPU: -1, empty, something that is neither an index nor
 * a GPU or MIG UUID (a shell's $0), or indices that leave out GPU 0, which on
 * a machine with one GPU name none. CUDA enumerates only the devices the
 * variable lists (CUDA C Programming Guide, "CUDA Environment Variables").
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

static bool names_variable_at_end(const char *line)
{
	size_t n = strlen(line);

	return (n >= 21 && strcmp(line + n - 21, "echo $LD_LIBRARY_PATH") == 0) ||
	       (n >= 23 && strcmp(line + n - 23, "echo ${LD_LIBRARY_PATH}") == 0);
}

/* A toolkit's stubs directory (".../lib64/stubs", ".../targets/x86_64-linux/lib/stubs"): link-time libcuda.so */
static bool is_stubs_directory(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n >= 6 && strncmp(dir + n - 6, "/stubs", 6) == 0;
}

static void keep_directories(struct paste *p, const char *value, const struct paste_at *at)
{
	while (*value) {
		size_t n = strcspn(value, ":");
		char dir[FACT_PATH];

		str_printf(dir, sizeof(dir), "%.*s", (int)n, value);
		if (dir[0] == '/' && !p->cudnn_ld_path_named[0] && str_casestr(dir, "cudnn"))
			str_printf(p->cudnn_ld_path_named, sizeof(p->cudnn_ld_path_named),
				   "line %lu shows LD_LIBRARY_PATH with %.100s", at->number, dir);
		if (dir[0] == '/' && !p->stubs_ld_path_named[0] && is_stubs_directory(dir))
			str_printf(p->stubs_ld_path_named, sizeof(p->stubs_ld_path_named),
				   "line %lu shows LD_LIBRARY_PATH with %.100s", at->number, dir);
		value += n + (value[n] == ':');
	}
}

/* See paste_internal.h. Offered every line; never takes one. */
void paste_note_ld_library_path(struct paste *p, const char *line, const struct paste_at *at)
{
	bool echoed = p->ld_path_echo_line && at->number == p->ld_path_echo_line + 1;

	if (echoed && line[0] == '/')
		keep_directories(p, line, at);
	else if (str_starts_with(line, "LD_LIBRARY_PATH=/"))
		keep_directories(p, line + 16, at);
	if (names_variable_at_end(line))
		p->ld_path_echo_line = at->number;
}

static bool hides_gpus(const char *value)
{
	if (!value[0] || strcmp(value, "-1") == 0)
		return true;
	if (str_starts_with(value, "GPU-") || str_starts_with(value, "MIG-"))
		return false;
	for (const char *c = value; *c; c++)
		if (!char_is_digit((unsigned char)*c) && *c != ',')
			return true;
	/* indices only: hiding unless GPU 0 is among them ("1", "2,3") */
	for (const char *c = value; *c; c++)
		if (c[0] == '0' && (c == value || c[-1] == ',') && (c[1] == ',' || c[1] == '\0'))
			return false;
	return true;
}

/*
 * The value prose gives after the variable's name (" is set to -1", " was set to `1`", " to -1" after "set"):
 * only -1 or indices, so "set to the second GPU" gives nothing. False when there is none.
 */
static bool value_said(const char *s, char *out, size_t size)
{
	static const char *const verbs[] = { " is set to ", " was set to ", " set to ", " to " };
	size_t n = 0;

	while (*s == '`' || *s == '"' || *s == '\'')
		s++;
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (str_starts_with(s, verbs[i])) {
			s += strlen(verbs[i]);
			while (*s == '`' || *s == '"' || *s == '\'')
				s++;
			while (char_is_digit((unsigned char)s[n]) || s[n] == ',' || (n == 0 && s[n] == '-'))
				n++;
			if (n == 0 || (n == 1 && s[0] == '-'))
				return false;
			str_printf(out, size, "%.*s", (int)n, s);
			return true;
		}
	return false;
}

/*
 * The value after NAME= or NAME"] = in line, unquoted, into out, or the one prose gives ("CUDA_VISIBLE_DEVICES
 * is set to -1", spelled without its S too, as chainer/chainer#2245 did); false when the line sets no value.
 */
static bool value_set(const char *line, char *out, size_t size)
{
	static const char name[] = "CUDA_VISIBLE_DEVICE";
	const char *s = strstr(line, name), *end;
	char quote = 0;

	if (!s)
		return false;
	s += sizeof(name) - 1;
	if (*s == 'S')
		s++;
	if (value_said(s, out, size))
		return true;
	if (*s == '"' || *s == '\'')
		s++;	/* os.environ["CUDA_VISIBLE_DEVICES"] */
	if (*s == ']')
		s++;
	while (*s == ' ')
		s++;
	if (*s != '=' || s[1] == '=')
		return false;	/* a comparison, or no assignment */
	s++;
	while (*s == ' ')
		s++;
	if (*s == '"' || *s == '\'')
		quote = *s++;
	end = quote ? strchr(s, quote) : s + strcspn(s, " \t;`)");
	if (!end)
		return false;
	str_printf(out, size, "%.*s", (int)(end - s), s);
	return true;
}

/* See paste_internal.h. Offered every line; never takes one. */
void paste_note_visible_devices(struct paste *p, const char *line, const struct paste_at *at)
{
	char value[32];

	if (p->visible_devices_named[0] || !strstr(line, "VISIBLE_DEVICE") || !value_set(line, value, sizeof(value)))
		return;
	if (hides_gpus(value))
		str_printf(p->visible_devices_named, sizeof(p->visible_devices_named),
			   "line %lu sets CUDA_VISIBLE_DEVICES=%s", at->number, value);
}
