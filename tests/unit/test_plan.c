/*
 * test_plan.c - the fix planner (src/plan): which path it takes for a
 * machine, which driver route per distribution, and that its checks fail
 * when a path is wrong.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "plan/plan.h"
#include "probe/facts.h"
#include "util/str.h"

/* A machine without facts: explain's view, or a test's. */
static void machine(struct plan_machine *m, const char *driver, const char *python, const char *cc)
{
	memset(m, 0, sizeof(*m));
	m->driver = driver;
	m->driver_known = true;
	m->python = python;
	m->arch = "x86_64";
	if (cc) {
		str_copy(m->ccs[0], sizeof(m->ccs[0]), cc);
		m->gpu_names[0] = "GPU";
		m->nccs = 1;
	}
}

static const struct plan_step *find_step(const struct plan_path *p, const char *needle)
{
	for (int i = 0; i < p->nsteps; i++)
		if (strstr(p->steps[i].command, needle))
			return &p->steps[i];
	return NULL;
}

static const struct plan_check *find_check(const struct plan_path *p, const char *what)
{
	for (int i = 0; i < p->nchecks; i++)
		if (strcmp(p->checks[i].what, what) == 0)
			return &p->checks[i];
	return NULL;
}

static struct plan *new_plan(void)
{
	struct plan *p = malloc(sizeof(*p));

	assert_non_null(p);
	return p;
}

static void test_release_and_cc_ranges(void **state)
{
	(void)state;
	assert_true(kb_release_matches("*", ""));
	assert_true(kb_release_matches("22.04,24.04", "24.04"));
	assert_false(kb_release_matches("22.04,24.04", "20.04"));
	assert_true(kb_release_matches("8,9", "9.4"));
	assert_false(kb_release_matches("8,9", "10.0"));
	assert_false(kb_release_matches("1", "10"));	/* "1" is not a prefix of release 10 */
	assert_false(kb_release_matches("12", ""));
	assert_true(kb_cc_in_range("5.0-9.0", "6.1"));
	assert_true(kb_cc_in_range("5.0-9.0", "9.0"));
	assert_false(kb_cc_in_range("5.0-9.0", "12.0"));
	assert_false(kb_cc_in_range("7.5-", "7.0"));
	assert_true(kb_cc_in_range("7.5-", "12.0"));
	assert_true(kb_cc_in_range("-", "3.5"));
	assert_false(kb_cc_in_range("5.0-", "x.y"));
	assert_false(kb_cc_in_range("5.0-9.0", "86"));
}

static void test_shell_word(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(plan_shell_word("/home/alice/venv/bin/python3", out, sizeof(out)), 0);
	assert_string_equal(out, "/home/alice/venv/bin/python3");
	assert_int_equal(plan_shell_word("/home/a b/py", out, sizeof(out)), 0);
	assert_string_equal(out, "'/home/a b/py'");
	assert_int_equal(plan_shell_word("/x/it's $(rm -rf ~)", out, sizeof(out)), 0);
	assert_string_equal(out, "'/x/it'\\''s $(rm -rf ~)'");
	assert_int_equal(plan_shell_word("/x/a\nb", out, sizeof(out)), -1);
	assert_int_equal(plan_shell_word("", out, sizeof(out)), 0);
	assert_string_equal(out, "''");
	assert_int_equal(plan_shell_word("/a very long path that does not fit in four bytes", out, 4), -1);
}

/* A CPU wheel where the same release has a CUDA build for this driver: keep the release (the case). */
static void test_cpu_wheel_keeps_release(void **state)
{
	struct plan_machine m;
	struct torch_install t = { 0 };
	struct plan *plan = new_plan();
	const struct plan_path *p;

	(void)state;
	machine(&m, "550.54.15", "3.10", "8.0");
	str_copy(t.version, sizeof(t.version), "2.5.1+cpu");
	str_copy(t.installer, sizeof(t.installer), "pip");
	m.torch = &t;
	assert_true(plan_torch(&m, PROBLEM_CPU_BUILD, plan) > 0);
	p = &plan->paths[0];
	assert_string_equal(p->id, "same-release");
	assert_string_equal(p->torch.release, "2.5.1");
	assert_string_equal(p->torch.variant, "cu124");
	assert_true(p->ok);
	assert_non_null(find_step(p, "python -m pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124"));
	assert_non_null(find_step(p, "pip uninstall -y torch"));
	assert_int_equal(find_check(p, "driver")->state, CHECK_PASS);
	/* an alternative goes to the newest release for this driver; none is the same path again */
	assert_true(plan->npaths >= 2);
	for (int i = 1; i < plan->npaths; i++)
		assert_false(strcmp(plan->paths[i].torch.release, "2.5.1") == 0 &&
			     strcmp(plan->paths[i].torch.variant, "cu124") == 0);
	free(plan);
}

