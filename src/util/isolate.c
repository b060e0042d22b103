/*
 * isolate.c - see isolate.h. The child closes its end of a pipe when done;
 * the parent polls that pipe until the deadline, waking every tick.
 */
#include "util/isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"

void isolate_mark(char *field, size_t size, const char *call)
{
	volatile char *dst = field;	/* the parent may read it at any moment, even after a crash */
	size_t i = 0;

	for (; call[i] && i + 1 < size; i++)
		dst[i] = call[i];
	dst[i] = '\0';
}

/* Wait for the child to close its end of the pipe, at most until the deadline. */
static bool wait_done(int fd, double deadline_ms, const void *shared, void (*tick)(const void *, void *), void *arg,
		      int tick_ms)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline_ms - clock_ms();
		int r, wait;

		if (left <= 0)
			return false;
		wait = (int)left + 1;
		if (tick && tick_ms > 0 && wait > tick_ms)
			wait = tick_ms;
		r = poll(&p, 1, wait);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return false;	/* poll failed: stop the child */
		if (r == 0) {
			if (tick)
				tick(shared, arg);
			continue;
		}
		if (p.revents & (POLLHUP | POLLERR))
			return true;
		if (p.revents & POLLIN) {
			char b[16];

			if (read(fd, b, sizeof(b)) <= 0)
				return true;
		}
	}
}

int isolate_run(void *state, size_t size, void (*work)(void *shared, void *arg), void *arg, double timeout_s,
		void (*tick)(const void *shared, void *arg), int tick_ms, struct isolate_outcome *out,
		struct error *err)
{
	void *shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int pipefd[2] = { -1, -1 }, status = 0;
	double start;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	if (shared == MAP_FAILED)
		return error_errno(err, errno, "cannot share memory with the helper");
	if (pipe(pipefd) < 0 || fcntl(pipefd[0], F_SETFD, FD_CLOEXEC) < 0 || fcntl(pipefd[1], F_SETFD, FD_CLOEXEC) < 0) {
		error_errno(err, errno, "cannot start the helper");
		goto fail;
	}
	memcpy(shared, state, size);
	fflush(NULL);
	start = clock_ms();
	pid = fork();
	if (pid < 0) {
		error_errno(err, errno, "cannot start the helper");
		goto fail;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

		close(pipefd[0]);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		work(shared, arg);
		close(pipefd[1]);
		_exit(0);
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	if (!wait_done(pipefd[0], start + timeout_s * 1000.0, shared, tick, arg, tick_ms))
		out->hung = kill(pid, SIGKILL) == 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	out->elapsed_ms = clock_ms() - start;
	if (WIFSIGNALED(status) && !(out->hung && WTERMSIG(status) == SIGKILL)) {
		out->crashed = true;
		out->signal = WTERMSIG(status);
	} else if (WIFEXITED(status)) {
		out->exit_code = WEXITSTATUS(status);
	}
	memcpy(state, shared, size);
	close(pipefd[0]);
	munmap(shared, size);
	return 0;
fail:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	munmap(shared, size);
	return -1;
}
