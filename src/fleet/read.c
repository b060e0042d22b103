/*
 * read.c - one doctor report (docs/report-schema.md) reduced to a fleet_report, in one pass over its
 * text: the members the view needs are read where they stand, everything else is skipped unparsed
 * into any tree.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fleet/fleet.h"
#include "util/jscan.h"
#include "util/str.h"

/* The members found on the way that need each other to mean something. */
struct reading {
	struct fleet_report *r;
	bool schema, verdict;
	char schema_name[64];
	long long selected;		/* python.selected, -1 when none */
	long long interp_torch[16];	/* python.interpreters[i].torch, -1 when none */
	char torch_version[16][64];	/* python.torch[i].version */
	size_t ninterp, ntorch;
	char cudnn_header[64], cudnn_library[64];
	char gpu_name[128], gpu_device[16];	/* the pci.gpus[] element being read */
};

/* Walk the object that comes next, calling member(rd, key) for each key; it reads or skips the value. */
static int each_member(struct jscan *s, struct reading *rd, int (*member)(struct jscan *, struct reading *, const char *))
{
	char key[64];
	int r;

	if (jscan_object_begin(s) < 0)
		return -1;
	while ((r = jscan_object_next(s, key, sizeof(key))) > 0)
		if (member(s, rd, key) < 0)
			return -1;
	return r;
}

static int string_into(struct jscan *s, char *out, size_t size)
{
	return jscan_string(s, out, size) < 0 ? -1 : 0;
}

static int verdict_member(struct jscan *s, struct reading *rd, const char *key)
{
	static const char *const names[] = { "ready", "degraded", "broken", "no-gpu" };
	char status[32];

	if (strcmp(key, "status") == 0) {
		if (jscan_string(s, status, sizeof(status)) < 0)
			return -1;
		rd->verdict = true;
		rd->r->verdict = FLEET_BROKEN;	/* a status this version does not know: not ready */
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(status, names[i]) == 0)
				rd->r->verdict = (enum fleet_verdict)i;
		return 0;
	}
	if (strcmp(key, "root_cause") == 0)
		return string_into(s, rd->r->root_cause, sizeof(rd->r->root_cause));
	if (strcmp(key, "summary") == 0)
		return string_into(s, rd->r->summary, sizeof(rd->r->summary));
	return jscan_skip(s);
}

/* Calls member(rd, key) for each key of each object of the array that comes next. */
static int each_element(struct jscan *s, struct reading *rd, int (*member)(struct jscan *, struct reading *, const char *))
{
	int r;

	if (jscan_array_begin(s) < 0)
		return -1;
	while ((r = jscan_array_next(s)) > 0)
		if (each_member(s, rd, member) < 0)
			return -1;
	return r;
}

static int system_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "hostname") == 0)
		return string_into(s, rd->r->hostname, sizeof(rd->r->hostname));
	return jscan_skip(s);
}

static int gpu_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "name") == 0)
		return string_into(s, rd->gpu_name, sizeof(rd->gpu_name));
	if (strcmp(key, "device") == 0)
		return string_into(s, rd->gpu_device, sizeof(rd->gpu_device));
	return jscan_skip(s);
}

/* pci.gpus[]: the distinct models, joined with " + " in the order met; a GPU without a name by its PCI id. */
static int gpus(struct jscan *s, struct reading *rd)
{
	char *models = rd->r->trait[FLEET_GPU_MODEL], model[128];
	size_t size = sizeof(rd->r->trait[FLEET_GPU_MODEL]), len;
	int r;

	if (jscan_array_begin(s) < 0)
		return -1;
	while ((r = jscan_array_next(s)) > 0) {
		rd->gpu_name[0] = rd->gpu_device[0] = '\0';
		if (each_member(s, rd, gpu_member) < 0)
			return -1;
		if (rd->gpu_name[0])
			str_copy(model, sizeof(model), rd->gpu_name);
		else if (rd->gpu_device[0])
			str_printf(model, sizeof(model), "10de:%s", rd->gpu_device);
		else
			continue;
		if (strstr(models, model))
			continue;
		len = strlen(models);
		str_printf(models + len, size - len, "%s%s", len ? " + " : "", model);
	}
	return r;
}

static int pci_member(struct jscan *s, struct reading *rd, const char *key)
{
	long long n;
	int got;

	if (strcmp(key, "count") == 0) {
		if ((got = jscan_integer(s, &n)) < 0)
			return -1;
		if (got)
			snprintf(rd->r->trait[FLEET_GPU_COUNT], sizeof(rd->r->trait[FLEET_GPU_COUNT]), "%lld", n);
		return 0;
	}
	if (strcmp(key, "gpus") == 0)
		return gpus(s, rd);
	return jscan_skip(s);
}

static int driver_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "version") == 0)
		return string_into(s, rd->r->trait[FLEET_DRIVER], sizeof(rd->r->trait[FLEET_DRIVER]));
	return jscan_skip(s);
}

static int toolkits_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "active_version") == 0)
		return string_into(s, rd->r->trait[FLEET_CUDA], sizeof(rd->r->trait[FLEET_CUDA]));
	return jscan_skip(s);
}

/* cudnn.headers[] / libraries[]: the first version of each (a header's is the full one). */
static int cudnn_header_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "version") == 0 && !rd->cudnn_header[0])
		return string_into(s, rd->cudnn_header, sizeof(rd->cudnn_header));
	return jscan_skip(s);
}