/* Driver 470 with a cu121 torch: the same release's cu118 first, then a driver upgrade keeping torch. */
static void test_driver_too_old_paths(void **state)
{
	struct plan_machine m;
	struct torch_install t = { 0 };
	struct plan *plan = new_plan();
	bool upgrade = false;

	(void)state;
	machine(&m, "470.223.02", "3.10", "8.0");
	str_copy(t.version, sizeof(t.version), "2.1.2+cu121");
	str_copy(t.cuda, sizeof(t.cuda), "12.1");
	str_copy(t.installer, sizeof(t.installer), "pip");
	m.torch = &t;
	assert_true(plan_torch(&m, PROBLEM_TORCH_DRIVER_TOO_OLD, plan) > 0);
	assert_string_equal(plan->paths[0].id, "same-release");
	assert_string_equal(plan->paths[0].torch.variant, "cu118");
	for (int i = 1; i < plan->npaths; i++) {
		if (strcmp(plan->paths[i].id, "upgrade-driver") != 0)
			continue;
		upgrade = true;
		assert_int_equal(plan->paths[i].torch.installer, INSTALL_NONE);
		assert_string_equal(plan->paths[i].driver_min, "525.60.13");
	}
	assert_true(upgrade);
	free(plan);
}

/* A Pascal GPU on a cu128 wheel: its own release's cu126 still has sm_60 code. */
static void test_old_gpu_new_wheel(void **state)
{
	struct plan_machine m;
	struct torch_install t = { 0 };
	struct plan *plan = new_plan();

	(void)state;
	machine(&m, "550.54.15", "3.10", "6.1");
	str_copy(t.version, sizeof(t.version), "2.8.0+cu128");
	str_copy(t.cuda, sizeof(t.cuda), "12.8");
	str_copy(t.installer, sizeof(t.installer), "pip");
	m.torch = &t;
	assert_true(plan_torch(&m, PROBLEM_NO_KERNELS, plan) > 0);
	assert_string_equal(plan->paths[0].torch.release, "2.8.0");
	assert_string_equal(plan->paths[0].torch.variant, "cu126");
	for (int i = 0; i < plan->npaths; i++)
		assert_true(strcmp(plan->paths[i].torch.variant, "cu128") != 0 &&
			    !str_starts_with(plan->paths[i].torch.variant, "cu13"));
	free(plan);
}

/* A GPU no wheel ever had kernels for (Kepler sm_35): no wheel path; a source build with CUDA 11.8. */
static void test_no_wheel_builds_from_source(void **state)
{
	struct plan_machine m;
	struct plan *plan = new_plan();
	const struct plan_path *p;

	(void)state;
	machine(&m, "470.223.02", "3.10", "3.5");
	assert_true(plan_torch(&m, PROBLEM_NOT_INSTALLED, plan) > 0);
	p = &plan->paths[0];
	assert_string_equal(p->id, "build-from-source");
	assert_int_equal(p->torch.installer, INSTALL_SOURCE);
	assert_string_equal(p->torch.toolkit, "11.8");
	assert_string_equal(p->torch.arch_list, "3.5");
	assert_non_null(find_step(p, "TORCH_CUDA_ARCH_LIST='3.5'"));
	assert_non_null(find_step(p, "CUDA_HOME=/usr/local/cuda-11.8"));
	assert_non_null(find_step(p, "git checkout v2.7.1"));
	free(plan);
}

