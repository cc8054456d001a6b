# SPDX-License-Identifier: MIT
# mps2-an500: Cortex-M7 at 25 MHz.
# Included by mk/targets.mk when TARGET=mps2-an500.
# QEMU's M7 has a double-precision FPU; fpv5-sp-d16 uses only its single-
# precision half, which every M7 has (the library computes in float). double,
# if any, stays in software rather than needing an M7 with the DP option.
TARGET_CPU_FLAGS    := -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16
TARGET_QEMU_MACHINE := mps2-an500
# Memory map: targets/mps2-an500/memory.ld, included by the common script.
TARGET_LDSCRIPT     := $(MBP_ROOT)/targets/common/cortex-m.ld
TARGET_LDDIR        := $(MBP_ROOT)/targets/mps2-an500
# SysTick tick in ns of QEMU virtual time. With -icount shift=3 (8 ns per
# instruction, targets/run-qemu.sh) a tick is 40/8 = 5/2^0 instructions.
TARGET_TICK_NS             := 40
TARGET_INSN_PER_TICK_NUM   := 5
TARGET_INSN_PER_TICK_SHIFT := 0
# Library configuration the test matrix uses here: config/mbp_config_3d_float.h
TARGET_CONFIG       := 3d_float
