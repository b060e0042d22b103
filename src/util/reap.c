#include "util/reap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "util/clock.h"

/*
 * See reap.h. Polls with WNOHANG, napping 0.1 to 10 ms, so it overshoots wait_ms by one nap at most. A pid
 * that is not (or no longer) our child counts as collected with *status 0, which reads as a clean exit.
 */
bool reap_within(pid_t pid, double wait_ms, int *status)
{
	double deadline = clock_ms() + wait_ms;
	long nap_ns = 100000;	/* 0.1 ms, doubling up to 10 ms: a dying child is collected at once */

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR)
			return errno == ECHILD ? (*status = 0, true) : false;
		if (clock_ms() >= deadline)
			return false;
		nanosleep(&(struct timespec){ 0, nap_ns }, NULL);
		if (nap_ns < 10000000)
			nap_ns *= 2;
	}
}

/* Reads the host's /proc directly, never the --root image: pid is our own child on this machine. */
char reap_state(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	size_t n;
	FILE *fp;

	/* Our own child, on this machine: not a file of the machine being diagnosed. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(fp = fopen(path, "re")))
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold spaces and parentheses, so take the last ')' */
	close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' && close_paren[2] ? close_paren[2] : '?';
}
