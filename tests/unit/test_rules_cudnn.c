/*
 * Unit tests for src/rules/rules_cudnn.c: the deep probe never runs under
 * --root, so what it reports of cuDNN is tested on hand-built facts. The
 * values are what torch answers: torch.backends.cudnn.version() is an int
 * such as 90100 (torch/backends/cudnn/__init__.py returns None when the
 * build has no cuDNN), and cudnn.enabled is True unless something set it.
 */
#include "facts_builder.h"

/* A pip CUDA torch that imported, sees the GPU and computes. */
static struct facts *with_deep_torch(const char *cudnn, int enabled)
{
	struct facts *f = healthy_machine();
	struct python_facts *p = &f->python;
	struct python_env *py = &p->envs[0];
	struct torch_install *t = &p->torches[0];
	struct torch_deep *d = &p->deep;

	p->status.state = FACT_OK;
	p->count = 1;
	p->selected = 0;
	str_copy(py->exe, sizeof(py->exe), "/home/alice/venv/bin/python3");
	py->kind = PY_VENV;
	py->torch = 0;
	py->torch_shadowed = -1;
	p->ntorch = 1;
	str_copy(t->dir, sizeof(t->dir), "/home/alice/venv/lib/python3.11/site-packages/torch");
	str_copy(t->version, sizeof(t->version), "2.4.1+cu121");
	str_copy(t->cuda, sizeof(t->cuda), "12.1");
	str_copy(t->installer, sizeof(t->installer), "pip");
	d->ran = d->ok = true;
	d->available = 1;
	d->device_count = d->ndevices = 1;
	str_copy(d->devices[0].test, sizeof(d->devices[0].test), "ok");
	str_copy(d->tensor_test, sizeof(d->tensor_test), "ok");
	str_copy(d->version, sizeof(d->version), "2.4.1+cu121");
	str_copy(d->cuda, sizeof(d->cuda), "12.1");
	str_copy(d->cudnn, sizeof(d->cudnn), cudnn);
	d->cudnn_enabled = enabled;
	return f;
}

static void test_cudnn_usable(void **state)
{
	struct facts *f = with_deep_torch("90100", 1);
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "torch.cudnn-unusable"));
	diagnosis_release(&d);
	facts_free(f);
}

static void test_cudnn_none_in_pip_build(void **state)
{
	struct facts *f = with_deep_torch("", 1);
	const struct finding *fd;
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	fd = find_id(&d.findings, "torch.cudnn-unusable");
	assert_non_null(fd);
	assert_int_equal(fd->severity, SEV_WARNING);
	assert_int_equal(d.verdict, VERDICT_DEGRADED);
	assert_string_equal(fd->fix[0].command, "/home/alice/venv/bin/python3 -m pip install --force-reinstall "
			    "'torch==2.4.1' --index-url https://download.pytorch.org/whl/cu121");
	diagnosis_release(&d);
	facts_free(f);
}

static void test_cudnn_disabled_at_start(void **state)
{
	struct facts *f = with_deep_torch("90100", 0);
	const struct finding *fd;
	struct diagnosis d;

	(void)state;
	rules_run(f, &d);
	fd = find_id(&d.findings, "torch.cudnn-unusable");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "disabled"));
	assert_null(fd->fix[0].command);
	diagnosis_release(&d);
	facts_free(f);
}

static void test_cudnn_version_error(void **state)
{
	struct facts *f = with_deep_torch("", 1);
	const struct finding *fd;
	struct diagnosis d;

	(void)state;
	/* the message torch/backends/cudnn/__init__.py raises for a runtime of another major */
	str_copy(f->python.deep.cudnn_error, sizeof(f->python.deep.cudnn_error),
		 "cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version "
		 "(8, 9, 2). PyTorch already comes bundled with cuDNN.");
	rules_run(f, &d);
	fd = find_id(&d.findings, "torch.cudnn-unusable");
	assert_non_null(fd);
	assert_non_null(strstr(fd->title, "cannot load"));
	assert_string_equal(fd->fix[0].command, "echo $LD_LIBRARY_PATH");
	diagnosis_release(&d);
	facts_free(f);
}

/* A CPU build, or CUDA not available, is judged by the torch rules: no word on cuDNN. */
static void test_not_for_cpu_or_unavailable(void **state)
{
	struct facts *f = with_deep_torch("", 1);
	struct diagnosis d;

	(void)state;
	f->python.deep.available = 0;
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "torch.cudnn-unusable"));
	diagnosis_release(&d);
	f->python.deep.available = 1;
	f->python.deep.cuda[0] = '\0';
	rules_run(f, &d);
	assert_null(find_id(&d.findings, "torch.cudnn-unusable"));
	diagnosis_release(&d);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cudnn_usable),
		cmocka_unit_test(test_cudnn_none_in_pip_build),
		cmocka_unit_test(test_cudnn_disabled_at_start),
		cmocka_unit_test(test_cudnn_version_error),
		cmocka_unit_test(test_not_for_cpu_or_unavailable),
	};

	return cmocka_run_group_tests_name("rules_cudnn", tests, NULL, NULL);
}