/* sm_37 (K80): the last release that had kernels for it, on its last driver branch. */
static void test_last_release_for_gpu(void **state)
{
	struct plan_machine m;
	struct plan *plan = new_plan();

	(void)state;
	machine(&m, "470.223.02", "3.10", "3.7");
	assert_true(plan_torch(&m, PROBLEM_NOT_INSTALLED, plan) > 0);
	assert_string_equal(plan->paths[0].torch.release, "2.7.1");
	assert_string_equal(plan->paths[0].torch.variant, "cu118");
	free(plan);
}

/* Companions installed now move along, pinned to the versions released with the target. */
static void test_companions_move_along(void **state)
{
	struct plan_machine m;
	struct torch_install t = { 0 };
	struct plan *plan = new_plan();
	const struct plan_path *p;

	(void)state;
	machine(&m, "550.54.15", "3.10", "8.6");
	str_copy(t.version, sizeof(t.version), "2.5.1+cpu");
	str_copy(t.installer, sizeof(t.installer), "pip");
	str_copy(t.packages[0], sizeof(t.packages[0]), "torchaudio 2.5.1+cpu");
	str_copy(t.packages[1], sizeof(t.packages[1]), "torchvision 0.20.1+cpu");
	str_copy(t.packages[2], sizeof(t.packages[2]), "xformers 0.0.28.post3");
	t.npackages = 3;
	m.torch = &t;
	assert_true(plan_torch(&m, PROBLEM_CPU_BUILD, plan) > 0);
	p = &plan->paths[0];
	assert_non_null(find_step(p, "pip uninstall -y torch torchvision torchaudio"));
	assert_non_null(find_step(p, "torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url"));
	assert_int_equal(find_check(p, "companions")->state, CHECK_PASS);
	/* xformers is named for a rebuild, by hand */
	{
		bool named = false;

		for (int i = 0; i < p->nsteps; i++)
			named |= p->steps[i].kind == STEP_MANUAL && strstr(p->steps[i].why, "xformers") != NULL;
		assert_true(named);
	}
	free(plan);
}

/* The checks fail when the path is wrong: each tampered field is caught. */
static void test_checks_can_fail(void **state)
{
	struct plan_machine m;
	struct torch_install t = { 0 };
	struct plan *plan = new_plan();
	struct plan_path *p = malloc(sizeof(*p));

	(void)state;
	assert_non_null(p);
	machine(&m, "550.54.15", "3.10", "8.0");
	str_copy(t.version, sizeof(t.version), "2.5.1+cpu");
	str_copy(t.installer, sizeof(t.installer), "pip");
	str_copy(t.packages[0], sizeof(t.packages[0]), "torchvision 0.20.1+cpu");
	t.npackages = 1;
	m.torch = &t;
	assert_true(plan_torch(&m, PROBLEM_CPU_BUILD, plan) > 0);
	assert_true(plan->paths[0].ok);

	*p = plan->paths[0];	/* the index of another variant */
	str_copy(p->torch.index, sizeof(p->torch.index), "--index-url https://download.pytorch.org/whl/cu121");
	plan_check_path(&m, p);
	assert_false(p->ok);

	*p = plan->paths[0];	/* a companion that does not go with it */
	str_copy(p->torch.vision, sizeof(p->torch.vision), "0.19.1");
	plan_check_path(&m, p);
	assert_false(p->ok);

	*p = plan->paths[0];	/* the command says something else than the record */
	for (int i = 0; i < p->nsteps; i++)
		if (strstr(p->steps[i].command, "pip install"))
			str_copy(p->steps[i].command, sizeof(p->steps[i].command), "python -m pip install torch==2.4.1");
	plan_check_path(&m, p);
	assert_false(p->ok);

	*p = plan->paths[0];	/* a Python the release has no wheels for */
	str_copy(p->torch.python, sizeof(p->torch.python), "3.8");
	plan_check_path(&m, p);
	assert_false(p->ok);

	*p = plan->paths[0];	/* another machine: an older driver, a GPU without kernels */
	m.driver = "470.223.02";
	plan_check_path(&m, p);
	assert_false(p->ok);
	assert_int_equal(find_check(p, "driver")->state, CHECK_FAIL);
	m.driver = "550.54.15";
	str_copy(m.ccs[0], sizeof(m.ccs[0]), "3.5");
	*p = plan->paths[0];
	plan_check_path(&m, p);
	assert_false(p->ok);
	assert_int_equal(find_check(p, "gpu 0")->state, CHECK_FAIL);
	free(p);
	free(plan);
}

