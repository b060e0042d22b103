/*
 * Unit tests for src/explain/: the streaming scanner (buffer seams, line
 * numbers, ANSI and \r clean-up, --tee), the ranking (causality over count,
 * Xid lookup, the OOM judgement, the differential of symptoms and ambiguous
 * messages) and the consistency of the compiled-in catalog
 * (data/explain_signatures.tsv, data/xid.tsv, data/explain_alternatives.tsv).
 */
#include "testutil.h"

#include "explain/explain.h"
#include "explain/join.h"
#include "explain/scan_internal.h"
#include "explain/paste_merge.h"
#include "paste/paste.h"
#include "kb/kb.h"
#include "util/str.h"

static const char oom_old[] =
	"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity; 5.12 GiB "
	"already allocated; 1.23 GiB free; 6.00 GiB reserved in total by PyTorch)";
static const char oom_fragmented[] =
	"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 "
	"GiB of which 9.94 MiB is free. Including non-PyTorch memory, this process has 79.13 GiB memory in use. Of the "
	"allocated memory 70.23 GiB is allocated by PyTorch, and 8.41 GiB is reserved by PyTorch but unallocated. If "
	"reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
	"fragmentation.";
static const char xid79[] = "[ 1234.567] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.";

/* Scan text, rank it; the caller releases both. */
static struct explain_scanner *scan(const char *text, size_t len, struct explain_report *r)
{
	struct error err;
	struct explain_scanner *s = explain_open(&err);

	assert_non_null(s);
	assert_int_equal(explain_feed_text(s, text, len, "test", &err), 0);
	assert_int_equal(explain_rank(s, r), 0);
	return s;
}

static const char *value(const struct explain_cause *c, const char *name)
{
	for (int i = 0; i < c->nvalues; i++)
		if (strcmp(c->values[i].name, name) == 0)
			return c->values[i].value;
	return NULL;
}

static void test_parse_size(void **state)
{
	(void)state;
	assert_true(explain_parse_size("2.00 GiB") == 2147483648.0);
	assert_true(explain_parse_size("405.77 MiB") > 405.76 * 1048576 && explain_parse_size("405.77 MiB") < 405.78 * 1048576);
	assert_true(explain_parse_size("1024 bytes") == 1024);
	assert_true(explain_parse_size("0 bytes") == 0);
	assert_true(explain_parse_size("GiB") < 0);
	assert_true(explain_parse_size("12 parsecs") < 0);
}

static void test_catalog_consistent(void **state)
{
	const struct kb_table *t = &kb_table_explain_signatures;
	enum cause_id cause_id;

	(void)state;
	assert_true(t->nrows >= 70);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *id = kb_field(t, r, "id"), *cause = kb_field(t, r, "cause");

		/* ids are unique; causes are in the chain (or looked up by Xid) */
		for (size_t k = r + 1; k < t->nrows; k++)
			if (strcmp(id, kb_field(t, k, "id")) == 0)
				fail_msg("data/explain_signatures.tsv:%d: id %s repeats at line %d", t->lines[r], id, t->lines[k]);
		if (strcmp(cause, "@xid") != 0 && strcmp(cause, "@symptom") != 0 && strcmp(cause, "@topic") != 0 &&
		    strcmp(cause, "@trouble") != 0 &&
		    !cause_by_name(cause, &cause_id))
			fail_msg("data/explain_signatures.tsv:%d: cause %s is not in the registry", t->lines[r], cause);
		/* catalog_confidence() falls back to 50 on a malformed cell */
		if (strcmp(kb_field(t, r, "confidence"), "50") != 0 && catalog_confidence(r) == 50)
			fail_msg("data/explain_signatures.tsv:%d: confidence is not 1..100", t->lines[r]);
		if (!str_starts_with(kb_field(t, r, "source"), "http"))
			fail_msg("data/explain_signatures.tsv:%d: the source is not an address", t->lines[r]);
		if (!kb_field(t, r, "title")[0] || !kb_field(t, r, "detail")[0])
			fail_msg("data/explain_signatures.tsv:%d: no title or detail", t->lines[r]);
		/* patterns match bytes, not characters: a quantifier after a multi-byte character (UTF-8) applies to its
		 * last byte only, so "的?" needs "(?:的)?" */
		for (const char *c = kb_field(t, r, "pattern"); *c; c++)
			if ((unsigned char)c[0] >= 0x80 && (c[1] == '?' || c[1] == '*' || c[1] == '+' || c[1] == '{'))
				fail_msg("data/explain_signatures.tsv:%d: a quantifier after a multi-byte character", t->lines[r]);
	}
	t = &kb_table_xid;
	assert_true(t->nrows >= 20);
	for (size_t r = 0; r < t->nrows; r++)
		if (!cause_by_name(kb_field(t, r, "cause"), &cause_id))
			fail_msg("data/xid.tsv:%d: cause %s is not in the registry", t->lines[r], kb_field(t, r, "cause"));
}

/* The REPL form of the symptom, inside a Markdown fence and a quoted reply, as issue bodies hold it. */
static const char symptom_repl[] = "> I tried this:\n> ```python\n> >>> import torch\n> >>> torch.cuda.is_available()\n> False\n> ```\n";

static void test_symptom_offers_causes(void **state)
{
	struct explain_report r;
	struct explain_scanner *s = scan(symptom_repl, sizeof(symptom_repl) - 1, &r);

	(void)state;
	assert_true(r.count >= 3);
	/* every cause is suggested, ranked by prior, each with a check */
	for (size_t i = 0; i < r.count; i++) {
		assert_true(r.causes[i].suggested);
		assert_true(r.causes[i].nchecks >= 1);
		assert_string_equal(r.causes[i].checks[0].of, "symptom.cuda-unavailable-repl");
		if (i > 0)
			assert_true(r.causes[i - 1].prior >= r.causes[i].prior);
	}
	assert_string_equal(cause_name(r.causes[0].cause), "torch.cpu-only");
	assert_int_equal(r.causes[0].lines[0].number, 5);	/* a match that spans lines belongs to its last */
	explain_report_release(&r);
	explain_close(s);
}

/* collect_env of pytorch/pytorch#112553 (torch 2.1.0+cu121, driver 470.182.03), whole and in part */
static const char collect_env_470[] = "PyTorch version: 2.1.0+cu121\n"
				      "CUDA used to build PyTorch: 12.1\n"
				      "Is CUDA available: %s\n"
				      "GPU models and configuration: GPU 0: Tesla T4\n"
				      "Nvidia driver version: 470.182.03\n";

/* The position of cause in r, or -1. */
static int cause_at(const struct explain_report *r, enum cause_id cause)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->causes[i].cause == cause)
			return (int)i;
	return -1;
}

/* Like cause_at, but a guess from what the text speaks of does not count. */
static int recognised_at(const struct explain_report *r, enum cause_id cause)
{
	int at = cause_at(r, cause);

	return at >= 0 && r->causes[at].guessed ? -1 : at;
}

/* text scanned and ranked with what its paste shows merged in; the caller releases r and closes s. */
static struct explain_scanner *scan_merged(const char *text, struct explain_report *r)
{
	struct explain_scanner *s = scan(text, strlen(text), r);

	assert_int_equal(explain_merge_paste(s, r), 0);
	return s;
}

static void release(struct explain_report *r, struct explain_scanner *s)
{
	explain_report_release(r);
	explain_close(s);
}

/* The first cause a message, symptom or fact gives (a guess from a topic is none: CAUSE_COUNT). */
static void expect_first(const char *text, enum cause_id want)
{
	struct explain_report r;
	struct explain_scanner *s = scan_merged(text, &r);
	enum cause_id got = r.count && !r.causes[0].guessed ? r.causes[0].cause : CAUSE_COUNT;

	if (got != want)
		fail_msg("\"%s\": first cause %s, want %s", text, got == CAUSE_COUNT ? "none" : cause_name(got),
			 want == CAUSE_COUNT ? "none" : cause_name(want));
	release(&r, s);
}

/*
 * Nothing recognised, and the first guess from what the text speaks of is want (CAUSE_COUNT: no guess at
 * all); every cause is a guess, none has a fix of its own, each has a check, and none reaches 30.
 */
static void expect_guess(const char *text, enum cause_id want)
{
	struct explain_report r;
	struct explain_scanner *s = scan_merged(text, &r);
	enum cause_id got = r.count ? r.causes[0].cause : CAUSE_COUNT;

	if (got != want)
		fail_msg("\"%s\": first guess %s, want %s", text, got == CAUSE_COUNT ? "none" : cause_name(got),
			 want == CAUSE_COUNT ? "none" : cause_name(want));
	assert_false(explain_recognised(&r));
	for (size_t i = 0; i < r.count; i++) {
		assert_true(r.causes[i].guessed);
		assert_true(r.causes[i].suggested);
		assert_int_equal(r.causes[i].nfix, 0);
		assert_true(r.causes[i].nchecks > 0);
		assert_true(r.causes[i].confidence > 0 && r.causes[i].confidence < 30);
	}
	release(&r, s);
}

/*
 * What the text speaks of, where nothing is recognised but trouble is reported: guesses from the topic rows,
 * the strongest sum first (CUDA_VISIBLE_DEVICES at 25 over a container at 18); without trouble reported there
 * is no guess; words inside other words, a MAC address and torch.compile speak of nothing; a message or a fact
 * the paste shows leaves no room for a guess.
 */
static void test_topics_guess(void **state)
{
	static const char versions[] =
		"| NVIDIA-SMI 550.120                Driver Version: 550.120        CUDA Version: 12.4     |\n"
		"nvcc: NVIDIA (R) Cuda compiler driver\n"
		"Cuda compilation tools, release 12.8, V12.8.61\n"
		"I think the driver version is fine\n";
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	expect_guess("help: I deploy the pods on GKE nodes with a T4\n", CAUSE_CONTAINER_NO_GPU);
	/* the word "container" gave the guess; the same word does not confirm it (a prompt or a run line would) */
	expect_guess("it fails inside our docker container, any idea?\n", CAUSE_CONTAINER_NO_GPU);
	expect_guess("I trained it on a server and now I evaluate it on my laptop, which fails\n", CAUSE_TORCH_CUDA_UNAVAILABLE);
	expect_guess("building the extension with nvcc stops right there, why?\n", CAUSE_TOOLKIT_NOT_INSTALLED);
	expect_guess("the pods set CUDA_VISIBLE_DEVICES themselves, is that a problem?\n", CAUSE_ENV_VISIBLE_DEVICES);
	/* no trouble reported: what a clean log speaks of is no guess */
	expect_guess("the pods run on GKE nodes with a T4\n", CAUSE_COUNT);
	expect_guess("epoch 3 | batch_size 64 | error_rate 0.012 | docker image v2\n", CAUSE_COUNT);
	expect_guess("PC装有NVIDIA MX250显卡, 用 open-gpu-kernel-modules 编译, insmod 检测不到设备\n",
		     CAUSE_DRIVER_OPEN_MODULE_UNSUPPORTED);
	expect_guess("a podcast about macaroni and hippos is not working\n", CAUSE_COUNT);
	expect_guess("the MAC address of eth0 changed, a problem?\n", CAUSE_COUNT);
	expect_guess("torch.compile makes the first step fail\n", CAUSE_COUNT);
	/* a message leaves no guess */
	s = scan_merged("inside docker: RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
			&r);
	assert_true(explain_recognised(&r));
	for (size_t i = 0; i < r.count; i++)
		assert_false(r.causes[i].guessed);
	release(&r, s);
	/* nor does a fact the paste shows: it ranks before every guess (a toolkit cause at 40 too) */
	s = scan_merged(versions, &r);
	assert_true(explain_recognised(&r));
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NEWER_THAN_DRIVER);
	assert_false(r.causes[0].guessed);
	release(&r, s);
}

