/*
 * Unit tests for the rule families' purity and the reconcile step
 * (src/rules/reconcile.c): run the families in shuffled orders over the
 * same facts and get the same report, finding by finding, evidence by
 * evidence. The facts are every scenario machine of tests/scenarios, read
 * statically, and hand-built machines whose findings join, withdraw and
 * stand aside (the driver's answers, the deep probe), which scenarios
 * cannot reach without a driver.
 */
#include "facts_builder.h"

#include "probe/probe.h"
#include "util/str.h"

static const struct rule_family *const canonical[] = {
	&rules_platform, &rules_gpu, &rules_driver, &rules_libs, &rules_toolkit, &rules_env, &rules_runtime, &rules_health, &rules_load,
	&rules_torch, &rules_cudnn, &rules_summary,
};
#define NFAMILIES (sizeof(canonical) / sizeof(canonical[0]))

/* Everything a report shows of the diagnosis, as one string. */
static char *serialize(const struct diagnosis *d)
{
	struct strbuf b = { 0 };

	strbuf_addf(&b, "verdict %s root %s summary %s\n", verdict_name(d->verdict),
		    d->root_cause ? id_of(d->root_cause) : "-", d->summary);
	for (size_t i = 0; i < d->findings.count; i++) {
		const struct finding *f = &d->findings.items[i];

		strbuf_addf(&b, "%s %s %s | %s | %s\n", id_of(f), severity_name(f->severity), stage_name(f->stage),
			    f->title, f->detail ? f->detail : "");
		for (int k = 0; k < f->nevidence; k++)
			strbuf_addf(&b, "  e %s = %s [%s]\n", f->evidence[k].fact, f->evidence[k].value,
				    f->evidence[k].source);
		for (int k = 0; k < f->nfix; k++)
			strbuf_addf(&b, "  fix %s $ %s\n", f->fix[k].text, f->fix[k].command ? f->fix[k].command : "");
		for (int k = 0; k < f->nblocked; k++)
			strbuf_addf(&b, "  blocked by %s\n", cause_name(f->blocked_by[k]));
	}
	return strbuf_detach(&b);
}

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 32);
}

/* The report must be the same for the canonical order, its reverse and 40 shuffles. */
static void check_order_free(const struct facts *f, const char *what)
{
	const struct rule_family *order[NFAMILIES];
	struct diagnosis d;
	char *want, *got;

	rules_run(f, &d);
	want = serialize(&d);
	diagnosis_release(&d);
	for (int round = 0; round < 42; round++) {
		memcpy(order, canonical, sizeof(order));
		if (round == 0) {
			for (size_t i = 0; i < NFAMILIES / 2; i++) {
				const struct rule_family *t = order[i];

				order[i] = order[NFAMILIES - 1 - i];
				order[NFAMILIES - 1 - i] = t;
			}
		} else {
			for (size_t i = NFAMILIES - 1; i > 0; i--) {
				size_t j = next_random() % (i + 1);
				const struct rule_family *t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
		}
		rules_run_families(f, order, NFAMILIES, &d);
		got = serialize(&d);
		diagnosis_release(&d);
		if (strcmp(want, got) != 0)
			fail_msg("%s: the report depends on the order of the families (round %d)\n--- canonical:\n%s"
				 "--- shuffled:\n%s", what, round, want, got);
		free(got);
	}
	free(want);
}

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
	str_copy(rt->nvml_lib.init_name, sizeof(rt->nvml_lib.init_name), nvml_init ? "NVML_ERROR" : "NVML_SUCCESS");
	str_copy(rt->cuda_lib.init_name, sizeof(rt->cuda_lib.init_name), cu_init ? "CUDA_ERROR" : "CUDA_SUCCESS");
	if (nvml_init == 0) {
		rt->nvml_count = rt->nvml_ndev = 1;
		str_copy(rt->nvml[0].name, sizeof(rt->nvml[0].name), "NVIDIA GeForce RTX 4090");
		str_copy(rt->nvml[0].uuid, sizeof(rt->nvml[0].uuid), "GPU-0a1b2c3d-0000-1111-2222-333344445555");
		str_copy(rt->nvml[0].bus_id, sizeof(rt->nvml[0].bus_id), "00000000:02:00.0");	/* lost: not the bus's */
		rt->nvml[0].persistence = 0;
		rt->nvml[0].mig_current = 1;
		rt->nvml[0].mig_instances = 0;
		rt->nvml[0].ecc_uncorrected = 3;
		rt->nvml[0].retired_pending = rt->nvml[0].remap_pending = rt->nvml[0].remap_failure = -1;
	}
	if (cu_init == 0)
		rt->cuda_count = rt->cuda_ndev = 1;
	return f;
}

