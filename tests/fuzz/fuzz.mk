# tests/fuzz/fuzz.mk - libFuzzer harnesses for the parsers (tests/fuzz/README.md).
# Included at the end of the Makefile; uses its CPPFLAGS, WARN, GEN, SRC_LIB
# and LDLIBS.
#
#   make fuzz-build                 build build/fuzz/bin/fuzz_<name> for every tests/fuzz/fuzz_<name>.c
#   make fuzz [FUZZ_SECONDS=30]     build, then run each harness in turn for FUZZ_SECONDS
#   make fuzz FUZZ_ONLY="elf ldcache"   only these harnesses
#
# Needs clang with its libFuzzer runtime (Debian: clang, or clang-14, and
# libclang-rt-14-dev, which clang-14 pulls in as a recommendation).

# Debian 12 ships clang-14 and names it `clang` only with the `clang` package installed.
FUZZ_CC ?= $(firstword $(shell command -v clang clang-14 2>/dev/null) clang)
FUZZ_SECONDS ?= 30
FUZZ_RSS_MB ?= 2048

FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g $(FUZZ_SAN)
FUZZ_NAMES := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_ONLY ?= $(FUZZ_NAMES)
FUZZ_BINS := $(patsubst %,build/fuzz/bin/fuzz_%,$(FUZZ_NAMES))
FUZZ_LIB := build/fuzz/libgpudoctor.a
FUZZ_LIB_OBJ := $(patsubst %.c,build/fuzz/obj/%.o,$(SRC_LIB) $(GEN_C:build/%=%))
FUZZ_HARNESS_OBJ := build/fuzz/obj/tests/fuzz/harness.o

# The longest input each harness gets: about the size of the largest real file of its kind.
FUZZ_MAXLEN_ldcache := 65536
FUZZ_MAXLEN_elf := 65536
FUZZ_MAXLEN_fatbin := 65536
FUZZ_MAXLEN_explain := 16384
FUZZ_MAXLEN_os_release := 4096
FUZZ_MAXLEN_proc_modules := 16384
FUZZ_MAXLEN_nvidia_version := 1024
FUZZ_MAXLEN_pyvenv_cfg := 2048
FUZZ_MAXLEN_torch_version := 4096
FUZZ_MAXLEN_kernel_json := 4096
FUZZ_MAXLEN_conda_envs := 4096
FUZZ_MAXLEN_site_names := 4096
FUZZ_MAXLEN_kern_log := 65536
FUZZ_MAXLEN_cdi_spec := 16384
FUZZ_MAXLEN_daemon_json := 4096
FUZZ_MAXLEN_dpkg_status := 16384
FUZZ_MAXLEN_profile := 8192
FUZZ_MAXLEN_torch_metadata := 16384
FUZZ_MAXLEN_pth := 4096

.PHONY: fuzz fuzz-build fuzz-check-cc

fuzz-build: fuzz-check-cc $(FUZZ_BINS)

# Fail early, and say what to install, when clang or its fuzzer runtime is missing.
fuzz-check-cc:
	@mkdir -p build/fuzz
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return (int)(d == 0) + (int)n * 0; }\n' > build/fuzz/cc-check.c
	@$(FUZZ_CC) -fsanitize=fuzzer -o build/fuzz/cc-check build/fuzz/cc-check.c 2>/dev/null || { \
		echo "fuzz: '$(FUZZ_CC)' cannot link a libFuzzer program: install clang (Debian 12: clang or clang-14, with libclang-rt-14-dev)" >&2; \
		exit 1; }

# Harnesses run one after another, never side by side; all of them run even when one crashes.
fuzz: fuzz-build
	@status=0; $(foreach n,$(FUZZ_ONLY),tests/fuzz/run-fuzzer $(n) $(FUZZ_SECONDS) $(or $(FUZZ_MAXLEN_$(n)),4096) $(FUZZ_RSS_MB) || status=1;) \
	exit $$status

build/fuzz/bin/fuzz_%: build/fuzz/obj/tests/fuzz/fuzz_%.o $(FUZZ_HARNESS_OBJ) $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(call say,FUZZ-LD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

# Harness and project sources: instrumented for coverage, not linked with the fuzzer's main.
build/fuzz/obj/%.o: %.c | $(GEN)
	@mkdir -p $(dir $@)
	$(call say,CC-FUZZ,$<)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(WARN) -MMD -MP -c -o $@ $<

build/fuzz/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(call say,CC-FUZZ,$<)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(WARN) -c -o $@ $<