/*
 * Prose rows (topics, trouble, context.*) are read over the first 8 MiB only, like the paste's reports;
 * messages over everything: after 9 MiB of training output, "I am on a MacBook" is not read, the Xid is.
 */
static void test_prose_first_bytes(void **state)
{
	static const char filler[] = "step 1 | loss 0.5 | lr 3.0e-04 | tokens/s 51234\n";
	static const char tail[] = "help: I am on a MacBook\n";
	size_t n = 9u << 20, at = 0;
	char *text = malloc(n + sizeof(tail) + sizeof(xid79) + 1);
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	assert_non_null(text);
	while (at + sizeof(filler) - 1 <= n) {
		memcpy(text + at, filler, sizeof(filler) - 1);
		at += sizeof(filler) - 1;
	}
	memcpy(text + at, tail, sizeof(tail) - 1);
	s = scan(text, at + sizeof(tail) - 1, &r);
	assert_int_equal(r.count, 0);	/* neither the context row nor the topic nor trouble reported */
	release(&r, s);
	memcpy(text + at + sizeof(tail) - 1, xid79, sizeof(xid79) - 1);
	text[at + sizeof(tail) - 1 + sizeof(xid79) - 1] = '\n';
	s = scan(text, at + sizeof(tail) + sizeof(xid79) - 1, &r);
	assert_true(r.count > 0);
	assert_int_equal(r.causes[0].cause, CAUSE_GPU_HARDWARE_FAULT);
	assert_int_equal(cause_at(&r, CAUSE_GPU_NONE), -1);
	release(&r, s);
	/* the same line at the start is read */
	s = scan(tail, sizeof(tail) - 1, &r);
	assert_int_equal(cause_at(&r, CAUSE_GPU_NONE), 0);
	release(&r, s);
	free(text);
}

/*
 * The versions predict torch.driver-too-old, with the rule's words for the pasted machine; where the same
 * paste shows torch.cuda.is_available() True (a forward-compatibility package can make that so), the
 * prediction is withdrawn: torch's own answer wins.
 */
static void test_paste_cuda_available_decides(void **state)
{
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;
	int at;

	(void)state;
	snprintf(text, sizeof(text), collect_env_470, "False");
	s = scan_merged(text, &r);
	at = cause_at(&r, CAUSE_TORCH_DRIVER_TOO_OLD);
	assert_int_equal(at, 0);
	assert_int_not_equal(r.causes[0].from, EXPLAIN_FROM_SIGNATURE);	/* the rule concluded it */
	assert_non_null(strstr(r.causes[0].paste_evidence, "needs NVIDIA driver >= 525.60.13; the pasted machine has "
							    "470.182.03"));
	assert_int_equal(r.paste->cuda_available, 0);
	release(&r, s);

	snprintf(text, sizeof(text), collect_env_470, "True");
	s = scan_merged(text, &r);
	assert_int_equal(cause_at(&r, CAUSE_TORCH_DRIVER_TOO_OLD), -1);
	assert_int_equal(r.paste->cuda_available, 1);
	release(&r, s);
}

/*
 * facebookresearch/seamless_communication#167: cuDNN cannot open libcuda.so. Alone it reads as a missing
 * library first; with the text's "Ubuntu Subsystem on Windows", WSL's driver set-up moves first.
 */
static void test_wsl_named_settles_libcuda(void **state)
{
	static const char error[] = "\"Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open "
				    "shared object file: No such file or directory\"\n";
	static const char wsl[] = "i'm using Python 3.10.12 and followed the instructions as it shows to run on a Ubuntu "
				  "Subsystem on Windows.\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(error, &r);
	assert_int_not_equal(r.causes[0].cause, CAUSE_WSL_DRIVER);
	assert_true(cause_at(&r, CAUSE_WSL_DRIVER) > 0);
	release(&r, s);

	snprintf(text, sizeof(text), "%s\n%s", error, wsl);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_WSL_DRIVER);
	assert_int_equal(r.causes[0].from, EXPLAIN_FROM_BOTH);
	assert_non_null(strstr(r.causes[0].paste_evidence, "the text names WSL (line 3)"));
	release(&r, s);
}

/*
 * A container the paste shows settles "Found no NVIDIA driver" as container.no-gpu (the text offered it);
 * a run line that asked for GPUs keeps the differential's order.
 */
static void test_container_settles_missing_driver(void **state)
{
	static const char error[] = "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
				    "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n";
	static const char *const shown[] = {
		"I haven't really used `docker-compose` much\n",
		"$ sudo docker run  -t -i floydhub/pytorch:latest-gpu-py3 ipython\n",
		"root@3f2a9c1b7d4e:/workspace# python train.py\n",
	};
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(error, &r);
	assert_int_not_equal(r.causes[0].cause, CAUSE_CONTAINER_NO_GPU);
	assert_true(cause_at(&r, CAUSE_CONTAINER_NO_GPU) > 0);
	release(&r, s);

	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", shown[i], error);
		s = scan_merged(text, &r);
		assert_int_equal(r.causes[0].cause, CAUSE_CONTAINER_NO_GPU);
		assert_int_equal(r.causes[0].from, EXPLAIN_FROM_BOTH);
		assert_non_null(strstr(r.causes[0].paste_evidence, "a container started without GPUs"));
		release(&r, s);
	}

	snprintf(text, sizeof(text), "$ docker run --gpus all -it img python\n%s", error);
	s = scan_merged(text, &r);
	assert_int_not_equal(r.causes[0].cause, CAUSE_CONTAINER_NO_GPU);
	release(&r, s);
}

/*
 * A hosted notebook settles "Found no NVIDIA driver" as gpu.none (lllyasviel/Fooocus#1204: a Colab runtime
 * without a GPU); out of a notebook, and for an error no missing GPU explains, the order stays.
 */
static void test_notebook_settles_missing_driver(void **state)
{
	static const char error[] = "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
				    "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n";
	static const char oom[] = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(error, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_DRIVER_NOT_INSTALLED);
	assert_true(cause_at(&r, CAUSE_GPU_NONE) > 0);
	release(&r, s);

	snprintf(text, sizeof(text), "%%cd /content\n!python entry_with_update.py --share\n%s", error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_GPU_NONE);
	assert_int_equal(r.causes[0].from, EXPLAIN_FROM_BOTH);
	assert_non_null(strstr(r.causes[0].paste_evidence, "Runtime > Change runtime type"));
	assert_non_null(strstr(r.causes[0].paste_evidence, "the text shows Google Colab (line 1)"));
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_NOT_INSTALLED), 1);
	release(&r, s);

	snprintf(text, sizeof(text), "%%cd /content\n%s", oom);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_RUNTIME_OUT_OF_MEMORY);
	assert_int_equal(cause_at(&r, CAUSE_GPU_NONE), -1);
	release(&r, s);
}

/*
 * nvidia-smi's "couldn't communicate" inside a container started without GPUs (mattshma/bigdata#108: the host's
 * nvidia-smi mounted in by hand): a prompt with a container id settles it as container.no-gpu; prose naming
 * docker does not, since a host's unloaded module prints the same.
 */
static void test_container_prompt_settles_unreachable_driver(void **state)
{
	static const char error[] = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
				    "sure that the latest NVIDIA driver is installed and running.\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	snprintf(text, sizeof(text), "I installed docker yesterday.\n%s", error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_DRIVER_NOT_LOADED);
	assert_true(cause_at(&r, CAUSE_CONTAINER_NO_GPU) > 0);
	release(&r, s);

	snprintf(text, sizeof(text), "root@3f2a9c1b7d4e:/workspace# nvidia-smi\n%s", error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_CONTAINER_NO_GPU);
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_NOT_LOADED), 1);
	release(&r, s);
}

/*
 * is_available() False after a REPL that printed a CUDA build of torch: the paste's fact rules out the
 * CPU-only build the symptom would rank first; with nvidia-smi's header too, the driver that answered rules
 * out a driver not loaded, and a driver new enough for torch's CUDA rules out one too old.
 */
static void test_paste_rules_out_contradicted(void **state)
{
	static const char repl[] = ">>> import torch\n>>> torch.__version__\n'2.1.0+cu121'\n>>> torch.cuda.is_available()\nFalse\n";
	static const char smi[] = "| NVIDIA-SMI %s             Driver Version: %s     CUDA Version: 12.2     |\n";
	char text[1024], header[256];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(repl, &r);
	assert_int_equal(cause_at(&r, CAUSE_TORCH_CPU_ONLY), -1);
	assert_int_equal(r.nruled_out, 1);
	assert_int_equal(r.ruled_out[0].cause, CAUSE_TORCH_CPU_ONLY);
	assert_string_equal(r.ruled_out[0].by, "line 3 shows torch 2.1.0+cu121, built with CUDA 12.1");
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_DRIVER_TOO_OLD);
	release(&r, s);

	snprintf(header, sizeof(header), smi, "535.104.05", "535.104.05");
	snprintf(text, sizeof(text), "%s%s", header, repl);
	s = scan_merged(text, &r);
	assert_int_equal(cause_at(&r, CAUSE_TORCH_CPU_ONLY), -1);
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_NOT_LOADED), -1);
	assert_int_equal(cause_at(&r, CAUSE_TORCH_DRIVER_TOO_OLD), -1);
	assert_int_equal(r.nruled_out, 3);
	for (int i = 0; i < r.nruled_out; i++)
		if (r.ruled_out[i].cause == CAUSE_TORCH_DRIVER_TOO_OLD)
			assert_string_equal(r.ruled_out[i].by, "the pasted driver 535.104.05 is new enough for torch "
							      "2.1.0+cu121: CUDA 12.1 needs 525.60.13");
		else if (r.ruled_out[i].cause == CAUSE_DRIVER_NOT_LOADED)
			assert_string_equal(r.ruled_out[i].by, "line 1 shows NVIDIA driver 535.104.05 answering");
		else
			assert_int_equal(r.ruled_out[i].cause, CAUSE_TORCH_CPU_ONLY);
	release(&r, s);

	/* the same header with driver 470: the rule concludes torch.driver-too-old from the versions, first and sure */
	snprintf(header, sizeof(header), smi, "470.182.03", "470.182.03");
	snprintf(text, sizeof(text), "%s%s", header, repl);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_DRIVER_TOO_OLD);
	assert_int_not_equal(r.causes[0].from, EXPLAIN_FROM_SIGNATURE);
	release(&r, s);
}

