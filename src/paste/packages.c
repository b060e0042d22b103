/*
 * packages.c - package lists: `pip list` ("torch    2.3.0+cu121"), `pip
 * freeze` and collect_env's "[pip3] torch==2.3.0+cu121", `conda list`
 * ("pytorch   2.3.0   py3.10_cuda12.1_cudnn8.9.2_0   pytorch"). torch's
 * version (its local tag names the build), the nvidia-* wheels beside it,
 * torchvision/torchaudio, and conda's pytorch build string, cpuonly,
 * pytorch-cuda and cudatoolkit. Also the lines that tell where torch was
 * installed, and a command that runs Python with sudo.
 */
#include "paste/paste_internal.h"

#include <string.h>

#include "util/str.h"

static bool is_version(const char *s)
{
	return char_is_digit((unsigned char)s[0]) && strchr(s, '.');
}

static void add_unique(char list[][64], int *n, int max, struct paste *p, const char *what, const char *text)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(list[i], text) == 0)
			return;
	if (*n >= max) {
		facts_dropped(p->facts, what, max, 1);
		return;
	}
	str_copy(list[(*n)++], 64, text);
}

/* conda's build string: "py3.10_cuda12.1_cudnn8.9.2_0" is CUDA 12.1, "py3.10_cpu_0" a CPU build */
static void conda_pytorch(struct paste *p, const char *version, const char *build, const struct paste_at *at)
{
	struct torch_install *t;
	const char *cuda = strstr(build, "cuda");

	if (!build[0])
		return;
	if (cuda && char_is_digit((unsigned char)cuda[4])) {
		char v[16];

		str_copy(v, sizeof(v), cuda + 4);
		v[strcspn(v, "_")] = '\0';
		paste_torch_version(p, version, false, at);
		paste_torch_cuda(p, v, at);
	} else if (strstr(build, "_cpu_") || str_starts_with(build, "cpu_")) {
		paste_torch_version(p, version, false, at);
		paste_torch_cuda(p, "None", at);
	} else {
		return;
	}
	t = &p->facts->python.torches[0];
	str_printf(t->conda_pytorch, sizeof(t->conda_pytorch), "pytorch-%s-%s", version, build);
	str_copy(t->installer, sizeof(t->installer), "conda");
}

/*
 * A line that installs torch with pip or conda ("pip3 install torch torchvision", "if I use pip3 to install
 * pytorch", "conda install pytorch -c pytorch"), or says it imports in another interpreter ("in python3, import
 * torch is fine"): the text's claim that torch is there, which an import error then contradicts. An install
 * the line says fixed (or solved) the error tells the opposite: torch was missing. Never takes the line.
 */
static void note_torch_install(struct paste *p, const char *line, const struct paste_at *at)
{
	bool install, torch;

	/* "resolved now, generally it should work with: / pip install torch": an install offered as the fix */
	if (strstr(line, "solved") || strstr(line, "fixed") || strstr(line, "should work"))
		p->fix_said_line = at->number;
	if (p->torch_install_named[0] || !(strstr(line, "orch") || strstr(line, "ORCH")))
		return;	/* a fast filter: most lines never name torch */
	torch = strstr(line, "torch") || strstr(line, "Torch") || strstr(line, "TORCH");
	install = str_casestr(line, "install") && (strstr(line, "pip") || strstr(line, "conda"));
	if (!torch || !(install || strstr(line, "import torch is fine") || strstr(line, "import torch works")))
		return;
	if (install && p->fix_said_line && at->number - p->fix_said_line <= 3) {
		p->fix_said_line = at->number;	/* a list of fixes goes on: "or / sudo pip install torch" */
		return;
	}
	if (install && (str_casestr(line, "fixed") || str_casestr(line, "solved")))
		return;	/* "installing torch with pip fixed it": it was missing, not installed elsewhere */
	str_printf(p->torch_install_named, sizeof(p->torch_install_named), "line %lu installs torch", at->number);
}

/* A byte of a word or a package name (pytorch-cuda). */
static bool word_char(int c)
{
	return paste_ident_char(c) || c == '-';
}

