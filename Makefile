# gpudoctor - GNU make build.
#
#   make            build build/gpudoctor
#   make check      unit tests + scenario tests + hostile-root suite + real-machine smoke test,
#                   all under AddressSanitizer and UndefinedBehaviorSanitizer
#   make bench      doctor vs. python -m torch.utils.collect_env, and the static
#                   analysis of a full-size CUDA torch install
#   make fuzz       libFuzzer harnesses for the parsers, FUZZ_SECONDS each (needs
#                   clang; tests/fuzz/README.md)
#   make clean
#
# Run-time dependencies: glibc only. Jansson (libjansson-dev), the
# Vectorscan matching runtime (libvectorscan-dev) and PCRE2 (libpcre2-dev)
# are linked statically from Debian's packages; NVIDIA libraries are never
# linked.

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral
CPPFLAGS += -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Isrc -Ibuild/gen
JANSSON_STATIC := $(firstword $(wildcard /usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null)/libjansson.a /usr/lib64/libjansson.a /usr/lib/libjansson.a))
ifneq ($(JANSSON_STATIC),)
LIBS_JSON := $(JANSSON_STATIC)
else
LIBS_JSON := -ljansson
endif
LDLIBS += $(LIBS_JSON)
# A static library when Debian's -dev package has one, else the shared one.
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
static_or = $(or $(firstword $(wildcard /usr/lib/$(MULTIARCH)/$(1).a /usr/lib64/$(1).a /usr/lib/$(1).a)),$(2))
# explain: signatures compiled at build time (tools/sigdb.c, full Vectorscan),
# matched at run time (its runtime library only) and read out by PCRE2.
LDLIBS += $(call static_or,libhs_runtime,-lhs_runtime) $(call static_or,libpcre2-8,-lpcre2-8) -lm

# The knowledge tables' folder (a test can point it at another).
DATA ?= data

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# Quiet by default; `make V=1` shows the full commands.
ifneq ($(V),1)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
else
say =
endif
CPPFLAGS += -DGD_VERSION='"$(VERSION)"'

