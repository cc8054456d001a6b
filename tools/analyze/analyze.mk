# SPDX-License-Identifier: MIT
# tools/analyze/analyze.mk: make analyze. Included at the end of the top-level Makefile.
#
#   make analyze   gcc -fanalyzer, clang-tidy (bugprone, cert, clang-analyzer) and cppcheck with
#                  its MISRA C:2012 addon on lib/, in the host configurations analyze.sh names;
#                  fails on any finding that tools/analyze/*.supp does not accept (docs/MISRA.md
#                  lists the MISRA deviations). Ends with "analyze: N passed, N failed"

.PHONY: analyze
analyze:
	@ANALYZE_CFLAGS="$(filter-out -Werror -g -I%,$(HOST_CFLAGS))" tools/analyze/analyze.sh