/*
 * A command that runs Python with sudo ("sudo python3 setup.py install", "sudo -E python train.py"): sudo
 * gives the command root's environment, with sudoers' secure_path as PATH and root's home, so the python it
 * finds is the system's, without the venv, conda env or ~/.local site-packages the user installed torch
 * into (pytorch/vision#7510, Xharlie/BtcDet#6). Options and VAR=value words between sudo and python are
 * skipped. Offered every line, a prompt's too.
 */
void paste_note_sudo_python(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *s = line;

	if (p->sudo_python_named[0])
		return;
	while ((s = strstr(s, "sudo ")) != NULL) {
		bool word_start = s == line || !word_char((unsigned char)s[-1]);

		s += 5;
		if (!word_start)
			continue;
		for (;;) {	/* the words before the command: -E, -H, VAR=value */
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s != '-' && !(word_char((unsigned char)*s) && strchr(s, '=') &&
					   strchr(s, '=') < s + strcspn(s, " \t")))
				break;
			s += strcspn(s, " \t");
		}
		if (str_starts_with(s, "python") && (s[6] == '\0' || s[6] == ' ' || s[6] == '\t' || s[6] == '`' ||
						     s[6] == '.' || char_is_digit((unsigned char)s[6]))) {
			str_printf(p->sudo_python_named, sizeof(p->sudo_python_named), "line %lu runs Python with sudo",
				   at->number);
			return;
		}
	}
}

/* Where a Python program can run: an IDE, a notebook, a terminal (each runs its own interpreter). */
static const char *const run_places[] = {
	"pycharm", "vscode", "vs code", "spyder", "jupyter", "notebook", "terminal", "command line", "cmd",
	"anaconda prompt", "ipython", "console",
};

static int run_place(const char *from, const char *to, const char **at)
{
	const char *best = NULL;
	int which = -1;

	for (size_t i = 0; i < sizeof(run_places) / sizeof(run_places[0]); i++) {
		const char *w = str_casestr(from, run_places[i]);

		if (w && w < to && (!best || w < best)) {
			best = w;
			which = (int)i;
		}
	}
	*at = best;
	return which;
}

/*
 * "i can run project on pycharm but when i try to run on terminal i get that result" (vt-vl-lab/
 * 3d-photo-inpainting#37): the program runs in one place and fails in another, so torch is there, for the
 * interpreter of the first. A line that names a way of running before " but " and another one after it.
 */
static void note_runs_elsewhere(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *but = strstr(line, " but "), *first, *second;
	int a, b;

	if (p->torch_install_named[0] || !but)
		return;
	if (!str_casestr(line, "run") && !str_casestr(line, "work") && !str_casestr(line, "import"))
		return;
	a = run_place(line, but, &first);
	b = run_place(but, but + strlen(but), &second);
	if (a < 0 || b < 0 || a == b)
		return;
	str_printf(p->torch_install_named, sizeof(p->torch_install_named), "line %lu runs it in %s, not in %s",
		   at->number, run_places[a], run_places[b]);
}

/*
 * Prose that says what a package list showed of torch ("the torch version is displayed as 1.7.0xxxx by pip
 * list", pytorch/pytorch#43574): the list's version, for comparing with what the import prints. The first
 * version-like word after "torch" on a line that names pip list, pip show, pip freeze or conda list.
 */
static bool letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* torch or pytorch as a word of line ("pytorch_lightning", "torchvision" and "intel_extension_for_pytorch" are not), NULL */
static const char *torch_word(const char *line)
{
	for (const char *t = str_casestr(line, "torch"); t; t = str_casestr(t + 1, "torch")) {
		const char *start = t - line >= 2 && (t[-2] | 0x20) == 'p' && (t[-1] | 0x20) == 'y' ? t - 2 : t;

		if ((start == line || (!paste_ident_char((unsigned char)start[-1]) && start[-1] != '-')) &&
		    !paste_ident_char((unsigned char)t[5]) &&
		    !(t[5] == '-' && letter(t[6])))
			return t;
	}
	return NULL;
}

