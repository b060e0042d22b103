/*
 * Unit tests for src/rules/rules_torch.c where scenarios cannot reach: the
 * deep probe never runs under --root, so its findings are tested here on
 * hand-built facts.
 */
#include "facts_builder.h"

static struct facts *with_cuda_torch(void)
{
	struct facts *f = healthy_machine();
	struct python_facts *p = &f->python;
	struct python_env *py = &p->envs[0];
	struct torch_install *t = &p->torches[0];

	p->status.state = FACT_OK;
	p->count = 1;
	p->selected = 0;
	str_copy(py->exe, sizeof(py->exe), "/home/alice/venv/bin/python3");
	str_copy(py->prefix, sizeof(py->prefix), "/home/alice/venv");
	str_copy(py->version, sizeof(py->version), "3.11");
	py->kind = PY_VENV;
	py->torch = 0;
	py->torch_shadowed = -1;
	p->ntorch = 1;
	str_copy(t->dir, sizeof(t->dir), "/home/alice/venv/lib/python3.11/site-packages/torch");
	str_copy(t->version, sizeof(t->version), "2.4.1+cu121");
	str_copy(t->cuda, sizeof(t->cuda), "12.1");
	str_copy(t->installer, sizeof(t->installer), "pip");
	return f;
}

static void test_static_prediction_holds(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	assert_null(d.root_cause);
	assert_null(find_id(&d.findings, "torch.cuda-unavailable"));
	assert_null(find_id(&d.findings, "torch.import-failed"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_deep_contradicts(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;

	(void)state;
	f->python.deep.ran = f->python.deep.ok = true;
	f->python.deep.available = 0;
	str_copy(f->python.deep.version, sizeof(f->python.deep.version), "2.4.1+cu121");
	str_copy(f->python.deep.cuda, sizeof(f->python.deep.cuda), "12.1");
	str_copy(f->python.deep.warning, sizeof(f->python.deep.warning), "CUDA initialization: Unexpected error");
	rules_run(f, &d);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "torch.cuda-unavailable");
	assert_non_null(strstr(d.root_cause->detail, "Unexpected error"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_import_failed(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;

	(void)state;
	f->python.deep.ran = true;
	str_copy(f->python.deep.error, sizeof(f->python.deep.error),
		 "ImportError: libcudnn.so.9: cannot open shared object file");
	rules_run(f, &d);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "torch.import-failed");
	assert_non_null(strstr(d.root_cause->detail, "libcudnn.so.9"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_cpu_build_explained_once(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;

	(void)state;
	f->python.torches[0].cuda[0] = '\0';
	str_copy(f->python.torches[0].version, sizeof(f->python.torches[0].version), "2.4.1+cpu");
	f->python.deep.ran = f->python.deep.ok = true;
	f->python.deep.available = 0;
	rules_run(f, &d);
	assert_string_equal(id_of(d.root_cause), "torch.cpu-only");
	/* the run agrees with the prediction: no second finding */
	assert_null(find_id(&d.findings, "torch.cuda-unavailable"));
	/* the fix installs through the diagnosed interpreter, from the tables */
	{
		const struct finding *c = d.root_cause;
		bool found = false;

		for (int i = 0; i < c->nfix; i++)
			if (c->fix[i].command && strstr(c->fix[i].command, "/home/alice/venv/bin/python3 -m pip install torch==") &&
			    strstr(c->fix[i].command, "--index-url https://download.pytorch.org/whl/cu"))
				found = true;
		assert_true(found);
	}
	diagnosis_release(&d);
	facts_free(f);
}

/* The import reports a working GPU with every device computing. */
static void deep_works(struct facts *f, const char *version)
{
	struct torch_deep *d = &f->python.deep;

	d->ran = d->ok = true;
	d->available = 1;
	d->device_count = d->ndevices = 1;
	str_copy(d->version, sizeof(d->version), version);
	str_copy(d->devices[0].name, sizeof(d->devices[0].name), "NVIDIA A100-SXM4-80GB");
	str_copy(d->devices[0].cc, sizeof(d->devices[0].cc), "8.0");
	str_copy(d->devices[0].test, sizeof(d->devices[0].test), "ok");
}

static void test_deep_overturns_prediction(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;
	const struct finding *c;

	(void)state;
	/* the files say CPU build, yet the same version imports and computes on the GPU */
	f->python.torches[0].cuda[0] = '\0';
	str_copy(f->python.torches[0].version, sizeof(f->python.torches[0].version), "2.4.1+cpu");
	deep_works(f, "2.4.1+cpu");
	rules_run(f, &d);
	assert_null(d.root_cause);
	assert_null(find_id(&d.findings, "torch.cpu-only"));
	c = find_id(&d.findings, "torch.deep-contradiction");
	assert_non_null(c);
	assert_int_equal(c->severity, SEV_INFO);
	assert_int_equal(c->nevidence, 1);
	assert_string_equal(c->evidence[0].fact, "withdrawn");
	assert_string_equal(c->evidence[0].source, "torch.cpu-only");
	diagnosis_release(&d);
	facts_free(f);
}

static void test_deep_loads_other_copy(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;
	const struct finding *c;

	(void)state;
	deep_works(f, "2.5.0+cu124");
	str_copy(f->python.deep.file, sizeof(f->python.deep.file), "/opt/extra/torch/__init__.py");
	rules_run(f, &d);
	c = find_id(&d.findings, "torch.deep-contradiction");
	assert_non_null(c);
	assert_int_equal(c->severity, SEV_WARNING);
	assert_non_null(strstr(c->title, "2.5.0+cu124"));
	assert_non_null(strstr(c->title, "2.4.1+cu121"));
	assert_non_null(strstr(c->detail, "/opt/extra/torch/__init__.py"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_deep_device_without_kernels(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;

	(void)state;
	deep_works(f, "2.4.1+cu121");
	str_copy(f->python.deep.devices[0].test, sizeof(f->python.deep.devices[0].test),
		 "CUDA error: no kernel image is available for execution on the device");
	rules_run(f, &d);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "torch.arch-unsupported");
	assert_non_null(strstr(d.root_cause->evidence[d.root_cause->nevidence - 1].value, "no kernel image"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_deep_device_compute_fails(void **state)
{
	struct facts *f = with_cuda_torch();
	struct diagnosis d;

	(void)state;
	deep_works(f, "2.4.1+cu121");
	str_copy(f->python.deep.devices[0].test, sizeof(f->python.deep.devices[0].test),
		 "CUDA error: an illegal memory access was encountered");
	rules_run(f, &d);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "torch.gpu-compute-failed");
	assert_non_null(strstr(d.root_cause->title, "cuda:0"));
	assert_null(find_id(&d.findings, "torch.deep-contradiction"));
	diagnosis_release(&d);
	facts_free(f);
}

/* The fat binaries list SASS up to sm_75 only; the GPU is an A100 (8.0). */
static struct facts *with_partial_archs(bool sampled)
{
	struct facts *f = with_cuda_torch();
	struct torch_install *t = &f->python.torches[0];
	static const unsigned seen[] = { 50, 60, 70, 75 };

	str_copy(f->pci.gpus[0].cc, sizeof(f->pci.gpus[0].cc), "8.0");
	t->archs_known = true;
	t->archs_truncated = sampled;
	for (size_t i = 0; i < 4; i++)
		t->sass[t->nsass++] = seen[i];
	return f;
}

static void test_full_scan_missing_arch(void **state)
{
	struct facts *f = with_partial_archs(false);
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	assert_non_null(d.root_cause);
	assert_string_equal(id_of(d.root_cause), "torch.arch-unsupported");
	diagnosis_release(&d);
	facts_free(f);
}

static void test_sampled_scan_defers_to_table(void **state)
{
	struct facts *f = with_partial_archs(true);
	struct diagnosis d;

	(void)state;
	/* 2.4.1+cu121 is built for 5.0 to 9.0 (data/torch_archs.tsv): the sample just stopped early */
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "torch.arch-unsupported"));
	diagnosis_release(&d);
	facts_free(f);
}

/* Requirements read from METADATA: a missing wheel is an error with one pip command; a different one a warning. */
static void add_req(struct torch_install *t, const char *name, const char *version, const char *installed)
{
	struct torch_requirement *r = &t->reqs[t->nreqs++];

	str_copy(r->name, sizeof(r->name), name);
	str_copy(r->op, sizeof(r->op), "==");
	str_copy(r->version, sizeof(r->version), version);
	str_copy(r->installed, sizeof(r->installed), installed);
	r->met = strcmp(version, installed) == 0;
}

static void test_requirements_unmet(void **state)
{
	struct facts *f = with_cuda_torch();
	struct torch_install *t = &f->python.torches[0];
	const struct finding *fd;
	struct diagnosis d;

	(void)state;
	t->reqs_checked = true;
	str_copy(t->metadata, sizeof(t->metadata), "/home/alice/venv/lib/python3.11/site-packages/torch-2.4.1.dist-info/METADATA");
	add_req(t, "nvidia-cublas-cu12", "12.1.3.1", "12.1.3.1");
	add_req(t, "nvidia-cudnn-cu12", "9.1.0.70", "");
	add_req(t, "nvidia-nccl-cu12", "2.20.5", "2.21.5");
	rules_run(f, &d);
	fd = find_id(&d.findings, "torch.requirements-unmet");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_ERROR);
	assert_int_equal(fd->nfix, 1);
	assert_string_equal(fd->fix[0].command, "/home/alice/venv/bin/python3 -m pip install nvidia-cudnn-cu12==9.1.0.70 "
			    "nvidia-nccl-cu12==2.20.5");
	diagnosis_release(&d);

	/* only a different version: a warning */
	str_copy(t->reqs[1].installed, sizeof(t->reqs[1].installed), "9.1.0.70");
	t->reqs[1].met = true;
	rules_run(f, &d);
	fd = find_id(&d.findings, "torch.requirements-unmet");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARNING);
	diagnosis_release(&d);

	/* all met, or never checked: nothing */
	t->reqs[2].met = true;
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "torch.requirements-unmet"));
	diagnosis_release(&d);
	t->reqs[2].met = false;
	t->reqs_checked = false;
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "torch.requirements-unmet"));
	diagnosis_release(&d);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_prediction_holds),
		cmocka_unit_test(test_deep_contradicts),
		cmocka_unit_test(test_import_failed),
		cmocka_unit_test(test_cpu_build_explained_once),
		cmocka_unit_test(test_deep_overturns_prediction),
		cmocka_unit_test(test_deep_loads_other_copy),
		cmocka_unit_test(test_deep_device_without_kernels),
		cmocka_unit_test(test_deep_device_compute_fails),
		cmocka_unit_test(test_full_scan_missing_arch),
		cmocka_unit_test(test_sampled_scan_defers_to_table),
		cmocka_unit_test(test_requirements_unmet),
	};

	return cmocka_run_group_tests_name("rules_torch", tests, NULL, NULL);
}
