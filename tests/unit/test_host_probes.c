/*
 * Unit tests for the probes that read a machine's configuration files statically, each through a temp
 * rootfs holding real file contents:
 *   - probe_env_origin (src/probe/env_origin.c): where CUDA_VISIBLE_DEVICES was set;
 *   - cudnn_cuda_builds (src/probe/cudnn_cuda.c): the CUDA major of a cuDNN build;
 *   - probe_container_host (src/probe/container_host.c): the toolkit, daemon.json and CDI specs.
 */
#include "testutil.h"

#include "probe/probe_internal.h"
#include "util/str.h"

struct fixture {
	char dir[TU_PATH];
	struct rootfs fs;
	struct facts *f;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct error err = { 0 };

	tu_mkdtemp(fx->dir, sizeof(fx->dir));
	assert_int_equal(rootfs_init(&fx->fs, fx->dir, &err), 0);
	fx->f = facts_new();
	assert_non_null(fx->f);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	facts_free(fx->f);
	tu_rmrf(fx->dir);
	free(fx);
	return 0;
}

static void run_env(struct fixture *fx, char *const *envp)
{
	struct probe_ctx ctx = { .fs = &fx->fs, .envp = envp };

	probe_env(fx->f, &ctx);
	probe_env_origin(fx->f, &ctx);
}

/* Ubuntu's /etc/skel/.bashrc head, a commented-out line, then the export that wins. */
static void test_origin_bashrc(void **state)
{
	struct fixture *fx = *state;
	char *envp[] = { "HOME=/home/alice", "CUDA_VISIBLE_DEVICES=1", NULL };

	tu_write(fx->dir, "home/alice/.bashrc",
		 "# ~/.bashrc: executed by bash(1) for non-login shells.\n"
		 "case $- in\n    *i*) ;;\n      *) return;;\nesac\n"
		 "# export CUDA_VISIBLE_DEVICES=0,1\n"
		 "export CUDA_VISIBLE_DEVICES=\"1\"   # the 3090 only\n");
	tu_write(fx->dir, "etc/environment", "PATH=\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin\"\n");
	run_env(fx, envp);
	assert_string_equal(fx->f->env.visible_origin, "/home/alice/.bashrc");
	assert_string_equal(fx->f->env.visible_origin_detail, "line 7: CUDA_VISIBLE_DEVICES=1");
}

/* pam_env's /etc/environment (KEY=VALUE, no export); profile.d scripts sorted; another value is not the origin. */
static void test_origin_system_files(void **state)
{
	struct fixture *fx = *state;
	char *envp[] = { "HOME=/home/bob", "CUDA_VISIBLE_DEVICES=0", NULL };

	tu_write(fx->dir, "etc/environment", "CUDA_VISIBLE_DEVICES=0\n");
	tu_write(fx->dir, "etc/profile.d/zz-gpu.sh", "export CUDA_VISIBLE_DEVICES=2\n");
	tu_write(fx->dir, "etc/profile.d/aa-gpu.sh", "CUDA_VISIBLE_DEVICES=$FIRST_GPU\n");
	run_env(fx, envp);
	assert_string_equal(fx->f->env.visible_origin, "/etc/environment");
	assert_string_equal(fx->f->env.visible_origin_detail, "line 1: CUDA_VISIBLE_DEVICES=0");
}

static void test_origin_slurm(void **state)
{
	struct fixture *fx = *state;
	char *envp[] = { "HOME=/home/alice", "CUDA_VISIBLE_DEVICES=0", "SLURM_JOB_ID=4242", "SLURM_JOB_GPUS=3", NULL };

	tu_write(fx->dir, "home/alice/.bashrc", "export CUDA_VISIBLE_DEVICES=0\n");
	run_env(fx, envp);
	assert_string_equal(fx->f->env.visible_origin, "Slurm job 4242");
	assert_string_equal(fx->f->env.visible_origin_detail, "SLURM_JOB_GPUS=3");
}

static void test_origin_unknown(void **state)
{
	struct fixture *fx = *state;
	char *envp[] = { "HOME=/home/alice", "CUDA_VISIBLE_DEVICES=1", NULL };

	run_env(fx, envp);
	assert_string_equal(fx->f->env.visible_origin, "");
}

static struct cudnn_item *add_lib(struct cudnn_facts *c, const char *path, const char *version)
{
	struct cudnn_item *it = &c->items[c->count++];

	it->kind = CUDNN_LIBRARY;
	str_copy(it->path, sizeof(it->path), path);
	str_copy(it->version, sizeof(it->version), version);
	return it;
}

