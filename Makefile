# gpudoctor - GNU make build.
#
#   make            build build/gpudoctor
#   make check      unit tests + scenario tests + hostile-root suite + real-machine smoke test,
#                   all under AddressSanitizer and UndefinedBehaviorSanitizer; ends with one
#                   summary block (V=1: every suite's output too)
#   make bench      doctor vs. python -m torch.utils.collect_env, and the static
#                   analysis of a full-size CUDA torch install
#   make fuzz       libFuzzer harnesses for the parsers, FUZZ_SECONDS each (needs
#                   clang; tests/fuzz/README.md)
#   make install    install the program, its manual pages and shell completions:
#                   PREFIX (/usr/local), DESTDIR, BINDIR, MANDIR, BASHCOMPDIR,
#                   ZSHCOMPDIR, FISHCOMPDIR (docs/install.md)
#   make uninstall  remove what make install installed (same variables)
#   make deb        the Debian package, built in a copy of the tree (build/deb/)
#   make clean
#
# Run-time dependencies: glibc and libmicrohttpd (metrics --listen). Jansson
# (libjansson-dev), the Vectorscan matching runtime (libvectorscan-dev),
# PCRE2 (libpcre2-dev) and ncurses (libncurses-dev, for watch's full-screen
# view) are linked statically from Debian's packages (STATIC=no: as shared
# libraries); NVIDIA libraries are never linked.

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral
CPPFLAGS += -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Isrc -Ibuild/gen
# A static library when Debian's -dev package has one, else the shared one.
# STATIC=no links the shared ones (the Debian package does, so that security
# updates of those libraries reach it).
STATIC ?= yes
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
static_or = $(or $(if $(filter yes,$(STATIC)),$(firstword $(wildcard /usr/lib/$(MULTIARCH)/$(1).a /usr/lib64/$(1).a /usr/lib/$(1).a))),$(2))
LDLIBS += $(call static_or,libjansson,-ljansson)
# explain: signatures compiled at build time (tools/sigdb.c, full Vectorscan),
# matched at run time (its runtime library only) and read out by PCRE2.
LDLIBS += $(call static_or,libhs_runtime,-lhs_runtime) $(call static_or,libpcre2-8,-lpcre2-8) -lm
# metrics --listen: libmicrohttpd (libmicrohttpd-dev), always the shared library:
# its static archive pulls in GnuTLS and the rest of a TLS stack.
LDLIBS += -lmicrohttpd -lpthread
# watch's full-screen view: ncurses, with terminfo from its own library (libtinfo).
LDLIBS += $(call static_or,libncursesw,-lncursesw) $(call static_or,libtinfo,-ltinfo)

# The knowledge tables' folder (a test can point it at another).
DATA ?= data

# The version: `git describe` of a git checkout whose history has a release tag
# (v0.2.0 -> 0.2.0, 0.2.0-3-gabc1234 after it, -dirty with local changes), else
# the VERSION file (a release tarball, the Debian build's copy). Only this
# tree's own .git counts, not a repository the tree happens to sit in.
VERSION := $(if $(wildcard .git),$(patsubst v%,%,$(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)))
ifeq ($(VERSION),)
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
endif

# Where make install puts things (GNU conventions; DESTDIR is prepended to each).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
LOCALEDIR ?= $(DATAROOTDIR)/locale
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATAROOTDIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATAROOTDIR)/fish/vendor_completions.d
INSTALL ?= install

# Quiet by default; `make V=1` shows the full commands.
ifneq ($(V),1)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
else
say =
endif

