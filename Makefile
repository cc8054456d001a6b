# SPDX-License-Identifier: MIT
# mbp: micro broad phase. See README.md.
#
#   make test            host suite (6 configurations), checks and the five QEMU suites, then
#                        the reliability suites of mk/reliability.mk: test-sanitize, test-valgrind,
#                        a bounded fuzz pass (TEST_FUZZ_SECONDS per config) and the coverage gate
#                        (coverage-suite); ends with "N passed, N failed". The full gate: .ci/run
#   make check           the quick tier, a few minutes: the host suite in every configuration, the
#                        examples and the firmware builds, the SPDX lines, the Zephyr module's
#                        checks (zephyr/check.sh), and one QEMU machine
#                        (CHECK_TARGET, default mps2-an386); ends with "N passed, N failed"
#   make test-host       host suite only
#   make test-firmware   examples/firmware built with lib/mbp.mk, with CMake and against an
#                        installed mbp (find_package), run under QEMU, same flash size checked;
#                        library.json and its export (examples/firmware/check.sh)
#   make TARGET=<m> test-target   one QEMU machine (mps2-an385 mps2-an386 mps2-an500
#                        mps2-an505 microbit)
#   make lib TARGET=<m>  build/<m>/libmbp.a with that machine's default configuration
#   make clean
.DEFAULT_GOAL := test
SHELL := /bin/bash

include mk/targets.mk

# The library's sources come from lib/mbp.mk, the fragment a firmware's Makefile includes.
MBP_DIR  := .
include lib/mbp.mk
LIB_SRC  := $(MBP_SRC)
TEST_SRC := $(wildcard tests/*.c)
LIB_HDR  := $(wildcard lib/*.h port/*.h config/*.h)
WARN     := -Wall -Wextra -Wconversion -Wshadow -Werror

# ---- host ----
HOST_CONFIGS    := 2d_float 2d_fixed 3d_float 3d_fixed 2d_fixed_sapq 3d_float_sapq
HOST_CFLAGS     := -std=c99 -O2 -g -ffp-contract=off $(WARN) -Ilib -Iport -Iconfig -Itests -Ibuild
HOST_TEST_FLAGS := -DTEST_FRAMES=200u -DTEST_SEEDS=4u

build/test_list.inc: $(TEST_SRC)
	@mkdir -p build
	@grep -ho '^TEST([a-z0-9_]*)' tests/test_*.c | sed 's/TEST(\(.*\))/X(\1)/' > $@.tmp && mv $@.tmp $@

# The host suite of configuration $*: what it is built from, and its build,
# $(call host_suite,<compiler and flags>,<name it prints before the config>,<test flags>).
# mk/reliability.mk builds the sanitizer and long-run suites the same way.
# tests/fuzz/ops.c and ops.h: test_regress.c includes them.
HOST_SUITE_SRC = $(LIB_SRC) $(TEST_SRC) build/test_list.inc $(LIB_HDR) $(wildcard tests/*.h config/*.h) \
                 tests/fuzz/ops.c tests/fuzz/ops.h $(HOST_PORT_SRCS)
host_suite = $(1) -DMBP_CONFIG_FILE='"mbp_config_$*.h"' -DMBP_TEST_PLATFORM='"$(2)-$(subst _,-,$*)"' \
             $(3) $(LIB_SRC) $(TEST_SRC) $(HOST_PORT_SRCS) -o $@

build/host-%/run: $(HOST_SUITE_SRC)
	@mkdir -p $(@D)
	$(call host_suite,$(CC) $(HOST_CFLAGS),host,$(HOST_TEST_FLAGS))

.PHONY: test-host
test-host: $(foreach c,$(HOST_CONFIGS),build/host-$(c)/run)
	@fail=0; for c in $(HOST_CONFIGS); do ./build/host-$$c/run || fail=1; done; exit $$fail

# ---- one QEMU machine (make TARGET=<machine> ...) ----
ifneq ($(filter-out host cortex-m0,$(TARGET)),)
CROSS_CFLAGS += -Ilib -Itests -Ibuild -DMBP_TEST_PLATFORM='"$(TARGET)"' \
                -DTEST_FRAMES=40u -DTEST_SEEDS=2u -DTEST_BODIES_CAP=64u

$(CROSS_BUILD)/test.elf: $(call cross_objs,$(LIB_SRC) $(TEST_SRC)) $(CROSS_PORT_OBJS)
	$(cross_link)

$(call cross_objs,$(TEST_SRC)): build/test_list.inc

# A machine whose RAM cannot hold every test file's buffers at once (the 16 KB microbit) sets
# TARGET_TEST_SPLIT := 1: one image per tests/test_*.c, run one after the other, with their
# results added up into the machine's one summary line.
SPLIT_NAMES := $(basename $(notdir $(wildcard tests/test_*.c)))
# Sources every image links: the helpers beside the harness (the oracle, the twin worlds);
# --gc-sections drops what an image does not use.
SPLIT_COMMON := $(filter-out tests/mbp_test.c $(wildcard tests/test_*.c),$(wildcard tests/*.c))

$(CROSS_BUILD)/split/%/test_list.inc: tests/%.c
	@mkdir -p $(@D)
	@grep -ho '^TEST([a-z0-9_]*)' $< | sed 's/TEST(\(.*\))/X(\1)/' > $@

# -MMD: the harness declares the test world, whose layout follows lib/ and config/ headers; a
# stale object would hand the library a world of the old size (found as a false stack failure).
$(CROSS_BUILD)/split/%/mbp_test.o: tests/mbp_test.c $(CROSS_BUILD)/split/%/test_list.inc
	$(CROSS_CC) -I$(@D) $(CROSS_CFLAGS) -MMD -MP -c $< -o $@
-include $(wildcard $(CROSS_BUILD)/split/*/mbp_test.d)

