/* Unit tests for src/util/kv.c */
#include "testutil.h"

#include "util/kv.h"

static const char os_release[] =
	"PRETTY_NAME='Ubuntu 22.04.3 LTS'\n"
	"NAME=\"Ubuntu\"\n"
	"VERSION_ID=\"22.04\"\n"
	"VERSION=\"22.04.3 LTS (Jammy Jellyfish)\"\n"
	"ID_LIKE=debian\n"
	"ID=ubuntu   \n"
	"# COMMENTED=out\n"
	"  INDENTED=yes\n"
	"\tTABBED=\"tab\"\n"
	"EMPTY=\n"
	"EMPTYQ=\"\"\n"
	"HALFQ=\"abc\n"
	"EQUALS=a=b=c\n"
	"CRLF=dos\r\n"
	"LAST=no-newline";

static void test_shell_basic(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(kv_shell_get(os_release, "NAME", out, sizeof(out)), 0);
	assert_string_equal(out, "Ubuntu");
	assert_int_equal(kv_shell_get(os_release, "PRETTY_NAME", out, sizeof(out)), 0);
	assert_string_equal(out, "Ubuntu 22.04.3 LTS");
	assert_int_equal(kv_shell_get(os_release, "ID_LIKE", out, sizeof(out)), 0);
	assert_string_equal(out, "debian");
	assert_int_equal(kv_shell_get(os_release, "EQUALS", out, sizeof(out)), 0);
	assert_string_equal(out, "a=b=c");
	assert_int_equal(kv_shell_get(os_release, "CRLF", out, sizeof(out)), 0);
	assert_string_equal(out, "dos");
	assert_int_equal(kv_shell_get(os_release, "LAST", out, sizeof(out)), 0);
	assert_string_equal(out, "no-newline");
}

static void test_shell_key_prefix(void **state)
{
	char out[64];

	(void)state;
	/* ID_LIKE comes first but must not answer for ID; likewise VERSION_ID for VERSION. */
	assert_int_equal(kv_shell_get(os_release, "ID", out, sizeof(out)), 0);
	assert_string_equal(out, "ubuntu");	/* trailing blanks dropped */
	assert_int_equal(kv_shell_get(os_release, "VERSION", out, sizeof(out)), 0);
	assert_string_equal(out, "22.04.3 LTS (Jammy Jellyfish)");
	assert_int_equal(kv_shell_get(os_release, "VERSION_ID", out, sizeof(out)), 0);
	assert_string_equal(out, "22.04");
	/* a key that is only a prefix of present keys is absent */
	assert_int_equal(kv_shell_get(os_release, "VERS", out, sizeof(out)), -1);
	assert_int_equal(kv_shell_get("XID=1\nID=2\n", "ID", out, sizeof(out)), 0);
	assert_string_equal(out, "2");
}

