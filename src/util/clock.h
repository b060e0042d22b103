/*
 * clock.h - the one clock for deadlines and durations: monotonic, so a
 * change of the wall clock never stretches or cuts a deadline.
 */
#ifndef GD_UTIL_CLOCK_H
#define GD_UTIL_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock since an arbitrary start. */
static inline double clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

#endif
