/*
 * calls.c - what every step in the helper does around a driver call: name
 * it first (for the parent, should it hang or crash), record its failure on
 * the GPU, report progress, read an event pair's time.
 */
#include "compute/compute_internal.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/str.h"

/* In the helper: store call in run->last_call (shared memory) before making it; "" says between calls. */
void compute_mark(struct session *s, const char *call)
{
	isolate_mark(s->run->last_call, sizeof(s->run->last_call), call);
}

/* In the helper: the progress line the parent's tick shows, cut to fit; it never touches the terminal. */
void compute_progress(struct session *s, const char *fmt, ...)
{
	char text[sizeof(s->run->progress)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	isolate_mark(s->run->progress, sizeof(s->run->progress), text);
}

/*
 * See compute_internal.h. Only the first failure of a GPU is kept, and none without a current GPU
 * (s->gpu NULL): then it just returns false. Names come from the driver when it can give them.
 */
bool compute_ok(struct session *s, const char *step, CUresult r)
{
	struct compute_gpu *g = s->gpu;
	const char *name = NULL, *text = NULL;

	if (r == CUDA_SUCCESS)
		return true;
	if (!g || g->failed_step[0])
		return false;
	str_copy(g->failed_step, sizeof(g->failed_step), step);
	g->error = r;
	if (s->cu.q.error_name && s->cu.q.error_name(r, &name) == CUDA_SUCCESS && name)
		str_copy(g->error_name, sizeof(g->error_name), name);
	else
		str_printf(g->error_name, sizeof(g->error_name), "CUresult %d", r);
	if (s->cu.error_string && s->cu.error_string(r, &text) == CUDA_SUCCESS && text)
		str_copy(g->error_text, sizeof(g->error_text), text);
	return false;
}

/* See compute_internal.h: waits for end (cuEventSynchronize, bounded only by the helper's deadline). */
double compute_elapsed(struct session *s, CUevent start, CUevent end)
{
	float ms = -1;

	compute_mark(s, "cuEventSynchronize");
	if (!compute_ok(s, N_("timing"), s->cu.event_sync(end)))
		return -1;
	compute_mark(s, "cuEventElapsedTime");
	if (!compute_ok(s, N_("timing"), s->cu.event_elapsed(&ms, start, end)))
		return -1;
	return ms;
}