$(CROSS_BUILD)/split/%/test.elf: $(CROSS_BUILD)/split/%/mbp_test.o $(call cross_objs,$(LIB_SRC) $(SPLIT_COMMON) tests/%.c) $(CROSS_PORT_OBJS)
	$(cross_link)

.PHONY: test-target
ifeq ($(TARGET_TEST_SPLIT),1)
test-target: $(foreach n,$(SPLIT_NAMES),$(CROSS_BUILD)/split/$(n)/test.elf)
	@for n in $(SPLIT_NAMES); do tools/suite.sh $(TARGET) $(MBP_ROOT)/targets/run-qemu.sh \
	   $(TARGET_QEMU_MACHINE) $(CROSS_BUILD)/split/$$n/test.elf 600; done > $(CROSS_BUILD)/split.log; \
	 grep -v -E '^$(TARGET): [0-9]+ passed, [0-9]+ failed' $(CROSS_BUILD)/split.log; \
	 awk '/^$(TARGET): [0-9]+ passed, [0-9]+ failed/ { p += $$2; f += $$4 } \
	      END { printf "$(TARGET): %d passed, %d failed\n", p, f; exit f > 0 }' $(CROSS_BUILD)/split.log
else
test-target: $(CROSS_BUILD)/test.elf
	@$(call cross_run,$<,600)
endif

$(CROSS_BUILD)/libmbp.a: $(call cross_objs,$(LIB_SRC))
	@rm -f $@
	$(CROSS_PREFIX)ar rcs $@ $^

.PHONY: lib
lib: $(CROSS_BUILD)/libmbp.a
	@mkdir -p build/$(TARGET)
	@cp $< build/$(TARGET)/libmbp.a
	@echo "build/$(TARGET)/libmbp.a ($(MBP_CONFIG))"
endif

# ---- everything ----
.PHONY: deps test check
deps:
	@tools/deps.sh

# What make test and make check both start with: the host suites built (a failed build shows its
# log, and the suites that did not build count as failed), then run; the examples; the firmware
# builds (make, CMake, installed package, library.json and its export); the SPDX lines; the layers
# of lib/ (tools/check-layers.sh); what can be checked of the Zephyr module without Zephyr
# (zephyr/check.sh).
HOST_BUILD = $(MAKE) --no-print-directory $(foreach c,$(HOST_CONFIGS),build/host-$(c)/run) \
             >build/host-build.log 2>&1 || { cat build/host-build.log; }
