/*
 * fuzz_explain.c - explain's whole path on arbitrary text: the streaming
 * scan through the compiled signature catalog, the PCRE2 value read-out of
 * matched lines, and the ranking into causes.
 */
#include "explain/explain.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct explain_report report = { 0 };
	struct explain_scanner *s;
	struct error err;

	s = explain_open(&err);
	if (!s)
		return 0;
	if (explain_feed_text(s, (const char *)data, size, "fuzz", &err) == 0 && explain_rank(s, &report) == 0)
		explain_report_release(&report);
	explain_close(s);
	return 0;
}
