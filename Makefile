# mbp: micro broad phase. See README.md.
#
#   make test            host suite (4 configurations) and the five QEMU suites; ends with
#                        "N passed, N failed"
#   make test-host       host suite only
#   make TARGET=<m> test-target   one QEMU machine (mps2-an385 mps2-an386 mps2-an500
#                        mps2-an505 microbit)
#   make lib TARGET=<m>  build/<m>/libmbp.a with that machine's default configuration
#   make clean
.DEFAULT_GOAL := test
SHELL := /bin/bash

include mk/targets.mk

LIB_SRC  := $(wildcard lib/*.c)
TEST_SRC := $(wildcard tests/*.c)
LIB_HDR  := $(wildcard lib/*.h port/*.h config/*.h)
WARN     := -Wall -Wextra -Wconversion -Wshadow -Werror

# ---- host ----
HOST_CONFIGS    := 2d_float 2d_fixed 3d_float 3d_fixed
HOST_CFLAGS     := -std=c99 -O2 -g -ffp-contract=off $(WARN) -Ilib -Iport -Iconfig -Itests -Ibuild
HOST_TEST_FLAGS := -DTEST_FRAMES=200u -DTEST_SEEDS=4u

build/test_list.inc: $(TEST_SRC)
	@mkdir -p build
	@grep -ho '^TEST([a-z0-9_]*)' tests/test_*.c | sed 's/TEST(\(.*\))/X(\1)/' > $@.tmp && mv $@.tmp $@

build/host-%/run: $(LIB_SRC) $(TEST_SRC) build/test_list.inc $(LIB_HDR) $(wildcard tests/*.h) $(HOST_PORT_SRCS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -DMBP_CONFIG_FILE='"mbp_config_$*.h"' \
	  -DMBP_TEST_PLATFORM='"host-$(subst _,-,$*)"' $(HOST_TEST_FLAGS) \
	  $(LIB_SRC) $(TEST_SRC) $(HOST_PORT_SRCS) -o $@

.PHONY: test-host
test-host: $(foreach c,$(HOST_CONFIGS),build/host-$(c)/run)
	@fail=0; for c in $(HOST_CONFIGS); do ./build/host-$$c/run || fail=1; done; exit $$fail

# ---- one QEMU machine (make TARGET=<machine> ...) ----
ifneq ($(filter-out host,$(TARGET)),)
CROSS_CFLAGS += -Ilib -Itests -Ibuild -DMBP_TEST_PLATFORM='"$(TARGET)"' \
                -DTEST_FRAMES=40u -DTEST_SEEDS=2u -DTEST_BODIES_CAP=64u

$(CROSS_BUILD)/test.elf: $(call cross_objs,$(LIB_SRC) $(TEST_SRC)) $(CROSS_PORT_OBJS)
	$(cross_link)

$(call cross_objs,$(TEST_SRC)): build/test_list.inc

.PHONY: test-target
test-target: $(CROSS_BUILD)/test.elf
	@$(call cross_run,$<,600)

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
.PHONY: deps test
deps:
	@tools/deps.sh

test: deps
	@mkdir -p build
	@$(MAKE) --no-print-directory $(foreach c,$(HOST_CONFIGS),build/host-$(c)/run) >build/host-build.log 2>&1 || \
	  { cat build/host-build.log; }
	@{ for c in $(HOST_CONFIGS); do tools/suite.sh host-$(subst _,-,$$c) ./build/host-$$c/run; done; \
	   for t in $(MBP_TARGETS); do \
	     tools/suite.sh $$t $(MAKE) --no-print-directory -s TARGET=$$t test-target; \
	   done; } | tee build/test.log
	@tools/total.sh build/test.log

.PHONY: clean
clean:
	rm -rf build