SRC_LIB := $(sort $(wildcard src/util/*.c src/cause/*.c src/nvidia/*.c src/probe/*.c src/probe/driver/*.c src/rules/*.c src/explain/*.c src/paste/*.c src/compute/*.c src/report/*.c src/kb/*.c src/plan/*.c src/fix/*.c src/fleet/*.c src/cluster/*.c src/cmd/*.c))
SRC_MAIN := src/main.c
# The knowledge tables compiled in; each needs its reader in src/kb/.
KB_TABLES := cuda_driver cuda_archs cudnn error_codes gpus gpu_peaks torch_releases torch_variants torch_archs \
	explain_signatures xid sm_throughput torch_companions arch_support driver_install cuda_images image_python cuda_sublibs \
	explain_alternatives
GEN := $(patsubst %,build/gen/kb_%.c,$(KB_TABLES)) build/gen/explain_db.c build/gen/kernels_ptx.c \
	build/gen/cause_table.c build/gen/cause_ids.h build/gen/causes-checked build/gen/version.c

# The message catalogs (po/LANG.po, gettext): compiled next to the binary, where an uninstalled
# build finds them (util/i18n.h); the installed program looks in LOCALEDIR.
LINGUAS := zh_CN
MO := $(patsubst %,build/locale/%/LC_MESSAGES/gpudoctor.mo,$(LINGUAS))

GEN_C := $(filter %.c,$(GEN))
OBJ_LIB := $(patsubst %.c,build/obj/%.o,$(SRC_LIB) $(GEN_C:build/%=%))
BIN := build/gpudoctor

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OBJ_LIB_SAN := $(patsubst build/obj/%,build/asan/obj/%,$(OBJ_LIB))
BIN_SAN := build/asan/gpudoctor

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,build/asan/tests/%,$(UNIT_SRC))

# Defined before any rule names them: make expands a rule's prerequisites as it reads the rule.
MANPAGES := build/man/gpudoctor.1 build/man/gpudoctor-causes.7
COMPLETIONS := build/completion/gpudoctor.bash build/completion/_gpudoctor build/completion/gpudoctor.fish

.PHONY: all check check-suites check-binaries stray-ids deps unit scenarios explain-test fleet-test metrics-test hostile syscalls cli cluster \
	ptx-check watch-tui smoke bench gpu-check clean fakes fuzz fuzz-build \
	man completions install uninstall install-test docs-test deb print-version FORCE
.SECONDARY:

all: $(BIN) $(MO) build/asan/locale

# The fake driver libraries (FAKES), read here, after the default goal and before the rules that need them.
include tests/fakes/fakes.mk

$(BIN): $(OBJ_LIB) build/obj/src/main.o
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Where the installed program finds its catalogs; only i18n.c needs it.
build/obj/src/util/i18n.o build/asan/obj/src/util/i18n.o: CPPFLAGS += -DLOCALEDIR='"$(LOCALEDIR)"'

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

# Messages: po/gpudoctor.pot from the sources (xgettext; the finding_* functions format their text, so
# they are keywords too, and finding_evidence's fact label in a second pass: xgettext takes one argument
# per keyword) and from the text columns of the knowledge tables (tools/data2pot.awk). `make pot` writes
# it; `make po-merge PARTS='a.po b.po'` takes the translations of PARTS into po/zh_CN.po and fits that to
# the catalog (msgmerge); `make po-update` only fits it.
XGETTEXT_C := xgettext --language=C --from-code=UTF-8 --no-wrap --add-location=file --package-name=gpudoctor
XGETTEXT_KEYWORDS := --keyword=_ --keyword=N_ --keyword=findings_add:4 --keyword=finding_detail:2 \
	--keyword=finding_summary:2 --keyword=finding_evidence:4 --keyword=finding_fix:3 --keyword=finding_alternative:2 \
	--keyword=finding_fix_alt:4 --keyword=plan_step_add:4 --keyword=plan_check_add:5 --keyword=plan_textf:5 \
	--keyword=plan_step_local:2 --keyword=plan_check_local:2 --keyword=fact_status_set:3 --keyword=facts_note:2 --keyword=error_set:2 --keyword=error_errno:3 --keyword=error_vset:2 --keyword=no_answer:2 --keyword=say:2 --flag=say:2:c-format --flag=error_set:2:c-format --flag=error_errno:3:c-format --flag=no_answer:2:c-format --flag=fact_status_set:3:c-format --flag=facts_note:2:c-format --flag=plan_check_local:2:c-format --flag=plan_step_add:4:c-format --flag=plan_check_add:5:c-format \
	--flag=plan_textf:5:c-format --flag=plan_step_local:2:c-format --flag=findings_add:4:c-format --flag=finding_detail:2:c-format \
	--flag=finding_summary:2:c-format --flag=finding_evidence:4:c-format --flag=finding_fix:3:c-format \
	--flag=finding_alternative:2:c-format --flag=finding_fix_alt:4:c-format
PO_SRC = $(shell find src -name '*.[ch]' | LC_ALL=C sort)
PO_DATA := $(DATA)/causes.tsv $(DATA)/xid.tsv $(DATA)/explain_signatures.tsv $(DATA)/explain_alternatives.tsv

.PHONY: pot po-merge po-update
pot: po/gpudoctor.pot

po/gpudoctor.pot: $(PO_SRC) $(PO_DATA) tools/data2pot.awk
	@mkdir -p build/po
	$(call say,GEN,$@)
	$(Q)$(XGETTEXT_C) $(XGETTEXT_KEYWORDS) -o build/po/src.pot $(PO_SRC)
	$(Q)$(XGETTEXT_C) --keyword --keyword=finding_evidence:2 -o build/po/facts.pot $(PO_SRC)
	$(Q)awk -v cols=title -f tools/data2pot.awk $(DATA)/causes.tsv > build/po/causes.pot
	$(Q)awk -v cols=name,action -f tools/data2pot.awk $(DATA)/xid.tsv > build/po/xid.pot
	$(Q)awk -v cols=title,detail,fix -v steps=fix -v templates=1 -f tools/data2pot.awk \
		$(DATA)/explain_signatures.tsv > build/po/explain_signatures.pot
	$(Q)awk -v cols=title,answers -v lists=answers -v templates=1 -f tools/data2pot.awk \
		$(DATA)/explain_alternatives.tsv > build/po/explain_alternatives.pot
	$(Q)msgcat --no-wrap --use-first -o $@.tmp build/po/src.pot build/po/facts.pot build/po/causes.pot build/po/xid.pot \
		build/po/explain_signatures.pot build/po/explain_alternatives.pot && mv $@.tmp $@

po-update: po/gpudoctor.pot
	msgmerge --quiet --no-wrap --no-fuzzy-matching --update --backup=none po/zh_CN.po po/gpudoctor.pot
	msgattrib --no-wrap --no-obsolete -o po/zh_CN.po po/zh_CN.po

po-merge: po/gpudoctor.pot
	@test -n "$(PARTS)" || { echo "make po-merge PARTS='FILE.po ...'" >&2; exit 2; }
	@mkdir -p build/po
	set -e; i=0; for p in po/zh_CN.po $(PARTS); do i=$$((i + 1)); \
		msgattrib --no-wrap --translated --no-fuzzy --no-obsolete -o build/po/part-$$i.po "$$p"; done; \
		msgcat --no-wrap --use-first -o build/po/merged.po $$(ls build/po/part-*.po | sort -t- -k2 -n); \
		rm -f build/po/part-*.po
	msgmerge --quiet --no-wrap --no-fuzzy-matching -o po/zh_CN.po build/po/merged.po po/gpudoctor.pot
	msgfmt --check --statistics -o /dev/null po/zh_CN.po

build/locale/%/LC_MESSAGES/gpudoctor.mo: po/%.po
	@mkdir -p $(dir $@)
	$(call say,MSGFMT,$@)
	$(Q)msgfmt --check -o $@.tmp $< && mv $@.tmp $@

# The sanitizer build finds the catalogs beside it too.
build/asan/locale:
	@mkdir -p build/asan
	$(Q)ln -sfn ../locale $@

# The version as a C string; rewritten only when it changed, so that a new
# commit relinks one object instead of rebuilding everything.
build/gen/version.c: FORCE
	@mkdir -p $(dir $@)
	@printf '#include "version.h"\n\nconst char gd_version[] = "%s";\n' '$(VERSION)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

print-version:
	@echo $(VERSION)

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

# Every suite runs, even after one has failed (in parallel under -j), its output kept in build/check/;
# one summary block ends it (tools/check-summary), after the output of any suite that failed. V=1 shows
# every suite's output as it runs. The binaries are built first, once, so suites never build concurrently.
CHECK_DIR := build/check
CHECK_SUITES := build stray-ids unit fakes-test scenarios explain-test fix-test fleet-test metrics-test hostile syscalls cli cluster \
	ptx-check watch-tui docs-test install-test smoke

# The 简体中文 reports (tests/zh-CN).
CHECK_SUITES += zh-CN

check: deps
	@rm -rf $(CHECK_DIR)
	@$(MAKE) --no-print-directory check-suites; rc=$$?; \
		V=$(V) tools/check-summary $(CHECK_DIR) $(CHECK_SUITES) && exit $$rc

check-suites: $(patsubst %,check-suite-%,$(CHECK_SUITES))

check-suite-build:
	@V=$(V) tools/check-suite $(CHECK_DIR) build $(MAKE) --no-print-directory check-binaries

check-suite-%: check-suite-build
	@V=$(V) tools/check-suite $(CHECK_DIR) $* $(MAKE) --no-print-directory $*

check-binaries: $(BIN) $(BIN_SAN) $(UNIT_BIN) $(FAKES) $(MANPAGES) $(COMPLETIONS) $(MO) build/asan/locale

stray-ids:
	@tools/check-stray-ids

deps:
	@tools/check-deps

# Every test program runs, even after one has failed.
unit: $(UNIT_BIN)
	@failed=0; for t in $(UNIT_BIN); do echo "== $$t"; $$t || { echo "FAIL $$t"; failed=$$((failed + 1)); }; done; \
		[ $$failed = 0 ]

scenarios: $(BIN_SAN) $(FAKES)
	GPUDOCTOR=$(BIN_SAN) tests/run-scenarios

# The memory bound is measured on the plain binary: the sanitizers' shadow memory would swamp it. The
# invariance check (the same report posted another way gets the same answer) runs it 5000 times: plain too.
# The corpus run goes last, so that make check's summary shows its count.
explain-test: $(BIN_SAN) $(BIN)
	GPUDOCTOR=$(BIN) tests/explain/invariance
	GPUDOCTOR=$(BIN_SAN) GPUDOCTOR_PLAIN=$(BIN) tests/explain/run

# Every command of every plan on every scenario against data/, the plan as files (shellcheck, a YAML parser), golden text.
fix-test: $(BIN_SAN)
	GPUDOCTOR=$(BIN_SAN) tests/fix/run

# fleet: the doctor's reports of scenario roots merged; values, streams, unreadable inputs, exit status.
fleet-test: $(BIN_SAN)
	tests/fleet/run $(BIN_SAN)

# metrics: the Prometheus exposition of scenario machines (promtool check metrics when installed), values
# against gpu.json, --textfile's atomic replacement, --listen over HTTP (curl).
metrics-test: $(BIN_SAN) $(FAKES)
	tests/metrics $(BIN_SAN)

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

# Cluster hooks as the schedulers run them: node-problem-detector's plugin protocol, the deployment files.
cluster: $(BIN_SAN) $(FAKES)
	tests/cluster/npd $(BIN_SAN)
	tests/cluster/nhc $(BIN_SAN)
	tests/cluster/slurm $(BIN_SAN)

# The 简体中文 reports: the catalog complete, every scenario in zh_CN within 80 columns and translated.
.PHONY: zh-CN
zh-CN: $(BIN_SAN) $(FAKES) $(MO) build/asan/locale
	tests/zh-CN $(BIN_SAN)

ptx-check:
	@tests/ptx-check

# watch's full-screen view on a terminal emulator (tmux; skipped without it).
watch-tui: $(BIN_SAN) $(FAKES)
	tests/watch-tui $(BIN_SAN)

smoke: $(BIN_SAN)
	tests/smoke-real-machine $(BIN_SAN)

bench: $(BIN) build/bench/test_metrics
	bench/doctor-vs-collect-env.sh
	bench/static-torch-install.sh
	bench/explain.sh
	bench/fleet.sh
	bench/metrics.sh

# The exposition's render time, measured by the unit test built without the sanitizers.
build/bench/test_metrics: tests/unit/test_metrics.c $(OBJ_LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -Wno-missing-prototypes -o $@ $< $(OBJ_LIB) $(LDLIBS) -lcmocka

# On a machine with an NVIDIA GPU: gpudoctor's readings against nvidia-smi's.
gpu-check: $(BIN)
	tests/gpu-check $(BIN)

# The command line as data (tools/cli-spec.c), read from the option tables the
# program itself uses; the manual page and the completions are written from it.
build/tools/cli-spec: tools/cli-spec.c $(OBJ_LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/gen/cli.tsv: build/tools/cli-spec
	$(call say,GEN,$@)
	$(Q)build/tools/cli-spec > $@.tmp && mv $@.tmp $@

# Manual pages: scdoc source -> troff. gpudoctor(1) is man/gpudoctor.1.scd.in
# with each command's section written from the option tables; gpudoctor-causes(7)
# is written from the cause registry.
man: $(MANPAGES)

build/man/gpudoctor.1.scd: man/gpudoctor.1.scd.in build/gen/cli.tsv tools/cli-tsv.awk tools/man.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v version='$(VERSION)' -f tools/cli-tsv.awk -f tools/man.awk build/gen/cli.tsv man/gpudoctor.1.scd.in > $@.tmp && mv $@.tmp $@

build/man/gpudoctor-causes.7.scd: $(DATA)/causes.tsv tools/causes2man.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v version='$(VERSION)' -f tools/causes2man.awk $< > $@.tmp && mv $@.tmp $@

$(MANPAGES): build/man/%: build/man/%.scd tools/man-tidy.awk
	$(call say,SCDOC,$@)
	@command -v scdoc >/dev/null || { echo "the manual pages need scdoc (Debian package scdoc)" >&2; exit 1; }
	$(Q)scdoc < $< > $@.troff && awk -f tools/man-tidy.awk $@.troff > $@.tmp && rm $@.troff && mv $@.tmp $@

# Shell completions, written from the same command-line data.
completions: $(COMPLETIONS)

build/completion/gpudoctor.bash: build/gen/cli.tsv tools/cli-tsv.awk tools/completion.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v shell=bash -f tools/cli-tsv.awk -f tools/completion.awk $< > $@.tmp && mv $@.tmp $@

build/completion/_gpudoctor: build/gen/cli.tsv tools/cli-tsv.awk tools/completion.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v shell=zsh -f tools/cli-tsv.awk -f tools/completion.awk $< > $@.tmp && mv $@.tmp $@

build/completion/gpudoctor.fish: build/gen/cli.tsv tools/cli-tsv.awk tools/completion.awk
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)awk -v shell=fish -f tools/cli-tsv.awk -f tools/completion.awk $< > $@.tmp && mv $@.tmp $@

install: $(BIN) $(MANPAGES) $(COMPLETIONS) $(MO)
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(MANDIR)/man7' \
		'$(DESTDIR)$(BASHCOMPDIR)' '$(DESTDIR)$(ZSHCOMPDIR)' '$(DESTDIR)$(FISHCOMPDIR)'
	$(INSTALL) -m 755 $(BIN) '$(DESTDIR)$(BINDIR)/gpudoctor'
	$(INSTALL) -m 644 build/man/gpudoctor.1 '$(DESTDIR)$(MANDIR)/man1/gpudoctor.1'
	$(INSTALL) -m 644 build/man/gpudoctor-causes.7 '$(DESTDIR)$(MANDIR)/man7/gpudoctor-causes.7'
	$(INSTALL) -m 644 build/completion/gpudoctor.bash '$(DESTDIR)$(BASHCOMPDIR)/gpudoctor'
	$(INSTALL) -m 644 build/completion/_gpudoctor '$(DESTDIR)$(ZSHCOMPDIR)/_gpudoctor'
	$(INSTALL) -m 644 build/completion/gpudoctor.fish '$(DESTDIR)$(FISHCOMPDIR)/gpudoctor.fish'
	for l in $(LINGUAS); do \
		$(INSTALL) -d "$(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES" && \
		$(INSTALL) -m 644 "build/locale/$$l/LC_MESSAGES/gpudoctor.mo" "$(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/gpudoctor.mo" || exit 1; \
	done

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/gpudoctor' '$(DESTDIR)$(MANDIR)/man1/gpudoctor.1' \
		'$(DESTDIR)$(MANDIR)/man7/gpudoctor-causes.7' '$(DESTDIR)$(BASHCOMPDIR)/gpudoctor' \
		'$(DESTDIR)$(ZSHCOMPDIR)/_gpudoctor' '$(DESTDIR)$(FISHCOMPDIR)/gpudoctor.fish' \
		$(patsubst %,'$(DESTDIR)$(LOCALEDIR)/%/LC_MESSAGES/gpudoctor.mo',$(LINGUAS))

# make install into a scratch DESTDIR: the installed program runs, uninstall leaves no file.
install-test: $(BIN) $(MANPAGES) $(COMPLETIONS) $(MO)
	tests/install

# The manual pages lint clean and name every option --help lists; the completions
# offer what the program takes (bash for real, zsh and fish checked for syntax).
docs-test: $(BIN) $(MANPAGES) $(COMPLETIONS)
	tests/man $(BIN) build/man
	tests/completion $(BIN) build/completion

# The Debian package, built from a copy of the tree so that nothing lands in it.
deb:
	tools/build-deb build/deb

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
include tests/fuzz/fuzz.mk
