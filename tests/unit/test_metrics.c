/* Unit tests for src/report/metrics_prom.c: label escaping, one family as rendered, and the time of a render. */
#include "testutil.h"

#include <time.h>

#include "report/report_metrics.h"

/* What fn wrote into a memory stream, as a string the caller frees. */
static char *label_value(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	report_metrics_label_value(out, in);
	fclose(out);
	return buf;
}

static void expect_label(const char *in, const char *want)
{
	char *got = label_value(in);

	if (strcmp(got, want) != 0)
		fail_msg("label \"%s\" = \"%s\", want \"%s\"", in, got, want);
	free(got);
}

/* https://prometheus.io/docs/instrumenting/exposition_formats/: label_value can be any sequence of UTF-8
 * characters, but the backslash, double-quote and line feed characters have to be escaped as \\, \" and \n. */
static void test_label_escaping(void **state)
{
	(void)state;
	expect_label("NVIDIA A100 80GB PCIe", "NVIDIA A100 80GB PCIe");
	expect_label("a\\b", "a\\\\b");
	expect_label("say \"hi\"", "say \\\"hi\\\"");
	expect_label("two\nlines", "two\\nlines");
	expect_label("tab\there\x1b[31m", "tab?here?[31m");
	expect_label("Zürich", "Zürich");
	expect_label("", "");
}

static struct live_sample *sample_of(int ndev)
{
	struct live_sample *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->state = LIVE_OK;
	snprintf(s->driver_version, sizeof(s->driver_version), "535.104.05");
	s->count = s->ndev = ndev;
	for (int i = 0; i < ndev; i++) {
		struct nvml_device *d = &s->gpu[i];

		nvml_device_unknown(d);
		snprintf(d->name, sizeof(d->name), "NVIDIA \"H100\" 80GB HBM3");
		snprintf(d->uuid, sizeof(d->uuid), "GPU-%08d-0000-0000-0000-000000000000", i);
		snprintf(d->bus_id, sizeof(d->bus_id), "00000000:%02X:00.0", 0x18 + i);
		d->mem_total_mib = 81559;
		d->mem_used_mib = 1024 * i;
		d->utilization = 50 + i;
		d->temperature_c = 40 + i;
		d->power_w = 123.4;
		d->clock_events = 0x24;	/* sw power cap, sw thermal slowdown */
		d->ecc_corrected = d->ecc_uncorrected = 0;
		d->nprocs = 2;
		d->procs[0].pid = 1000 + (unsigned)i;
		d->procs[0].used_mib = 512;
		d->procs[1].pid = 2000 + (unsigned)i;
		d->procs[1].used_mib = -1;
	}
	return s;
}

static char *render(const struct facts *f, const struct live_sample *s, const struct diagnosis *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	report_metrics_prom(out, f, s, d, 0.001);
	fclose(out);
	return buf;
}

/* The temperature family of one GPU, exactly; an unknown value (fan) left out whole. */
static void test_one_family(void **state)
{
	struct facts *f = facts_new();
	struct live_sample *s = sample_of(1);
	struct diagnosis d = { .verdict = VERDICT_READY };
	char *text;

	(void)state;
	text = render(f, s, &d);
	if (!strstr(text, "# HELP gpudoctor_gpu_temperature_celsius GPU core temperature, in degrees Celsius.\n"
			  "# TYPE gpudoctor_gpu_temperature_celsius gauge\n"
			  "gpudoctor_gpu_temperature_celsius{gpu=\"0\",uuid=\"GPU-00000000-0000-0000-0000-000000000000\","
			  "pci_bus_id=\"00000000:18:00.0\",name=\"NVIDIA \\\"H100\\\" 80GB HBM3\"} 40\n"
			  "# HELP "))
		fail_msg("temperature family not as expected in:\n%s", text);
	assert_non_null(strstr(text, ",reason=\"sw_power_cap\"} 1\n"));
	assert_non_null(strstr(text, ",reason=\"sw_thermal_slowdown\"} 1\n"));
	assert_non_null(strstr(text, ",pid=\"1000\"} 536870912\n"));
	assert_null(strstr(text, "pid=\"2000\""));	/* its memory unknown */
	assert_null(strstr(text, "gpudoctor_gpu_fan_ratio"));
	assert_null(strstr(text, "gpudoctor_finding"));
	assert_non_null(strstr(text, "\ngpudoctor_ready 1\n"));
	assert_non_null(strstr(text, "\ngpudoctor_info{driver_version=\"535.104.05\",cuda_driver_version=\"12.2\","
				     "torch_version=\"\"} 1\n"));
	free(text);
	free(s);
	facts_free(f);
}

/* Not a pass/fail test: how long one exposition of 8 GPUs takes (the goal is well under 5 ms). */
static void test_render_time_8_gpus(void **state)
{
	struct facts *f = facts_new();
	struct live_sample *s = sample_of(8);
	struct diagnosis d = { .verdict = VERDICT_READY };
	struct timespec a, b;
	const int n = 200;
	size_t bytes = 0;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++) {
		char *text = render(f, s, &d);

		bytes = strlen(text);
		free(text);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	print_message("metrics: one exposition of 8 GPUs (%zu bytes): %.3f ms (mean of %d)\n", bytes,
		      ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / n, n);
	free(s);
	facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_one_family),
		cmocka_unit_test(test_render_time_8_gpus),
	};

	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
