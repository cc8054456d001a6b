# SPDX-License-Identifier: MIT
# mk/targets.mk: building and running mbp on the QEMU targets.
#
# Include it from the top-level Makefile and run make from the repository
# root. With TARGET set to a machine it defines how to compile, link and
# run for that machine; with TARGET empty or "host" it defines only the
# lists below, so a host build can include it unconditionally.
#
# Inputs (all optional except TARGET for cross builds)
#   TARGET        a machine from MBP_TARGETS
#   MBP_CONFIG    library config name, config/mbp_config_<name>.h
#                 (default: the machine's TARGET_CONFIG)
#   CROSS_PREFIX  toolchain prefix (default arm-none-eabi-)
#   BUILD_DIR     (default build)
#   QEMU_TIMEOUT  seconds before a run is killed (default 120)
#
# Outputs
#   CROSS_CC, CROSS_CFLAGS, CROSS_LDFLAGS, CROSS_LDLIBS
#   CROSS_BUILD       $(BUILD_DIR)/$(TARGET)/$(MBP_CONFIG): put ELFs here
#   CROSS_PORT_SRCS   startup + port: every ELF needs their objects,
#   CROSS_PORT_OBJS   which are these
#   cross_objs        $(call cross_objs,lib/a.c tests/b.c) names the objects
#   cross_link        a recipe line: links the .o files among $^ into $@
#   cross_run         $(call cross_run,elf[,timeout_s]) runs it under QEMU
#   a pattern rule    $(CROSS_BUILD)/obj/%.o from %.c, with .d dependencies
#
# Sources are named relative to the repository root (lib/mbp_world.c),
# and their objects mirror that path under $(CROSS_BUILD)/obj/.
# The config is part of the build path so the test matrix can build
# several configs for one machine without them overwriting each other.

MBP_TARGETS := mps2-an385 mps2-an386 mps2-an500 mps2-an505 microbit

# The repository root, from where this file is: "." when make runs there.
# Immediate (:=): MAKEFILE_LIST changes with every include.
ifndef MBP_ROOT
MBP_ROOT := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))
endif
MBP_ROOT_PREFIX := $(if $(filter .,$(MBP_ROOT)),,$(MBP_ROOT)/)

HOST_PORT_SRCS := $(MBP_ROOT_PREFIX)port/host/mbp_port_host.c

# cortex-m0 names a make bench platform (M0 code on mps2-an385, mk/bench.mk), not a machine.
ifneq ($(filter-out host cortex-m0,$(TARGET)),)

ifeq ($(filter $(TARGET),$(MBP_TARGETS)),)
$(error mbp: unknown TARGET '$(TARGET)': use one of $(MBP_TARGETS))
endif

include $(MBP_ROOT_PREFIX)targets/$(TARGET)/target.mk

MBP_CONFIG   ?= $(TARGET_CONFIG)
CROSS_PREFIX ?= arm-none-eabi-
BUILD_DIR    ?= build
QEMU_TIMEOUT ?= 120

CROSS_CC   := $(CROSS_PREFIX)gcc
CROSS_SIZE := $(CROSS_PREFIX)size
CROSS_NM   := $(CROSS_PREFIX)nm

CROSS_BUILD  := $(BUILD_DIR)/$(TARGET)/$(MBP_CONFIG)
CROSS_OBJDIR := $(CROSS_BUILD)/obj

# Only the compiler's own freestanding headers (stdint.h, stddef.h, ...):
# the C library's headers are not on the path, so code that would need
# newlib fails to compile here rather than on a machine without it.
CROSS_FREESTANDING_INC := -nostdinc \
    -isystem $(shell $(CROSS_CC) -print-file-name=include) \
    -isystem $(shell $(CROSS_CC) -print-file-name=include-fixed)

CROSS_CFLAGS := $(TARGET_CPU_FLAGS) \
    -std=c99 -Os -g -ffreestanding -fno-common \
    -ffunction-sections -fdata-sections -ffp-contract=off \
    -Wall -Wextra -Wconversion -Wshadow -Werror \
    $(CROSS_FREESTANDING_INC) \
    -I$(MBP_ROOT)/port -I$(MBP_ROOT)/config \
    -DMBP_CONFIG_FILE=\"mbp_config_$(MBP_CONFIG).h\" \
    -DMBP_PORT_INSN_PER_TICK_NUM=$(TARGET_INSN_PER_TICK_NUM) \
    -DMBP_PORT_INSN_PER_TICK_SHIFT=$(TARGET_INSN_PER_TICK_SHIFT)

# No C library and no crt0: startup.c and the port provide everything;
# libgcc brings the helpers gcc calls (division on the M0, soft float).
CROSS_LDFLAGS := $(TARGET_CPU_FLAGS) -nostdlib -nostartfiles \
    -Wl,--gc-sections -L$(TARGET_LDDIR) -T$(TARGET_LDSCRIPT)
CROSS_LDLIBS  := -lgcc

CROSS_PORT_SRCS := $(MBP_ROOT_PREFIX)targets/common/startup.c \
                   $(MBP_ROOT_PREFIX)port/cortex-m/mbp_port_cm.c

cross_objs = $(patsubst %.c,$(CROSS_OBJDIR)/%.o,$(1))
CROSS_PORT_OBJS := $(call cross_objs,$(CROSS_PORT_SRCS))

# Writes a map file next to the ELF: sizes per object, for the M0 budget.
define cross_link
@mkdir -p $(@D)
$(CROSS_CC) $(CROSS_LDFLAGS) -Wl,-Map=$@.map -o $@ $(filter %.o,$^) $(CROSS_LDLIBS)
endef

cross_run = $(MBP_ROOT)/targets/run-qemu.sh $(TARGET_QEMU_MACHINE) $(1) $(or $(2),$(QEMU_TIMEOUT))

$(CROSS_OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CROSS_CC) $(CROSS_CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(CROSS_OBJDIR) -name '*.d' 2>/dev/null)

endif
