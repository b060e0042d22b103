/*
 * Unit tests for src/rules/rules.c: a few hand-built machines run through
 * rules_run. The scenario tests cover the rules in depth; this checks the
 * engine: root cause, verdict, ordering and blocked_by links.
 */
#include "facts_builder.h"

static void test_nouveau_not_loaded(void **state)
{
	struct facts *f = base_machine();
	struct diagnosis d;
	const struct finding *nl;

	(void)state;
	add_gpu(f, "nouveau");
	f->kmod.nouveau = true;
	f->kmod.module_on_disk = true;
	str_copy(f->kmod.module_path, sizeof(f->kmod.module_path),
		 "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko");
	fact_status_set(&f->kmod.status, FACT_ABSENT, "/proc/driver/nvidia/version is missing");
	add_lib(&f->libs.cuda, "libcuda.so.1", "535.104.05");
	add_lib(&f->libs.nvml, "libnvidia-ml.so.1", "535.104.05");

	rules_run(f, &d);
	assert_int_equal(d.verdict, VERDICT_BROKEN);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "driver.not-loaded");
	assert_int_equal(d.root_cause->severity, SEV_ERROR);
	assert_int_equal(d.root_cause->stage, STAGE_KERNEL);
	assert_ptr_equal(d.root_cause, &d.findings.items[0]);	/* root cause first */
	assert_string_equal(d.summary, d.root_cause->title);
	assert_null(find_id(&d.findings, "driver.not-installed"));
	assert_null(find_id(&d.findings, "gpu.ready"));
	assert_null(find_id(&d.findings, "gpu.none"));
	nl = d.root_cause;
	assert_non_null(strstr(nl->detail, "nouveau"));
	assert_true(nl->nfix > 0);
	assert_true(nl->nevidence >= 2);
	assert_string_equal(verdict_name(d.verdict), "broken");
	diagnosis_release(&d);
	assert_null(d.root_cause);
	facts_free(f);
}

static void test_no_gpu(void **state)
{
	struct facts *f = base_machine();
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	assert_int_equal(d.verdict, VERDICT_NO_GPU);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "gpu.none");
	assert_int_equal(d.root_cause->stage, STAGE_GPU);
	assert_null(find_id(&d.findings, "gpu.ready"));
	assert_null(find_id(&d.findings, "driver.not-installed"));
	assert_null(find_id(&d.findings, "cuda.lib-missing"));	/* no GPU expected: no lib needed */
	assert_string_equal(verdict_name(d.verdict), "no-gpu");
	diagnosis_release(&d);
	facts_free(f);
}

static void test_healthy(void **state)
{
	struct facts *f = healthy_machine();
	struct diagnosis d;
	const struct finding *ready;

	(void)state;
	rules_run(f, &d);
	assert_int_equal(d.verdict, VERDICT_READY);
	assert_null(d.root_cause);
	ready = find_id(&d.findings, "gpu.ready");
	assert_non_null(ready);
	assert_int_equal(ready->severity, SEV_INFO);
	assert_non_null(strstr(ready->title, "535.104.05"));
	assert_string_equal(d.summary, ready->title);
	for (size_t i = 0; i < d.findings.count; i++)
		if (d.findings.items[i].severity != SEV_INFO)
			fail_msg("healthy machine has %s finding %s", severity_name(d.findings.items[i].severity),
				 id_of(&d.findings.items[i]));
	assert_string_equal(verdict_name(d.verdict), "ready");
	diagnosis_release(&d);
	facts_free(f);
}

