/*
 * test_dwidth.c - display columns (util/dwidth.h) and wrapping by them
 * (report/textfmt.h): Chinese takes two columns a character, a line breaks
 * between two of them, never inside a UTF-8 sequence, a command or a path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/textfmt.h"
#include "util/dwidth.h"

static void test_char_widths(void **state)
{
	(void)state;
	assert_int_equal(dw_char_width('a'), 1);
	assert_int_equal(dw_char_width(0x00E9), 1);	/* é: narrow */
	assert_int_equal(dw_char_width(0x2014), 1);	/* — EM DASH: ambiguous, one column */
	assert_int_equal(dw_char_width(0x4E2D), 2);	/* 中 */
	assert_int_equal(dw_char_width(0x9F98), 2);	/* 龘 */
	assert_int_equal(dw_char_width(0x3400), 2);	/* CJK Extension A's first */
	assert_int_equal(dw_char_width(0xFF0C), 2);	/* ， FULLWIDTH COMMA (F) */
	assert_int_equal(dw_char_width(0x3002), 2);	/* 。 */
	assert_int_equal(dw_char_width(0xFF61), 1);	/* ｡ HALFWIDTH IDEOGRAPHIC FULL STOP (H) */
	assert_int_equal(dw_char_width(0xAC00), 2);	/* 가 Hangul */
	assert_int_equal(dw_char_width(0x1F600), 2);	/* 😀 (W since Unicode 9) */
	assert_int_equal(dw_char_width(0x20000), 2);	/* CJK Extension B */
	assert_int_equal(dw_char_width(0x10FFFF), 1);
}

static void test_string_width(void **state)
{
	const char *s = "显存不足：CUDA out of memory";

	(void)state;
	assert_int_equal(dw_width(s, strlen(s)), 4 * 2 + 2 + 18);
	assert_int_equal(dw_width("PyTorch环境", strlen("PyTorch环境")), 7 + 4);
	/* a cut sequence is one column per byte, never a read past the end */
	assert_int_equal(dw_width("\xE4\xB8", 2), 2);
	assert_int_equal(dw_width("\xFF", 1), 1);
}

static void test_decode(void **state)
{
	uint32_t cp;

	(void)state;
	assert_int_equal(dw_decode("中", 3, &cp), 3);
	assert_int_equal(cp, 0x4E2D);
	assert_int_equal(dw_decode("\xC0\xAF", 2, &cp), 1);	/* overlong '/' */
	assert_int_equal(cp, 0xFFFD);
	assert_int_equal(dw_decode("\xED\xA0\x80", 3, &cp), 1);	/* a surrogate */
	assert_int_equal(dw_decode("\xF0\x9F\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1F600);
}

static void test_breaks(void **state)
{
	(void)state;
	assert_true(dw_can_break(0x9A71, 0x52A8));	/* 驱|动 */
	assert_true(dw_can_break('A', 0x7248));		/* CUDA|版 */
	assert_false(dw_can_break('a', 'b'));		/* never inside ASCII */
	assert_false(dw_can_break(0x9A71, 0xFF0C));	/* never before ， */
	assert_false(dw_can_break(0x9A71, 0x3002));	/* never before 。 */
	assert_false(dw_can_break(0xFF08, 0x9A71));	/* never after （ */
	assert_false(dw_can_break(0x52A8, ':'));
}

/* text wrapped at width by tf_wrap (indent 2, hang 4), as a string the caller frees. */
static char *wrap(const char *text, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct textfmt t = { .out = out, .color = false, .width = width };

	assert_non_null(out);
	tf_wrap(&t, 2, 4, text);
	fclose(out);
	return buf;
}

/* Every line of text fits width display columns, and no line starts with a continuation byte. */
static void assert_fits(const char *text, int width)
{
	while (*text) {
		size_t len = strcspn(text, "\n");

		assert_true(dw_width(text, len) <= width);
		assert_true(((unsigned char)text[0] & 0xC0) != 0x80);
		text += len + (text[len] == '\n');
	}
}

static void test_wrap_chinese(void **state)
{
	const char *sentence = "驱动590.48.01（590分支）已不再支持Tesla V100 PCIe 16GB：580是支持Volta GPU的最后一个"
			       "分支，因此内核模块会忽略它，也找不到其他GPU，于是不会加载。请安装580分支（或更早）的驱动。";
	char *out = wrap(sentence, 80), *cmd;

	(void)state;
	assert_fits(out, 80);
	assert_non_null(strchr(out, '\n'));	/* it did wrap, with no space to wrap at in the Chinese */
	/* the words are all there, in order: only spaces and newlines were added */
	{
		char *flat = malloc(strlen(out) + 1), *q = flat;

		for (const char *p = out; *p; p++)
			if (*p != '\n' && *p != ' ')
				*q++ = *p;
		*q = '\0';
		q = malloc(strlen(sentence) + 1);
		{
			char *r = q;

			for (const char *p = sentence; *p; p++)
				if (*p != ' ')
					*r++ = *p;
			*r = '\0';
		}
		assert_string_equal(flat, q);
		free(flat);
		free(q);
	}
	/* no line starts with closing punctuation */
	for (const char *p = strchr(out, '\n'); p; p = strchr(p + 1, '\n')) {
		const char *s = p + 1;

		while (*s == ' ')
			s++;
		assert_false(strncmp(s, "，", 3) == 0 || strncmp(s, "。", 3) == 0 || strncmp(s, "）", 3) == 0);
	}
	free(out);

	/* a path or command in Chinese text stays whole on one line */
	cmd = wrap("在终端里运行下面的命令，确认已加载的内核模块与已安装的库版本一致：/proc/driver/nvidia/version，"
		   "然后用sudo apt-get install nvidia-driver-580重新安装驱动。", 40);
	assert_fits(cmd, 40);
	assert_non_null(strstr(cmd, "/proc/driver/nvidia/version"));
	assert_non_null(strstr(cmd, "nvidia-driver-580"));
	free(cmd);
}

static void test_wrap_english_unchanged(void **state)
{
	char *out = wrap("the NVIDIA kernel module is not loaded, so no program can use the GPU", 30);

	(void)state;
	assert_string_equal(out, "  the NVIDIA kernel module is\n    not loaded, so no program\n    can use the GPU\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_char_widths),
		cmocka_unit_test(test_string_width),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_breaks),
		cmocka_unit_test(test_wrap_chinese),
		cmocka_unit_test(test_wrap_english_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