/* dpkg's status stanzas: an installed libcudnn8 for CUDA 12.2, a removed one for 11.8, -dev ignored. */
static void test_cudnn_dpkg(void **state)
{
	struct fixture *fx = *state;
	struct cudnn_facts *c = &fx->f->cudnn;
	struct cudnn_item *lib, *other;

	tu_write(fx->dir, "var/lib/dpkg/status",
		 "Package: libcudnn8-dev\nStatus: install ok installed\nVersion: 8.9.7.29-1+cuda11.8\n\n"
		 "Package: libcudnn8\nStatus: install ok installed\nPriority: optional\nArchitecture: amd64\n"
		 "Source: cudnn\nVersion: 8.9.7.29-1+cuda12.2\nDescription: cuDNN runtime libraries\n"
		 " cuDNN runtime libraries containing primitives for deep neural networks\n\n"
		 "Package: libcudnn9-cuda-11\nStatus: deinstall ok config-files\nVersion: 9.1.0.70-1\n");
	lib = add_lib(c, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7", "8.9.7");
	other = add_lib(c, "/opt/cudnn/lib/libcudnn.so.8.9.7", "8.9.7");
	cudnn_cuda_builds(c, &fx->fs);
	assert_int_equal(lib->cuda_major, 12);
	assert_string_equal(lib->cuda_major_source, "/var/lib/dpkg/status: libcudnn8 8.9.7.29-1+cuda12.2");
	assert_int_equal(other->cuda_major, 0);	/* not where the package installs */
}

/* NVIDIA's archive names: cudnn-linux-x86_64-8.9.7.29_cuda12-archive, ..._cuda11.5-archive. */
static void test_cudnn_archive_name(void **state)
{
	struct fixture *fx = *state;
	struct cudnn_facts *c = &fx->f->cudnn;
	struct cudnn_item *a, *b;

	a = add_lib(c, "/opt/cudnn-linux-x86_64-8.9.7.29_cuda12-archive/lib/libcudnn.so.8.9.7", "8.9.7");
	b = add_lib(c, "/opt/cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive/lib/libcudnn.so.8.3.2", "8.3.2");
	cudnn_cuda_builds(c, &fx->fs);
	assert_int_equal(a->cuda_major, 12);
	assert_int_equal(b->cuda_major, 11);
	assert_string_equal(b->cuda_major_source, "archive directory /opt/cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive");
}

static void run_host(struct fixture *fx)
{
	char *envp[] = { "PATH=/usr/bin", NULL };
	struct probe_ctx ctx = { .fs = &fx->fs, .envp = envp };

	probe_env(fx->f, &ctx);
	fx->f->pci.count = 1;
	probe_container_host(fx->f, &ctx);
}

/* daemon.json as nvidia-ctk writes it, and a JSON CDI spec whose libcuda host path is gone. */
static void test_host_docker_and_json_cdi(void **state)
{
	struct fixture *fx = *state;
	struct container_host_facts *h = &fx->f->container_host;

	tu_write(fx->dir, "usr/bin/dockerd", "");
	tu_write(fx->dir, "usr/bin/nvidia-container-runtime", "");
	tu_write(fx->dir, "etc/docker/daemon.json",
		 "{\n    \"default-runtime\": \"nvidia\",\n    \"runtimes\": {\n        \"nvidia\": {\n"
		 "            \"args\": [],\n            \"path\": \"nvidia-container-runtime\"\n        }\n    }\n}\n");
	tu_write(fx->dir, "usr/bin/nvidia-smi", "");
	tu_write(fx->dir, "etc/cdi/nvidia.json",
		 "{\"cdiVersion\": \"0.5.0\", \"kind\": \"nvidia.com/gpu\", \"devices\": [{\"name\": \"0\", "
		 "\"containerEdits\": {\"deviceNodes\": [{\"path\": \"/dev/nvidia0\"}]}}], \"containerEdits\": {\"mounts\": ["
		 "{\"hostPath\": \"/usr/bin/nvidia-smi\", \"containerPath\": \"/usr/bin/nvidia-smi\"},"
		 "{\"hostPath\": \"/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15\", "
		 "\"containerPath\": \"/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15\"}]}}");
	tu_write(fx->dir, "etc/cdi/other-vendor.yaml", "cdiVersion: 0.5.0\nkind: vendor.com/device\n");
	run_host(fx);
	assert_int_equal(h->status.state, FACT_OK);
	assert_true(h->docker);
	assert_string_equal(h->docker_runtime, "nvidia");
	assert_string_equal(h->docker_default_runtime, "nvidia");
	assert_string_equal(h->nvidia_container_runtime, "/usr/bin/nvidia-container-runtime");
	assert_int_equal(h->ncdi, 1);
	assert_string_equal(h->cdi[0].driver_version, "550.54.15");
	assert_int_equal(h->cdi[0].checked, 2);
	assert_int_equal(h->cdi[0].missing, 1);
}

/* YAML in the block style nvidia-ctk writes; quoted values; a flow-style list is not read (documented). */
static void test_host_yaml_cdi(void **state)
{
	struct fixture *fx = *state;
	struct container_host_facts *h = &fx->f->container_host;

	tu_write(fx->dir, "usr/bin/podman", "");
	tu_write(fx->dir, "var/run/cdi/nvidia.yaml",
		 "---\ncdiVersion: 0.5.0\ncontainerEdits:\n  mounts:\n"
		 "  - containerPath: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.575.64.03\n"
		 "    hostPath: \"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.575.64.03\"\n"
		 "    options:\n    - ro\n"
		 "  - {containerPath: /x, hostPath: /flow/style/not/read}\n"
		 "devices:\n- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n  name: \"0\"\n"
		 "kind: nvidia.com/gpu\n");
	run_host(fx);
	assert_int_equal(h->ncdi, 1);
	assert_string_equal(h->cdi[0].path, "/var/run/cdi/nvidia.yaml");
	assert_string_equal(h->cdi[0].kind, "nvidia.com/gpu");
	assert_string_equal(h->cdi[0].driver_version, "575.64.03");
	assert_int_equal(h->cdi[0].checked, 1);
	assert_int_equal(h->cdi[0].missing, 1);
}

/* No engine: nothing is examined. */
static void test_host_no_engine(void **state)
{
	struct fixture *fx = *state;

	tu_write(fx->dir, "usr/bin/nvidia-ctk", "");
	run_host(fx);
	assert_int_equal(fx->f->container_host.status.state, FACT_ABSENT);
	assert_string_equal(fx->f->container_host.nvidia_ctk, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_origin_bashrc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_origin_system_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_origin_slurm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_origin_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cudnn_dpkg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cudnn_archive_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_docker_and_json_cdi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_yaml_cdi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_no_engine, setup, teardown),
	};

	return cmocka_run_group_tests_name("host_probes", tests, NULL, NULL);
}