/*
 * nvcc -V and nvidia-smi -L in one paste: CUDA 11.0 cannot compile for the RTX 3090's sm_86 (first a target
 * in CUDA 11.1), which the doctor's rule concludes from the two facts alone; CUDA 11.1 can.
 */
/*
 * fuy34/superpixel_fcn#45's shape: the REPL says torch.cuda.is_available() True, the program says False. A
 * build, driver or machine that cannot run CUDA is ruled out; what differs between the two processes stays.
 */
static void test_cuda_available_true_rules_out(void **state)
{
	static const char text[] = ">>> import torch\n>>> torch.cuda.is_available()\nTrue\n$ python run_demo.py\n"
				   "RuntimeError: Attempting to deserialize object on a CUDA device but "
				   "torch.cuda.is_available() is False.\n";
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(text, &r);
	assert_int_equal(cause_at(&r, CAUSE_TORCH_CPU_ONLY), -1);
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_NOT_LOADED), -1);
	assert_true(cause_at(&r, CAUSE_ENV_VISIBLE_DEVICES) > 0);
	assert_true(r.nruled_out >= 2);
	assert_string_equal(r.ruled_out[0].by, "line 3 shows torch.cuda.is_available() True");
	release(&r, s);
}

static void test_paste_nvcc_too_old_for_gpu(void **state)
{
	static const char paste[] = "Cuda compilation tools, release %s, V%s\n"
				    "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-5d8e5d2c-1111-2222-3333-444455556666)\n"
				    "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	snprintf(text, sizeof(text), paste, "11.0", "11.0.221");
	s = scan_merged(text, &r);
	assert_true(r.count > 0);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_ARCH_UNSUPPORTED);
	assert_int_equal(r.causes[0].from, EXPLAIN_FROM_FACTS);
	assert_non_null(strstr(r.causes[0].title, "CUDA 11.0.221 is too old to compile for sm_86"));
	release(&r, s);

	snprintf(text, sizeof(text), paste, "11.1", "11.1.105");
	s = scan_merged(text, &r);
	assert_int_equal(cause_at(&r, CAUSE_TOOLKIT_ARCH_UNSUPPORTED), -1);
	release(&r, s);
}

/*
 * A toolkit newer than the driver, from an issue template's version fields (NVIDIA/numba-cuda#192: driver
 * 550.120, CUDA 12.8): within CUDA 12's minor-version compatibility only newer PTX fails, so it is a cause below
 * any message the text quotes; beyond it (driver 470 is older than CUDA 12's first driver) it is sure.
 */
static void test_paste_toolkit_newer_than_driver(void **state)
{
	static const char within[] = "Driver Version: 550.120\nCuda Toolkit: 12.8\n";
	static const char beyond[] = "Driver Version: 470.82.01\nCuda Toolkit: 12.1\n";
	char text[1024];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(within, &r);
	assert_true(r.count > 0);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NEWER_THAN_DRIVER);
	assert_int_equal(r.causes[0].from, EXPLAIN_FROM_FACTS);
	assert_int_equal(r.causes[0].confidence, 40);
	assert_non_null(strstr(r.causes[0].title, "needs driver 570"));
	release(&r, s);

	snprintf(text, sizeof(text), "%s%s\n", within, oom_old);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_RUNTIME_OUT_OF_MEMORY);
	assert_true(cause_at(&r, CAUSE_TOOLKIT_NEWER_THAN_DRIVER) > 0);
	release(&r, s);

	s = scan_merged(beyond, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NEWER_THAN_DRIVER);
	assert_int_equal(r.causes[0].confidence, 90);
	release(&r, s);
}

/*
 * What the text shows around an error settles it (docs/explain.md, "What the paste shows"): sudo running
 * Python (pytorch/vision#7510), LD_LIBRARY_PATH printed with a cuDNN directory (pytorch/pytorch#80637),
 * conda's cudatoolkit beside a missing nvcc (montefiore-institute/alan-cluster#58). Without that context
 * the same error keeps its usual first cause.
 */
static void test_context_settles(void **state)
{
	static const struct {
		const char *text;
		enum cause_id before, after;
		const char *evidence;
	} cases[] = {
		{ "sudo python3 setup.py install \n"
		  "Traceback (most recent call last):\n  File \"setup.py\", line 9, in <module>\n    import torch\n"
		  "ModuleNotFoundError: No module named 'torch'\n",
		  CAUSE_TORCH_NOT_INSTALLED, CAUSE_TORCH_WRONG_INTERPRETER,
		  "line 1 runs Python with sudo: sudo runs root's environment (its own PATH and home), so another "
		  "Python runs than the one torch was installed into" },
		{ "(py38) [0] rzou@devfair0317:~/binaries_test  $ echo $LD_LIBRARY_PATH\n"
		  "/public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64:/public/apps/cuda/11.0/lib64:/usr/local/cuda/lib64\n"
		  "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked "
		  "against (8, 0, 3)\n",
		  CAUSE_CUDNN_MISMATCH, CAUSE_ENV_LIBRARY_SHADOWING,
		  "line 2 shows LD_LIBRARY_PATH with /public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64: the loader "
		  "takes cuDNN from there before the one torch ships" },
		{ "(PoinTR) [jgustin@master train]$ nvcc --version\n-bash: nvcc: command not found\n"
		  "(PoinTR) [jgustin@master train]$ conda list cudatoolkit\n"
		  "# packages in environment at /home/jgustin/anaconda3/envs/PoinTR:\n#\n"
		  "# Name                    Version                   Build  Channel\n"
		  "cudatoolkit               11.7.0              hd8887f6_10    conda-forge\n",
		  CAUSE_TOOLKIT_NVCC_NOT_ON_PATH, CAUSE_TOOLKIT_NOT_INSTALLED,
		  "the text shows conda's cudatoolkit 11.7.0: it holds CUDA's runtime libraries, not nvcc" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *text = cases[i].text, *error = strrchr(text, '\n');
		struct explain_report r;
		struct explain_scanner *s;

		/* the error alone, without its context: the last line, or nvcc's */
		while (error > text && error[-1] != '\n')
			error--;
		s = scan_merged(i == 2 ? "-bash: nvcc: command not found\n" : error, &r);
		assert_int_equal(r.causes[0].cause, cases[i].before);
		release(&r, s);
		s = scan_merged(text, &r);
		assert_int_equal(r.causes[0].cause, cases[i].after);
		assert_string_equal(r.causes[0].paste_evidence, cases[i].evidence);
		assert_true(r.causes[0].nfix > 0);
		release(&r, s);
	}
}

/*
 * nvcc run from $CUDA_HOME/bin with CUDA_HOME set like PATH: a leading ':' (erikwijmans/Pointnet2_PyTorch#129,
 * Newbeeer/Poisson_flow#2) or a trailing one (CVMI-Lab/PAConv#24). The toolkit is there; the variable is not
 * one directory. A plain "nvcc: not found" stays the usual differential.
 */
static void test_nvcc_path_list(void **state)
{
	static const struct {
		const char *text, *home;
	} cases[] = {
		{ "    /bin/sh: 1: :/usr/local/cuda-10.1/bin/nvcc: not found\n", "/usr/local/cuda-10.1" },
		{ "1: :/usr/local/cuda-11.0:/usr/local/cuda-11.0/bin/nvcc: not found\n", "/usr/local/cuda-11.0" },
		{ "/bin/sh: 1: /data1/zyy/usr/local/cuda-10.1:/bin/nvcc: not found\n", "/data1/zyy/usr/local/cuda-10.1" },
	};
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = scan_merged(cases[i].text, &r);
		assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
		assert_int_equal(r.causes[0].confidence, 80);
		assert_string_equal(value(&r.causes[0], "home"), cases[i].home);
		release(&r, s);
	}
	/* in prose: plain nvcc fails and the full path runs (system76/docs#156), in either order */
	s = scan_merged("for example running  \"nvcc -V\" fails but \"/usr/lib/cuda/bin/nvcc -V\" runs fine\n", &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	assert_string_equal(value(&r.causes[0], "path"), "/usr/lib/cuda");
	release(&r, s);
	s = scan_merged("/usr/local/cuda/bin/nvcc --version works, but nvcc --version does not\n", &r);
	assert_string_equal(value(&r.causes[0], "path"), "/usr/local/cuda");
	release(&r, s);
	s = scan_merged("/bin/sh: 1: nvcc: not found\n", &r);
	assert_true(r.causes[0].confidence < 60);
	assert_null(value(&r.causes[0], "home"));
	release(&r, s);
}

/*
 * The GPU's memory still taken after the program ended: pytorch/pytorch#4031 and #910, PaddlePaddle/PaddleOCR#2074
 * (Chinese, and nvidia-smi showing memory with no process). Memory the caching allocator keeps inside a running
 * program (torch.cuda.empty_cache) is no such case.
 */
static void test_memory_not_released(void **state)
{
	static const char *const held[] = {
		"When I interrupt my Pytorch script using Ctrl-C occasionally GPU memory is not deallocated.\n",
		"My program crashed but device 0 memory hasn't been released.\n",
		"kill进程显卡不释放\n",
		"nohup 启动训练进程之后直接kill主进程显卡不会释放显存\n",
		"并且nvidia-smi只能看到显存占用，底下看不到这张卡里有进程\n",
	};
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++) {
		s = scan_merged(held[i], &r);
		assert_true(r.count > 0);
		assert_int_equal(r.causes[0].cause, CAUSE_GPU_MEMORY_BUSY);
		release(&r, s);
	}
	s = scan_merged("GPU memory is not released until I call torch.cuda.empty_cache()\n", &r);
	assert_int_equal(recognised_at(&r, CAUSE_GPU_MEMORY_BUSY), -1);
	release(&r, s);
}

/*
 * A Linux driver installed inside WSL (microsoft/WSL#12272), against NVIDIA's CUDA on WSL guide; the Windows
 * driver installed for WSL is the right setup and names nothing.
 */
