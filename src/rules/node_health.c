#include "rules/node_health.h"

#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/str.h"

/* See node_health.h. */
bool node_health_counts(const struct finding *f)
{
	/* env.*: the caller's variables (CUDA_VISIBLE_DEVICES), not the node's state */
	return f->stage <= STAGE_CUDA && !str_starts_with(cause_name(f->cause), "env.");
}

/* The first section of the node's layers that could not be read, or NULL. */
static const char *denied_layer(const struct facts *f)
{
	if (fact_denied(&f->pci.status))
		return N_("the PCI devices");
	if (fact_denied(&f->kmod.status))
		return N_("the kernel module");
	if (fact_denied(&f->libs.ldcache_status))
		return N_("the driver libraries");
	return NULL;
}

/*
 * out->reason from fmt (a msgid), and out->reason_local in the text reports' language (its %s argument
 * translated where the catalog has it); the English one is what JSON and the scheduler's lines keep.
 */
static void say_reason(struct node_health *out, const char *fmt, const char *arg)
{
	char *local;

	str_printf(out->reason, sizeof(out->reason), fmt, arg);
	local = i18n_local_dupf(out->reason, fmt, arg);
	str_copy(out->reason_local, sizeof(out->reason_local), local ? local : "");
	free(local);
}

/* See node_health.h. */
void node_health_judge(const struct facts *facts, const struct diagnosis *d, struct node_health *out)
{
	const char *denied = denied_layer(facts);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		if (!node_health_counts(f))
			continue;
		if (f->severity == SEV_ERROR && out->errors++ == 0)
			out->cause = f;
		if (f->severity == SEV_WARNING && out->warnings++ == 0)
			out->warning = f;
	}
	out->gpus = facts->runtime.nvml_count >= 0 ? facts->runtime.nvml_count
						   : facts->pci.status.state == FACT_OK ? facts->pci.count : -1;
	if (out->cause) {
		out->status = NODE_UNHEALTHY;
	} else if (denied) {
		out->status = NODE_UNKNOWN;
		say_reason(out, N_("%s could not be read (permission)"), denied);
	} else if (!facts->runtime.ran) {
		out->status = NODE_UNKNOWN;
		say_reason(out, N_("the driver was not called (%s)"),
			   facts->runtime.status.reason[0] ? facts->runtime.status.reason : N_("not asked"));
	} else {
		out->status = NODE_HEALTHY;
	}
}

const char *node_status_name(enum node_status s)
{
	switch (s) {
	case NODE_HEALTHY:
		return "healthy";
	case NODE_UNHEALTHY:
		return "unhealthy";
	case NODE_UNKNOWN:
		break;
	}
	return "unknown";
}
