/* Unit tests for src/util/isolate.c and src/util/reap.c: the two limits and the bounded wait. */
#include "testutil.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/isolate.h"
#include "util/reap.h"

struct shared_state {
	char last_call[32];
	int calls_done;
};

static void nap_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000 }, NULL);
}

/* One call that never returns. */
static void work_hang(void *shared, void *arg)
{
	struct shared_state *s = shared;

	(void)arg;
	isolate_mark(s->last_call, sizeof(s->last_call), "stuck_call");
	for (;;)
		nap_ms(1000);
}

/* Many calls of 100 ms each: slow, never hung. */
static void work_slow(void *shared, void *arg)
{
	struct shared_state *s = shared;
	int n = *(int *)arg;

	for (int i = 0; i < n; i++) {
		isolate_mark(s->last_call, sizeof(s->last_call), "slow_call");
		nap_ms(100);
		s->calls_done++;
		isolate_mark(s->last_call, sizeof(s->last_call), "");
	}
}

static void test_call_deadline_is_a_hang(void **state)
{
	struct shared_state s = { "", 0 };
	struct isolate_limits limits = { 0.3, 30 };
	struct isolate_outcome how;
	struct error err;
	double t0 = clock_ms();

	(void)state;
	assert_int_equal(isolate_run(&s, sizeof(s), work_hang, NULL, &limits, NULL, 0, &how, &err), 0);
	assert_true(how.hung);
	assert_false(how.over_budget);
	assert_false(how.crashed);
	assert_false(how.stuck);
	assert_string_equal(s.last_call, "stuck_call");
	assert_true(how.call_ms >= 300);
	assert_true(clock_ms() - t0 < 5000);	/* the call deadline, not the 30 s budget */
}

static void test_slow_run_is_not_a_hang(void **state)
{
	struct shared_state s = { "", 0 };
	struct isolate_limits limits = { 0.5, 30 };
	struct isolate_outcome how;
	struct error err;
	int calls = 12;	/* 1.2 s in all, each call 0.1 s: the old single deadline of 0.5 s said "hung" */

	(void)state;
	assert_int_equal(isolate_run(&s, sizeof(s), work_slow, &calls, &limits, NULL, 0, &how, &err), 0);
	assert_false(how.hung);
	assert_false(how.over_budget);
	assert_int_equal(s.calls_done, 12);
	assert_int_equal(how.exit_code, 0);
}

static void test_budget_is_not_a_hang(void **state)
{
	struct shared_state s = { "", 0 };
	struct isolate_limits limits = { 5, 0.5 };
	struct isolate_outcome how;
	struct error err;
	int calls = 100;

	(void)state;
	assert_int_equal(isolate_run(&s, sizeof(s), work_slow, &calls, &limits, NULL, 0, &how, &err), 0);
	assert_false(how.hung);
	assert_true(how.over_budget);
	assert_false(how.crashed);
	assert_true(s.calls_done >= 3 && s.calls_done < 100);
}

/* The wait for a child is bounded: one that does not exit is left, not waited for. */
static void test_reap_is_bounded(void **state)
{
	pid_t pid = fork();
	int status = 0;
	double t0;

	(void)state;
	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	t0 = clock_ms();
	assert_false(reap_within(pid, 200, &status));
	assert_true(clock_ms() - t0 >= 190 && clock_ms() - t0 < 2000);
	assert_int_equal(reap_state(pid), 'S');
	kill(pid, SIGKILL);
	assert_true(reap_within(pid, 2000, &status));
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(reap_state(pid), '?');
}

/* The session's child keeps its state: arg counts requests in the child's own memory. */
struct session_state {
	char last_call[32];
	int served;		/* what the child's counter said at this request */
	int child_pid;
	int hang_at;		/* the request (1-based) that hangs, 0 for none */
	int crash_at;
};

static void work_count(void *shared, void *arg)
{
	struct session_state *s = shared;
	int *count = arg;	/* the child's copy */

	++*count;
	s->served = *count;
	s->child_pid = (int)getpid();
	isolate_mark(s->last_call, sizeof(s->last_call), "nvmlDeviceGetMemoryInfo");
	if (*count == s->hang_at)
		for (;;)
			nap_ms(1000);
	if (*count == s->crash_at)
		abort();	/* not SIGSEGV: the sanitizer would catch it and exit */
	isolate_mark(s->last_call, sizeof(s->last_call), "");
}

static void test_session_keeps_one_child(void **state)
{
	struct isolate_session session;
	struct isolate_limits limits = { 1, 5 };
	struct isolate_outcome how;
	struct error err;
	int count = 0, first_pid = 0;

	(void)state;
	assert_int_equal(isolate_session_open(&session, sizeof(struct session_state), work_count, &count, &err), 0);
	for (int i = 1; i <= 5; i++) {
		struct session_state *s = isolate_session_shared(&session);

		assert_int_equal(isolate_session_ask(&session, &limits, &how, &err), 0);
		assert_false(how.hung || how.crashed || how.over_budget);
		assert_int_equal(s->served, i);		/* the same child, counting on */
		if (i == 1)
			first_pid = s->child_pid;
		assert_int_equal(s->child_pid, first_pid);
		assert_int_equal(how.pid, first_pid);
	}
	assert_int_equal(count, 0);			/* the parent's copy never moved */
	isolate_session_close(&session);
	assert_int_equal(kill(first_pid, 0), -1);	/* the child is gone, and reaped */
}

static void test_session_restarts_after_hang_and_crash(void **state)
{
	struct isolate_session session;
	struct isolate_limits limits = { 0.3, 5 };
	struct isolate_outcome how;
	struct error err;
	struct session_state *s;
	int count = 0, pid;
	double t0;

	(void)state;
	assert_int_equal(isolate_session_open(&session, sizeof(*s), work_count, &count, &err), 0);
	s = isolate_session_shared(&session);
	s->hang_at = 2;
	assert_int_equal(isolate_session_ask(&session, &limits, &how, &err), 0);
	pid = s->child_pid;
	t0 = clock_ms();
	assert_int_equal(isolate_session_ask(&session, &limits, &how, &err), 0);
	assert_true(how.hung);
	assert_false(how.crashed);
	assert_string_equal(s->last_call, "nvmlDeviceGetMemoryInfo");
	assert_true(how.call_ms >= 300 && clock_ms() - t0 < 3000);
	/* a fresh child, from the parent's state: it counts from 1 again */
	s->hang_at = 0;
	s->crash_at = 2;
	assert_int_equal(isolate_session_ask(&session, &limits, &how, &err), 0);
	assert_false(how.hung || how.crashed);
	assert_int_equal(s->served, 1);
	assert_true(s->child_pid != pid);
	assert_int_equal(isolate_session_ask(&session, &limits, &how, &err), 0);
	assert_true(how.crashed);
	assert_int_equal(how.signal, SIGABRT);
	assert_false(how.hung);
	isolate_session_close(&session);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call_deadline_is_a_hang),
		cmocka_unit_test(test_slow_run_is_not_a_hang),
		cmocka_unit_test(test_budget_is_not_a_hang),
		cmocka_unit_test(test_reap_is_bounded),
		cmocka_unit_test(test_session_keeps_one_child),
		cmocka_unit_test(test_session_restarts_after_hang_and_crash),
	};

	return cmocka_run_group_tests_name("isolate", tests, NULL, NULL);
}
