/*
 * Unit tests for src/rules/rules_runtime.c: what the driver answered, as
 * runtime facts on a hand-built machine, mapped to causes. Each case is a
 * row of the code-to-cause table (nvml.h nvmlReturn_t, cuda.h CUresult).
 */
#include "facts_builder.h"

static struct facts *ran_machine(int nvml_init, int cu_init)
{
	struct facts *f = healthy_machine();
	struct runtime_facts *rt = &f->runtime;

	rt->ran = true;
	rt->status.state = FACT_OK;
	rt->timeout_s = 10;
	rt->nvml_lib.attempted = rt->nvml_lib.loaded = rt->nvml_lib.init_done = true;
	rt->nvml_lib.init = nvml_init;
	str_copy(rt->nvml_lib.path, sizeof(rt->nvml_lib.path), "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05");
	rt->cuda_lib.attempted = rt->cuda_lib.loaded = rt->cuda_lib.init_done = true;
	rt->cuda_lib.init = cu_init;
	str_copy(rt->cuda_lib.path, sizeof(rt->cuda_lib.path), "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
	if (nvml_init == 0) {
		str_copy(rt->nvml_driver_version, sizeof(rt->nvml_driver_version), "535.104.05");
		rt->nvml_count = rt->nvml_ndev = 1;
		str_copy(rt->nvml[0].name, sizeof(rt->nvml[0].name), "NVIDIA GeForce RTX 4090");
		str_copy(rt->nvml[0].uuid, sizeof(rt->nvml[0].uuid), "GPU-0a1b2c3d-0000-1111-2222-333344445555");
		str_copy(rt->nvml[0].bus_id, sizeof(rt->nvml[0].bus_id), "00000000:01:00.0");
		rt->nvml[0].persistence = 1;
		rt->nvml[0].compute_mode = 0;
		rt->nvml[0].mig_current = rt->nvml[0].mig_instances = -1;
		rt->nvml[0].ecc_uncorrected = rt->nvml[0].retired_pending = -1;
		rt->nvml[0].remap_pending = rt->nvml[0].remap_failure = -1;
	}
	if (cu_init == 0)
		rt->cuda_count = rt->cuda_ndev = 1;
	rt->cuda_driver_version = 12020;
	return f;
}

/* Run the rules and return the root cause id ("" for none). */
static const char *root_of(struct facts *f, struct diagnosis *d)
{
	rules_run(f, d);
	return d->root_cause ? id_of(d->root_cause) : "";
}

static void expect_root(int nvml_init, int cu_init, const char *id)
{
	struct facts *f = ran_machine(nvml_init, cu_init);
	struct diagnosis d;

	if (strcmp(root_of(f, &d), id) != 0)
		fail_msg("nvml %d, cuInit %d: root %s, want %s", nvml_init, cu_init, root_of(f, &d), id);
	diagnosis_release(&d);
	facts_free(f);
}

static void test_code_table(void **state)
{
	(void)state;
	expect_root(18, 0, "driver.library-mismatch");	/* NVML_ERROR_LIB_RM_VERSION_MISMATCH */
	expect_root(0, 803, "driver.library-mismatch");	/* CUDA_ERROR_SYSTEM_DRIVER_MISMATCH */
	expect_root(4, 0, "driver.device-permission");	/* NVML_ERROR_NO_PERMISSION */
	expect_root(17, 0, "driver.device-permission");	/* NVML_ERROR_OPERATING_SYSTEM */
	expect_root(0, 304, "driver.device-permission");	/* CUDA_ERROR_OPERATING_SYSTEM */
	expect_root(15, 0, "gpu.hardware-fault");		/* NVML_ERROR_GPU_IS_LOST */
	expect_root(16, 0, "gpu.hardware-fault");		/* NVML_ERROR_RESET_REQUIRED */
	expect_root(0, 34, "cuda.stub-library");		/* CUDA_ERROR_STUB_LIBRARY */
	expect_root(0, 46, "gpu.mig-or-compute-mode");	/* CUDA_ERROR_DEVICE_UNAVAILABLE */
	expect_root(0, 804, "cuda.init-failed");		/* CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE */
	expect_root(0, 999, "cuda.init-failed");		/* CUDA_ERROR_UNKNOWN */
	expect_root(0, 100, "cuda.init-failed");		/* CUDA_ERROR_NO_DEVICE, nothing hidden */
	expect_root(0, 3, "cuda.init-failed");		/* not in the table: generic */
	expect_root(0, 0, "");
}

static void test_unlisted_nvml_failure_is_a_warning(void **state)
{
	struct facts *f = ran_machine(999, 0);
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	assert_null(d.root_cause);
	assert_int_equal(d.verdict, VERDICT_DEGRADED);
	assert_int_equal(d.findings.items[index_of(&d, "cuda.init-failed")].severity, SEV_WARNING);
	diagnosis_release(&d);
	facts_free(f);
}

static void test_no_device_with_hiding_variable(void **state)
{
	struct facts *f = ran_machine(0, 100);
	struct diagnosis d;
	const struct finding *vis;

	(void)state;
	f->env.vars[f->env.count].name = "CUDA_VISIBLE_DEVICES";
	f->env.vars[f->env.count++].value = str_dup("-1");
	f->env.visible = VISIBLE_NONE;
	assert_string_equal(root_of(f, &d), "env.visible-devices");
	vis = &d.findings.items[index_of(&d, "env.visible-devices")];
	/* one finding, with the static reading and cuInit's answer as evidence */
	for (size_t i = 0; i < d.findings.count; i++)
		if (&d.findings.items[i] != vis)
			assert_string_not_equal(id_of(&d.findings.items[i]), "env.visible-devices");
	assert_true(vis->nevidence >= 2);
	assert_null(find_id(&d.findings, "cuda.init-failed"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_hung_and_crashed(void **state)
{
	struct facts *f = ran_machine(0, 0);
	struct diagnosis d;

	(void)state;
	f->runtime.hung = true;
	str_copy(f->runtime.last_call, sizeof(f->runtime.last_call), "cuInit");
	assert_string_equal(root_of(f, &d), "driver.hung");
	assert_non_null(strstr(d.root_cause->title, "cuInit"));
	diagnosis_release(&d);
	f->runtime.hung = false;
	f->runtime.crashed = true;
	f->runtime.signal = 11;
	assert_string_equal(root_of(f, &d), "driver.crashed");
	assert_non_null(strstr(d.root_cause->title, "signal 11"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_modes_and_health(void **state)
{
	struct facts *f = ran_machine(0, 0);
	struct diagnosis d;

	(void)state;
	f->runtime.nvml[0].compute_mode = 2;	/* prohibited */
	assert_string_equal(root_of(f, &d), "gpu.mig-or-compute-mode");
	diagnosis_release(&d);
	f->runtime.nvml[0].compute_mode = 3;	/* exclusive process: a warning */
	assert_string_equal(root_of(f, &d), "");
	assert_int_equal(d.findings.items[index_of(&d, "gpu.mig-or-compute-mode")].severity, SEV_WARNING);
	diagnosis_release(&d);
	f->runtime.nvml[0].compute_mode = 0;
	f->runtime.nvml[0].mig_current = 1;
	f->runtime.nvml[0].mig_instances = 0;
	assert_string_equal(root_of(f, &d), "gpu.mig-or-compute-mode");
	diagnosis_release(&d);
	f->runtime.nvml[0].mig_current = 0;
	/* errors counted, nothing pending: the GPU still works */
	f->runtime.nvml[0].ecc_uncorrected = 2;
	assert_string_equal(root_of(f, &d), "");
	assert_int_equal(d.findings.items[index_of(&d, "gpu.hardware-fault")].severity, SEV_WARNING);
	diagnosis_release(&d);
	/* a retirement pending: no new context until a reset */
	f->runtime.nvml[0].retired_pending = 1;
	assert_string_equal(root_of(f, &d), "gpu.hardware-fault");
	assert_non_null(strstr(d.findings.items[0].title, "needs a reset"));
	diagnosis_release(&d);
	f->runtime.nvml[0].remap_failure = 1;
	assert_string_equal(root_of(f, &d), "gpu.hardware-fault");
	assert_non_null(strstr(d.findings.items[0].title, "should be replaced"));
	diagnosis_release(&d);
	facts_free(f);
}

/* A full GPU: whose processes hold it decides the title; a thermal slowdown is named, a power cap is not. */
static void test_busy_and_slowed(void **state)
{
	struct facts *f = ran_machine(0, 0);
	struct nvml_device *g = &f->runtime.nvml[0];
	struct diagnosis d;
	const struct finding *busy;

	(void)state;
	f->system.user.uid = 1000;
	g->mem_total_mib = 24564;
	g->mem_used_mib = 23900;
	g->nprocs = 1;
	g->procs[0].pid = 4242;
	g->procs[0].used_mib = 23890;
	g->procs[0].seen = true;
	g->procs[0].uid = 1000;
	g->clock_events = (long long)GPU_CLOCKS_SW_POWER_CAP;
	rules_run(f, &d);
	busy = findings_get(&d.findings, CAUSE_GPU_MEMORY_BUSY);
	assert_non_null(busy);
	assert_string_equal(busy->title, "GPU 0's memory is 97% used by your own process");
	assert_null(findings_get(&d.findings, CAUSE_GPU_SLOWDOWN));
	diagnosis_release(&d);
	g->procs[0].uid = 1002;
	g->clock_events = (long long)(GPU_CLOCKS_SW_POWER_CAP | GPU_CLOCKS_HW_THERMAL);
	rules_run(f, &d);
	assert_string_equal(findings_get(&d.findings, CAUSE_GPU_MEMORY_BUSY)->title,
			    "GPU 0's memory is 97% used by another process");
	assert_non_null(findings_get(&d.findings, CAUSE_GPU_SLOWDOWN));
	assert_non_null(strstr(findings_get(&d.findings, CAUSE_GPU_SLOWDOWN)->title, "hw_thermal_slowdown"));
	diagnosis_release(&d);
	/* 80 % used: room left, no finding */
	g->mem_used_mib = 19600;
	rules_run(f, &d);
	assert_null(findings_get(&d.findings, CAUSE_GPU_MEMORY_BUSY));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_lost_gpu(void **state)
{
	struct facts *f = ran_machine(0, 0);
	struct diagnosis d;

	(void)state;
	/* NVML lists a device on another bus than the one sysfs shows bound to nvidia */
	str_copy(f->runtime.nvml[0].bus_id, sizeof(f->runtime.nvml[0].bus_id), "00000000:02:00.0");
	rules_run(f, &d);
	assert_non_null(find_id(&d.findings, "gpu.hardware-fault"));
	diagnosis_release(&d);
	/* and the same bus id in another case is the same device */
	str_copy(f->runtime.nvml[0].bus_id, sizeof(f->runtime.nvml[0].bus_id), "00000000:01:00.0");
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "gpu.hardware-fault"));
	diagnosis_release(&d);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_code_table),
		cmocka_unit_test(test_unlisted_nvml_failure_is_a_warning),
		cmocka_unit_test(test_no_device_with_hiding_variable),
		cmocka_unit_test(test_hung_and_crashed),
		cmocka_unit_test(test_modes_and_health),
		cmocka_unit_test(test_lost_gpu),
		cmocka_unit_test(test_busy_and_slowed),
	};

	return cmocka_run_group_tests_name("rules_runtime", tests, NULL, NULL);
}
