/* Unit tests for src/util/jscan.c, src/util/intern.c and the fleet merge (src/fleet/). */
#include "testutil.h"

#include <string.h>

#include "fleet/fleet.h"
#include "util/intern.h"
#include "util/jscan.h"

static int scan_all(const char *text)
{
	struct jscan s;

	jscan_init(&s, text, strlen(text));
	return jscan_skip(&s) < 0 ? -1 : jscan_finish(&s);
}

/* RFC 8259's grammar, on values a skip must accept or refuse. */
static void test_jscan_syntax(void **state)
{
	static const char *const good[] = { "{}", "[]", "0", "-0.5e+10", "\"a\\u00e9\\ud83d\\ude00\"", " {\"a\": [1, true, null, {}]} ",
					    "[[[[\"x\"]]]]", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"" };
	static const char *const bad[] = { "", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", "-", "tru", "nul",
					   "\"a", "\"\\x\"", "\"\\ud800\"", "[1 2]", "{} {}", "{1:2}", "\"a\tb\"" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(scan_all(good[i]), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (scan_all(bad[i]) != -1)
			fail_msg("accepted '%s'", bad[i]);
	}
}

static void test_jscan_depth(void **state)
{
	char deep[2 * JSCAN_MAX_DEPTH + 8];
	struct jscan s;
	size_t at;

	(void)state;
	memset(deep, '[', JSCAN_MAX_DEPTH + 1);
	memset(deep + JSCAN_MAX_DEPTH + 1, ']', JSCAN_MAX_DEPTH + 1);
	jscan_init(&s, deep, 2 * JSCAN_MAX_DEPTH + 2);
	assert_int_equal(jscan_skip(&s), -1);
	assert_string_equal(jscan_error(&s, &at), "nested too deep");
	assert_int_equal(at, JSCAN_MAX_DEPTH);
}

/* Strings are unescaped and cut, never inside a UTF-8 sequence. */
static void test_jscan_strings(void **state)
{
	const char *text = "{\"k\\u0065y\": \"caf\\u00e9 \\u20ac\", \"n\": null, \"i\": -42, \"f\": 1.5, \"b\": true}";
	char key[8], val[8];
	long long i = 0;
	bool b = false;
	struct jscan s;

	(void)state;
	jscan_init(&s, text, strlen(text));
	assert_int_equal(jscan_object_begin(&s), 0);
	assert_int_equal(jscan_object_next(&s, key, sizeof(key)), 1);
	assert_string_equal(key, "key");
	assert_int_equal(jscan_string(&s, val, sizeof(val)), 1);
	assert_string_equal(val, "caf\xc3\xa9 ");	/* the euro sign (3 bytes) does not fit in what is left */
	assert_int_equal(jscan_object_next(&s, key, sizeof(key)), 1);
	assert_int_equal(jscan_string(&s, val, sizeof(val)), 0);
	assert_string_equal(val, "");
	assert_int_equal(jscan_object_next(&s, key, sizeof(key)), 1);
	assert_int_equal(jscan_integer(&s, &i), 1);
	assert_int_equal(i, -42);
	assert_int_equal(jscan_object_next(&s, key, sizeof(key)), 1);
	assert_int_equal(jscan_integer(&s, &i), 0);	/* not an integer */
	assert_int_equal(jscan_object_next(&s, key, sizeof(key)), 1);
	assert_int_equal(jscan_bool(&s, &b), 1);
	assert_true(b);
	assert_int_equal(jscan_object_next(&s, key, sizeof(key)), 0);
	assert_int_equal(jscan_finish(&s), 0);
	/* the wrong type is an error */
	jscan_init(&s, "[1]", 3);
	assert_int_equal(jscan_string(&s, val, sizeof(val)), -1);
	assert_string_equal(jscan_error(&s, NULL), "expected a string");
}

static void test_intern(void **state)
{
	struct intern in = { 0 };
	char name[32];
	uint32_t first;

	(void)state;
	assert_int_equal(intern_add(&in, ""), 0);
	assert_int_equal(intern_add(&in, NULL), 0);
	first = intern_add(&in, "535.104.05");
	assert_int_not_equal(first, 0);
	for (int i = 0; i < 5000; i++) {	/* past several growths */
		snprintf(name, sizeof(name), "node%d", i);
		assert_int_not_equal(intern_add(&in, name), UINT32_MAX);
	}
	assert_int_equal(intern_add(&in, "535.104.05"), first);
	assert_string_equal(intern_get(&in, first), "535.104.05");
	assert_string_equal(intern_get(&in, intern_add(&in, "node4321")), "node4321");
	assert_string_equal(intern_get(&in, 0), "");
	assert_string_equal(intern_get(&in, 999999), "");
	intern_release(&in);
}

/* A report trimmed from one the doctor wrote (tests/scenarios/machines/server-driver-upgraded-no-reboot),
 * with members in the order it writes them and some it does not know. */
static const char report[] =
	"{\"schema\": \"gpudoctor.report/1\", \"version\": \"0.1.0\", \"future\": {\"x\": [1, {\"y\": null}]},\n"
	" \"verdict\": {\"status\": \"broken\", \"root_cause\": \"driver.library-mismatch\",\n"
	"   \"summary\": \"driver kernel module 535.104.05 does not match its libraries 535.129.03\"},\n"
	" \"findings\": [{\"id\": \"driver.library-mismatch\", \"evidence\": [{\"fact\": \"a\", \"value\": \"b\"}]}],\n"
	" \"facts\": {\"root\": \"/x\", \"system\": {\"status\": {\"state\": \"ok\"}, \"hostname\": \"node17\"},\n"
	"   \"pci\": {\"count\": 2, \"gpus\": [{\"device\": \"1eb8\", \"name\": \"TU104GL [Tesla T4]\"},\n"
	"                              {\"device\": \"1eb8\", \"name\": \"TU104GL [Tesla T4]\"},\n"
	"                              {\"device\": \"2330\", \"name\": null}]},\n"
	"   \"driver\": {\"version\": \"535.104.05\"}, \"toolkits\": {\"active_version\": \"12.2.2\"},\n"
	"   \"cudnn\": {\"headers\": [], \"libraries\": [{\"version\": \"8\"}, {\"version\": \"9\"}]},\n"
	"   \"python\": {\"selected\": 1, \"interpreters\": [{\"torch\": null}, {\"torch\": 1}],\n"
	"     \"torch\": [{\"version\": \"2.1.0+cpu\"}, {\"version\": \"2.5.1+cu124\"}]}}}\n";

static void test_report_read(void **state)
{
	struct fleet_report r;
	struct error err;

	(void)state;
	assert_int_equal(fleet_report_read(report, strlen(report), &r, &err), 0);
	assert_string_equal(r.hostname, "node17");
	assert_int_equal(r.verdict, FLEET_BROKEN);
	assert_string_equal(r.root_cause, "driver.library-mismatch");
	assert_string_equal(r.trait[FLEET_DRIVER], "535.104.05");
	assert_string_equal(r.trait[FLEET_CUDA], "12.2.2");
	assert_string_equal(r.trait[FLEET_CUDNN], "8");
	assert_string_equal(r.trait[FLEET_TORCH], "2.5.1+cu124");	/* the selected interpreter's */
	assert_string_equal(r.trait[FLEET_GPU_COUNT], "2");
	assert_string_equal(r.trait[FLEET_GPU_MODEL], "TU104GL [Tesla T4] + 10de:2330");
}

static void test_report_refused(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "", "empty" },
		{ "[1, 2]", "a JSON value that is not an object" },
		{ "{\"a\": 1}", "a JSON object without \"schema\": not a gpudoctor report" },
		{ "{\"schema\": \"gpudoctor.info/1\", \"facts\": {}}", "schema 'gpudoctor.info/1', not 'gpudoctor.report/1' (gpudoctor --json)" },
		{ "{\"schema\": \"gpudoctor.report/1\", \"facts\": {}}", "a report without verdict.status" },
		{ "{\"schema\": \"gpudoctor.report/1\", \"verdict\": {", "not JSON: unexpected end of the text at byte 45" },
		{ "garbage", "not JSON: expected a value at byte 0" },
	};
	struct fleet_report r;
	struct error err;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fleet_report_read(cases[i].text, strlen(cases[i].text), &r, &err), -1);
		assert_string_equal(err.msg, cases[i].why);
	}
}

