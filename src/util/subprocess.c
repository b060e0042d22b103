#include "util/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/reap.h"

static void child(char *const argv[], char *const envp[], const char *dir, int out, int errfd)
{
	int devnull = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (chdir(dir) != 0)
		_exit(126);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	execve(argv[0], argv, envp);
	_exit(127);
}

/* Append what fd has to buf (up to max), dropping the rest; false at EOF. */
static bool drain(int fd, char **buf, size_t *len, size_t max)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (*len < max) {
		size_t take = (size_t)n < max - *len ? (size_t)n : max - *len;
		char *nb = realloc(*buf, *len + take + 1);

		if (nb) {
			memcpy(nb + *len, chunk, take);
			*len += take;
			nb[*len] = '\0';
			*buf = nb;
		}
	}
	return true;
}

/*
 * See subprocess.h. Returns 0 once a child was started, whatever became of it: an exec or chdir failure is
 * exit 127 or 126, a killed one exit -1 with the signal. res->out and res->err are "" rather than NULL
 * unless out of memory; the caller releases res after either return (it is zeroed on failure).
 */
int subprocess_run(char *const argv[], char *const envp[], const char *dir, double timeout_s, size_t max_output,
		   struct subprocess_result *res, struct error *err)
{
	int out[2], errp[2], status = 0;
	double start = clock_ms(), deadline = start + timeout_s * 1000.0;
	bool open_out = true, open_err = true, collected = false;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(out) < 0)
		return error_errno(err, errno, "cannot run '%s'", argv[0]);
	if (pipe(errp) < 0) {
		close(out[0]);
		close(out[1]);
		return error_errno(err, errno, "cannot run '%s'", argv[0]);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(out[0]);
		close(errp[0]);
		child(argv, envp, dir, out[1], errp[1]);
	}
	if (pid > 0)
		setpgid(pid, pid);	/* also here: the child may not have run yet when we kill */
	close(out[1]);
	close(errp[1]);
	if (pid < 0) {
		close(out[0]);
		close(errp[0]);
		return error_errno(err, errno, "cannot run '%s'", argv[0]);
	}
	while (open_out || open_err) {
		struct pollfd p[2] = { { .fd = open_out ? out[0] : -1, .events = POLLIN },
				       { .fd = open_err ? errp[0] : -1, .events = POLLIN } };
		double left = deadline - clock_ms();
		int r;

		if (left <= 0) {
			res->timed_out = true;
			break;
		}
		r = poll(p, 2, (int)(left + 1));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (p[0].revents)
			open_out = drain(out[0], &res->out, &res->out_len, max_output);
		if (p[1].revents)
			open_err = drain(errp[0], &res->err, &res->err_len, max_output);
	}
	res->pid = (int)pid;
	if (!res->timed_out && !open_out && !open_err) {
		/* both pipes closed: it has exited or is about to, but it too gets only the deadline */
		double left = deadline - clock_ms();

		collected = reap_within(pid, left > 0 ? left : 0, &status);
		res->timed_out = !collected;
	}
	if (!collected) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		res->stuck = !reap_within(pid, REAP_GRACE_MS, &status);
	}
	close(out[0]);
	close(errp[0]);
	res->elapsed_ms = clock_ms() - start;
	if (res->stuck)
		res->exit_code = -1;
	else if (WIFEXITED(status)) {
		res->exit_code = WEXITSTATUS(status);
	} else {
		res->exit_code = -1;
		res->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
	if (!res->out)
		res->out = calloc(1, 1);
	if (!res->err)
		res->err = calloc(1, 1);
	return 0;
}

/* Free the captured output and zero res; safe on a zeroed or already released result. */
void subprocess_result_release(struct subprocess_result *res)
{
	free(res->out);
	free(res->err);
	memset(res, 0, sizeof(*res));
}
