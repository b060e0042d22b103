#include "rules/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

struct finding *findings_add(struct findings *list, const char *id, enum severity sev, enum stage stage,
			     const char *title_fmt, ...)
{
	struct finding *f;
	va_list ap;

	if (list->count == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 16;
		struct finding *items = realloc(list->items, cap * sizeof(*items));

		if (!items)
			return NULL;
		list->items = items;
		list->cap = cap;
	}
	f = &list->items[list->count++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	f->stage = stage;
	va_start(ap, title_fmt);
	f->title = str_vdupf(title_fmt, ap);
	va_end(ap);
	return f;
}

void finding_detail(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	free(f->detail);
	va_start(ap, fmt);
	f->detail = str_vdupf(fmt, ap);
	va_end(ap);
}

void finding_evidence(struct finding *f, const char *fact, const char *source, const char *value_fmt, ...)
{
	struct evidence *e;
	va_list ap;

	if (!f)
		return;
	if (f->nevidence >= FINDING_MAX_EVIDENCE) {
		f->evidence_dropped++;
		return;
	}
	e = &f->evidence[f->nevidence++];
	e->fact = str_dup(fact);
	e->source = str_dup(source ? source : "");
	va_start(ap, value_fmt);
	e->value = str_vdupf(value_fmt, ap);
	va_end(ap);
}

void finding_fix(struct finding *f, const char *command, const char *text_fmt, ...)
{
	struct fix_step *s;
	va_list ap;

	if (!f)
		return;
	if (f->nfix >= FINDING_MAX_FIX) {
		f->fix_dropped++;
		return;
	}
	s = &f->fix[f->nfix++];
	s->command = command ? str_dup(command) : NULL;
	va_start(ap, text_fmt);
	s->text = str_vdupf(text_fmt, ap);
	va_end(ap);
}

const struct finding *findings_get(const struct findings *list, const char *id)
{
	for (size_t i = 0; i < list->count; i++)
		if (strcmp(list->items[i].id, id) == 0)
			return &list->items[i];
	return NULL;
}

struct finding *findings_find(struct findings *list, const char *id)
{
	for (size_t i = 0; i < list->count; i++)
		if (strcmp(list->items[i].id, id) == 0)
			return &list->items[i];
	return NULL;
}

static void finding_release(struct finding *f)
{
	free(f->title);
	free(f->detail);
	for (int j = 0; j < f->nevidence; j++) {
		free(f->evidence[j].fact);
		free(f->evidence[j].value);
		free(f->evidence[j].source);
	}
	for (int j = 0; j < f->nfix; j++) {
		free(f->fix[j].text);
		free(f->fix[j].command);
	}
}

bool findings_remove(struct findings *list, const char *id)
{
	for (size_t i = 0; i < list->count; i++) {
		if (strcmp(list->items[i].id, id) != 0)
			continue;
		finding_release(&list->items[i]);
		memmove(&list->items[i], &list->items[i + 1], (list->count - i - 1) * sizeof(list->items[0]));
		list->count--;
		return true;
	}
	return false;
}

void findings_release(struct findings *list)
{
	for (size_t i = 0; i < list->count; i++)
		finding_release(&list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

bool findings_fix_has(const struct finding *f, const char *command)
{
	for (int i = 0; i < f->nfix; i++)
		if (f->fix[i].command && strcmp(f->fix[i].command, command) == 0)
			return true;
	return false;
}

const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEV_INFO:
		return "info";
	case SEV_WARNING:
		return "warning";
	case SEV_ERROR:
		return "error";
	}
	return "info";
}

const char *stage_name(enum stage stage)
{
	static const char *const names[] = {
		[STAGE_PLATFORM] = "platform",	       [STAGE_GPU] = "gpu",
		[STAGE_KERNEL] = "kernel",	       [STAGE_DEVICE_NODES] = "device-nodes",
		[STAGE_USER_LIBS] = "user-libraries", [STAGE_CUDA] = "cuda",
		[STAGE_TOOLKIT] = "toolkit",	       [STAGE_CUDNN] = "cudnn",
		[STAGE_PYTHON] = "python",	       [STAGE_ENV] = "environment",
		[STAGE_SUMMARY] = "summary",
	};

	return (unsigned)stage < sizeof(names) / sizeof(names[0]) ? names[stage] : "unknown";
}
