/* Unit tests for src/util/termsafe.c. */
#include "testutil.h"

#include "util/termsafe.h"

static void expect(const char *in, size_t n, bool keep_color, const char *want)
{
	char *out = NULL;
	size_t len = 0;

	assert_int_equal(termsafe_escape(in, n, keep_color, &out, &len), 0);
	if (strcmp(out, want) != 0)
		fail_msg("termsafe(\"%s\") = \"%s\", want \"%s\"", in, out, want);
	assert_int_equal(len, strlen(want));
	free(out);
}

#define EXPECT(in, keep, want) expect(in, sizeof(in) - 1, keep, want)

static void test_plain_text_unchanged(void **state)
{
	(void)state;
	EXPECT("gpudoctor: READY\n\tfix: sudo reboot\n", false, "gpudoctor: READY\n\tfix: sudo reboot\n");
	EXPECT("", false, "");
	/* well-formed UTF-8 stays: the guides' readers write Chinese */
	EXPECT("显卡驱动 é ✓", false, "显卡驱动 é ✓");
}

static void test_controls_escaped(void **state)
{
	(void)state;
	/* the attack from a hostile /proc/sys/kernel/osrelease: erase the line, go back, print a lie */
	EXPECT("5.15.0\x1b[2K\rFAKE\n", false, "5.15.0\\x1b[2K\\x0dFAKE\n");
	EXPECT("a\bb\x7f" "c\x07", false, "a\\x08b\\x7fc\\x07");
	EXPECT("nul\0byte", false, "nul\\x00byte");
	/* an OSC window-title sequence */
	EXPECT("\x1b]0;owned\x07", false, "\\x1b]0;owned\\x07");
}

static void test_color_kept_only_when_asked(void **state)
{
	(void)state;
	EXPECT("\x1b[1;31merror\x1b[0m", true, "\x1b[1;31merror\x1b[0m");
	EXPECT("\x1b[1;31merror\x1b[0m", false, "\\x1b[1;31merror\\x1b[0m");
	/* only colour: cursor movement and erasing are escaped even then */
	EXPECT("\x1b[2K\x1b[1A\x1b[31", true, "\\x1b[2K\\x1b[1A\\x1b[31");
}

static void test_bad_utf8_and_hidden_code_points(void **state)
{
	(void)state;
	/* 8-bit CSI, a lone continuation byte, a truncated sequence, an overlong '/' */
	EXPECT("\x9b" "2J|\x80|\xe6\x98|\xc0\xaf", false, "\\x9b2J|\\x80|\\xe6\\x98|\\xc0\\xaf");
	/* C1 control NEL (U+0085) and a right-to-left override (U+202E) */
	EXPECT("a\xc2\x85" "b\xe2\x80\xae" "c", false, "a\\u0085b\\u202ec");
	/* a UTF-16 surrogate encoded in UTF-8 is not UTF-8 */
	EXPECT("\xed\xa0\x80", false, "\\xed\\xa0\\x80");
}

static void test_worst_case_fits(void **state)
{
	char in[256], *out;
	size_t len;

	(void)state;
	for (int i = 0; i < 256; i++)
		in[i] = (char)(i < 32 ? i : 0xff);
	assert_int_equal(termsafe_escape(in, sizeof(in), false, &out, &len), 0);
	assert_int_equal(len, 256 * 4 - 2 * 3);	/* \n and \t stay one byte each */
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_unchanged),
		cmocka_unit_test(test_controls_escaped),
		cmocka_unit_test(test_color_kept_only_when_asked),
		cmocka_unit_test(test_bad_utf8_and_hidden_code_points),
		cmocka_unit_test(test_worst_case_fits),
	};

	return cmocka_run_group_tests_name("termsafe", tests, NULL, NULL);
}