/* PTX JIT needs the driver of the toolkit the PTX came from, not the minor-compatibility floor. */
static void test_ptx_needs_full_driver(void **state)
{
	struct plan_machine m;
	struct plan *plan = new_plan();
	const struct plan_check *c;
	struct kb_answer own;

	(void)state;
	/* a GPU newer than every build: only 12.0+PTX (CUDA 13 builds) can run on it */
	machine(&m, "580.65.06", "3.12", "13.0");
	assert_true(plan_torch(&m, PROBLEM_NOT_INSTALLED, plan) > 0);
	assert_true(plan->paths[0].torch.ptx);
	assert_int_equal(kb_cuda_min_driver(plan->paths[0].torch.cuda, &own), 0);
	assert_non_null(c = find_check(&plan->paths[0], "driver"));
	assert_non_null(strstr(c->detail, "PTX JIT"));
	assert_non_null(strstr(c->detail, own.value));
	/* one below that driver: the same build must not pass */
	m.driver = "575.57.08";
	plan_check_path(&m, &plan->paths[0]);
	assert_false(plan->paths[0].ok);
	free(plan);
}

static struct facts *distro(const char *id, const char *like, const char *version, const char *kernel)
{
	struct facts *f = facts_new();

	assert_non_null(f);
	str_copy(f->system.os_id, sizeof(f->system.os_id), id);
	str_copy(f->system.os_id_like, sizeof(f->system.os_id_like), like);
	str_copy(f->system.os_version_id, sizeof(f->system.os_version_id), version);
	str_copy(f->system.kernel_release, sizeof(f->system.kernel_release), kernel);
	str_copy(f->system.arch, sizeof(f->system.arch), "x86_64");
	return f;
}

/* Driver steps for one machine: the commands joined with " | ", or "FAIL: why". */
static void driver_route(const char *id, const char *like, const char *version, const char *kernel, const char *cc,
			 const char *need, char *out, size_t outsz)
{
	struct facts *f = distro(id, like, version, kernel);
	struct plan_machine m;
	struct plan_path *p = calloc(1, sizeof(*p));
	char why[240], why_local[400];

	assert_non_null(p);
	machine(&m, NULL, NULL, cc);
	m.facts = f;
	out[0] = '\0';
	if (plan_driver_steps(&m, need, p, why, sizeof(why), why_local, sizeof(why_local)) < 0) {
		str_printf(out, outsz, "FAIL: %s", why);
	} else {
		for (int i = 0; i < p->nsteps; i++)
			str_printf(out + strlen(out), outsz - strlen(out), "%s%s", i ? " | " : "",
				   p->steps[i].command[0] ? p->steps[i].command : "(by hand)");
	}
	free(p);
	facts_free(f);
}