static void test_linux_driver_in_wsl(void **state)
{
	static const char *const inside[] = {
		"Installed GPU driver in wsl by mistake, how to recover?\n",
		"But I omitted the notice on CUDA guide page for wsl and installed all GPU driver, cudatoolkit, and cudnn in "
		"wsl too.\n",
	};
	static const char *const outside[] = {
		"I installed the NVIDIA driver on Windows and use CUDA in WSL\n",
		"I installed the latest driver for windows, then CUDA in WSL 2\n",
	};
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	for (size_t i = 0; i < sizeof(inside) / sizeof(inside[0]); i++) {
		s = scan_merged(inside[i], &r);
		assert_true(r.count > 0);
		assert_int_equal(r.causes[0].cause, CAUSE_WSL_DRIVER);
		release(&r, s);
	}
	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		s = scan_merged(outside[i], &r);
		assert_int_equal(recognised_at(&r, CAUSE_WSL_DRIVER), -1);
		release(&r, s);
	}
}

/*
 * NVIDIA device files closed to other users: ls -l of openSUSE's root:video 0660 files and Debian's 0666 ones
 * (netdata/netdata#21359), and the files opened up by hand (canonical/lxd#5625).
 */
static void test_device_files_mode(void **state)
{
	static const char *const closed[] = {
		"crw-rw---- 1 root video 195, 255 25. Nov 19:53 /dev/nvidiactl\n",
		"So, I am able to get nvidia graphics working inside a container as long as I `chmod 666 /dev/nvidia*` on "
		"the host.\n",
		"Also, as you might have guessed, in Funtoo/Gentoo the device nodes are owned by `root:video` and are 660.\n",
	};
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	for (size_t i = 0; i < sizeof(closed) / sizeof(closed[0]); i++) {
		s = scan_merged(closed[i], &r);
		assert_true(r.count > 0);
		assert_int_equal(r.causes[0].cause, CAUSE_DRIVER_DEVICE_PERMISSION);
		release(&r, s);
	}
	s = scan_merged(closed[0], &r);
	assert_string_equal(value(&r.causes[0], "group"), "video");
	assert_string_equal(value(&r.causes[0], "device"), "/dev/nvidiactl");
	release(&r, s);
	s = scan_merged("crw-rw-rw- 1 root root 195, 255 Nov 24 19:22 /dev/nvidiactl\n", &r);
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_DEVICE_PERMISSION), -1);
	release(&r, s);
	/* a device file passed by hand that the host lacks (cBio/cbio-cluster#389); another device is not ours */
	s = scan_merged("Error response from daemon: Cannot start container 23e6: error gathering device information while "
			"adding custom device \"/dev/nvidia-uvm\": lstat /dev/nvidia-uvm: no such file or directory\n", &r);
	assert_int_equal(r.causes[0].cause, CAUSE_DRIVER_NOT_LOADED);
	assert_string_equal(value(&r.causes[0], "device"), "/dev/nvidia-uvm");
	release(&r, s);
	s = scan_merged("docker: Error response from daemon: error gathering device information while adding custom device "
			"\"/dev/dri\": no such file or directory.\n", &r);
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_NOT_LOADED), -1);
	release(&r, s);
}

/*
 * negativo17/nvidia-driver#73: nouveau's probe line in dmesg reads as no NVIDIA driver (installed, or not
 * loaded); the kernel command line above it that blacklists nouveau settles it as not loaded.
 */
static void test_nouveau_bound_and_blacklisted(void **state)
{
	static const char cmdline[] = "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 ro "
				      "rootflags=subvol=root rd.driver.blacklist=nouveau\n";
	static const char probe[] = "[    5.436312] nouveau 0000:01:00.0: NVIDIA GM204 (124020a1)\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(probe, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_DRIVER_NOT_INSTALLED);
	assert_int_equal(cause_at(&r, CAUSE_DRIVER_NOT_LOADED), 1);
	release(&r, s);

	snprintf(text, sizeof(text), "%s%s", cmdline, probe);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_DRIVER_NOT_LOADED);
	assert_non_null(strstr(r.causes[0].paste_evidence, "line 1 blacklists nouveau"));
	release(&r, s);
}

/*
 * tensorflow/tensorflow#36974: a devel image's LD_LIBRARY_PATH, printed, lists the toolkit's stubs directory, and
 * removing it fixed the run. Printed, it settles cuda.stub-library over the container started without a GPU flag;
 * exported (what the user set, not what the program ran with) it does not.
 */
static void test_stubs_on_ld_library_path(void **state)
{
	static const char run[] = "$ docker run -it -w /tensorflow_src tensorflow/tensorflow:devel-gpu\n";
	static const char path[] = "/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs:"
				   "/usr/include/x64_64-linux-gnu:/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n";
	char text[1024];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	snprintf(text, sizeof(text), "%s# echo $LD_LIBRARY_PATH\n%s", run, path);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_CUDA_STUB_LIBRARY);
	assert_string_equal(r.causes[0].paste_evidence, "line 3 shows LD_LIBRARY_PATH with /usr/local/cuda/lib64/stubs: "
							 "the loader finds the toolkit's stub libcuda.so there before the "
							 "driver's");
	release(&r, s);

	snprintf(text, sizeof(text), "%s# export LD_LIBRARY_PATH=%s", run, path);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_CONTAINER_NO_GPU);
	assert_true(cause_at(&r, CAUSE_CUDA_STUB_LIBRARY) > 0);
	release(&r, s);
}

/*
 * Prose about the machine, each from a report's own words: the --gpus flag missing (stefancrain/folding-at-home#3),
 * the driver stopping after a kernel update (MeowIce/nvidia-legacy#2), an AMD card named (pkhungurn/
 * talking-head-anime-demo#27), no NVIDIA card in Chinese (Ikunio/Lidar_nav2_ws#2). Sentences that name the
 * same things without the claim read as nothing, or as their own message.
 */
static void test_machine_prose(void **state)
{
	(void)state;
	/* a ROCm build that finds no GPU (pytorch/pytorch#80405), not its CUDA twin */
	expect_first("torch/cuda/__init__.py:82: UserWarning: HIP initialization: Unexpected error from hipGetDeviceCount(). "
		     "Did you run some cuda functions before calling NumHipDevices() that might have already set an error? "
		     "Error 101: hipErrorInvalidDevice\n", CAUSE_TORCH_ROCM_BUILD);
	expect_first("  what():  HIP error: hipErrorNoDevice\n", CAUSE_TORCH_ROCM_BUILD);
	{
		struct explain_report r;
		struct explain_scanner *s = scan_merged("UserWarning: CUDA initialization: Unexpected error from "
							"cudaGetDeviceCount(). Error 804: forward compatibility was "
							"attempted on non supported HW\n", &r);

		assert_int_equal(cause_at(&r, CAUSE_TORCH_ROCM_BUILD), -1);
		release(&r, s);
	}
	expect_first("It seems that Docker-native GPU support seems to require passing an option like `--gpus all` to "
		     "`docker run` - my GPU is not used without it.\n", CAUSE_CONTAINER_NO_GPU);
	expect_first("I forgot --gpus all in the compose command\n", CAUSE_CONTAINER_NO_GPU);
	expect_first("I ran docker run --gpus all and it works\n", CAUSE_COUNT);
	expect_first("after updating the kernel, it stopped loading, can recommendations be made?\n", CAUSE_DRIVER_NOT_LOADED);
	expect_first("after the kernel update nvidia-smi doesn't work anymore\n", CAUSE_DRIVER_NOT_LOADED);
	expect_first("after updating the kernel everything works fine\n", CAUSE_COUNT);
	expect_first("But the graphics card I have now is RX580.\n", CAUSE_GPU_NONE);
	expect_first("my card is a Radeon RX 6700 XT\n", CAUSE_GPU_NONE);
	expect_first("the card is an RTX 3090\n", CAUSE_COUNT);
	expect_first("\xE5\xB0\x8F\xE4\xB8\xBB\xE6\x9C\xBA\xE6\xB2\xA1\xE6\x9C\x89NVIDIA\xE7\x9A\x84\xE6\x98\xBE\xE5\x8D\xA1\n",
		     CAUSE_GPU_NONE);	/* 小主机没有NVIDIA的显卡: the mini PC has no NVIDIA card */
	expect_first("\xE6\xB2\xA1\xE6\x9C\x89NVIDIA\xE7\x9A\x84\xE6\x98\xBE\xE5\x8D\xA1\xE9\xA9\xB1\xE5\x8A\xA8\n",
		     CAUSE_COUNT);	/* 没有NVIDIA的显卡驱动: no NVIDIA driver, not no card */
	/* the Fabric Manager named (aws-samples' DCV AMI issue, its backquote inside the name as written) */
	expect_first("Currently `nvidia-fabricmanage`r is not installed so on A100, H100, H200 and B200 instances, CUDA "
		     "initialization fails with 802 system error.\n", CAUSE_DRIVER_FABRIC_MANAGER);
	expect_first("the fabric manager is running fine\n", CAUSE_COUNT);
	/* an NVSwitch machine named: weak alone, before what a symptom only offers */
	expect_first("- Hardware (CPUs, Memory, GPUs): AWS p4d.24xlarge (96 CPU, 8 A100's, 1 TB RAM)\n",
		     CAUSE_DRIVER_FABRIC_MANAGER);
	expect_first("Instance: p6-b200.48xlarge\n", CAUSE_DRIVER_FABRIC_MANAGER);
	expect_first("AWS g5.xlarge\n", CAUSE_COUNT);
	/* the GPU only for root (AUTOMATIC1111/stable-diffusion-webui#3207) */
	expect_first("it seems torch can only access the gpu when run with sudo\n", CAUSE_DRIVER_DEVICE_PERMISSION);
	expect_first("Torch is not able to use GPU unless superuser, openSuse tumbleweed\n", CAUSE_DRIVER_DEVICE_PERMISSION);
	expect_first("I only use sudo to install packages\n", CAUSE_COUNT);
	/* throttling (linux-surface#216 quoting the ArchWiki), nvidia-smi -q's own line */
	expect_first("it immediately and severely throttles down to around 139MHz.\n", CAUSE_GPU_SLOWDOWN);
	expect_first("        SW Thermal Slowdown               : Active\n", CAUSE_GPU_SLOWDOWN);
	expect_first("        SW Thermal Slowdown               : Not Active\n", CAUSE_COUNT);
	expect_first("the scheduler throttles jobs to 4 per user\n", CAUSE_COUNT);
	/* out of memory in the writer's words (maudzung/SFA3D#49, YantaoShen/kpm_rw_person_reid#3) */
	expect_first("i am currently always facing a cuda out of memory error when i run the train.py file\n",
		     CAUSE_RUNTIME_OUT_OF_MEMORY);
	expect_first("I get \"cuda runtime error: out of memory\" and i know i should decrease the batchsize\n",
		     CAUSE_RUNTIME_OUT_OF_MEMORY);
	expect_first("the system ran out of memory while loading CUDA kernels\n", CAUSE_COUNT);
	/* no NVIDIA GPU: Intel graphics (pytorch/pytorch#39028), a Mac without CUDA GPUs (nlpyang/PreSumm#159) */
	expect_first("I am not using NVIDIA GPU , but i have Intel HD graphics 4000.\n", CAUSE_GPU_NONE);
	expect_first("Is there work around for Mac where CUDA-capable GPUs aren't available?\n", CAUSE_GPU_NONE);
	expect_first("the Intel HD graphics drive the display, the RTX 3090 runs CUDA\n", CAUSE_COUNT);
	/* an NCCL timeout named (pytorch/pytorch#141069's title) */
	expect_first("IterableDataset with DDP and unequal data lengths on different ranks causes NCCL timeout\n",
		     CAUSE_NCCL_TIMEOUT);
	/* the driver lost after a reboot (torch/torch7#464) or its module gone (negativo17/nvidia-driver#165) */
	expect_first("After rebooting the g2.2xlarge instance, running `nvidia-smi` gave errors like \"can't find nvidia "
		     "driver.\"\n", CAUSE_DRIVER_NOT_LOADED);
	expect_first("After installing this package and rebooting, the dkms module is complete gone\n", CAUSE_DRIVER_NOT_LOADED);
	expect_first("after a reboot nvidia-smi works again\n", CAUSE_COUNT);
}