static void add(struct fleet *f, const char *host, enum fleet_verdict v, const char *cause, const char *driver)
{
	struct fleet_report r = { .verdict = v };

	strcpy(r.hostname, host);
	strcpy(r.root_cause, cause);
	strcpy(r.summary, cause[0] ? "the title" : "");
	strcpy(r.trait[FLEET_DRIVER], driver);
	assert_int_equal(fleet_add(f, &r, "src", "unnamed", NULL), 0);
}

/* Groups: verdicts, causes most nodes first, drift with the majority first; natural node order. */
static void test_view(void **state)
{
	struct fleet *f = fleet_new();
	struct fleet_view v;

	(void)state;
	add(f, "node10", FLEET_READY, "", "550.54.15");
	add(f, "node9", FLEET_BROKEN, "driver.library-mismatch", "535.104.05");
	add(f, "node2", FLEET_READY, "", "550.54.15");
	add(f, "node18", FLEET_BROKEN, "driver.library-mismatch", "535.104.05");
	add(f, "gpu1", FLEET_NO_GPU, "gpu.none", "");
	add(f, "node1", FLEET_READY, "", "550.54.15");
	assert_int_equal(fleet_add_unreadable(f, "x.json", "x", "not JSON", NULL), 0);
	assert_int_equal(fleet_view_build(&v, f, NULL), 0);
	assert_int_equal(v.nodes, 7);
	assert_int_equal(v.readable, 6);
	assert_int_equal(v.verdict[FLEET_READY].count, 3);
	assert_string_equal(fleet_text(f, fleet_node(f, v.verdict[FLEET_READY].nodes[0])->name), "node1");
	assert_string_equal(fleet_text(f, fleet_node(f, v.verdict[FLEET_READY].nodes[1])->name), "node2");
	assert_string_equal(fleet_text(f, fleet_node(f, v.verdict[FLEET_READY].nodes[2])->name), "node10");
	assert_int_equal(v.ncauses, 2);
	assert_string_equal(fleet_text(f, v.causes[0].value), "driver.library-mismatch");
	assert_int_equal(v.causes[0].count, 2);
	assert_string_equal(fleet_text(f, fleet_node(f, v.causes[0].nodes[0])->name), "node9");
	assert_string_equal(fleet_text(f, v.causes[0].title), "the title");
	assert_int_equal(v.drift[FLEET_DRIVER].nvalues, 3);
	assert_string_equal(fleet_text(f, v.drift[FLEET_DRIVER].values[0].value), "550.54.15");
	assert_int_equal(v.drift[FLEET_DRIVER].values[1].count, 2);
	assert_int_equal(v.drift[FLEET_DRIVER].values[2].value, 0);	/* none, on gpu1 */
	assert_int_equal(v.drift[FLEET_CUDA].nvalues, 1);		/* all none: no drift */
	assert_false(fleet_view_all_ready(&v));
	fleet_view_release(&v);
	fleet_free(f);
}

/* Two values on as many nodes: the one whose first node comes first in natural order leads, whatever the input order. */
static void test_view_ties(void **state)
{
	struct fleet *f = fleet_new();
	struct fleet_view v;

	(void)state;
	add(f, "node20", FLEET_READY, "", "535.104.05");
	add(f, "node3", FLEET_READY, "", "550.54.15");
	add(f, "node21", FLEET_READY, "", "535.104.05");
	add(f, "node4", FLEET_READY, "", "550.54.15");
	assert_int_equal(fleet_view_build(&v, f, NULL), 0);
	assert_int_equal(v.drift[FLEET_DRIVER].nvalues, 2);
	assert_string_equal(fleet_text(f, v.drift[FLEET_DRIVER].values[0].value), "550.54.15");
	assert_true(fleet_view_all_ready(&v));
	fleet_view_release(&v);
	fleet_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jscan_syntax),
		cmocka_unit_test(test_jscan_depth),
		cmocka_unit_test(test_jscan_strings),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_report_read),
		cmocka_unit_test(test_report_refused),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_view_ties),
	};

	return cmocka_run_group_tests_name("fleet", tests, NULL, NULL);
}