SRC_LIB := $(sort $(wildcard src/util/*.c src/cause/*.c src/nvidia/*.c src/probe/*.c src/probe/driver/*.c src/rules/*.c src/explain/*.c src/paste/*.c src/compute/*.c src/report/*.c src/kb/*.c src/plan/*.c src/fix/*.c src/fleet/*.c src/cmd/*.c))
SRC_MAIN := src/main.c
# The knowledge tables compiled in; each needs its reader in src/kb/.
KB_TABLES := cuda_driver cuda_archs cudnn error_codes gpus gpu_peaks torch_releases torch_variants torch_archs \
	explain_signatures xid sm_throughput torch_companions arch_support driver_install cuda_images image_python cuda_sublibs \
	explain_alternatives
GEN := $(patsubst %,build/gen/kb_%.c,$(KB_TABLES)) build/gen/explain_db.c build/gen/kernels_ptx.c \
	build/gen/cause_table.c build/gen/cause_ids.h build/gen/causes-checked

GEN_C := $(filter %.c,$(GEN))
OBJ_LIB := $(patsubst %.c,build/obj/%.o,$(SRC_LIB) $(GEN_C:build/%=%))
BIN := build/gpudoctor

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OBJ_LIB_SAN := $(patsubst build/obj/%,build/asan/obj/%,$(OBJ_LIB))
BIN_SAN := build/asan/gpudoctor

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,build/asan/tests/%,$(UNIT_SRC))

.PHONY: all check deps unit scenarios explain-test fleet-test hostile syscalls cli ptx-check smoke bench gpu-check clean fakes fuzz fuzz-build
.SECONDARY:

all: $(BIN)

$(BIN): $(OBJ_LIB) build/obj/src/main.o
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/obj/%.o: %.c | $(GEN)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c -o $@ $<

build/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

# Knowledge tables: data/NAME.tsv -> build/gen/kb_NAME.c, checked as generated.
build/gen/kb_%.c: $(DATA)/%.tsv tools/tsv2c.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v table=$* -f tools/tsv2c.awk $< > $@.tmp && mv $@.tmp $@

# The cause registry: the enum, the table, and the checks that the docs and the
# data tables name the same causes (a new cause is one row in data/causes.tsv).
build/gen/cause_ids.h: $(DATA)/causes.tsv tools/causes2c.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v out=ids -f tools/causes2c.awk $< > $@.tmp && mv $@.tmp $@

build/gen/cause_table.c: $(DATA)/causes.tsv tools/causes2c.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v out=table -f tools/causes2c.awk $< > $@.tmp && mv $@.tmp $@

build/gen/causes-checked: $(DATA)/causes.tsv docs/causes.md $(DATA)/explain_signatures.tsv $(DATA)/xid.tsv \
		$(DATA)/explain_alternatives.tsv tools/check-causes
	@mkdir -p $(dir $@)
	$(call say,CHECK,causes)
	$(Q)tools/check-causes $(DATA)/causes.tsv docs/causes.md $(DATA)/explain_signatures.tsv $(DATA)/xid.tsv \
		$(DATA)/explain_alternatives.tsv && touch $@

# The GPU kernels, PTX text the driver JIT-compiles, as a C string.
build/gen/kernels_ptx.c: src/compute/kernels.ptx tools/text2c.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v name=compute_kernels_ptx -f tools/text2c.awk $< > $@.tmp && mv $@.tmp $@

# explain's signature database, compiled and checked at build time.
build/tools/sigdb: tools/sigdb.c src/explain/internal_patterns.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< -lhs -lpcre2-8

build/gen/explain_db.c: $(DATA)/explain_signatures.tsv build/tools/sigdb
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)build/tools/sigdb $< > $@.tmp && mv $@.tmp $@

# The sanitizer build used by every test.
$(BIN_SAN): $(OBJ_LIB_SAN) build/asan/obj/src/main.o
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/asan/obj/%.o: %.c | $(GEN)
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

build/asan/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(SAN_FLAGS) -c -o $@ $<

build/asan/tests/%: tests/unit/%.c $(OBJ_LIB_SAN)
	@mkdir -p $(dir $@)
	$(call say,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Wno-missing-prototypes $(SAN_FLAGS) -o $@ $< $(OBJ_LIB_SAN) $(LDLIBS) -lcmocka

check: deps
	@tools/check-stray-ids
	@$(MAKE) --no-print-directory $(BIN) unit fakes-test scenarios explain-test fix-test fleet-test hostile syscalls cli ptx-check smoke
	@echo "all checks passed"

deps:
	@tools/check-deps

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

scenarios: $(BIN_SAN) $(FAKES)
	GPUDOCTOR=$(BIN_SAN) tests/run-scenarios

# The memory bound is measured on the plain binary: the sanitizers' shadow memory would swamp it.
explain-test: $(BIN_SAN) $(BIN)
	GPUDOCTOR=$(BIN_SAN) GPUDOCTOR_PLAIN=$(BIN) tests/explain/run

# Every command of every plan on every scenario against data/, the plan as files (shellcheck, a YAML parser), golden text.
fix-test: $(BIN_SAN)
	GPUDOCTOR=$(BIN_SAN) tests/fix/run

# fleet: the doctor's reports of scenario roots merged; values, streams, unreadable inputs, exit status.
fleet-test: $(BIN_SAN)
	tests/fleet/run $(BIN_SAN)

# Images built to hurt gpudoctor: long roots, libraries with constructors, races, escapes.
hostile: $(BIN_SAN) $(FAKES)
	tests/hostile/run $(BIN_SAN)

# What a run does to the machine, from the kernel's side (strace), on the plain
# binary: the sanitizers' runtime starts helper processes of its own.
syscalls: $(BIN)
	tests/syscalls $(BIN)

# The command line: each command's own options, usage errors, --help at 80 columns.
cli: $(BIN_SAN)
	tests/cli $(BIN_SAN)

ptx-check:
	@tests/ptx-check

smoke: $(BIN_SAN)
	tests/smoke-real-machine $(BIN_SAN)

bench: $(BIN)
	bench/doctor-vs-collect-env.sh
	bench/static-torch-install.sh
	bench/explain.sh
	bench/fleet.sh

# On a machine with an NVIDIA GPU: gpudoctor's readings against nvidia-smi's.
gpu-check: $(BIN)
	tests/gpu-check $(BIN)

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
include tests/fakes/fakes.mk
include tests/fuzz/fuzz.mk