/*
 * distutils' own words for a compiler that is not there (MVIG-SJTU/AlphaPose#765, its quotes as printed) and
 * Torch7's cudnn binding missing libcudnn (jcjohnson/neural-style#154), each with its value.
 */
static void test_build_and_loader_words(void **state)
{
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged("unable to execute \"'/usr/local/cuda'/bin/nvcc\": No such file or directory\n", &r);
	assert_string_equal(cause_name(r.causes[0].cause), "toolkit.not-installed");
	assert_string_equal(value(&r.causes[0], "path"), "'/usr/local/cuda'/bin/nvcc");
	release(&r, s);
	s = scan_merged("/home/user/torch/install/share/lua/5.1/cudnn/ffi.lua:1279: 'libcudnn (R4) not found in library path.\n", &r);
	assert_string_equal(cause_name(r.causes[0].cause), "cudnn.missing");
	assert_string_equal(value(&r.causes[0], "version"), "R4");
	release(&r, s);
	expect_first("unable to execute 'gcc': No such file or directory\n", CAUSE_COUNT);
	/* torch imported from a folder in the current directory (pytorch/pytorch#574) */
	s = scan_merged("  File \"torch/__init__.py\", line 45, in <module>\n    from torch._C import *\n"
			"ImportError: No module named _C\n", &r);
	assert_string_equal(cause_name(r.causes[0].cause), "torch.import-failed");
	assert_string_equal(r.causes[0].signature, "torch.init-from-relative-path");
	release(&r, s);
	expect_first("ModuleNotFoundError: No module named 'torch._C'\n", CAUSE_TORCH_IMPORT_FAILED);
	expect_first("  File \"/usr/lib/python3/dist-packages/torch/__init__.py\", line 45, in <module>\n", CAUSE_COUNT);
}

/* cuBLAS's status in words (microsoft/superbenchmark#526): CUBLAS_STATUS_NOT_SUPPORTED, with the status extracted. */
static void test_cublas_status_in_words(void **state)
{
	static const char text[] = "cuBLAS call cublasLtMatmulAlgoGetHeuristic(handle_.get(), op_desc_.get()) failed at "
				   "/opt/superbench/cublaslt_utils.cc:98 'the requested functionality is not supported'\n";
	struct explain_report r;
	struct explain_scanner *s = scan_merged(text, &r);

	(void)state;
	assert_string_equal(cause_name(r.causes[0].cause), "cublas.error");
	assert_string_equal(value(&r.causes[0], "status"), "the requested functionality is not supported");
	release(&r, s);
	expect_first("the requested functionality is not supported\n", CAUSE_COUNT);
}

/*
 * A GPU named in prose that the newest PyTorch has no wheel for: the Tesla K40m (3.5, pytorch/pytorch#44253)
 * is in no release of the arch table, so no install step; the Tesla K80 (3.7) last ran on 2.7.1's cu118 wheel,
 * whose command the table gives. A card current wheels run on reads as nothing.
 */
static void test_old_gpu_named(void **state)
{
	struct explain_report r;
	struct explain_scanner *s;
	bool install = false;

	(void)state;
	s = scan_merged("\xE6\x96\xB0\xE7\x89\x88\xE6\x9C\xAC\xE8\x83\xBD\xE4\xB8\x8D\xE8\x83\xBD\xE6\x94\xAF\xE6\x8C\x81\xE4\xB8\x8B "
			"tesla k40m\xE7\x9A\x84\xE6\x98\xBE\xE5\x8D\xA1\n", &r);
	assert_string_equal(cause_name(r.causes[0].cause), "torch.arch-unsupported");
	assert_string_equal(value(&r.causes[0], "gpu"), "Tesla K40m");
	assert_string_equal(value(&r.causes[0], "arch"), "3.5");
	assert_null(value(&r.causes[0], "found"));
	release(&r, s);
	s = scan_merged("Our cluster still has a Tesla K80 and torch says no kernel for it\n", &r);
	assert_string_equal(cause_name(r.causes[0].cause), "torch.arch-unsupported");
	assert_string_equal(value(&r.causes[0], "found"), "2.7.1");
	for (int i = 0; i < r.causes[0].nfix; i++)
		install |= r.causes[0].fix[i].command &&
			   strcmp(r.causes[0].fix[i].command, "pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/cu118") == 0;
	assert_true(install);
	release(&r, s);
	expect_first("I train on a GTX 1080 at home\n", CAUSE_COUNT);
}

/*
 * nvcc said to be missing, in prose (mit-han-lab/temporal-shift-module's Jetson report: 'The file "nvcc" seems to be
 * missing'); a sentence that only says something works without nvcc is no such report.
 */
