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
	assert_null(findings_get(&d.findings, "torch.cuda-unavailable"));
	assert_null(findings_get(&d.findings, "torch.import-failed"));
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
	assert_string_equal(d.root_cause->id, "torch.cuda-unavailable");
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
	assert_string_equal(d.root_cause->id, "torch.import-failed");
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
	assert_string_equal(d.root_cause->id, "torch.cpu-only");
	/* the run agrees with the prediction: no second finding */
	assert_null(findings_get(&d.findings, "torch.cuda-unavailable"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_prediction_holds),
		cmocka_unit_test(test_deep_contradicts),
		cmocka_unit_test(test_import_failed),
		cmocka_unit_test(test_cpu_build_explained_once),
	};

	return cmocka_run_group_tests_name("rules_torch", tests, NULL, NULL);
}
