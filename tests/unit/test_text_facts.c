/*
 * test_text_facts.c - info's text for what NVML could not read says
 * "unknown", never the -1 the model keeps for it; processes are listed.
 */
#include "facts_builder.h"

#include <stdlib.h>

#include "report/text_facts.h"

/* info's text at detail 1 and the given width, as a string the caller frees. */
static char *render_at(const struct facts *f, int width, bool color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct textfmt t = { .out = out, .color = color, .width = width };

	assert_non_null(out);
	text_facts_summary(&t, f, 1);
	fclose(out);
	return buf;
}

static char *render(const struct facts *f)
{
	return render_at(f, 200, false);
}

/* The widest line of text, in columns; colour escapes take none. */
static int widest_line(const char *text)
{
	int widest = 0, col = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '\033') {
			while (*p && *p != 'm')
				p++;
			if (!*p)
				break;
			continue;
		}
		if (*p == '\n') {
			col = 0;
			continue;
		}
		if (++col > widest)
			widest = col;
	}
	return widest;
}

static void set_env(struct facts *f, const char *name, enum env_kind kind, const char *value)
{
	struct env_var *v = &f->env.vars[f->env.count++];

	v->name = name;
	v->kind = kind;
	v->value = strdup(value);
	assert_non_null(v->value);
}

/*
 * A machine with Docker and containerd (the container-host line ran to 150
 * columns) and a long PATH: every line fits 80 columns, coloured or not, no
 * word is lost, and PATH breaks after its colons with each directory whole.
 */
static void test_lines_fit_the_width(void **state)
{
	struct facts *f = facts_new();
	char *plain, *coloured;

	(void)state;
	f->container_host.status.state = FACT_OK;
	f->container_host.engine = f->container_host.docker = f->container_host.containerd = true;
	str_copy(f->container_host.engines, sizeof(f->container_host.engines),
		 "docker (/usr/bin/dockerd), containerd (/usr/bin/containerd)");
	set_env(f, "PATH", ENV_PATHS,
		"/root/.cargo/bin:/root/.pyenv/plugins/pyenv-virtualenv/shims:/root/.pyenv/shims:/root/.pyenv/bin:"
		"/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	plain = render_at(f, 80, false);
	coloured = render_at(f, 80, true);
	assert_in_range(widest_line(plain), 60, 80);
	assert_int_equal(widest_line(coloured), widest_line(plain));
	assert_non_null(strstr(plain, "  platform   not in a container\n"
				      "             container engines: docker (/usr/bin/dockerd), containerd\n"
				      "               (/usr/bin/containerd); NVIDIA Container Toolkit not found, Docker\n"
				      "               runtime not registered, 0 NVIDIA CDI specs\n"));
	assert_non_null(strstr(plain, "  env        PATH=/root/.cargo/bin:/root/.pyenv/plugins/pyenv-virtualenv/shims:\n"
				      "               /root/.pyenv/shims:/root/.pyenv/bin:/usr/local/cuda/bin:\n"
				      "               /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"));
	free(plain);
	free(coloured);
	facts_free(f);
}

static struct nvml_device *one_nvml_device(struct facts *f)
{
	struct nvml_device *d = &f->runtime.nvml[0];

	f->runtime.status.state = FACT_OK;
	f->runtime.ran = true;
	f->runtime.nvml_count = f->runtime.nvml_ndev = 1;
	memset(d, 0, sizeof(*d));
	str_copy(d->name, sizeof(d->name), "NVIDIA A100 80GB PCIe");
	str_copy(d->uuid, sizeof(d->uuid), "GPU-3b7c8a10");
	d->mem_total_mib = d->mem_used_mib = d->ecc_uncorrected = -1;
	d->utilization = d->temperature_c = d->fan_percent = d->pstate = d->temp_slowdown_c = -1;
	d->clock_events = -1;
	return d;
}

static void test_unknown_values_read_unknown(void **state)
{
	struct facts *f = facts_new();
	char *text;

	(void)state;
	one_nvml_device(f);
	text = render(f);
	assert_non_null(strstr(text, "memory used unknown of unknown MiB, utilization unknown, temperature unknown"));
	assert_null(strstr(text, "-1"));
	free(text);
	facts_free(f);
}

static void test_known_values_and_processes(void **state)
{
	struct facts *f = facts_new();
	struct nvml_device *d = one_nvml_device(f);
	char *text;

	(void)state;
	d->mem_total_mib = 81920;
	d->mem_used_mib = 77004;
	d->utilization = 97;
	d->temperature_c = 91;
	d->pstate = 0;
	d->clock_events = (long long)(GPU_CLOCKS_SW_THERMAL | GPU_CLOCKS_IDLE);
	d->nprocs = 1;
	d->procs[0].pid = 31337;
	d->procs[0].used_mib = 77004;
	d->procs[0].seen = true;
	d->procs[0].uid = 1002;
	str_copy(d->procs[0].user, sizeof(d->procs[0].user), "bob");
	str_copy(d->procs[0].command, sizeof(d->procs[0].command), "python train.py");
	text = render(f);
	assert_non_null(strstr(text, "memory used 77004 of 81920 MiB, utilization 97%, temperature 91 C, P0, "
				     "slowed: sw_thermal_slowdown\n"));
	assert_non_null(strstr(text, "pid 31337, 77004 MiB, bob: python train.py\n"));
	free(text);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_values_read_unknown),
		cmocka_unit_test(test_known_values_and_processes),
		cmocka_unit_test(test_lines_fit_the_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
