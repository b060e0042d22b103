# tests/fakes/fakes.mk - fake NVIDIA driver libraries for the tests
# (docs/fake-gpu.md). Include it after the default goal and before any rule that names $(FAKES):
#
#   include tests/fakes/fakes.mk
#
#   make fakes        build/fakes/libnvidia-ml.so.1 and build/fakes/libcuda.so.1
#   make fakes-test   build them and run tests/fakes/test-fakes
#
# Also usable on its own: make -f tests/fakes/fakes.mk fakes
# Uses only FAKE_* variables of its own (and $(CC)); the fakes link the
# shared libjansson, never the static archive the program uses.

FAKES := build/fakes/libnvidia-ml.so.1 build/fakes/libcuda.so.1

FAKE_CPPFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Isrc -Itests/fakes
FAKE_CFLAGS ?= -O2 -g
FAKE_WARN := -Wall -Wextra
FAKE_SOFLAGS := -fPIC -shared -fvisibility=hidden -pthread -Wl,-z,defs
FAKE_LDLIBS := -ljansson -ldl -lm
FAKE_DEPS := tests/fakes/fake_gpu.c tests/fakes/fake_gpu.h src/nvidia/nvml.h \
	src/nvidia/cuda.h tests/fakes/fakes.mk

ifneq ($(V),1)
FAKE_Q := @
fake_say = @printf '  %-6s %s\n' $(1) $(2)
else
FAKE_Q :=
fake_say =
endif

.PHONY: fakes fakes-test

fakes: $(FAKES)

# build/fakes/LIB.so.1 from tests/fakes/fake_API.c (libcuda: + fake_compute.c) + fake_gpu.c; soname LIB.so.1.
build/fakes/libnvidia-ml.so.1: FAKE_SRC := tests/fakes/fake_nvml.c
build/fakes/libcuda.so.1: FAKE_SRC := tests/fakes/fake_cuda.c tests/fakes/fake_compute.c
build/fakes/libnvidia-ml.so.1: tests/fakes/fake_nvml.c $(FAKE_DEPS)
build/fakes/libcuda.so.1: tests/fakes/fake_cuda.c tests/fakes/fake_compute.c $(FAKE_DEPS)

$(FAKES):
	@mkdir -p $(dir $@)
	$(call fake_say,FAKE,$@)
	$(FAKE_Q)$(CC) $(FAKE_CPPFLAGS) $(FAKE_CFLAGS) $(FAKE_WARN) $(FAKE_SOFLAGS) -Wl,-soname,$(notdir $@) \
		-o $@.tmp $(FAKE_SRC) tests/fakes/fake_gpu.c $(FAKE_LDLIBS) && mv -f $@.tmp $@

fakes-test: $(FAKES)
	tests/fakes/test-fakes
