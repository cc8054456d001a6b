# SPDX-License-Identifier: MIT
# mk/coverage.mk: `make coverage`, line and branch coverage of lib/ with gcov and gcovr.
# Included by mk/reliability.mk (it uses LIB_SRC, TEST_SRC, HOST_CFLAGS, ... of the Makefile).
#
#   make coverage            the suites below, then the merged figures; ends with the lines
#                            "lines: N%" and "branches: N%" and fails below COV_MIN_LINES (100)
#                            or COV_MIN_BRANCHES (95); build/coverage/ has the reports
#   make coverage-doc        the same, then rewrites the table of docs/coverage.md (what no test
#                            reaches), keeping the reasons already written there
#   make coverage-suite      the same for `make test`: one "coverage: N passed, N failed" line
#
# Each config builds lib/*.c at -O0 with --coverage (the tests at -O2 without it: they are not
# measured) and runs a suite; the configs' counts are added up line by line (a line or branch is
# covered when any config reaches it). Configs:
#   COV_FULL_CONFIGS  the whole suite: the host configs of `make test` (HOST_CONFIGS: 2D and 3D,
#                     float and fixed, SAP quantized)
#   COV_OWN_CONFIGS   tests/test_cover_*.c (and the shared helpers) only: configs the other test
#                     files do not support (tests/cover/mbp_config_cov_small.h: no spheres, fewer
#                     events than pairs, 24 fraction bits with quantized SAP)
# A run that hangs is killed after COV_TIMEOUT seconds (tools/coverage.sh).

COV_FULL_CONFIGS ?= $(HOST_CONFIGS)
COV_OWN_CONFIGS  ?= cov_small
COV_CONFIGS      := $(COV_FULL_CONFIGS) $(COV_OWN_CONFIGS)

COV_LIB_CFLAGS  := $(filter-out -O2,$(HOST_CFLAGS)) -O0 --coverage -Itests/cover
COV_TEST_CFLAGS := $(HOST_CFLAGS) -Itests/cover
# The harness, the helpers beside it, and the coverage tests.
COV_OTHER_TESTS := $(filter-out $(wildcard tests/test_cover_*.c),$(wildcard tests/test_*.c))
COV_OWN_TESTS   := $(filter-out $(COV_OTHER_TESTS),$(TEST_SRC))
cov_tests = $(if $(filter $(1),$(COV_OWN_CONFIGS)),$(COV_OWN_TESTS),$(TEST_SRC))

# One directory per config, rebuilt whole: stale .gcno/.gcda files of an older lib/ would not
# match. The test list is the config's own (build/cov-<c>/test_list.inc comes before build/).
# Built from what a host suite is (HOST_SUITE_SRC, Makefile), with the coverage configs' headers.
build/cov-%/run: $(HOST_SUITE_SRC) $(wildcard tests/cover/*.h) mk/coverage.mk
	@echo "coverage: building $*"
	@rm -rf $(@D) && mkdir -p $(@D)/lib
	@grep -ho '^TEST([a-z0-9_]*)' $(filter tests/test_%,$(call cov_tests,$*)) | \
	  sed 's/TEST(\(.*\))/X(\1)/' > $(@D)/test_list.inc
	@for f in $(LIB_SRC); do \
	  $(CC) $(COV_LIB_CFLAGS) -DMBP_CONFIG_FILE='"mbp_config_$*.h"' -c $$f \
	    -o $(@D)/lib/$$(basename $$f .c).o || exit 1; \
	done
	@$(CC) -I$(@D) $(COV_TEST_CFLAGS) -DMBP_CONFIG_FILE='"mbp_config_$*.h"' \
	  -DMBP_TEST_PLATFORM='"cov-$*"' $(HOST_TEST_FLAGS) \
	  $(call cov_tests,$*) $(HOST_PORT_SRCS) $(@D)/lib/*.o -lgcov -o $@

.PHONY: coverage coverage-doc coverage-build coverage-suite
coverage-build: $(foreach c,$(COV_CONFIGS),build/cov-$(c)/run)

# gcovr first (installed, or one line naming the package), then the builds, then the runs.
coverage:
	@tools/coverage.sh --deps
	@$(MAKE) --no-print-directory coverage-build
	@tools/coverage.sh $(COV_CONFIGS)

coverage-doc:
	@tools/coverage.sh --deps
	@$(MAKE) --no-print-directory coverage-build
	@COV_WRITE_DOC=1 tools/coverage.sh $(COV_CONFIGS)

# For `make test`: the same, plus a "coverage: N passed, N failed" line (one check).
coverage-suite:
	@mkdir -p build; tools/coverage.sh --deps --suite && \
	 { $(MAKE) --no-print-directory coverage-build >build/coverage-build.log 2>&1 || \
	   { tail -n 30 build/coverage-build.log; \
	     echo "coverage: 0 passed, 1 failed (build failed: build/coverage-build.log)"; \
	     exit 1; }; } && \
	 tools/coverage.sh --suite $(COV_CONFIGS)
