# SPDX-License-Identifier: MIT
# tools/determinism/det.mk: make determinism. Included at the end of the top-level Makefile.
#
#   make determinism   the scene of tools/determinism/det.c, on every backend, in 4 configurations
#                      (det_{2d,3d}_{fixed,float}), on the host (gcc, and clang when installed)
#                      and on the 5 QEMU machines; prints each configuration's hash and fails
#                      unless every machine and every backend gave the same (tools/determinism/run.sh)

DET_CONFIGS := det_2d_fixed det_3d_fixed det_2d_float det_3d_float
DET_SRC     := tools/determinism/det.c
DET_DEPS    := $(LIB_SRC) $(LIB_HDR) $(DET_SRC) $(wildcard tools/determinism/*.h) $(HOST_PORT_SRCS)
det_defs     = -Itools/determinism -DMBP_CONFIG_FILE='"mbp_config_$(1).h"' \
               -DDET_PLATFORM='"$(2)"' -DDET_CONFIG='"$(1)"'

# The host with the suite's flags (-O2 -ffp-contract=off), and with clang (its own warnings: no -Werror).
build/det/host-gcc/%/det: $(DET_DEPS)
	@mkdir -p $(@D)
	@$(CC) $(HOST_CFLAGS) $(call det_defs,$*,host-gcc) $(LIB_SRC) $(DET_SRC) $(HOST_PORT_SRCS) -o $@

build/det/host-clang/%/det: $(DET_DEPS)
	@mkdir -p $(@D)
	@clang $(filter-out -Werror,$(HOST_CFLAGS)) $(call det_defs,$*,host-clang) $(LIB_SRC) $(DET_SRC) $(HOST_PORT_SRCS) -o $@

# A QEMU machine: make TARGET=<machine> MBP_CONFIG=det_<...> det-elf
ifneq ($(CROSS_BUILD),)
ifneq ($(filter det_%,$(MBP_CONFIG)),)
CROSS_CFLAGS += -I$(MBP_ROOT)/tools/determinism -DDET_PLATFORM='"$(TARGET)"' -DDET_CONFIG='"$(MBP_CONFIG)"'

$(CROSS_BUILD)/det.elf: $(call cross_objs,$(LIB_SRC) $(DET_SRC)) $(CROSS_PORT_OBJS)
	$(cross_link)

.PHONY: det-elf
det-elf: $(CROSS_BUILD)/det.elf
endif
endif

.PHONY: determinism
determinism:
	@DET_CONFIGS="$(DET_CONFIGS)" DET_TARGETS="$(MBP_TARGETS)" tools/determinism/run.sh