static int cudnn_library_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "version") == 0 && !rd->cudnn_library[0])
		return string_into(s, rd->cudnn_library, sizeof(rd->cudnn_library));
	return jscan_skip(s);
}

static int cudnn_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "headers") == 0)
		return each_element(s, rd, cudnn_header_member);
	if (strcmp(key, "libraries") == 0)
		return each_element(s, rd, cudnn_library_member);
	return jscan_skip(s);
}

/* python.interpreters[i]: which torch the selected one imports. */
static int interpreter_member(struct jscan *s, struct reading *rd, const char *key)
{
	long long *torch = &rd->interp_torch[rd->ninterp];

	if (strcmp(key, "torch") == 0)
		return jscan_integer(s, torch) < 0 ? -1 : 0;
	return jscan_skip(s);
}

static int torch_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "version") == 0)
		return string_into(s, rd->torch_version[rd->ntorch], sizeof(rd->torch_version[0]));
	return jscan_skip(s);
}

static int python_list(struct jscan *s, struct reading *rd, bool interpreters)
{
	int r;

	if (jscan_array_begin(s) < 0)
		return -1;
	while ((r = jscan_array_next(s)) > 0) {
		size_t *n = interpreters ? &rd->ninterp : &rd->ntorch;

		if (*n >= sizeof(rd->torch_version) / sizeof(rd->torch_version[0])) {
			/* past what a report holds (16): not needed to name the selected one's torch */
			if (jscan_skip(s) < 0)
				return -1;
			continue;
		}
		if (interpreters)
			rd->interp_torch[*n] = -1;
		else
			rd->torch_version[*n][0] = '\0';
		if (each_member(s, rd, interpreters ? interpreter_member : torch_member) < 0)
			return -1;
		(*n)++;
	}
	return r;
}

static int python_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "selected") == 0)
		return jscan_integer(s, &rd->selected) < 0 ? -1 : 0;
	if (strcmp(key, "interpreters") == 0)
		return python_list(s, rd, true);
	if (strcmp(key, "torch") == 0)
		return python_list(s, rd, false);
	return jscan_skip(s);
}

static int facts_member(struct jscan *s, struct reading *rd, const char *key)
{
	static const struct {
		const char *key;
		int (*member)(struct jscan *, struct reading *, const char *);
	} sections[] = {
		{ "system", system_member }, { "pci", pci_member }, { "driver", driver_member },
		{ "toolkits", toolkits_member }, { "cudnn", cudnn_member }, { "python", python_member },
	};

	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (strcmp(key, sections[i].key) == 0)
			return jscan_peek(s) == JSCAN_OBJECT ? each_member(s, rd, sections[i].member) : jscan_skip(s);
	return jscan_skip(s);
}

static int top_member(struct jscan *s, struct reading *rd, const char *key)
{
	if (strcmp(key, "schema") == 0) {
		rd->schema = true;
		return jscan_string(s, rd->schema_name, sizeof(rd->schema_name)) < 0 ? -1 : 0;
	}
	if (jscan_peek(s) != JSCAN_OBJECT)	/* a verdict or facts that is no object: as if absent */
		return jscan_skip(s);
	if (strcmp(key, "verdict") == 0)
		return each_member(s, rd, verdict_member);
	if (strcmp(key, "facts") == 0)
		return each_member(s, rd, facts_member);
	return jscan_skip(s);
}

/* What the members met say together: the selected interpreter's torch, the cuDNN version. */
static void conclude(struct reading *rd)
{
	struct fleet_report *r = rd->r;

	if (rd->selected >= 0 && (size_t)rd->selected < rd->ninterp) {
		long long t = rd->interp_torch[rd->selected];

		if (t >= 0 && (size_t)t < rd->ntorch)
			str_copy(r->trait[FLEET_TORCH], sizeof(r->trait[FLEET_TORCH]), rd->torch_version[t]);
	}
	str_copy(r->trait[FLEET_CUDNN], sizeof(r->trait[FLEET_CUDNN]),
		 rd->cudnn_header[0] ? rd->cudnn_header : rd->cudnn_library);
}

int fleet_report_read(const char *buf, size_t len, struct fleet_report *r, struct error *err)
{
	struct reading rd = { .r = r, .selected = -1 };
	struct jscan s;
	const char *why;
	size_t at;

	memset(r, 0, sizeof(*r));
	jscan_init(&s, buf, len);
	if (jscan_peek(&s) != JSCAN_OBJECT) {
		if (jscan_peek(&s) == JSCAN_NONE && !jscan_error(&s, NULL) && s.p >= s.end)
			return error_set(err, "empty");
		if (jscan_skip(&s) < 0 || jscan_finish(&s) < 0)
			goto not_json;
		return error_set(err, "a JSON value that is not an object");
	}
	if (each_member(&s, &rd, top_member) < 0 || jscan_finish(&s) < 0)
		goto not_json;
	if (!rd.schema)
		return error_set(err, "a JSON object without \"schema\": not a gpudoctor report");
	if (strcmp(rd.schema_name, FLEET_REPORT_SCHEMA) != 0)
		return error_set(err, "schema '%s', not '%s' (gpudoctor --json)", rd.schema_name, FLEET_REPORT_SCHEMA);
	if (!rd.verdict)
		return error_set(err, "a report without verdict.status");
	conclude(&rd);
	return 0;
not_json:
	why = jscan_error(&s, &at);
	return error_set(err, "not JSON: %s at byte %zu", why ? why : "malformed", at);
}
