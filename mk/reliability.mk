# SPDX-License-Identifier: MIT
# mk/reliability.mk: the reliability checks of issue 8 that are cheap enough for CI.
# Included at the end of the top-level Makefile (it uses LIB_SRC, TEST_SRC, HOST_CFLAGS, ...).
#
#   make test-sanitize        the host suite under AddressSanitizer + UndefinedBehaviorSanitizer,
#                             every config of HOST_CONFIGS; any report aborts the run and counts
#                             as a failure
#   make test-valgrind        the normal host binaries under valgrind (VALGRIND_CONFIGS)
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_CONFIGS=...]
#                             libFuzzer: every compiled backend against brute force, each config
#                             for FUZZ_SECONDS; fails on any finding (saved in build/fuzz-<c>/)
#   make test-long [LONG_FRAMES=1500] [LONG_SEEDS=24] [LONG_CONFIGS=...]
#                             the host suite with long random runs, for a release or a nightly
#                             job: not part of make test (about 40 minutes)
#   make check-freestanding   tools/check-freestanding.sh (nm, headers, recursion)
#   make coverage             line and branch coverage of lib/ (gcov + gcovr), mk/coverage.mk;
#                             ends with "lines: N%" and "branches: N%" (docs/coverage.md)
#   make analyze, make stack, make determinism
#                             static analysis (MISRA deviations: docs/MISRA.md), stack bounds
#                             (docs/stack.md) and the determinism hash: tools/analyze/,
#                             tools/stack/, tools/determinism/, included from the Makefile
#
# Each suite prints "<name>: N passed, N failed" lines like `make test`; a sanitizer or valgrind
# report after a clean summary is turned into a failed line by tools/suite.sh. `make test` runs
# test-sanitize, test-valgrind, fuzz with FUZZ_SECONDS=TEST_FUZZ_SECONDS (10) and coverage-suite
# after its other suites.

SAN_CC    ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The same sources and flags as the host suite, minus -Werror: a warning only one compiler
# gives should not hide the run-time checks (the gcc host build keeps -Werror).
SAN_CFLAGS := $(filter-out -O2 -Werror,$(HOST_CFLAGS)) -O1 $(SAN_FLAGS) \
              $(if $(findstring clang,$(SAN_CC)),-Wno-string-conversion)
# detect_leaks: the library never allocates, but the harness must not either.
SAN_ENV   := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

build/san-%/run: $(HOST_SUITE_SRC)
	@mkdir -p $(@D)
	$(call host_suite,$(SAN_CC) $(SAN_CFLAGS),asan,$(HOST_TEST_FLAGS))

.PHONY: test-sanitize
test-sanitize: $(foreach c,$(HOST_CONFIGS),build/san-$(c)/run)
	@{ for c in $(HOST_CONFIGS); do \
	     $(SAN_ENV) tools/suite.sh asan-$${c/_/-} ./build/san-$$c/run; \
	   done; } | tee build/sanitize.log
	@tools/total.sh build/sanitize.log

# ---- long random runs: not in make test (about 40 minutes on one core) ----
# The host suite with many more frames and seeds than the gate's 200 x 4: scenes that only grow
# dense, or overflow the pair set, after about a thousand frames show here. Run it before a
# release or nightly; each config takes 5 to 7 minutes on one core (about 40 for all six).
LONG_FRAMES  ?= 1500
LONG_SEEDS   ?= 24
LONG_CONFIGS ?= $(HOST_CONFIGS)

build/long-%/run: $(HOST_SUITE_SRC)
	@mkdir -p $(@D)
	$(call host_suite,$(CC) $(HOST_CFLAGS),long,-DTEST_FRAMES=$(LONG_FRAMES)u -DTEST_SEEDS=$(LONG_SEEDS)u)

.PHONY: test-long
test-long: $(foreach c,$(LONG_CONFIGS),build/long-$(c)/run)
	@{ for c in $(LONG_CONFIGS); do \
	     tools/suite.sh long-$${c/_/-} ./build/long-$$c/run; \
	   done; } | tee build/long.log
	@tools/total.sh build/long.log

# ---- valgrind on the normal host binaries ----
VALGRIND_CONFIGS ?= 2d_fixed 3d_float
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite

.PHONY: test-valgrind
test-valgrind: $(foreach c,$(VALGRIND_CONFIGS),build/host-$(c)/run)
	@command -v valgrind >/dev/null || { echo "valgrind: 0 passed, 1 failed (valgrind not installed)"; exit 1; }
	@{ for c in $(VALGRIND_CONFIGS); do \
	     tools/suite.sh valgrind-$${c/_/-} $(VALGRIND) ./build/host-$$c/run \
	       | sed 's/^host-/valgrind-host-/'; \
	   done; } | tee build/valgrind.log
	@tools/total.sh build/valgrind.log

# ---- libFuzzer: tests/fuzz/ ----
# One binary per config; the first input byte picks the backend among those compiled in.
# fuzz_small is a tiny world (tests/fuzz/) where full bodies, pairs, events and backend storage
# are reachable in a short input.
FUZZ_SECONDS ?= 60
# The bounded pass of `make test`: seconds per config (5 configs), after building them.
TEST_FUZZ_SECONDS ?= 10
FUZZ_CONFIGS ?= fuzz_small 2d_fixed 2d_float 3d_fixed 3d_float
FUZZ_CC      ?= clang
FUZZ_SRC     := tests/fuzz/fuzz_ops.c tests/fuzz/ops.c
FUZZ_CFLAGS  := $(filter-out -O2 -Werror,$(HOST_CFLAGS)) -O1 -Itests/fuzz \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

build/fuzz-%/fuzz: $(LIB_SRC) $(FUZZ_SRC) $(LIB_HDR) tests/fuzz/ops.h $(wildcard tests/fuzz/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DMBP_CONFIG_FILE='"mbp_config_$*.h"' $(LIB_SRC) $(FUZZ_SRC) -o $@

.PHONY: fuzz fuzz-build
fuzz-build: $(foreach c,$(FUZZ_CONFIGS),build/fuzz-$(c)/fuzz)

# The corpus in tests/fuzz/corpus/ is read, never written: new inputs go to build/fuzz-<c>/corpus.
fuzz: fuzz-build
	@fail=0; for c in $(FUZZ_CONFIGS); do \
	  d=build/fuzz-$$c; mkdir -p $$d/corpus $$d/findings; \
	  if ./$$d/fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	       -print_final_stats=1 -artifact_prefix=$$d/findings/ $$d/corpus tests/fuzz/corpus \
	       >$$d/log 2>&1; then \
	    echo "fuzz-$${c//_/-}: $$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' $$d/log | grep -o '[0-9]*$$') runs in $(FUZZ_SECONDS) s"; \
	    echo "fuzz-$${c//_/-}: 1 passed, 0 failed"; \
	  else \
	    tail -n 40 $$d/log; ls $$d/findings; \
	    echo "fuzz-$${c//_/-}: 0 passed, 1 failed (input in $$d/findings/)"; fail=1; \
	  fi; \
	done; exit $$fail

.PHONY: check-freestanding
check-freestanding:
	@tools/check-freestanding.sh

# ---- coverage: mk/coverage.mk ----
include mk/coverage.mk
