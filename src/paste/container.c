/*
 * container.c - how the program was started and where: a `docker run` or
 * `podman run` line (with --gpus, --runtime=nvidia or a CDI device
 * nvidia.com/gpu, or with none of them), and a shell prompt whose host
 * name is a container id ("root@3f2a9c1b7d4e:/#": Docker names a
 * container's host after the first 12 hex digits of its id).
 */
#include "paste/paste_internal.h"

#include <ctype.h>
#include <string.h>

#include "util/str.h"

/* A run line: the first decides where the error came from; paste.run keeps the first, or the first with a GPU flag. */
static void note_run(struct paste *p, const char *run, bool gpus)
{
	if (p->first_run_gpus < 0) {
		p->first_run_gpus = gpus ? 1 : 0;
		str_copy(p->first_run_line, sizeof(p->first_run_line), run);
	}
	/* docs/report-schema.md: paste.run */
	if (p->run_gpus < 0 || gpus) {
		p->run_gpus = gpus ? 1 : 0;
		str_copy(p->run_line, sizeof(p->run_line), run);
	}
}

static bool take_run(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *run = strstr(line, "nvidia-docker run ");
	bool gpus;

	/* nvidia-docker (version 1, and version 2's wrapper) runs with the NVIDIA runtime */
	if (run && (run == line || run[-1] == ' ')) {
		note_run(p, run, true);
		return true;
	}
	run = strstr(line, "docker run ");
	if (!run)
		run = strstr(line, "podman run ");
	if (!run)
		run = strstr(line, "nerdctl run ");
	if (!run || (run != line && run[-1] != ' ' && run[-1] != '$' && run[-1] != '#'))
		return false;
	gpus = strstr(run, "--gpus") || strstr(run, "--runtime=nvidia") || strstr(run, "--runtime nvidia") ||
	       strstr(run, "nvidia.com/gpu");
	note_run(p, run, gpus);
	(void)at;
	return true;
}

static bool take_prompt(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *at_sign = strchr(line, '@'), *colon, *user;
	struct container_facts *c = &p->facts->container;

	if (!at_sign || !(colon = strchr(at_sign, ':')) || colon - at_sign != 13 || !strpbrk(colon, "#$"))
		return false;
	for (const char *s = at_sign + 1; s < colon; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	/* the user name runs back to the line's start or a blank: "(base) root@..." has a conda prefix */
	for (user = at_sign; user > line && !char_is_space((unsigned char)user[-1]); user--)
		;
	if (user == at_sign || at_sign - user > 32)
		return false;
	if (!c->in_container) {
		c->in_container = true;
		str_copy(c->runtime, sizeof(c->runtime), "unknown");
		str_printf(c->evidence, sizeof(c->evidence), "the prompt %.*s: a container id as the host name (the paste)",
			   (int)(colon - user), user);
	}
	paste_mark(p, PASTE_CONTAINER, at);
	return true;
}

static bool word_start(const char *line, const char *w)
{
	unsigned char b = w == line ? ' ' : (unsigned char)w[-1];

	return !((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || char_is_digit(b) || b == '/' || b == '_' ||
		 b == '-' || b == '.');
}

/* The first word in line that starts with "docker" (any case: docker-compose, Dockerfile), "podman" or is
 * "container(s)"; NULL when none. Paths (/var/lib/docker) and names (nvidia-docker, nvidia-container-cli)
 * do not count. */
static const char *container_word(const char *line)
{
	static const char *const words[] = { "docker", "Docker", "DOCKER", "podman", "Podman", "container", "Container" };

	/* a fast filter first: most lines of a log name none */
	if (!strstr(line, "ocker") && !strstr(line, "OCKER") && !strstr(line, "odman") && !strstr(line, "ontainer"))
		return NULL;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		for (const char *w = strstr(line, words[i]); w; w = strstr(w + 1, words[i])) {
			size_t n = strlen(words[i]);

			if (!word_start(line, w))
				continue;
			if (words[i][0] != 'c' && words[i][0] != 'C')
				return w;
			if (w[n] == 's')
				n++;
			if (!((w[n] >= 'a' && w[n] <= 'z') || (w[n] >= 'A' && w[n] <= 'Z') || w[n] == '-' || w[n] == '_'))
				return w;
		}
	return NULL;
}

/*
 * Prose that names docker or a container ("I pulled the docker image", "inside the container"): where
 * the error came from, which the differential of a missing driver or device weighs (explain/paste_merge.c).
 * Never takes the line.
 */
static void note_container_named(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *w;
	int n = 0;

	if (p->container_named[0] || !(w = container_word(line)))
		return;
	while (w[n] && (unsigned char)w[n] > ' ' && n < 24)
		n++;
	while (n > 0 && strchr(".,;:?!`'\")]", w[n - 1]))	/* the word, not the prose's punctuation */
		n--;
	str_printf(p->container_named, sizeof(p->container_named), "the text names %.*s (line %lu)", n, w, at->number);
}

/*
 * An nvidia/cuda image without the compiler: NVIDIA's CUDA images come in three flavours, named in the tag
 * (nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04): base has the CUDA runtime only, runtime adds CUDA's math
 * libraries (and cuDNN in a cudnn tag), and only devel adds the headers and nvcc (the image's documentation on
 * Docker Hub and gitlab.com/nvidia/container-images/cuda). Noted for "nvcc: command not found": there is no
 * toolkit in such a container. Never takes the line.
 */
static void note_cuda_image(struct paste *p, const char *line, const struct paste_at *at)
{
	const char *image = strstr(line, "nvidia/cuda:");
	char tag[96], flavour[16] = "", *save = NULL;
	size_t n = 0;

	if (p->cuda_image_named[0] || !image)
		return;
	image += strlen("nvidia/cuda:");
	while (image[n] && n < sizeof(tag) - 1 && (isalnum((unsigned char)image[n]) || strchr(".-_", image[n])))
		n++;
	str_printf(tag, sizeof(tag), "%.*s", (int)n, image);
	for (char *part = strtok_r(tag, "-", &save); part; part = strtok_r(NULL, "-", &save))
		if (strcmp(part, "devel") == 0)
			return;
		else if (strcmp(part, "runtime") == 0 || strcmp(part, "base") == 0)
			str_copy(flavour, sizeof(flavour), part);
	if (flavour[0])
		str_printf(p->cuda_image_named, sizeof(p->cuda_image_named),
			   "line %lu uses nvidia/cuda:%.*s, a %s image (no nvcc)", at->number, (int)n, image, flavour);
}

bool paste_read_container(struct paste *p, const char *line, const struct paste_at *at)
{
	bool prompt = take_prompt(p, line, at);

	note_container_named(p, line, at);
	note_cuda_image(p, line, at);

	return take_run(p, line, at) || prompt;
}
