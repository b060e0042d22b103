/*
 * Unit tests for src/rules/rules.c: a few hand-built machines run through
 * rules_run. The scenario tests cover the rules in depth; this checks the
 * engine: root cause, verdict, ordering and blocked_by links.
 */
#include "testutil.h"

#include "rules/rules.h"
#include "util/str.h"

static void add_gpu(struct facts *f, const char *driver)
{
	struct pci_gpu *g = &f->pci.gpus[f->pci.count++];

	f->pci.status.state = FACT_OK;
	str_copy(g->address, sizeof(g->address), "0000:01:00.0");
	g->vendor = 0x10de;
	g->device = 0x2684;
	g->class_code = 0x030000;
	str_copy(g->driver, sizeof(g->driver), driver);
	str_copy(g->name, sizeof(g->name), "AD102 [GeForce RTX 4090]");
	g->link_width = g->max_link_width = 16;
	g->config_readable = true;
	str_copy(g->sysfs_path, sizeof(g->sysfs_path), "/sys/bus/pci/devices/0000:01:00.0");
}

static void add_lib(struct lib_choice *c, const char *soname, const char *version)
{
	struct lib_candidate *l = &c->candidates[c->count];

	str_copy(l->soname, sizeof(l->soname), soname);
	snprintf(l->path, sizeof(l->path), "/usr/lib/x86_64-linux-gnu/%s", soname);
	snprintf(l->resolved, sizeof(l->resolved), "/usr/lib/x86_64-linux-gnu/%.*s%s",
		 (int)(strlen(soname) - 1), soname, version);
	str_copy(l->version, sizeof(l->version), version);
	l->origin = LIB_FROM_LDCACHE;
	c->status.state = FACT_OK;
	c->chosen = c->count++;
}

static void add_node(struct facts *f, const char *path)
{
	struct devnode *n = &f->kmod.nodes[f->kmod.node_count++];

	str_copy(n->path, sizeof(n->path), path);
	n->present = n->is_char_device = n->can_read = n->can_write = true;
	n->mode = 0666;
	str_copy(n->owner, sizeof(n->owner), "root");
	str_copy(n->group, sizeof(n->group), "root");
}

static struct facts *base_machine(void)
{
	struct facts *f = facts_new();

	assert_non_null(f);
	str_copy(f->root, sizeof(f->root), "/");
	f->system.status.state = FACT_OK;
	str_copy(f->system.kernel_release, sizeof(f->system.kernel_release), "6.1.0-13-amd64");
	str_copy(f->system.os_id, sizeof(f->system.os_id), "debian");
	str_copy(f->system.user.name, sizeof(f->system.user.name), "alice");
	f->system.user.uid = 1000;
	f->pci.status.state = FACT_OK;
	f->kmod.modules_status.state = FACT_OK;
	f->kmod.on_disk_status.state = FACT_OK;
	f->kmod.secure_boot = 0;
	f->libs.ldcache_status.state = FACT_OK;
	f->libs.cuda.status.state = FACT_ABSENT;
	f->libs.nvml.status.state = FACT_ABSENT;
	return f;
}

/* A working machine: GPU bound to nvidia 535.104.05, nodes usable, libraries matching. */
static struct facts *healthy_machine(void)
{
	struct facts *f = base_machine();

	add_gpu(f, "nvidia");
	f->kmod.status.state = FACT_OK;
	str_copy(f->kmod.nvrm_version, sizeof(f->kmod.nvrm_version), "535.104.05");
	f->kmod.nvidia = f->kmod.nvidia_uvm = f->kmod.nvidia_modeset = f->kmod.nvidia_drm = true;
	f->kmod.module_on_disk = true;
	str_copy(f->kmod.module_path, sizeof(f->kmod.module_path),
		 "/lib/modules/6.1.0-13-amd64/updates/dkms/nvidia.ko");
	add_node(f, "/dev/nvidia-uvm");
	add_node(f, "/dev/nvidia0");
	add_node(f, "/dev/nvidiactl");
	add_lib(&f->libs.cuda, "libcuda.so.1", "535.104.05");
	add_lib(&f->libs.nvml, "libnvidia-ml.so.1", "535.104.05");
	return f;
}

static size_t index_of(const struct diagnosis *d, const char *id)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].id, id) == 0)
			return i;
	fail_msg("no finding %s", id);
	return 0;
}

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
	assert_string_equal(d.root_cause->id, "driver.not-loaded");
	assert_int_equal(d.root_cause->severity, SEV_ERROR);
	assert_int_equal(d.root_cause->stage, STAGE_KERNEL);
	assert_ptr_equal(d.root_cause, &d.findings.items[0]);	/* root cause first */
	assert_string_equal(d.summary, d.root_cause->title);
	assert_null(findings_get(&d.findings, "driver.not-installed"));
	assert_null(findings_get(&d.findings, "gpu.ready"));
	assert_null(findings_get(&d.findings, "gpu.none"));
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
	assert_string_equal(d.root_cause->id, "gpu.none");
	assert_int_equal(d.root_cause->stage, STAGE_GPU);
	assert_null(findings_get(&d.findings, "gpu.ready"));
	assert_null(findings_get(&d.findings, "driver.not-installed"));
	assert_null(findings_get(&d.findings, "cuda.lib-missing"));	/* no GPU expected: no lib needed */
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
	ready = findings_get(&d.findings, "gpu.ready");
	assert_non_null(ready);
	assert_int_equal(ready->severity, SEV_INFO);
	assert_non_null(strstr(ready->title, "535.104.05"));
	assert_string_equal(d.summary, ready->title);
	for (size_t i = 0; i < d.findings.count; i++)
		if (d.findings.items[i].severity != SEV_INFO)
			fail_msg("healthy machine has %s finding %s", severity_name(d.findings.items[i].severity),
				 d.findings.items[i].id);
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
	assert_non_null(findings_get(&d.findings, "env.debug-vars"));
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
	assert_string_equal(d.root_cause->id, "driver.not-installed");
	assert_int_equal(d.root_cause->nblocked, 0);
	lib = findings_get(&d.findings, "cuda.lib-missing");
	assert_non_null(lib);
	assert_int_equal(lib->severity, SEV_ERROR);
	assert_int_equal(lib->nblocked, 1);
	assert_string_equal(lib->blocked_by[0], "driver.not-installed");
	/* the consequence sorts after its cause */
	assert_true(index_of(&d, "driver.not-installed") < index_of(&d, "cuda.lib-missing"));
	assert_null(findings_get(&d.findings, "driver.not-loaded"));
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
		assert_string_equal(a.findings.items[i].id, b.findings.items[i].id);
		assert_string_equal(a.findings.items[i].title, b.findings.items[i].title);
	}
	assert_int_equal(a.verdict, b.verdict);
	diagnosis_release(&a);
	diagnosis_release(&b);
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
	};

	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