static void set_env(struct facts *f, const char *name, const char *value)
{
	f->env.vars[f->env.count].name = name;
	f->env.vars[f->env.count++].value = str_dup(value);
}

/* Machines whose findings join, withdraw and stand aside across families. */
static void test_hand_built_machines(void **state)
{
	static const int codes[][2] = { { 0, 100 }, { 0, 46 }, { 18, 803 }, { 9, 100 }, { 15, 999 }, { 0, 101 }, { 7, 0 } };
	struct facts *f;

	(void)state;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		char what[64];

		f = ran_machine(codes[i][0], codes[i][1]);
		/* a variable the static rule judges, and the runtime check could too */
		set_env(f, "CUDA_VISIBLE_DEVICES", "GPU-ffffffff");
		f->env.visible = VISIBLE_UUIDS;
		f->pci.gpus[0].fallen_off_bus = i % 2 == 0;	/* a static hardware fault for the runtime's to join */
		snprintf(what, sizeof(what), "nvmlInit %d, cuInit %d", codes[i][0], codes[i][1]);
		check_order_free(f, what);
		facts_free(f);
	}
	/* the deep probe overturns the files' prediction of a CPU build; a torch/toolkit conflict joins */
	f = ran_machine(0, 0);
	f->python.status.state = FACT_OK;
	f->python.count = f->python.ntorch = 1;
	f->python.selected = 0;
	str_copy(f->python.envs[0].exe, sizeof(f->python.envs[0].exe), "/home/alice/venv/bin/python3");
	str_copy(f->python.envs[0].version, sizeof(f->python.envs[0].version), "3.11");
	f->python.envs[0].torch = 0;
	f->python.envs[0].torch_shadowed = -1;
	str_copy(f->python.torches[0].dir, sizeof(f->python.torches[0].dir), "/home/alice/venv/lib/python3.11/site-packages/torch");
	str_copy(f->python.torches[0].version, sizeof(f->python.torches[0].version), "2.4.1+cpu");
	str_copy(f->python.torches[0].installer, sizeof(f->python.torches[0].installer), "pip");
	f->python.deep.ran = f->python.deep.ok = true;
	f->python.deep.available = 1;
	f->python.deep.device_count = f->python.deep.ndevices = 1;
	str_copy(f->python.deep.version, sizeof(f->python.deep.version), "2.4.1+cpu");
	str_copy(f->python.deep.devices[0].test, sizeof(f->python.deep.devices[0].test), "ok");
	check_order_free(f, "deep probe overturns a CPU build");
	/* the same torch unable to see the GPU: cuda-unavailable stands aside for cpu-only */
	f->python.deep.available = 0;
	f->python.deep.ndevices = 0;
	check_order_free(f, "cuda-unavailable beside cpu-only");
	facts_free(f);
}

static void read_env_file(const char *path, char **vars, int max, int *n)
{
	char line[1024];
	FILE *fp = fopen(path, "r");

	*n = 0;
	if (!fp)
		return;
	while (*n < max && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#' && strchr(line, '='))
			vars[(*n)++] = str_dup(line);
	}
	fclose(fp);
}

/* Every scenario machine, read as the doctor reads it with --static. */
static void probe_scenarios(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[TU_PATH];

	if (!d)
		return;
	snprintf(path, sizeof(path), "%s/expect", dir);
	if (access(path, F_OK) == 0) {
		struct probe_ctx ctx = { 0 };
		struct rootfs fs;
		struct rootfs_denials denied = { 0 };
		struct error err;
		char *vars[64] = { NULL };
		int n;
		struct facts *f = facts_new();

		snprintf(path, sizeof(path), "%s/env", dir);
		read_env_file(path, vars, 63, &n);
		snprintf(path, sizeof(path), "%s/root", dir);
		assert_int_equal(rootfs_init(&fs, path, &err), 0);
		fs.denied = &denied;
		ctx.fs = &fs;
		ctx.envp = vars;
		ctx.static_only = true;
		probe_all(f, &ctx);
		rootfs_release(&fs);
		check_order_free(f, dir);
		facts_free(f);
		for (int i = 0; i < n; i++)
			free(vars[i]);
		(*count)++;
		closedir(d);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "root") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		probe_scenarios(path, count);
	}
	closedir(d);
}

static void test_scenario_machines(void **state)
{
	int count = 0;

	(void)state;
	probe_scenarios("tests/scenarios", &count);
	assert_true(count >= 100);	/* run from the repository's root, as make check does */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_built_machines),
		cmocka_unit_test(test_scenario_machines),
	};

	return cmocka_run_group_tests_name("reconcile", tests, NULL, NULL);
}
