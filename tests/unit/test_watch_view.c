/* Unit tests for src/report/watch_view.c: the full-screen watch view's kept sample and cells. */
#include "testutil.h"

#include "report/watch_view.h"

/* The busy GPU of tests/scenarios/runtime/busy-and-hot, as a sample holds it. */
static void busy_gpu(struct nvml_device *d)
{
	nvml_device_unknown(d);
	strcpy(d->name, "NVIDIA A100 80GB PCIe");
	d->mem_used_mib = 77004;
	d->mem_total_mib = 81920;
	d->utilization = 97;
	d->temperature_c = 64;
	d->power_w = 291.3;
	d->power_limit_w = 300;
	d->pstate = 0;
	d->clock_events = (long long)GPU_CLOCKS_SW_POWER_CAP;
}

static void cell_is(const struct nvml_device *d, enum view_col c, const char *want)
{
	char buf[64];

	view_cell(d, 0, c, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("column %s: \"%s\", want \"%s\"", view_col_heading(c), buf, want);
}

static void test_cells(void **state)
{
	struct nvml_device d;

	(void)state;
	busy_gpu(&d);
	cell_is(&d, COL_NAME, "A100 80GB PCIe");
	cell_is(&d, COL_MEMORY, "77004/81920");
	cell_is(&d, COL_UTIL, "97%");
	cell_is(&d, COL_TEMP, "64C");
	cell_is(&d, COL_POWER, "291/300");
	cell_is(&d, COL_PSTATE, "P0");
	cell_is(&d, COL_SLOWDOWN, "power");
	/* unknown stays apart from 0 */
	cell_is(&d, COL_FAN, "-");
	cell_is(&d, COL_SM_CLOCK, "-");
	cell_is(&d, COL_PCIE, "-");
	cell_is(&d, COL_ECC, "-");
	d.sm_clock_mhz = 1410;
	d.sm_clock_max_mhz = 1410;
	d.link_gen = 1, d.link_width = 16, d.link_gen_max = 4, d.link_width_max = 16;
	d.ecc_corrected = 3, d.ecc_uncorrected = 0;
	d.clock_events = (long long)(GPU_CLOCKS_SW_THERMAL | GPU_CLOCKS_IDLE);
	cell_is(&d, COL_SM_CLOCK, "1410/1410");
	cell_is(&d, COL_PCIE, "1x16/4x16");
	cell_is(&d, COL_ECC, "3/0");
	cell_is(&d, COL_SLOWDOWN, "thermal");	/* idle holds clocks down but slows nothing */
}

static int row_width(const bool show[VIEW_NCOLS], int name_width)
{
	int w = -1;

	for (int c = 0; c < VIEW_NCOLS; c++)
		if (show[c])
			w += (c == COL_NAME ? name_width : view_col_width(c)) + 1;
	return w;
}

static void test_columns_fit(void **state)
{
	bool show[VIEW_NCOLS];

	(void)state;
	for (int width = 60; width <= 200; width++) {
		int name = view_fit_columns(width, show);

		assert_true(row_width(show, name) <= width);
		assert_true(show[COL_INDEX] && show[COL_NAME] && show[COL_MEMORY] && show[COL_UTIL]);
	}
	view_fit_columns(80, show);
	assert_true(show[COL_TEMP] && show[COL_POWER] && show[COL_SLOWDOWN]);
	view_fit_columns(120, show);
	for (int c = 0; c < VIEW_NCOLS; c++)
		assert_true(show[c]);
	/* narrower than anything: no crash, the least */
	assert_int_equal(view_fit_columns(5, show), view_col_width(COL_NAME));
}

static void test_process_sorts(void **state)
{
	struct nvml_device d;
	int order[MAX_RT_PROCS];

	(void)state;
	busy_gpu(&d);
	d.nprocs = 3;
	d.procs[0] = (struct gpu_process){ .pid = 300, .used_mib = 10, .user = "carol" };
	d.procs[1] = (struct gpu_process){ .pid = 100, .used_mib = 500, .user = "bob" };
	d.procs[2] = (struct gpu_process){ .pid = 200, .used_mib = 20, .user = "bob" };
	view_sort_procs(&d, SORT_MEMORY, order);
	assert_int_equal(order[0], 1), assert_int_equal(order[1], 2), assert_int_equal(order[2], 0);
	view_sort_procs(&d, SORT_PID, order);
	assert_int_equal(order[0], 1), assert_int_equal(order[1], 2), assert_int_equal(order[2], 0);
	view_sort_procs(&d, SORT_USER, order);
	assert_int_equal(order[0], 1), assert_int_equal(order[1], 2), assert_int_equal(order[2], 0);
	d.procs[2].used_mib = 900;
	view_sort_procs(&d, SORT_USER, order);
	assert_int_equal(order[0], 2), assert_int_equal(order[1], 1), assert_int_equal(order[2], 0);
}

/* The kept sample: the machine's text made safe, titles copied, findings newest first. */
static void test_keep(void **state)
{
	static struct live_sample s;
	static struct view v;
	char t0[] = "GPU 0's memory is 94% used by another process", t1[] = "GPU 1 slows itself \x1b[2Jdown";
	struct finding items[2] = { { .cause = CAUSE_GPU_MEMORY_BUSY, .severity = SEV_WARNING, .gpu = 0, .title = t0 },
				    { .cause = CAUSE_GPU_SLOWDOWN, .severity = SEV_ERROR, .gpu = 1, .title = t1 } };
	struct diagnosis d = { .findings = { items, 2, 2 } };
	struct finding_track t = { .nnow = 2 };

	(void)state;
	memset(&s, 0, sizeof(s));
	s.seq = 5;
	s.t_s = 1.0;
	s.ndev = 1;
	busy_gpu(&s.gpu[0]);
	strcpy(s.gpu[0].name, "A100\x1b]0;owned\a");
	s.gpu[0].nprocs = 1;
	s.gpu[0].procs[0] = (struct gpu_process){ .pid = 31337, .used_mib = 77004, .seen = true, .user = "b\xc3\xb6" };
	strcpy(s.gpu[0].procs[0].command, "python\x1b[31m train.py");
	t.now[0].since = 2;
	t.now[1].since = 5;
	view_keep(&v, &s, &d, &t);
	t0[0] = 'X';	/* the caller's diagnosis is gone after the draw */
	assert_string_equal(v.sample.gpu[0].name, "A100\\x1b]0;owned\\x07");
	assert_string_equal(v.sample.gpu[0].procs[0].command, "python\\x1b[31m train.py");
	/* valid UTF-8 is kept for the screen (ncursesw under a UTF-8 LC_CTYPE draws it), not '?' */
	assert_string_equal(v.sample.gpu[0].procs[0].user, "b\xc3\xb6");
	assert_int_equal(v.nfindings, 2);
	assert_int_equal(v.findings[0].cause, CAUSE_GPU_SLOWDOWN);	/* since 5: newest */
	assert_string_equal(v.findings[0].title, "GPU 1 slows itself \\x1b[2Jdown");
	assert_string_equal(v.findings[1].title, "GPU 0's memory is 94% used by another process");
	assert_true(view_interval_s(&v) == 0);
	s.seq = 7;
	s.t_s = 1.5;
	view_keep(&v, &s, &d, &t);
	assert_true(view_interval_s(&v) > 0.249 && view_interval_s(&v) < 0.251);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_columns_fit),
		cmocka_unit_test(test_process_sorts),
		cmocka_unit_test(test_keep),
	};

	return cmocka_run_group_tests_name("watch_view", tests, NULL, NULL);
}