QUICK_SUITES = for c in $(HOST_CONFIGS); do tools/suite.sh host-$(subst _,-,$$c) ./build/host-$$c/run; done; \
	tools/suite.sh examples $(MAKE) --no-print-directory -s test-examples; \
	tools/suite.sh firmware $(MAKE) --no-print-directory -s test-firmware; \
	tools/suite.sh spdx tools/check-spdx.sh; \
	tools/suite.sh layers tools/check-layers.sh; \
	tools/suite.sh zephyr zephyr/check.sh

test: deps
	@mkdir -p build
	@$(HOST_BUILD)
	@{ $(QUICK_SUITES); \
	   tools/suite.sh freestanding tools/check-freestanding.sh; \
	   tools/suite.sh config-errors tools/check-config-errors.sh; \
	   tools/suite.sh bench-build $(MAKE) --no-print-directory -s test-bench-build; \
	   tools/suite.sh asserts tools/check-asserts.sh; \
	   tools/suite.sh analyze $(MAKE) --no-print-directory -s analyze; \
	   for t in $(MBP_TARGETS); do \
	     tools/suite.sh $$t $(MAKE) --no-print-directory -s TARGET=$$t test-target; \
	   done; \
	   tools/suite.sh determinism $(MAKE) --no-print-directory -s determinism; \
	   tools/suite.sh sanitize $(MAKE) --no-print-directory -s test-sanitize; \
	   tools/suite.sh valgrind $(MAKE) --no-print-directory -s test-valgrind; \
	   tools/suite.sh fuzz $(MAKE) --no-print-directory -s fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS); \
	   tools/suite.sh coverage $(MAKE) --no-print-directory -s coverage-suite; } | tee build/test.log
	@tools/total.sh build/test.log

# The quick tier for edit-compile-test: QUICK_SUITES and one QEMU machine.
CHECK_TARGET ?= mps2-an386
check:
	@tools/deps.sh quick
	@mkdir -p build
	@$(HOST_BUILD)
	@{ $(QUICK_SUITES); \
	   tools/suite.sh $(CHECK_TARGET) $(MAKE) --no-print-directory -s TARGET=$(CHECK_TARGET) test-target; \
	 } | tee build/check.log
	@tools/total.sh build/check.log

# The README's example, compiled with the same warnings as the library, run, and its output
# checked: the ball's pairs with the crate and the ground must begin on frames 2 and 3.
build/examples/frame_loop: examples/frame_loop/main.c $(LIB_SRC) $(LIB_HDR) $(HOST_PORT_SRCS)
	@mkdir -p $(@D)
	@$(CC) $(HOST_CFLAGS) -DMBP_CONFIG_FILE='"mbp_config_2d_float.h"' $< $(LIB_SRC) $(HOST_PORT_SRCS) -o $@

.PHONY: test-examples
test-examples: build/examples/frame_loop
	@out=$$(./build/examples/frame_loop) && grep -q 'begin 200-300' <<<"$$out" && \
	  grep -q 'begin 100-300' <<<"$$out" && echo "examples: 1 passed, 0 failed" || \
	  { echo "$$out"; echo "examples: 0 passed, 1 failed"; }

# examples/firmware/: a firmware for mps2-an386 built with lib/mbp.mk, with CMake and against an
# installed package, all run under QEMU and held to the same flash size; library.json and its
# export (examples/firmware/check.sh says what each check is).
.PHONY: test-firmware
test-firmware:
	@examples/firmware/check.sh build/firmware

.PHONY: clean
clean:
	rm -rf build
include mk/bench.mk
include mk/peers.mk
include mk/reliability.mk
# Static analysis, stack bounds and the determinism hash (issue 8): make analyze, stack, determinism.
include tools/analyze/analyze.mk tools/stack/stack.mk tools/determinism/det.mk

# The README's tables of figures, from the last make bench and make size.
.PHONY: readme-tables
readme-tables:
	@tools/readme-tables.sh
