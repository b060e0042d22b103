/*
 * query.h - `gpudoctor kb` questions answered from the knowledge tables.
 *
 * A query is the command line after "kb" (e.g. {"driver-for", "cuda",
 * "12.4"}). The answer is a JSON object: "query", "answer" (the value
 * asked for), "summary" (one sentence), "rows" (the table rows it rests
 * on, each with its source). Renderers decide how to show it.
 */
#ifndef GD_KB_QUERY_H
#define GD_KB_QUERY_H

#include <jansson.h>

#include "util/error.h"
#include "util/i18n.h"

/* err->code when the question was well formed and the tables hold no answer to it. */
#define KB_QUERY_NO_ANSWER (-1)

/*
 * A new reference, or NULL with err set: an unknown query or a bad value
 * (a usage error), or err->code KB_QUERY_NO_ANSWER when nothing answers it.
 */
json_t *kb_query(int argc, char *const *argv, struct error *err);

/* The forms kb_query understands, one per line, for --help (a catalog message: show it with i18n_text). */
#define KB_QUERY_USAGE N_("queries:\n" \
	"  driver-for cuda VERSION   minimum NVIDIA driver for a CUDA toolkit\n" \
	"  cuda-for driver VERSION   newest CUDA a driver supports\n" \
	"  gpu NAME|PCI-ID           compute capability and architecture of a GPU\n" \
	"  torch VERSION             wheel variants, Python versions, install commands\n" \
	"  torch-for [--driver V] [--gpu sm_XX|NAME] [--python 3.X]\n" \
	"                            the newest torch and variant that will work\n" \
	"  arch sm_XX                which CUDA toolkits can compile for it\n" \
	"  error CODE|NAME           a CUDA driver, runtime or NVML status code\n")

#endif
