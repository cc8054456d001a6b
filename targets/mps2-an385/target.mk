# SPDX-License-Identifier: MIT
# mps2-an385: Cortex-M3 at 25 MHz.
# Included by mk/targets.mk when TARGET=mps2-an385.
# No FPU: float, if a config uses it, is software (libgcc).
TARGET_CPU_FLAGS    := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
TARGET_QEMU_MACHINE := mps2-an385
# Memory map: targets/mps2-an385/memory.ld, included by the common script.
TARGET_LDSCRIPT     := $(MBP_ROOT)/targets/common/cortex-m.ld
TARGET_LDDIR        := $(MBP_ROOT)/targets/mps2-an385
# SysTick tick in ns of QEMU virtual time. With -icount shift=3 (8 ns per
# instruction, targets/run-qemu.sh) a tick is 40/8 = 5/2^0 instructions.
TARGET_TICK_NS             := 40
TARGET_INSN_PER_TICK_NUM   := 5
TARGET_INSN_PER_TICK_SHIFT := 0
# Library configuration the test matrix uses here: config/mbp_config_3d_fixed.h
TARGET_CONFIG       := 3d_fixed
