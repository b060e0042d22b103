/*
 * runtime.c - call the NVIDIA driver, in a child process, against a deadline.
 *
 * A wedged GPU can make nvmlInit or cuInit block in the kernel for minutes,
 * and a broken driver library can crash its caller. So the calls run in a
 * forked helper that writes its findings into memory shared with us; we
 * wait at most the deadline, then kill it. Whatever it had learned, and the
 * name of the call it was in, survive the kill.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kb/kb.h"
#include "probe/driver/query.h"
#include "probe/probe.h"
#include "util/str.h"

void query_mark(struct runtime_facts *rt, const char *call)
{
	volatile char *dst = rt->last_call;
	size_t i = 0;

	for (; call[i] && i + 1 < sizeof(rt->last_call); i++)
		dst[i] = call[i];
	dst[i] = '\0';
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/*
 * What to dlopen: live, the soname, as any program would; rooted, the file
 * inside the root. An empty file in a root is a stand-in that only shows
 * where a library is (a scenario without a fake driver): nothing to call.
 */
static bool library_file(const struct probe_ctx *ctx, const struct lib_choice *choice, const char *soname,
			 char *out, size_t outsz)
{
	const struct lib_candidate *c = lib_choice_chosen(choice);
	struct stat st;

	if (!c)
		return false;
	if (ctx->fs.live)
		return str_copy(out, outsz, soname) == 0;
	if (rootfs_stat(&ctx->fs, c->resolved, &st) < 0 || st.st_size == 0)
		return false;
	return str_printf(out, outsz, "%s%s", ctx->fs.dir, c->resolved) == 0;
}

static void run_child(struct runtime_facts *rt, const char *nvml, const char *cuda, int done_fd)
{
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	/* Driver libraries must not write into our report. */
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	if (nvml[0])
		query_nvml(rt, nvml);
	if (cuda[0])
		query_cuda(rt, cuda);
	query_mark(rt, "");
	close(done_fd);
	_exit(0);
}

/* Wait for the child to close its end of the pipe, at most until the deadline. */
static bool wait_done(int fd, double deadline_ms)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline_ms - now_ms();
		int r;

		if (left <= 0)
			return false;
		r = poll(&p, 1, (int)(left + 1));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;	/* deadline, or poll failed: stop the helper either way */
		if (p.revents & (POLLHUP | POLLERR))
			return true;
		if (p.revents & POLLIN) {
			char b[16];

			if (read(fd, b, sizeof(b)) <= 0)
				return true;
		}
	}
}

static void name_result(struct rt_library *lib, const char *api)
{
	struct kb_error codes[4];
	char num[16];
	int n;

	if (!lib->init_done)
		return;
	str_printf(num, sizeof(num), "%d", lib->init);
	n = kb_error_lookup(num, codes, 4);
	for (int i = 0; i < n; i++) {
		if (strcmp(codes[i].api, api) == 0) {
			str_copy(lib->init_name, sizeof(lib->init_name), codes[i].name);
			return;
		}
	}
	str_printf(lib->init_name, sizeof(lib->init_name), "%s %d", api, lib->init);
}

void probe_runtime(struct facts *f, const struct probe_ctx *ctx)
{
	struct runtime_facts *rt = &f->runtime, *shared;
	char nvml[FACT_PATH * 2] = "", cuda[FACT_PATH * 2] = "";
	int pipefd[2], status = 0;
	double start, deadline;
	pid_t pid;

	rt->timeout_s = ctx->timeout_s > 0 ? ctx->timeout_s : 10;
	library_file(ctx, &f->libs.nvml, "libnvidia-ml.so.1", nvml, sizeof(nvml));
	library_file(ctx, &f->libs.cuda, "libcuda.so.1", cuda, sizeof(cuda));
	if (ctx->static_only || (!nvml[0] && !cuda[0])) {
		fact_status_set(&rt->status, FACT_ABSENT, ctx->static_only ? "not called (--static)"
									       : "no driver library to call");
		return;
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || pipe(pipefd) < 0 || fcntl(pipefd[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(pipefd[1], F_SETFD, FD_CLOEXEC) < 0) {
		fact_status_set(&rt->status, FACT_ERROR, "cannot start the driver helper: %s", strerror(errno));
		if (shared != MAP_FAILED)
			munmap(shared, sizeof(*shared));
		return;
	}
	memcpy(shared, rt, sizeof(*shared));
	fflush(NULL);
	start = now_ms();
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		run_child(shared, nvml, cuda, pipefd[1]);
	}
	close(pipefd[1]);
	if (pid < 0) {
		fact_status_set(&rt->status, FACT_ERROR, "cannot start the driver helper: %s", strerror(errno));
	} else {
		bool killed = false;

		deadline = start + rt->timeout_s * 1000.0;
		if (!wait_done(pipefd[0], deadline))
			killed = kill(pid, SIGKILL) == 0;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		memcpy(rt, shared, sizeof(*rt));
		rt->ran = true;
		rt->elapsed_ms = now_ms() - start;
		if (killed && !rt->last_call[0]) {
			rt->status.state = FACT_OK;	/* it finished just as the deadline came */
		} else if (killed) {
			rt->hung = true;
			fact_status_set(&rt->status, FACT_ERROR, "%s did not return within %g s", rt->last_call,
					rt->timeout_s);
		} else if (WIFSIGNALED(status)) {
			rt->crashed = true;
			rt->signal = WTERMSIG(status);
			fact_status_set(&rt->status, FACT_ERROR, "%s crashed the helper (signal %d)", rt->last_call,
					rt->signal);
		} else {
			rt->status.state = FACT_OK;
		}
	}
	close(pipefd[0]);
	munmap(shared, sizeof(*shared));
	/* Report the libraries by their path inside the diagnosed machine. */
	if (!ctx->fs.live) {
		struct rt_library *libs[] = { &rt->nvml_lib, &rt->cuda_lib };
		size_t n = strlen(ctx->fs.dir);

		for (size_t i = 0; i < 2; i++)
			if (strncmp(libs[i]->path, ctx->fs.dir, n) == 0 && libs[i]->path[n] == '/')
				memmove(libs[i]->path, libs[i]->path + n, strlen(libs[i]->path + n) + 1);
	}
	name_result(&rt->nvml_lib, "nvmlReturn_t");
	name_result(&rt->cuda_lib, "CUresult");
}