static void test_nvcc_missing_in_prose(void **state)
{
	(void)state;
	expect_first("The file \"nvcc\" seems to be missing.\n", CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	expect_first("Error in online_demo (nvcc missing)\n", CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	expect_first("there is no nvcc in /usr/local/cuda/bin\n", CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	expect_first("PyTorch's wheels run without nvcc\n", CAUSE_COUNT);
}

/*
 * NVIDIA/nvidia-docker#1160: "nvcc: command not found" in a container of a runtime image, which holds no compiler:
 * the image settles toolkit.not-installed over the PATH, and the fix names the devel flavour. A devel image
 * settles nothing.
 */
static void test_runtime_image_settles_no_nvcc(void **state)
{
	static const char error[] = "root@7c0be9bfaeec:/# nvcc --version\nbash: nvcc: command not found\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	snprintf(text, sizeof(text), "docker run -it --gpus all nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04 /bin/bash\n%s",
		 error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NOT_INSTALLED);
	assert_string_equal(r.causes[0].paste_evidence, "line 1 uses nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04, a runtime "
							 "image (no nvcc): only the devel images have the CUDA compiler");
	assert_true(r.causes[0].nfix >= 1);
	assert_non_null(strstr(r.causes[0].fix[0].text, "devel flavour"));
	release(&r, s);

	snprintf(text, sizeof(text), "docker run -it --gpus all nvidia/cuda:12.4.1-devel-ubuntu22.04 /bin/bash\n%s", error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	assert_string_equal(r.causes[0].paste_evidence, "");
	release(&r, s);
}

/*
 * layumi/Person_reID_baseline_pytorch#146: "No module named torch" where the text installed torch with pip3
 * and imports it fine in python3: another interpreter runs the program. Without the install, torch is
 * simply not installed there, and so it is where the text says installing torch fixed it.
 */
static void test_install_settles_import_error(void **state)
{
	static const char error[] = "    File evalute_gpu.py,in line 2,in <module>\n import torch\nImportError  : No module named torch\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(error, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_NOT_INSTALLED);
	assert_true(cause_at(&r, CAUSE_TORCH_WRONG_INTERPRETER) > 0);
	release(&r, s);

	snprintf(text, sizeof(text), "%sBut I have tried pip3 install torch /torchvision\n", error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_WRONG_INTERPRETER);
	assert_string_equal(r.causes[0].paste_evidence, "torch is installed (line 4 installs torch), yet the program "
							"cannot import it: another interpreter runs it");
	release(&r, s);

	
/* apprenticelearner/AL_Core#76: an install the text says fixed the error tells torch was missing */
	snprintf(text, sizeof(text), "%sInstalling the torch with a pip command fixed the issue\n", error);
	s = scan_merged(text, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_NOT_INSTALLED);
	assert_string_equal(r.causes[0].paste_evidence, "");
	release(&r, s);
}

static void test_exact_error_outranks_symptom(void **state)
{
	static const char text[] = "torch.cuda.is_available() returns False, and then:\n"
		"AssertionError: Torch not compiled with CUDA enabled\n"
		"RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver\n";
	struct explain_report r;
	struct explain_scanner *s = scan(text, sizeof(text) - 1, &r);
	size_t i;

	(void)state;
	/* the two named causes lead, by their own ranking; the suggested ones follow */
	assert_false(r.causes[0].suggested);
	assert_false(r.causes[1].suggested);
	for (i = 2; i < r.count; i++)
		assert_true(r.causes[i].suggested);
	/* a named cause that the differential also offers gains its check, not a second entry */
	for (i = 0; i < r.count; i++)
		if (r.causes[i].cause == CAUSE_DRIVER_NOT_INSTALLED)
			break;
	assert_true(i < r.count);
	assert_false(r.causes[i].suggested);
	assert_true(r.causes[i].nchecks >= 1);
	for (size_t k = i + 1; k < r.count; k++)
		assert_int_not_equal(r.causes[k].cause, CAUSE_DRIVER_NOT_INSTALLED);
	explain_report_release(&r);
	explain_close(s);
}

static void test_alternatives_consistent(void **state)
{
	(void)state;
	assert_true(catalog_alt_rows() >= 20);
	for (size_t a = 0; a < catalog_alt_rows(); a++) {
		bool found = false;

		assert_true(catalog_alt_weight(a) >= 1 && catalog_alt_weight(a) <= 100);
		assert_true(catalog_alt_field(a, "check")[0] && catalog_alt_field(a, "answers")[0]);
		for (size_t r = 0; r < catalog_rows() && !found; r++)
			found = catalog_alt_of(a, catalog_field(r, "id"));
		if (!found)
			fail_msg("data/explain_alternatives.tsv:%d: names no signature", kb_table_explain_alternatives.lines[a]);
	}
	/* whole ids only: a prefix of a listed id does not match */
	assert_false(catalog_alt_of(0, "torch.no-nvidia"));
}

static void test_oom_shortage(void **state)
{
	struct explain_report r;
	struct explain_scanner *s = scan(oom_old, sizeof(oom_old) - 1, &r);

	(void)state;
	assert_int_equal(r.count, 1);
	assert_string_equal(cause_name(r.causes[0].cause), "runtime.out-of-memory");
	assert_string_equal(value(&r.causes[0], "requested"), "2.00 GiB");
	assert_string_equal(value(&r.causes[0], "total"), "7.79 GiB");
	/* 6.00 reserved - 5.12 allocated < 2.00 requested, and little held elsewhere */
	assert_string_equal(value(&r.causes[0], "kind"), "shortage");
	assert_int_equal(r.causes[0].lines[0].number, 1);
	explain_report_release(&r);
	explain_close(s);
}

/*
 * Memory outside PyTorch's allocator is someone else's only beyond what the process's own CUDA context holds:
 * a 3.81 GiB laptop GPU with 0.87 GiB outside is a shortage (VITA-Group/EnlightenGAN#135, answered "decrease
 * batch size"); 9.77 GiB outside of 10.76 GiB is other processes (pytorch/pytorch#59778).
 */
static void test_oom_other_memory_beyond_context(void **state)
{
	static const struct {
		const char *text, *kind;
	} cases[] = {
		{ "CUDA out of memory. Tried to allocate 252.00 MiB (GPU 0; 3.81 GiB total capacity; 2.67 GiB already "
		  "allocated; 247.12 MiB free; 2.70 GiB reserved in total by PyTorch)", "shortage" },
		{ "RuntimeError: CUDA out of memory. Tried to allocate 36.00 MiB (GPU 0; 10.76 GiB total capacity; 996.23 "
		  "MiB already allocated; 8.81 MiB free; 1010.00 MiB reserved in total by PyTorch)", "other-processes" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct explain_report r;
		struct explain_scanner *s = scan(cases[i].text, strlen(cases[i].text), &r);

		assert_string_equal(cause_name(r.causes[0].cause), "runtime.out-of-memory");
		assert_string_equal(value(&r.causes[0], "kind"), cases[i].kind);
		explain_report_release(&r);
		explain_close(s);
	}
}

/*
 * An application-fault Xid (31) from a graphics client is the driver's fault the program meets
 * (doitsujin/dxvk#1169, fixed by driver 435.19.03); the same line alone stays a program's illegal access, and
 * a hardware Xid keeps its own cause whatever program is named. The kernel line's long detail keeps its start.
 */
static void test_xid_graphics_client(void **state)
{
	static const char line[] = "NVRM: Xid (PCI:0000:2d:00): 31, pid=970, Ch 00000023, intr 00000000. MMU Fault: "
				   "ENGINE GRAPHICS GPCCLIENT_RAST faulted @ 0x0_00000000. Fault is of type FAULT_PDE "
				   "ACCESS_TYPE_VIRT_WRITE\n";
	char text[512];
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	snprintf(text, sizeof(text), "Squad causes random but frequent freezes in the game.\n%s", line);
	s = scan_merged(text, &r);
	assert_string_equal(cause_name(r.causes[0].cause), "gpu.xid");
	assert_string_equal(value(&r.causes[0], "bus"), "0000:2d:00");
	assert_string_equal(value(&r.causes[0], "xid"), "31");
	assert_string_equal(cause_name(r.causes[1].cause), "runtime.illegal-address");
	release(&r, s);
	expect_first(line, CAUSE_RUNTIME_ILLEGAL_ADDRESS);
	s = scan_merged(line, &r);
	assert_true(strncmp(value(&r.causes[0], "detail"), "pid=970, Ch 00000023", 20) == 0);
	release(&r, s);
	expect_first("Xid 31 MMU Fault on 610.57.04 under rapid Vulkan session churn\n", CAUSE_GPU_XID);
	snprintf(text, sizeof(text), "%s in a game\n", xid79);
	expect_first(text, CAUSE_GPU_HARDWARE_FAULT);
}

/*
 * CUDA_HOME unset where the text says a versioned toolkit is installed: the build missed it
 * (pytorch/extension-cpp#26); without that sentence the toolkit may be missing, and it stays first.
 */
static void test_toolkit_said_installed(void **state)
{
	static const char error[] = "EnvironmentError: CUDA_HOME environment variable is not set. Please set it to "
				    "your CUDA install root.\n";
	char text[512];

	(void)state;
	snprintf(text, sizeof(text), "%sHowever, I am sure cuda9.0 in my computer is installed correctly.\n", error);
	expect_first(text, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	expect_first(error, CAUSE_TOOLKIT_NOT_INSTALLED);
	snprintf(text, sizeof(text), "%sI think CUDA 11.8 is not installed\n", error);
	expect_first(text, CAUSE_TOOLKIT_NOT_INSTALLED);
}

static void test_oom_fragmentation(void **state)
{
	struct explain_report r;
	struct explain_scanner *s = scan(oom_fragmented, sizeof(oom_fragmented) - 1, &r);

	(void)state;
	assert_string_equal(cause_name(r.causes[0].cause), "runtime.out-of-memory");
	assert_string_equal(value(&r.causes[0], "unallocated"), "8.41 GiB");
	assert_string_equal(value(&r.causes[0], "kind"), "fragmentation");
	assert_non_null(strstr(r.causes[0].detail, "Fragmentation"));
	{
		bool found = false;

		for (int i = 0; i < r.causes[0].nfix; i++)
			if (r.causes[0].fix[i].command && strstr(r.causes[0].fix[i].command, "expandable_segments:True"))
				found = true;
		assert_true(found);
	}
	explain_report_release(&r);
	explain_close(s);
}

/* The Xid comes after the error it caused, and the error is printed many times: causality wins over count. */
static void test_rank_by_causality(void **state)
{
	struct strbuf sb = { 0 };
	struct explain_report r;
	struct explain_scanner *s;
	char *text;

	(void)state;
	for (int i = 0; i < 50; i++)
		strbuf_add(&sb, "RuntimeError: CUDA error: unknown error\n");
	strbuf_addf(&sb, "%s\n", xid79);
	text = strbuf_detach(&sb);
	s = scan(text, strlen(text), &r);
	assert_true(r.count >= 2);
	assert_string_equal(cause_name(r.causes[0].cause), "gpu.hardware-fault");
	assert_string_equal(value(&r.causes[0], "xid"), "79");
	assert_string_equal(value(&r.causes[0], "bus"), "0000:3b:00");
	assert_int_equal(r.causes[0].lines[0].number, 51);
	assert_non_null(strstr(r.causes[0].title, "79"));
	explain_report_release(&r);
	explain_close(s);
	free(text);
}

/*
 * "nvcc: command not found" alone: nvcc not on PATH first, no toolkit the alternative. Beside the
 * is_available() symptom it follows the symptom's causes: nvcc only compiles, PyTorch runs without it.
 * "No such file or directory: '/usr/local/cuda/bin/nvcc'" is a build that found no compiler there.
 */
static void test_build_tool_follows(void **state)
{
	static const char nvcc_alone[] = "$ nvcc -V\nbash: nvcc: command not found\n";
	static const char with_symptom[] = "torch.cuda.is_available() returns False\n$ nvcc -V\nbash: nvcc: command not found\n";
	static const char nvcc_path[] = "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'\n";
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	s = scan_merged(nvcc_alone, &r);
	assert_int_equal(r.count, 2);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH);
	assert_false(r.causes[0].suggested);
	assert_int_equal(r.causes[1].cause, CAUSE_TOOLKIT_NOT_INSTALLED);
	assert_true(r.causes[1].suggested);
	release(&r, s);

	s = scan_merged(with_symptom, &r);
	assert_true(r.count >= 4);
	assert_int_equal(cause_at(&r, CAUSE_TORCH_CPU_ONLY), 0);
	assert_int_equal(cause_at(&r, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH), (int)r.count - 2);
	assert_int_equal(cause_at(&r, CAUSE_TOOLKIT_NOT_INSTALLED), (int)r.count - 1);
	release(&r, s);

	s = scan_merged(nvcc_path, &r);
	assert_int_equal(r.causes[0].cause, CAUSE_TOOLKIT_NOT_INSTALLED);
	assert_string_equal(value(&r.causes[0], "path"), "/usr/local/cuda/bin/nvcc");
	assert_int_equal(cause_at(&r, CAUSE_TOOLKIT_NVCC_NOT_ON_PATH), 1);
	release(&r, s);
}

/* Line numbers stay exact across the scanner's 1 MiB buffer seams. */
static void test_line_numbers_across_buffers(void **state)
{
	size_t nlines = 700000, len = nlines * 4 + sizeof(oom_old) + 1;
	char *text = malloc(len), *p = text;
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < nlines; i++, p += 4)
		memcpy(p, "ok.\n", 4);
	memcpy(p, oom_old, sizeof(oom_old) - 1);
	p += sizeof(oom_old) - 1;
	*p++ = '\n';
	s = scan(text, (size_t)(p - text), &r);
	assert_string_equal(cause_name(r.causes[0].cause), "runtime.out-of-memory");
	assert_int_equal(r.causes[0].lines[0].number, nlines + 1);
	assert_int_equal(r.lines, nlines + 1);
	explain_report_release(&r);
	explain_close(s);
	free(text);
}

/* ANSI colour inside the message and \r progress-bar rewrites before it. */
static void test_ansi_and_progress_bars(void **state)
{
	static const char text[] = "Epoch 1:  10%|#  |\rEpoch 1:  50%|#####  |\r\033[31mRuntimeError\033[0m: CUDA "
				   "error: device-side \033[1massert\033[0m triggered\nnext line\n";
	struct explain_report r;
	struct explain_scanner *s = scan(text, sizeof(text) - 1, &r);

	(void)state;
	assert_true(r.count >= 1);
	assert_string_equal(cause_name(r.causes[0].cause), "runtime.device-assert");
	assert_null(strchr(r.causes[0].lines[0].text, '\033'));
	assert_string_equal(r.causes[0].lines[0].text, "RuntimeError: CUDA error: device-side assert triggered");
	assert_int_equal(r.lines, 2);
	explain_report_release(&r);
	explain_close(s);
}

/*
 * A message as a forum or an issue tracker passes it on: quoted in a reply, its quotes made typographic or
 * HTML references, its underscores escaped for Markdown, its lines ended by Windows. Each still reads as
 * the message; the evidence shows it as the program printed it.
 */
static void test_posted_decoration(void **state)
{
	static const char *const posted[] = {
		"> AttributeError: module \xe2\x80\x98torch._C\xe2\x80\x99 has no attribute \xe2\x80\x98_init_names\xe2\x80\x99\n",
		"AttributeError: module &#39;torch._C&#39; has no attribute &#39;_init_names&#39;\n",
		"> > AttributeError: module 'torch.\\_C' has no attribute '\\_init\\_names'\r\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(posted) / sizeof(posted[0]); i++) {
		struct explain_report r;
		struct explain_scanner *s = scan(posted[i], strlen(posted[i]), &r);

		assert_true(r.count >= 1);
		assert_string_equal(cause_name(r.causes[0].cause), "torch.multiple-installs");
		assert_string_equal(r.causes[0].lines[0].text,
				    "AttributeError: module 'torch._C' has no attribute '_init_names'");
		explain_report_release(&r);
		explain_close(s);
	}
}

/*
 * A message retold in a sentence, in other case than the program printed it, still names its cause; a row
 * whose case is its meaning pins it ("Library cublas64_12.dll" is CTranslate2's error, "opened dynamic
 * library cudart64_110.dll" TensorFlow's success), and an exact match is not counted twice.
 */
static void test_message_retold_in_other_case(void **state)
{
	static const char tf_success[] = "2021-06-11 17:01:51.656591: I tensorflow/stream_executor/platform/default/"
					 "dso_loader.cc:49] Successfully opened dynamic library cudart64_110.dll\n";
	static const char oom[] = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
	struct explain_report r;
	struct explain_scanner *s;

	(void)state;
	expect_first("i keep getting cuda out of memory when training\n", CAUSE_RUNTIME_OUT_OF_MEMORY);
	expect_first("assertionerror: torch not compiled with cuda enabled\n", CAUSE_TORCH_CPU_ONLY);
	expect_first(tf_success, CAUSE_COUNT);
	s = scan(oom, strlen(oom), &r);
	assert_true(r.count >= 1);
	assert_int_equal(r.causes[0].cause, CAUSE_RUNTIME_OUT_OF_MEMORY);
	assert_int_equal(r.causes[0].count, 1);
	explain_report_release(&r);
	explain_close(s);
}

/*
 * A message a reporter's editor wrapped is read as one line, named by its first line; a message that stands
 * whole on its line is not counted again by the reading of joined lines.
 */
static void test_wrapped_message(void **state)
{
	static const char wrapped[] = "Here is what I get:\n"
				      "UserWarning: CUDA initialization: The NVIDIA driver on your\n"
				      "system is too old (found version 11040). Please update your GPU driver by\n"
				      "downloading and installing a new version.\n";
	static const char whole[] = "UserWarning: CUDA initialization: The NVIDIA driver on your system is too old "
				    "(found version 11040).\n"
				    "the same warning came back after i reinstalled everything in the environment\n"
				    "again today.\n";
	struct explain_report r;
	struct explain_scanner *s = scan(wrapped, sizeof(wrapped) - 1, &r);

	(void)state;
	assert_true(r.count >= 1);
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_DRIVER_TOO_OLD);
	assert_int_equal(r.causes[0].lines[0].number, 2);
	assert_non_null(strstr(r.causes[0].lines[0].text, "system is too old (found version 11040)"));
	explain_report_release(&r);
	explain_close(s);
	s = scan(whole, sizeof(whole) - 1, &r);
	assert_true(r.count >= 1);
	assert_int_equal(r.causes[0].cause, CAUSE_TORCH_DRIVER_TOO_OLD);
	assert_int_equal(r.causes[0].count, 1);
	assert_int_equal(r.causes[0].lines[0].number, 1);
	explain_report_release(&r);
	explain_close(s);
}

/*
 * Messages as the programs print them, read in their sources: PyTorch (torch/cuda/amp/grad_scaler.py,
 * torch/__init__.py's _preload_cuda_deps, torch/cuda/__init__.py, c10's DeviceGuardImplInterface.h,
 * torch/utils/cpp_extension.py, torch/utils/data/dataloader.py, torch/backends/cudnn/__init__.py,
 * torch/distributed/distributed_c10d.py, ATen's OperatorEntry.cpp and CUDAHooksInterface.h), CUDA's
 * cudaGetErrorString texts as c10 wraps them, ollama's discover/gpu.go, ggml-cuda.cu, CTranslate2's
 * cublas_stub.cc and utils.h, TensorFlow's cuda_diagnostics.cc and gpu_device.cc, XLA's cudart_stub.cc and
 * nvptx_compiler.cc, JAX's xla_bridge.py and CUDA plugin, Numba's cudadrv/driver.py, bitsandbytes'
 * cextension.py, CuPy's runtime errors.
 */
static void test_framework_messages(void **state)
{
	static const struct { const char *text; enum cause_id cause; } cases[] = {
		{ "UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.\n",
		  CAUSE_TORCH_CPU_ONLY },	/* a symptom: its first alternative */
		{ "RuntimeError: CUDA error: initialization error\n", CAUSE_CUDA_INIT_FAILED },
		{ "RuntimeError: CUDA error: API call is not supported in the installed CUDA driver\n",
		  CAUSE_TORCH_DRIVER_TOO_OLD },
		{ "ValueError: libcublas.so.*[0-9] not found in the system path ['/app', '/usr/lib/python310.zip']\n",
		  CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "RuntimeError: PyTorch is not linked with support for cuda devices\n", CAUSE_TORCH_CPU_ONLY },
		{ "RuntimeError: device 2 is not visible (CUDA_VISIBLE_DEVICES=[0, 1])\n", CAUSE_ENV_VISIBLE_DEVICES },
		{ "AssertionError: Invalid device id\n", CAUSE_ENV_VISIBLE_DEVICES },
		{ "OSError: CUDA was not found on the system, please set the CUDA_HOME or the CUDA_PATH environment "
		  "variable or add NVCC to your system PATH. The extension compilation will fail.\n", CAUSE_TOOLKIT_NOT_INSTALLED },
		{ "msg=\"unknown error initializing cuda driver library /usr/lib/x86_64-linux-gnu/libcuda.so.550.120: "
		  "cuda driver library init failure: 999.\"\n", CAUSE_CUDA_INIT_FAILED },
		{ "msg=\"version mismatch between driver and cuda driver library - reboot or upgrade may be required\"\n",
		  CAUSE_DRIVER_LIBRARY_MISMATCH },
		{ "ggml_cuda_init: failed to initialize CUDA: unknown error\n", CAUSE_CUDA_INIT_FAILED },
		{ "RuntimeError: CUDA failed with error unknown error\n", CAUSE_CUDA_INIT_FAILED },
		{ "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version 470.57.2 does not match DSO "
		  "version 535.104.5 -- cannot find working devices in this configuration\n", CAUSE_DRIVER_LIBRARY_MISMATCH },
		{ "I external/local_xla/xla/tsl/cuda/cudart_stub.cc:31] Could not find cuda drivers on your machine, GPU "
		  "will not be used.\n", CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "RuntimeError: Library libcublas.so.12 is not found or cannot be loaded\n", CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorOperatingSystem: OS call failed or operation "
		  "not supported on this OS\n", CAUSE_CUDA_INIT_FAILED },
		{ "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: CUDA driver library cannot be found.\n",
		  CAUSE_CUDA_LIB_MISSING },
		{ "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] Cannot dlopen some GPU libraries. Please make "
		  "sure the missing libraries mentioned above are installed properly\n", CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "CUDA backend failed to initialize: FAILED_PRECONDITION: No visible GPU devices.\n", CAUSE_CUDA_INIT_FAILED },
		{ "CUDA backend failed to initialize: Found CUDA version 12010, but JAX was built against version 12020, "
		  "which is newer.\n", CAUSE_ENV_LIBRARY_SHADOWING },
		{ "Unable to initialize backend 'cuda': Unable to use CUDA because of the following issues with CUDA "
		  "components:\nOutdated cuDNN installation found.\n", CAUSE_CUDNN_MISMATCH },
		{ "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back "
		  "to cpu.\n", CAUSE_TORCH_CPU_ONLY },
		{ "W external/xla/xla/service/gpu/nvptx_compiler.cc:744] The NVIDIA driver's CUDA version is 12.2 which is "
		  "older than the ptxas CUDA version (12.3.107).\n", CAUSE_TOOLKIT_NEWER_THAN_DRIVER },
		{ "RuntimeError: CUDA Setup failed despite GPU being available. Please run the following command to get "
		  "more information: python -m bitsandbytes\n", CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "/venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py:665: UserWarning: 'pin_memory' "
		  "argument is set as true but no accelerator is found, then device pinned memory won't be used.\n",
		  CAUSE_TORCH_CPU_ONLY },	/* a symptom: its first alternative */
		{ "ValueError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!\n", CAUSE_TORCH_CPU_ONLY },
		{ "UserWarning: Can't initialize NVML\n", CAUSE_DRIVER_LIBRARY_MISMATCH },
		{ "RuntimeError: Distributed package doesn't have NCCL built in\n", CAUSE_TORCH_CPU_ONLY },
		{ "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend.\n",
		  CAUSE_TORCH_CPU_ONLY },
		{ "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared "
		  "libraries\n", CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "UserWarning: PyTorch was compiled without cuDNN/MIOpen support. To use cuDNN/MIOpen, rebuild PyTorch\n",
		  CAUSE_TORCH_CUDNN_UNUSABLE },
		{ "UserWarning: cuDNN/MIOpen library not found. Check your LD_LIBRARY_PATH\n", CAUSE_CUDNN_MISSING },
		{ "ImportError: Failed to load PyTorch C extensions:\n    It appears that PyTorch has loaded the `torch/_C` "
		  "folder\n", CAUSE_TORCH_IMPORT_FAILED },
		{ "ValueError: Unknown CUDA arch (8.9+PTX) or GPU not supported\n", CAUSE_TORCH_ARCH_UNSUPPORTED },
		{ "    arch_list[-1] += '+PTX'\nIndexError: list index out of range\n", CAUSE_CONTAINER_NO_GPU },
		{ "Found GPU0 GeForce RTX 2080 Ti which requires CUDA_VERSION >= 10000 to\n", CAUSE_TORCH_ARCH_UNSUPPORTED },
		{ "The detected CUDA version (11.5) has a minor version mismatch with the version that was used to compile "
		  "PyTorch (11.7). Most likely this shouldn't be a problem.\n", CAUSE_TOOLKIT_CONFLICT },
		/* not these: ggml's line when CUDA works, a sentence that merely says a library is not found */
		{ "ggml_cuda_init: found 1 CUDA devices\n", CAUSE_COUNT },
		{ "the library is not found in the docs\n", CAUSE_COUNT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_first(cases[i].text, cases[i].cause);
}

/*
 * Messages of tools around the GPU, read in their sources or documentation (systemd, nvidia-smi, the open
 * kernel module's kernel_gsp.c, Darknet, DeepSpeed's op builder, Docker, ONNX Runtime, bitsandbytes, Numba,
 * ollama, TensorFlow, the container toolkit), and what a reporter says of the machine: an Intel or AMD GPU
 * named, one GPU, memory left orphaned.
 */
static void test_tool_messages_and_machine_prose(void **state)
{
	static const struct { const char *text; enum cause_id cause; } cases[] = {
		{ "Unit nvidia-fabricmanager.service could not be found.\n", CAUSE_DRIVER_FABRIC_MANAGER },
		{ "| NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: N/A      |\n", CAUSE_CUDA_LIB_MISSING },
		{ "NVRM: GPU0 _kgspFwContainerVerifyVersion: GSP firmware image version mismatch:\n"
		  "got version 595.71.05, expected version 595.58.03\n", CAUSE_DRIVER_LIBRARY_MISMATCH },
		{ " Error: cuDNN isn't found FWD algo for convolution.\n", CAUSE_RUNTIME_OUT_OF_MEMORY },
		{ "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version "
		  "12.2 does not match the version torch was compiled with 11.7, unable to compile cuda/cpp extensions\n",
		  CAUSE_TOOLKIT_CONFLICT },
		{ "Getting `could not select device driver with capabilities: [[gpu]]`\n", CAUSE_CONTAINER_RUNTIME_MISSING },
		{ "$ docker run --device /dev/nvidia0:/dev/nvidia0 --device /dev/nvidiactl:/dev/nvidiactl -it "
		  "nvidia/cuda:7.0-devel bash\n", CAUSE_CUDA_LIB_MISSING },
		{ "RuntimeError: Found no NVIDIA driver on your system.\nIs there a way to use Fooocus from an Intel GPU?\n",
		  CAUSE_GPU_NONE },
		{ "RuntimeError: Found no NVIDIA driver on your system.\nSystem specs are a Ryzen 7 3700x and a Radeon 6700XT.\n",
		  CAUSE_GPU_NONE },
		{ "If you only have one GPU, the setup steps give the following error:\n"
		  "cuda runtime error (38) : no CUDA-capable device is detected\n", CAUSE_ENV_VISIBLE_DEVICES },
		{ "It appears that the memory is orphaned on the GPU when pycaffe exits unexpectedly.\n", CAUSE_GPU_MEMORY_BUSY },
		{ "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:993 CreateExecutionProviderInstance] Failed to create "
		  "CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*.\n", CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available "
		  "providers: 'AzureExecutionProvider, CPUExecutionProvider'\n", CAUSE_TORCH_CPU_ONLY },
		{ "CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.\n",
		  CAUSE_TORCH_LIBS_UNRESOLVED },
		{ "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in "
		  "CUDA_ERROR_NOT_INITIALIZED (3)\n", CAUSE_CUDA_INIT_FAILED },
		{ "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install cudatoolkit`\n",
		  CAUSE_TOOLKIT_NOT_INSTALLED },
		{ "msg=\"NVIDIA driver too old\" device=\"NVIDIA GeForce GTX 1080\" compute=6.1 driver=535 "
		  "required_driver=\"550 or newer\"\n", CAUSE_DRIVER_TOO_OLD },
		{ "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1858] Ignoring visible gpu device (device: 0, name: "
		  "NVIDIA GeForce GT 730, compute capability: 3.5) with Cuda compute capability 3.5. The minimum required "
		  "Cuda capability is 5.0.\n", CAUSE_TORCH_ARCH_UNSUPPORTED },
		{ "nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory: "
		  "unknown\n", CAUSE_CONTAINER_RUNTIME_MISSING },
		{ "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: "
		  "unknown\n", CAUSE_WSL_DRIVER },
		/* not these: DeepSpeed accepting a minor difference, the CUDA version nvidia-smi does report */
		{ "Installed CUDA version 12.6 does not match the version torch was compiled with 12.4 but since the APIs "
		  "are compatible, accepting this combination\n", CAUSE_COUNT },
		{ "| NVIDIA-SMI 535.183.01             Driver Version: 535.183.01   CUDA Version: 12.2     |\n", CAUSE_COUNT },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_first(cases[i].text, cases[i].cause);
}

static void test_traceback_frame(void **state)
{
	static const char text[] =
		"Traceback (most recent call last):\n"
		"  File \"/home/a/train.py\", line 42, in <module>\n"
		"    loss = step(batch)\n"
		"  File \"/home/a/model.py\", line 17, in step\n"
		"    out = self.net(x)\n"
		"  File \"/usr/lib/python3/dist-packages/torch/nn/modules/module.py\", line 1130, in _call_impl\n"
		"    return forward_call(*input, **kwargs)\n"
		"RuntimeError: CUDA error: device-side assert triggered\n";
	struct explain_report r;
	struct explain_scanner *s = scan(text, sizeof(text) - 1, &r);

	(void)state;
	assert_string_equal(cause_name(r.causes[0].cause), "runtime.device-assert");
	/* the innermost frame outside installed packages */
	assert_string_equal(r.causes[0].where, "File \"/home/a/model.py\", line 17, in step");
	explain_report_release(&r);
	explain_close(s);
}

static void test_nothing_recognised(void **state)
{
	static const char text[] = "step 10 loss 0.41 device cuda:0 memory 61.2GB error_rate 0.03\n\0\0\377\376binary\n";
	struct explain_report r;
	struct explain_scanner *s = scan(text, sizeof(text) - 1, &r);

	(void)state;
	assert_int_equal(r.count, 0);
	assert_int_equal(r.lines, 2);
	explain_report_release(&r);
	explain_close(s);
}

/* --tee: every byte read is written on unchanged, the diagnosis is unaffected. */
static void test_feed_fd_tee(void **state)
{
	char dir[TU_PATH], in_path[TU_PATH + 8], out_path[TU_PATH + 8], back[512];
	struct explain_report r;
	struct error err;
	struct explain_scanner *s;
	int in, out;
	ssize_t n;

	(void)state;
	tu_mkdtemp(dir, sizeof(dir));
	snprintf(in_path, sizeof(in_path), "%s/in", dir);
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	in = open(in_path, O_CREAT | O_RDWR, 0600);
	assert_true(in >= 0);
	assert_int_equal(write(in, oom_old, sizeof(oom_old) - 1), (ssize_t)sizeof(oom_old) - 1);
	assert_int_equal(lseek(in, 0, SEEK_SET), 0);
	out = open(out_path, O_CREAT | O_RDWR, 0600);
	assert_true(out >= 0);
	s = explain_open(&err);
	assert_non_null(s);
	assert_int_equal(explain_feed_fd(s, in, "in", out, &err), 0);
	assert_int_equal(explain_rank(s, &r), 0);
	assert_string_equal(cause_name(r.causes[0].cause), "runtime.out-of-memory");
	assert_int_equal(lseek(out, 0, SEEK_SET), 0);
	n = read(out, back, sizeof(back));
	assert_int_equal(n, (ssize_t)sizeof(oom_old) - 1);
	assert_memory_equal(back, oom_old, sizeof(oom_old) - 1);
	explain_report_release(&r);
	explain_close(s);
	close(in);
	close(out);
	tu_rmrf(dir);
}

/* The doctor's "import torch failed" finding gets explain's reading of the message. */
static void test_annotate_deep_message(void **state)
{
	struct diagnosis d;
	struct finding *f;
	int before;

	(void)state;
	memset(&d, 0, sizeof(d));
	f = findings_add(&d.findings, CAUSE_TORCH_IMPORT_FAILED, SEV_ERROR, "import torch failed in %s",
			 "/venv/bin/python");
	finding_detail(f, "Running the interpreter to import torch did not work.");
	finding_evidence(f, "deep probe", "/venv/bin/python", "%s",
			 "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory");
	before = f->nfix;
	explain_annotate_findings(&d);
	f = findings_find(&d.findings, CAUSE_TORCH_IMPORT_FAILED);
	/* the catalog reads a missing libcudnn.so.N as cuDNN missing */
	assert_non_null(strstr(f->detail, "reads as cudnn.missing"));
	assert_true(f->nfix > before);
	findings_release(&d.findings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_catalog_consistent),
		cmocka_unit_test(test_oom_shortage),
		cmocka_unit_test(test_oom_other_memory_beyond_context),
		cmocka_unit_test(test_xid_graphics_client),
		cmocka_unit_test(test_toolkit_said_installed),
		cmocka_unit_test(test_oom_fragmentation),
		cmocka_unit_test(test_rank_by_causality),
		cmocka_unit_test(test_build_tool_follows),
		cmocka_unit_test(test_line_numbers_across_buffers),
		cmocka_unit_test(test_ansi_and_progress_bars),
		cmocka_unit_test(test_posted_decoration),
		cmocka_unit_test(test_message_retold_in_other_case),
		cmocka_unit_test(test_wrapped_message),
		cmocka_unit_test(test_framework_messages),
		cmocka_unit_test(test_tool_messages_and_machine_prose),
		cmocka_unit_test(test_traceback_frame),
		cmocka_unit_test(test_nothing_recognised),
		cmocka_unit_test(test_symptom_offers_causes),
		cmocka_unit_test(test_exact_error_outranks_symptom),
		cmocka_unit_test(test_paste_cuda_available_decides),
		cmocka_unit_test(test_wsl_named_settles_libcuda),
		cmocka_unit_test(test_alternatives_consistent),
		cmocka_unit_test(test_feed_fd_tee),
		cmocka_unit_test(test_annotate_deep_message),
		cmocka_unit_test(test_container_settles_missing_driver),
		cmocka_unit_test(test_notebook_settles_missing_driver),
		cmocka_unit_test(test_paste_rules_out_contradicted),
		cmocka_unit_test(test_paste_nvcc_too_old_for_gpu),
		cmocka_unit_test(test_paste_toolkit_newer_than_driver),
		cmocka_unit_test(test_stubs_on_ld_library_path),
		cmocka_unit_test(test_runtime_image_settles_no_nvcc),
		cmocka_unit_test(test_nvcc_missing_in_prose),
		cmocka_unit_test(test_machine_prose),
		cmocka_unit_test(test_old_gpu_named),
		cmocka_unit_test(test_cublas_status_in_words),
		cmocka_unit_test(test_build_and_loader_words),
		cmocka_unit_test(test_nvcc_path_list),
		cmocka_unit_test(test_nouveau_bound_and_blacklisted),
		cmocka_unit_test(test_memory_not_released),
		cmocka_unit_test(test_linux_driver_in_wsl),
		cmocka_unit_test(test_device_files_mode),
		cmocka_unit_test(test_cuda_available_true_rules_out),
		cmocka_unit_test(test_install_settles_import_error),
		cmocka_unit_test(test_context_settles),
		cmocka_unit_test(test_container_prompt_settles_unreachable_driver),
		cmocka_unit_test(test_topics_guess),
		cmocka_unit_test(test_prose_first_bytes),
	};

	return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
