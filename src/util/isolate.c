/*
 * isolate.c - see isolate.h. The child closes its end of a pipe when done;
 * the parent polls that pipe, waking every tick and often enough to see a
 * call pass its deadline.
 */
#include "util/isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/reap.h"

/* Shared after the caller's block: when the call in progress started. */
struct call_clock {
	volatile double started_ms;
	volatile int in_call;
};

/*
 * Set once in the child, right after fork: the helper process is one run,
 * so its marks have one clock to stamp. Never set in the parent.
 */
static struct call_clock *child_clock;

/*
 * Async-signal-safe and allocation-free: the copy goes byte by byte through a volatile pointer so the parent
 * sees a terminated name even if the child dies mid-call. In the parent it only writes the field.
 */
void isolate_mark(char *field, size_t size, const char *call)
{
	volatile char *dst = field;	/* the parent may read it at any moment, even after a crash */
	size_t i = 0;

	for (; call[i] && i + 1 < size; i++)
		dst[i] = call[i];
	dst[i] = '\0';
	if (child_clock) {
		child_clock->in_call = 0;
		child_clock->started_ms = clock_ms();
		child_clock->in_call = call[0] != '\0';
	}
}

enum wait_end { WAIT_DONE, WAIT_CALL_DEADLINE, WAIT_BUDGET };

/* Wait for the child to close its end of the pipe, or for a limit to pass. */
static enum wait_end wait_done(int fd, double start_ms, const struct isolate_limits *limits,
			       const struct call_clock *clock, const void *shared,
			       void (*tick)(const void *, void *), void *arg, int tick_ms)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double now = clock_ms(), left = start_ms + limits->total_s * 1000.0 - now;
		int r, wait;

		if (clock->in_call && now - clock->started_ms > limits->call_s * 1000.0)
			return WAIT_CALL_DEADLINE;
		if (left <= 0)
			return WAIT_BUDGET;
		/* look at the call clock at least every 50 ms */
		wait = left < 50 ? (int)left + 1 : 50;
		if (tick && tick_ms > 0 && wait > tick_ms)
			wait = tick_ms;
		r = poll(&p, 1, wait);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return WAIT_BUDGET;	/* poll failed: stop the child */
		if (r == 0) {
			if (tick)
				tick(shared, arg);
			continue;
		}
		if (p.revents & (POLLHUP | POLLERR))
			return WAIT_DONE;
		if (p.revents & POLLIN) {
			char b[16];

			if (read(fd, b, sizeof(b)) <= 0)
				return WAIT_DONE;
		}
	}
}

static size_t clock_offset(size_t size)
{
	return (size + 63) & ~(size_t)63;
}

/*
 * See isolate.h. Returns 0 whenever the child was forked, whatever its fate (read *out); a stuck child is
 * not collected. Flushes all stdio streams before forking so buffered output is not written twice.
 */
int isolate_run(void *state, size_t size, void (*work)(void *shared, void *arg), void *arg,
		const struct isolate_limits *limits, void (*tick)(const void *shared, void *arg), int tick_ms,
		struct isolate_outcome *out, struct error *err)
{
	size_t total = clock_offset(size) + sizeof(struct call_clock);
	void *shared = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct call_clock *clock;
	int pipefd[2] = { -1, -1 }, status = 0;
	enum wait_end end;
	bool gone;
	double start;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->state = '?';
	if (shared == MAP_FAILED)
		return error_errno(err, errno, "cannot share memory with the helper");
	clock = (struct call_clock *)((char *)shared + clock_offset(size));
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

		child_clock = clock;
		close(pipefd[0]);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		work(shared, arg);
		close(pipefd[1]);
		_exit(0);
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	out->pid = (int)pid;
	end = wait_done(pipefd[0], start, limits, clock, shared, tick, arg, tick_ms);
	if (end != WAIT_DONE) {
		out->call_ms = clock->in_call ? clock_ms() - clock->started_ms : 0;
		/* a budget passed inside a call that has itself run past its deadline is a hang too */
		out->hung = end == WAIT_CALL_DEADLINE || (clock->in_call && out->call_ms > limits->call_s * 1000.0);
		out->over_budget = !out->hung;
		kill(pid, SIGKILL);
	}
	/* a child that finished gets a call's time to exit; a killed one the grace period */
	gone = reap_within(pid, end == WAIT_DONE ? limits->call_s * 1000.0 : REAP_GRACE_MS, &status);
	if (!gone && end == WAIT_DONE) {
		kill(pid, SIGKILL);
		gone = reap_within(pid, REAP_GRACE_MS, &status);
	}
	if (!gone) {
		/* asleep in the kernel, most likely in the driver: leave it and say so */
		out->stuck = true;
		out->state = reap_state(pid);
	}
	out->elapsed_ms = clock_ms() - start;
	if (!out->stuck && WIFSIGNALED(status) && !((out->hung || out->over_budget) && WTERMSIG(status) == SIGKILL)) {
		out->crashed = true;
		out->signal = WTERMSIG(status);
	} else if (!out->stuck && WIFEXITED(status)) {
		out->exit_code = WEXITSTATUS(status);
	}
	memcpy(state, shared, size);
	close(pipefd[0]);
	munmap(shared, total);
	return 0;
fail:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	munmap(shared, total);
	return -1;
}