static void note_listed_in_prose(struct paste *p, const char *line, const struct paste_at *at)
{
	static const char *const lists[] = { "pip list", "pip3 list", "pip show", "pip3 show", "pip freeze",
					     "pip3 freeze", "conda list" };
	const char *torch, *w;
	bool named = false;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]) && !named; i++)
		named = strstr(line, lists[i]) != NULL;
	if (!named || !(torch = torch_word(line)))
		return;
	/* the first version-like word after it: "1.7.0xxxx" in "displayed as 1.7.0xxxx by pip list" */
	for (w = torch + 5; *w && w - torch < 60; w++) {	/* w[-1] is inside the line: w starts after "torch" */
		size_t n;

		if (!char_is_digit((unsigned char)*w) || char_is_digit((unsigned char)w[-1]) || w[-1] == '.')
			continue;
		n = strspn(w, "0123456789");
		if (w[n] == '.' && char_is_digit((unsigned char)w[n + 1])) {
			paste_note_torch_version(p, w, false, at);
			return;
		}
	}
}

bool paste_read_packages(struct paste *p, const char *line, const struct paste_at *at)
{
	char name[64], version[48], build[64] = "";
	const char *s = line, *eq = strstr(line, "==");
	struct torch_install *t;

	note_torch_install(p, line, at);
	note_runs_elsewhere(p, line, at);
	note_listed_in_prose(p, line, at);

	if (eq) {	/* freeze: name==version */
		str_printf(name, sizeof(name), "%.*s", (int)(eq - line), line);
		paste_word(version, sizeof(version), eq + 2);
		if (strchr(name, ' '))
			return false;
	} else {	/* list: name, blanks, version[, build, channel | location] */
		paste_word(name, sizeof(name), s);
		s += strlen(name);
		if (!char_is_space((unsigned char)*s))
			return false;
		paste_word(version, sizeof(version), s);
		s = strstr(s, version) + strlen(version);
		paste_word(build, sizeof(build), s);
	}
	if (!is_version(version))
		return false;
	for (char *c = name; *c; c++)
		*c = (char)(*c == '_' ? '-' : char_lower((unsigned char)*c));
	if (strcmp(name, "torch") == 0) {
		paste_torch_version(p, version, false, at);
		t = &p->facts->python.torches[0];
		if (strcmp(t->installer, "unknown") == 0)
			str_copy(t->installer, sizeof(t->installer), "pip");
		return true;
	}
	if (strcmp(name, "pytorch") == 0) {
		conda_pytorch(p, version, build, at);
		return true;
	}
	if (strcmp(name, "cpuonly") != 0 && strcmp(name, "pytorch-cuda") != 0 && strcmp(name, "cudatoolkit") != 0 &&
	    !str_starts_with(name, "nvidia-") && strcmp(name, "torchvision") != 0 && strcmp(name, "torchaudio") != 0)
		return false;
	/* lists are sorted: nvidia-* come before torch, so the torch they belong to is made here */
	t = paste_torch(p);
	if (strcmp(name, "cpuonly") == 0) {
		t->conda_cpuonly = true;
	} else if (strcmp(name, "pytorch-cuda") == 0) {
		str_copy(t->conda_pytorch_cuda, sizeof(t->conda_pytorch_cuda), version);
	} else if (strcmp(name, "cudatoolkit") == 0) {
		str_copy(t->conda_cudatoolkit, sizeof(t->conda_cudatoolkit), version);
	} else if (str_starts_with(name, "nvidia-")) {
		char wheel[64];

		/* as the dist-info names it: nvidia_cudnn_cu12 9.1.0.70 */
		str_printf(wheel, sizeof(wheel), "%s %s", name, version);
		for (char *c = wheel; *c && *c != ' '; c++)
			if (*c == '-')
				*c = '_';
		add_unique(t->wheels, &t->nwheels, MAX_TORCH_WHEELS, p, "nvidia wheels in the paste", wheel);
	} else if (strcmp(name, "torchvision") == 0 || strcmp(name, "torchaudio") == 0) {
		char pkg[64];

		str_printf(pkg, sizeof(pkg), "%s %s", name, version);
		add_unique(t->packages, &t->npackages, MAX_TORCH_PACKAGES, p, "torch companions in the paste", pkg);
	}
	return true;
}
