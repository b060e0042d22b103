/* Unit tests for src/explain/clean.c */
#include "testutil.h"

#include "explain/clean.h"

/* clean_posted over a copy of in must give want, byte for byte. */
static void expect_posted(const char *in, const char *want)
{
	char buf[512];
	size_t n = strlen(in);

	assert_true(n < sizeof(buf));
	memcpy(buf, in, n + 1);
	n = clean_posted(buf, n);
	buf[n] = '\0';
	if (strcmp(buf, want) != 0)
		fail_msg("\"%s\" -> \"%s\", want \"%s\"", in, buf, want);
}

static void test_quote_markers(void **state)
{
	(void)state;
	expect_posted("> RuntimeError: CUDA error\n", "RuntimeError: CUDA error\n");
	expect_posted("> > nested\n>no space\n   > three spaces\n", "nested\nno space\nthree spaces\n");
	/* a Python prompt, a quoted one, a comparison and four spaces (code) are text */
	expect_posted(">>> import torch\n", ">>> import torch\n");
	expect_posted("> >>> torch.cuda.is_available()\n", ">>> torch.cuda.is_available()\n");
	expect_posted(">= 525.60.13\n", ">= 525.60.13\n");
	expect_posted("    > not a quote\n", "    > not a quote\n");
	expect_posted("a > b\n", "a > b\n");
}

static void test_markdown_escapes(void **state)
{
	(void)state;
	expect_posted("CUDA\\_VISIBLE\\_DEVICES=0 torch.\\_C \\*args\n", "CUDA_VISIBLE_DEVICES=0 torch._C *args\n");
	expect_posted("a \\\\ b\n", "a \\ b\n");
	/* a backslash before a letter: a Windows path, every backslash stays */
	expect_posted("C:\\Users\\me\\torch\\__init__.py\n", "C:\\Users\\me\\torch\\__init__.py\n");
	expect_posted("torch\\lib\\cudnn64\\_8.dll\n", "torch\\lib\\cudnn64\\_8.dll\n");
	/* each line is judged alone */
	expect_posted("torch.\\_C\nC:\\x\\_y\n", "torch._C\nC:\\x\\_y\n");
	expect_posted("ends in a backslash \\\n", "ends in a backslash \\\n");
}

static void test_typography_and_entities(void **state)
{
	(void)state;
	expect_posted("module \xe2\x80\x98torch._C\xe2\x80\x99 has no attribute \xe2\x80\x9c_cuda\xe2\x80\x9d\n",
		      "module 'torch._C' has no attribute \"_cuda\"\n");
	expect_posted("module &#39;torch&#x27; &quot;x&quot; &lt;stdin&gt; a &amp; b&nbsp;c\n",
		      "module 'torch' \"x\" <stdin> a & b c\n");
	expect_posted("&#8217;q&#8220;\n", "'q\"\n");
	/* not references, or ones a message never carries: left as they are */
	expect_posted("R&D &#; &#x; &#12345678; &#9731; &copy; & a;\n", "R&D &#; &#x; &#12345678; &#9731; &copy; & a;\n");
	expect_posted("no\xc2\xa0" "break zero\xe2\x80\x8bwidth\n", "no break zerowidth\n");
	expect_posted("\xef\xbb\xbfRuntimeError\n", "RuntimeError\n");
	/* full-width ASCII and the ideographic space of a Chinese input method */
	expect_posted("Cuda\xef\xbc\x9a out of memory\xef\xbc\x88\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x89\xe3\x80\x80\xef\xbd\x9e\n",
		      "Cuda: out of memory(\xe6\x98\xbe\xe5\xad\x98) ~\n");
	/* other UTF-8 stays whole: an em dash, Chinese text, the ideographic full stop */
	expect_posted("a \xe2\x80\x94 b \xe6\x98\xbe\xe5\x8d\xa1\xe3\x80\x82\n", "a \xe2\x80\x94 b \xe6\x98\xbe\xe5\x8d\xa1\xe3\x80\x82\n");
	/* a sequence cut at the end of the text is copied as it is */
	expect_posted("x\xe2\x80", "x\xe2\x80");
	expect_posted("x&#39", "x&#39");
}

static void test_line_ends_and_lengths(void **state)
{
	char buf[] = "> a\r\nb\r\n\r\nc\rd\r";
	size_t n;

	(void)state;
	n = clean_posted(buf, strlen(buf));
	buf[n] = '\0';
	/* the '\r' before a newline (and at the very end) goes; one inside a line (a progress bar) stays */
	assert_string_equal(buf, "a\nb\n\nc\rd");
	assert_int_equal(clean_posted(buf, 0), 0);
	expect_posted("\n\n", "\n\n");
	expect_posted("plain text, nothing to undo\n", "plain text, nothing to undo\n");
}