static void test_driver_routes(void **state)
{
	char r[2048];

	(void)state;
	driver_route("ubuntu", "debian", "24.04", "6.8.0-45-generic", "8.6", NULL, r, sizeof(r));
	assert_string_equal(r, "sudo ubuntu-drivers install | sudo reboot");
	/* Debian 12 ships 535: enough for an Ampere card and CUDA 12 wheels */
	driver_route("debian", "", "12", "6.1.0-13-amd64", "8.6", "525.60.13", r, sizeof(r));
	assert_string_equal(r, "(by hand) | sudo apt-get update | sudo apt-get install linux-headers-6.1.0-13-amd64 "
			       "nvidia-kernel-dkms nvidia-driver firmware-nvidia-gsp | sudo reboot");
	/* a Blackwell card needs 570: not Debian's 535, NVIDIA's repository with the open modules */
	driver_route("debian", "", "12", "6.1.0-13-amd64", "12.0", NULL, r, sizeof(r));
	assert_true(strstr(r, "cuda-keyring") && strstr(r, "debian12/x86_64") && strstr(r, "sudo apt-get install nvidia-open"));
	/* Kepler on Debian 12: the tesla-470 packages */
	driver_route("debian", "", "12", "6.1.0-13-amd64", "3.7", NULL, r, sizeof(r));
	assert_non_null(strstr(r, "nvidia-tesla-470-driver"));
	/* Kepler asked for a CUDA 12 driver: no branch serves it */
	driver_route("debian", "", "12", "6.1.0-13-amd64", "3.7", "525.60.13", r, sizeof(r));
	assert_true(str_starts_with(r, "FAIL: ") && strstr(r, "470"));
	/* Pascal: the last branch, 580, in each family's own words */
	driver_route("arch", "", "", "6.12.1-arch1-1", "6.1", NULL, r, sizeof(r));
	assert_non_null(strstr(r, "nvidia-580xx-utils.git"));
	driver_route("arch", "", "", "6.12.1-arch1-1", "8.9", NULL, r, sizeof(r));
	assert_string_equal(r, "sudo pacman -S nvidia-open nvidia-utils | sudo reboot");
	driver_route("arch", "", "", "6.6.60-1-lts", "8.9", NULL, r, sizeof(r));
	assert_string_equal(r, "sudo pacman -S nvidia-open-lts nvidia-utils | sudo reboot");
	driver_route("fedora", "", "42", "6.14.0-63.fc42.x86_64", "6.1", NULL, r, sizeof(r));
	assert_non_null(strstr(r, "akmod-nvidia-580xx"));
	driver_route("rocky", "rhel centos fedora", "9.4", "5.14.0-427.el9.x86_64", "6.1", NULL, r, sizeof(r));
	assert_non_null(strstr(r, "sudo dnf module enable nvidia-driver:580-dkms"));
	assert_non_null(strstr(r, "cuda-rhel9.repo"));
	driver_route("rocky", "rhel centos fedora", "10.0", "6.12.0-55.el10.x86_64", "8.0", NULL, r, sizeof(r));
	assert_non_null(strstr(r, "sudo dnf install nvidia-open"));
	driver_route("opensuse-tumbleweed", "opensuse suse", "20250101", "6.13.1-1-default", "8.9", NULL, r, sizeof(r));
	assert_non_null(strstr(r, "nvidia-open-driver-G07-signed-kmp-meta"));
	/* an unknown distribution: one step by hand, the version and limit named */
	driver_route("gentoo", "", "2.17", "6.6.0-gentoo", "6.1", "525.60.13", r, sizeof(r));
	assert_string_equal(r, "(by hand) | sudo reboot");
}

/* The image a container gets: the newest supported point release the host driver's CUDA allows. */
static void test_cuda_images(void **state)
{
	struct kb_cuda_image ci;

	(void)state;
	assert_int_equal(kb_cuda_image_at_most("ubuntu22.04", 12, "12.2", &ci), 0);
	assert_string_equal(ci.cuda, "12.2.2");
	assert_int_equal(kb_cuda_image_at_most("ubuntu22.04", 12, "12.4", &ci), 0);
	assert_string_equal(ci.cuda, "12.4.1");
	assert_int_equal(kb_cuda_image_at_most("ubuntu22.04", 11, NULL, &ci), 0);
	assert_string_equal(ci.cuda, "11.8.0");
	/* Ubuntu 24.04 images start at CUDA 12.5 */
	assert_int_equal(kb_cuda_image_at_most("ubuntu24.04", 12, "12.4", &ci), -1);
	assert_int_equal(kb_cuda_image_at_most("ubuntu22.04", 9, NULL, &ci), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release_and_cc_ranges),
		cmocka_unit_test(test_shell_word),
		cmocka_unit_test(test_cpu_wheel_keeps_release),
		cmocka_unit_test(test_driver_too_old_paths),
		cmocka_unit_test(test_old_gpu_new_wheel),
		cmocka_unit_test(test_no_wheel_builds_from_source),
		cmocka_unit_test(test_last_release_for_gpu),
		cmocka_unit_test(test_companions_move_along),
		cmocka_unit_test(test_checks_can_fail),
		cmocka_unit_test(test_ptx_needs_full_driver),
		cmocka_unit_test(test_driver_routes),
		cmocka_unit_test(test_cuda_images),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