/* See isolate.h. */
int isolate_session_open(struct isolate_session *s, size_t size, void (*work)(void *shared, void *arg), void *arg,
			 struct error *err)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->size = size;
	s->total = clock_offset(size) + sizeof(struct call_clock);
	s->work = work;
	s->arg = arg;
	s->shared = mmap(NULL, s->total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->shared == MAP_FAILED) {
		s->shared = NULL;
		return error_errno(err, errno, "cannot share memory with the helper");
	}
	return 0;
}

/* The child: one run of work per request byte, a byte back when done; the socket closing ends it. */
static _Noreturn void serve(struct isolate_session *s, int fd)
{
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	char b;

	child_clock = (struct call_clock *)((char *)s->shared + clock_offset(s->size));
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	while (read(fd, &b, 1) == 1) {
		s->work(s->shared, s->arg);
		child_clock->in_call = 0;
		if (send(fd, &b, 1, MSG_NOSIGNAL) != 1)
			break;
	}
	_exit(0);
}

static int session_start(struct isolate_session *s, struct error *err)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return error_errno(err, errno, "cannot start the helper");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return error_errno(err, errno, "cannot start the helper");
	}
	if (pid == 0) {
		close(sv[0]);
		serve(s, sv[1]);
	}
	close(sv[1]);
	s->fd = sv[0];
	s->pid = (int)pid;
	return 0;
}

/* Kill the child (or let it exit, when its socket is closed) and reap it within the grace period. */
static void session_end_child(struct isolate_session *s, bool kill_it, struct isolate_outcome *out)
{
	int status = 0;

	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (!s->pid)
		return;
	if (kill_it)
		kill(s->pid, SIGKILL);
	if (!reap_within(s->pid, REAP_GRACE_MS, &status)) {
		kill(s->pid, SIGKILL);
		if (!reap_within(s->pid, REAP_GRACE_MS / 4, &status)) {
			s->stuck_pid = s->pid;
			if (out) {
				out->stuck = true;
				out->state = reap_state(s->pid);
			}
		}
	}
	if (out && !out->stuck && WIFSIGNALED(status) && !(kill_it && WTERMSIG(status) == SIGKILL)) {
		out->crashed = true;
		out->signal = WTERMSIG(status);
	}
	s->pid = 0;
}

/* See isolate.h. */
int isolate_session_ask(struct isolate_session *s, const struct isolate_limits *limits, struct isolate_outcome *out,
			struct error *err)
{
	struct call_clock *clock = (struct call_clock *)((char *)s->shared + clock_offset(s->size));
	double start = clock_ms();
	char b = 1;

	memset(out, 0, sizeof(*out));
	out->state = '?';
	if (s->stuck_pid) {
		/* a helper asleep in the driver: another would only join it there */
		if (waitpid(s->stuck_pid, NULL, WNOHANG) == 0) {
			out->stuck = true;
			out->pid = s->stuck_pid;
			out->state = reap_state(s->stuck_pid);
			return 0;
		}
		s->stuck_pid = 0;
	}
	if (!s->pid && session_start(s, err) < 0)
		return -1;
	out->pid = s->pid;
	clock->in_call = 0;
	if (send(s->fd, &b, 1, MSG_NOSIGNAL) != 1) {
		session_end_child(s, true, out);	/* it died between requests */
		out->crashed = out->crashed || !out->stuck;
		out->elapsed_ms = clock_ms() - start;
		return 0;
	}
	for (;;) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		double now = clock_ms(), left = start + limits->total_s * 1000.0 - now;
		int r;

		if (clock->in_call && now - clock->started_ms > limits->call_s * 1000.0) {
			out->hung = true;
			break;
		}
		if (left <= 0) {
			out->over_budget = true;
			break;
		}
		r = poll(&p, 1, left < 50 ? (int)left + 1 : 50);	/* the call clock, at least every 50 ms */
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			out->over_budget = true;
			break;
		}
		if (r > 0) {
			ssize_t n = read(s->fd, &b, 1);

			out->elapsed_ms = clock_ms() - start;
			if (n == 1)
				return 0;
			session_end_child(s, false, out);	/* it died mid-request: a crash, or killed */
			out->crashed = out->crashed || !out->stuck;
			return 0;
		}
	}
	out->call_ms = clock->in_call ? clock_ms() - clock->started_ms : 0;
	session_end_child(s, true, out);
	out->elapsed_ms = clock_ms() - start;
	return 0;
}

/* See isolate.h. */
void isolate_session_close(struct isolate_session *s)
{
	if (!s->shared)
		return;
	session_end_child(s, false, NULL);
	munmap(s->shared, s->total);
	s->shared = NULL;
}