static void test_healthy_with_debug_var_is_degraded(void **state)
{
	struct facts *f = healthy_machine();
	struct diagnosis d;

	(void)state;
	f->env.vars[0].name = "CUDA_LAUNCH_BLOCKING";
	f->env.vars[0].kind = ENV_DEBUG;
	f->env.vars[0].value = str_dup("1");
	f->env.count = 1;
	rules_run(f, &d);
	assert_int_equal(d.verdict, VERDICT_DEGRADED);
	assert_null(d.root_cause);
	assert_non_null(find_id(&d.findings, "env.debug-vars"));
	/* warnings sort before info */
	assert_true(index_of(&d, "env.debug-vars") < index_of(&d, "gpu.ready"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_not_installed_blocks_lib_missing(void **state)
{
	struct facts *f = base_machine();
	struct diagnosis d;
	const struct finding *lib;

	(void)state;
	add_gpu(f, "");
	fact_status_set(&f->kmod.status, FACT_ABSENT, "/proc/driver/nvidia/version is missing");
	rules_run(f, &d);
	assert_int_equal(d.verdict, VERDICT_BROKEN);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "driver.not-installed");
	assert_int_equal(d.root_cause->nblocked, 0);
	lib = find_id(&d.findings, "cuda.lib-missing");
	assert_non_null(lib);
	assert_int_equal(lib->severity, SEV_ERROR);
	assert_int_equal(lib->nblocked, 1);
	assert_string_equal(cause_name(lib->blocked_by[0]), "driver.not-installed");
	/* the consequence sorts after its cause */
	assert_true(index_of(&d, "driver.not-installed") < index_of(&d, "cuda.lib-missing"));
	assert_null(find_id(&d.findings, "driver.not-loaded"));
	diagnosis_release(&d);
	facts_free(f);
}

/* Running twice on the same facts gives the same answer (rules are pure). */
static void test_deterministic(void **state)
{
	struct facts *f = base_machine();
	struct diagnosis a, b;

	(void)state;
	add_gpu(f, "");
	rules_run(f, &a);
	rules_run(f, &b);
	assert_int_equal(a.findings.count, b.findings.count);
	for (size_t i = 0; i < a.findings.count; i++) {
		assert_string_equal(id_of(&a.findings.items[i]), id_of(&b.findings.items[i]));
		assert_string_equal(a.findings.items[i].title, b.findings.items[i].title);
	}
	assert_int_equal(a.verdict, b.verdict);
	diagnosis_release(&a);
	diagnosis_release(&b);
	facts_free(f);
}

/* A second GPU: address, PCI id, compute capability and family as the GPU table would give them. */
static struct pci_gpu *add_second_gpu(struct facts *f, const char *driver, uint16_t device, const char *cc,
				      const char *arch)
{
	struct pci_gpu *g;

	add_gpu(f, driver);
	g = &f->pci.gpus[f->pci.count - 1];
	str_copy(g->address, sizeof(g->address), "0000:02:00.0");
	g->device = device;
	str_copy(g->cc, sizeof(g->cc), cc);
	str_copy(g->arch, sizeof(g->arch), arch);
	return g;
}

/* The open module with a Pascal GPU beside a bound one: the open module is the root cause, not-loaded follows. */
static void test_open_module_pascal(void **state)
{
	struct facts *f = healthy_machine();
	struct diagnosis d;
	const struct finding *open, *not_loaded;

	(void)state;
	f->kmod.open_kernel_module = true;
	str_copy(f->pci.gpus[0].cc, sizeof(f->pci.gpus[0].cc), "8.9");
	add_second_gpu(f, "", 0x1b80, "6.1", "Pascal");
	rules_run(f, &d);
	open = find_id(&d.findings, "driver.open-module-unsupported");
	not_loaded = find_id(&d.findings, "driver.not-loaded");
	assert_non_null(open);
	assert_non_null(not_loaded);
	assert_ptr_equal(d.root_cause, open);
	assert_int_equal(not_loaded->nblocked, 1);
	assert_string_equal(cause_name(not_loaded->blocked_by[0]), "driver.open-module-unsupported");
	diagnosis_release(&d);
	facts_free(f);
}

/* Not for Turing and newer, nor for a Pascal GPU kept on vfio-pci, nor for the proprietary module. */
static void test_open_module_quiet(void **state)
{
	struct facts *f = healthy_machine();
	struct diagnosis d;

	(void)state;
	f->kmod.open_kernel_module = true;
	str_copy(f->pci.gpus[0].cc, sizeof(f->pci.gpus[0].cc), "7.5");
	add_second_gpu(f, "vfio-pci", 0x1b80, "6.1", "Pascal");
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "driver.open-module-unsupported"));
	diagnosis_release(&d);
	facts_free(f);

	f = healthy_machine();
	add_second_gpu(f, "", 0x1b80, "6.1", "Pascal");
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "driver.open-module-unsupported"));
	assert_non_null(find_id(&d.findings, "driver.not-loaded"));
	diagnosis_release(&d);
	facts_free(f);
}

/* Driver 590 beside a Volta GPU: not-loaded says the branch dropped it, and the last branch is in evidence. */
static void test_branch_dropped_gpu(void **state)
{
	struct facts *f = healthy_machine();
	struct diagnosis d;
	const struct finding *nl;
	bool named = false;

	(void)state;
	str_copy(f->kmod.nvrm_version, sizeof(f->kmod.nvrm_version), "590.48.01");
	str_copy(f->pci.gpus[0].cc, sizeof(f->pci.gpus[0].cc), "8.9");
	add_second_gpu(f, "", 0x1db4, "7.0", "Volta");
	rules_run(f, &d);
	nl = find_id(&d.findings, "driver.not-loaded");
	assert_non_null(nl);
	assert_non_null(strstr(nl->detail, "no longer supports"));
	for (int i = 0; i < nl->nevidence; i++)
		if (strstr(nl->evidence[i].value, "580 for Volta"))
			named = true;
	assert_true(named);
	diagnosis_release(&d);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nouveau_not_loaded),
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_healthy_with_debug_var_is_degraded),
		cmocka_unit_test(test_not_installed_blocks_lib_missing),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_open_module_pascal),
		cmocka_unit_test(test_open_module_quiet),
		cmocka_unit_test(test_branch_dropped_gpu),
	};

	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