static void test_ansi(void **state)
{
	char buf[] = "\033[31mRuntimeError\033[0m: x\033]0;title\007 y\033(B z\n";
	size_t n;

	(void)state;
	n = clean_ansi(buf, strlen(buf));
	buf[n] = '\0';
	assert_string_equal(buf, "RuntimeError: x y z\n");
}

/* clean_unwrap over a copy of in must give want (of the same length) and join joined line breaks. */
static void expect_unwrapped(const char *in, const char *want, size_t joined)
{
	char buf[512];
	size_t n = strlen(in), got;

	assert_true(n < sizeof(buf));
	assert_int_equal(strlen(want), n);
	memcpy(buf, in, n + 1);
	got = clean_unwrap(buf, n);
	if (strcmp(buf, want) != 0)
		fail_msg("\"%s\" -> \"%s\", want \"%s\"", in, buf, want);
	assert_int_equal(got, joined);
}

static void test_unwrap(void **state)
{
	(void)state;
	/* a sentence broken after a word, and before a parenthesis: one blank where it broke, the saved
	 * blanks at the sentence's end, so the newline after it stays where it was */
	expect_unwrapped("UserWarning: CUDA initialization: The NVIDIA driver on your \nsystem is too old\nnext\n",
			 "UserWarning: CUDA initialization: The NVIDIA driver on your system is too old \nnext\n", 1);
	expect_unwrapped("RuntimeError: Input type (torch.FloatTensor) and weight type\n(torch.cuda.FloatTensor) "
			 "should be the same\n",
			 "RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) "
			 "should be the same\n", 1);
	/* text indented as code: the continued line's margin goes too */
	expect_unwrapped("    UserWarning: CUDA initialization: The NVIDIA driver on your\n    system is too old\n",
			 "    UserWarning: CUDA initialization: The NVIDIA driver on your system is too old    \n", 1);
	/* three lines of one sentence */
	expect_unwrapped("this line is long enough to be wrapped prose that goes\non for a while, long enough to be "
			 "wrapped\nagain\n",
			 "this line is long enough to be wrapped prose that goes on for a while, long enough to be "
			 "wrapped again\n", 2);
	/* not joined: a short line, a line that ends a sentence, a next line that starts in upper case, with a
	 * command, a file mode or a version, or indented; column output */
	expect_unwrapped("short line\nand more\n", "short line\nand more\n", 0);
	expect_unwrapped("RuntimeError: CUDA error: out of memory happened here.\nnext line\n",
			 "RuntimeError: CUDA error: out of memory happened here.\nnext line\n", 0);
	expect_unwrapped("RuntimeError: CUDA error: out of memory happened here\nCUDA kernel errors\n",
			 "RuntimeError: CUDA error: out of memory happened here\nCUDA kernel errors\n", 0);
	expect_unwrapped("the driver was installed with the package manager and\nnvidia-smi says nothing\n",
			 "the driver was installed with the package manager and\nnvidia-smi says nothing\n", 0);
	expect_unwrapped("crw-rw-rw- 1 root root 195, 0 Jan  1 00:00 /dev/nvidia0\ncrw-rw-rw- 1 root root\n",
			 "crw-rw-rw- 1 root root 195, 0 Jan  1 00:00 /dev/nvidia0\ncrw-rw-rw- 1 root root\n", 0);
	expect_unwrapped("the packages installed in this environment are listed here\ntorch==2.1.0\n",
			 "the packages installed in this environment are listed here\ntorch==2.1.0\n", 0);
	expect_unwrapped("  File \"/home/a/train.py\", line 42, in <module> model\n    loss = step(batch)\n",
			 "  File \"/home/a/train.py\", line 42, in <module> model\n    loss = step(batch)\n", 0);
	expect_unwrapped("nvidia-cublas-cu12           12.1.3.1 and more text here\nnvidia-cudnn-cu12 8.9\n",
			 "nvidia-cublas-cu12           12.1.3.1 and more text here\nnvidia-cudnn-cu12 8.9\n", 0);
	expect_unwrapped("", "", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_markers),
		cmocka_unit_test(test_markdown_escapes),
		cmocka_unit_test(test_typography_and_entities),
		cmocka_unit_test(test_line_ends_and_lengths),
		cmocka_unit_test(test_ansi),
		cmocka_unit_test(test_unwrap),
	};

	return cmocka_run_group_tests_name("clean", tests, NULL, NULL);
}
