/*
 * catalog.c - the compiled-in signature catalog (data/explain_signatures.tsv),
 * the Xid table (data/xid.tsv) and where each cause sits in the causal chain.
 */
#include "explain/scan_internal.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"

size_t catalog_rows(void)
{
	return kb_table_explain_signatures.nrows;
}

const char *catalog_field(size_t row, const char *column)
{
	return kb_field(&kb_table_explain_signatures, row, column);
}

bool catalog_keyed(size_t row)
{
	return strcmp(catalog_field(row, "cause"), "@xid") == 0;
}

const char *catalog_key_name(size_t row)
{
	return catalog_keyed(row) ? "xid" : NULL;
}

static int number_or(const char *s, int fallback)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end != s && *end == '\0' && v > 0 && v <= 100 ? (int)v : fallback;
}

int catalog_confidence(size_t row)
{
	return number_or(catalog_field(row, "confidence"), 50);
}

bool catalog_xid(const char *xid, const char **cause, int *confidence, const char **name, const char **action,
		 const char **source)
{
	const struct kb_table *t = &kb_table_xid;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(kb_field(t, r, "xid"), xid) != 0)
			continue;
		*cause = kb_field(t, r, "cause");
		*confidence = number_or(kb_field(t, r, "confidence"), 50);
		*name = kb_field(t, r, "name");
		*action = kb_field(t, r, "action");
		*source = kb_field(t, r, "source");
		return true;
	}
	return false;
}

/*
 * The chain as an error log sees it, root first. The GPU and its kernel
 * driver come before the container layer here: a GPU that fell off the bus
 * makes the container runtime fail too, not the other way round. Causes on
 * one line are peers; among peers the first seen in the log leads. (The
 * array is sized for the longest line.)
 */
static const char *const chain[][8] = {
	{ "gpu.hardware-fault", "driver.gsp-error" },
	{ "gpu.none" },
	{ "driver.not-installed", "driver.not-loaded", "driver.too-old" },
	{ "driver.device-permission" },
	{ "container.no-gpu", "container.runtime-missing", "wsl.driver" },
	{ "cuda.stub-library", "cuda.lib-missing", "driver.library-mismatch" },
	{ "cuda.init-failed", "gpu.mig-or-compute-mode", "env.visible-devices" },
	{ "toolkit.newer-than-driver", "toolkit.arch-unsupported", "toolkit.conflict" },
	{ "cudnn.missing", "cudnn.mismatch" },
	{ "torch.not-installed", "torch.cpu-only", "torch.rocm-build", "torch.driver-too-old", "torch.arch-unsupported",
	  "torch.libs-unresolved", "env.library-shadowing", "torch.import-failed" },
	{ "torch.cuda-unavailable" },
	/* an Xid without a known cause is as likely a program's fault as the GPU's: a peer of the run-time errors */
	{ "runtime.device-assert", "runtime.illegal-address", "runtime.out-of-memory", "cudnn.error", "cublas.error",
	  "torch.device-mismatch", "gpu.xid" },
	{ "nccl.error", "nccl.timeout" },
};

int catalog_stage(const char *cause)
{
	for (size_t s = 0; s < sizeof(chain) / sizeof(chain[0]); s++)
		for (size_t i = 0; i < 8 && chain[s][i]; i++)
			if (strcmp(chain[s][i], cause) == 0)
				return (int)s;
	return (int)(sizeof(chain) / sizeof(chain[0]));
}