static void test_shell_indented_empty_quotes(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(kv_shell_get(os_release, "INDENTED", out, sizeof(out)), 0);
	assert_string_equal(out, "yes");
	assert_int_equal(kv_shell_get(os_release, "TABBED", out, sizeof(out)), 0);
	assert_string_equal(out, "tab");
	strcpy(out, "junk");
	assert_int_equal(kv_shell_get(os_release, "EMPTY", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	strcpy(out, "junk");
	assert_int_equal(kv_shell_get(os_release, "EMPTYQ", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* unbalanced quote: kept verbatim */
	assert_int_equal(kv_shell_get(os_release, "HALFQ", out, sizeof(out)), 0);
	assert_string_equal(out, "\"abc");
	assert_int_equal(kv_shell_get("Q=\"\n", "Q", out, sizeof(out)), 0);
	assert_string_equal(out, "\"");
	assert_int_equal(kv_shell_get("Q='a\"\n", "Q", out, sizeof(out)), 0);
	assert_string_equal(out, "'a\"");
}

static void test_shell_missing(void **state)
{
	char out[16] = "untouched";

	(void)state;
	assert_int_equal(kv_shell_get(os_release, "NOPE", out, sizeof(out)), -1);
	assert_int_equal(kv_shell_get(os_release, "COMMENTED", out, sizeof(out)), -1);
	assert_int_equal(kv_shell_get("", "ID", out, sizeof(out)), -1);
	assert_int_equal(kv_shell_get("\n\n\n", "ID", out, sizeof(out)), -1);
	assert_int_equal(kv_shell_get("ID", "ID", out, sizeof(out)), -1);
	assert_int_equal(kv_shell_get("ID =x", "ID", out, sizeof(out)), -1);
	assert_string_equal(out, "untouched");
}

static void test_shell_truncation(void **state)
{
	char small[4];

	(void)state;
	assert_int_equal(kv_shell_get(os_release, "NAME", small, sizeof(small)), -1);
	assert_string_equal(small, "Ubu");
}

/*
 * A value longer than the parser's internal 512-byte scratch buffer must be
 * returned whole when out is large enough (it was silently cut at 511 bytes
 * while reporting success).
 */
static void test_shell_long_value(void **state)
{
	char text[1200], out[1024], want[701];

	(void)state;
	memset(want, 'v', 700);
	want[700] = '\0';
	snprintf(text, sizeof(text), "A=1\nLONG=\"%s\"\nB=2\n", want);
	assert_int_equal(kv_shell_get(text, "LONG", out, sizeof(out)), 0);
	assert_int_equal(strlen(out), 700);
	assert_string_equal(out, want);
	/* and too small an out reports truncation */
	assert_int_equal(kv_shell_get(text, "LONG", out, 100), -1);
	assert_int_equal(strlen(out), 99);
	assert_int_equal(kv_shell_get(text, "B", out, sizeof(out)), 0);
	assert_string_equal(out, "2");
}

static const char cpuinfo[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"cpu family\t: 6\n"
	"model\t\t: 85\n"
	"model name\t: Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\n"
	"stepping\t: 4\n"
	"empty\t:\n"
	"flags\t\t: fpu vme de pse tsc\n"
	"\n"
	"processor\t: 1\n"
	"model name\t: second cpu\n";

static const char meminfo[] =
	"MemTotal:       16318508 kB\n"
	"MemFree:         1234567 kB\n"
	"MemAvailable:    9876543 kB\n"
	"HugePages_Total:       0\n"
	"Hugepagesize:       2048 kB";

static void test_colon_cpuinfo(void **state)
{
	char out[128];

	(void)state;
	assert_int_equal(kv_colon_get(cpuinfo, "model name", out, sizeof(out)), 0);
	assert_string_equal(out, "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz");
	/* "model" must not pick up "model name" */
	assert_int_equal(kv_colon_get(cpuinfo, "model", out, sizeof(out)), 0);
	assert_string_equal(out, "85");
	assert_int_equal(kv_colon_get(cpuinfo, "processor", out, sizeof(out)), 0);
	assert_string_equal(out, "0");	/* the first one */
	assert_int_equal(kv_colon_get(cpuinfo, "flags", out, sizeof(out)), 0);
	assert_string_equal(out, "fpu vme de pse tsc");
	strcpy(out, "junk");
	assert_int_equal(kv_colon_get(cpuinfo, "empty", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(kv_colon_get(cpuinfo, "cpu", out, sizeof(out)), -1);
	assert_int_equal(kv_colon_get(cpuinfo, "microcode", out, sizeof(out)), -1);
}

static void test_colon_meminfo(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(kv_colon_get(meminfo, "MemTotal", out, sizeof(out)), 0);
	assert_string_equal(out, "16318508 kB");
	assert_int_equal(kv_colon_get(meminfo, "MemAvailable", out, sizeof(out)), 0);
	assert_string_equal(out, "9876543 kB");
	assert_int_equal(kv_colon_get(meminfo, "HugePages_Total", out, sizeof(out)), 0);
	assert_string_equal(out, "0");
	assert_int_equal(kv_colon_get(meminfo, "Hugepagesize", out, sizeof(out)), 0);
	assert_string_equal(out, "2048 kB");	/* last line, no newline */
	assert_int_equal(kv_colon_get(meminfo, "Mem", out, sizeof(out)), -1);
	assert_int_equal(kv_colon_get(meminfo, "MemTotal:", out, sizeof(out)), -1);
	assert_int_equal(kv_colon_get("", "MemTotal", out, sizeof(out)), -1);
	assert_int_equal(kv_colon_get("MemTotal 5 kB\n", "MemTotal", out, sizeof(out)), -1);
	assert_int_equal(kv_colon_get("MemTotal", "MemTotal", out, sizeof(out)), -1);
}

static void test_colon_truncation_and_long(void **state)
{
	char text[1200], out[1024], small[6];

	(void)state;
	assert_int_equal(kv_colon_get(meminfo, "MemTotal", small, sizeof(small)), -1);
	assert_string_equal(small, "16318");
	/* /proc/cpuinfo's flags line is often longer than 512 bytes */
	strcpy(text, "flags\t\t:");
	for (int i = 0; i < 150; i++)
		strcat(text, " sse");
	strcat(text, "\nbogomips\t: 4200.00\n");
	assert_int_equal(kv_colon_get(text, "flags", out, sizeof(out)), 0);
	assert_int_equal(strlen(out), 150 * 4 - 1);
	assert_memory_equal(out, "sse sse", 7);
	assert_string_equal(out + strlen(out) - 4, " sse");
	assert_int_equal(kv_colon_get(text, "bogomips", out, sizeof(out)), 0);
	assert_string_equal(out, "4200.00");
}

static void test_line_next(void **state)
{
	char text[] = "a\nbb\n\nccc\n";
	char *cur = text, *line;

	(void)state;
	line = line_next(&cur);
	assert_string_equal(line, "a");
	assert_ptr_equal(line, text);
	assert_string_equal(line_next(&cur), "bb");
	assert_string_equal(line_next(&cur), "");	/* empty lines are returned */
	assert_string_equal(line_next(&cur), "ccc");
	assert_null(line_next(&cur));
	assert_null(line_next(&cur));		/* stays at the end */
	assert_int_equal(text[1], '\0');	/* newlines replaced in place */
}

static void test_line_next_edges(void **state)
{
	char nonl[] = "only";
	char empty[] = "";
	char just[] = "\n";
	char *cur;

	(void)state;
	cur = nonl;
	assert_string_equal(line_next(&cur), "only");
	assert_null(line_next(&cur));
	cur = empty;
	assert_null(line_next(&cur));
	cur = just;
	assert_string_equal(line_next(&cur), "");
	assert_null(line_next(&cur));
	cur = NULL;
	assert_null(line_next(&cur));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_basic),
		cmocka_unit_test(test_shell_key_prefix),
		cmocka_unit_test(test_shell_indented_empty_quotes),
		cmocka_unit_test(test_shell_missing),
		cmocka_unit_test(test_shell_truncation),
		cmocka_unit_test(test_shell_long_value),
		cmocka_unit_test(test_colon_cpuinfo),
		cmocka_unit_test(test_colon_meminfo),
		cmocka_unit_test(test_colon_truncation_and_long),
		cmocka_unit_test(test_line_next),
		cmocka_unit_test(test_line_next_edges),
	};

	return cmocka_run_group_tests_name("kv", tests, NULL, NULL);
}
