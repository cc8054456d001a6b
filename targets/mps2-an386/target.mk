# SPDX-License-Identifier: MIT
# mps2-an386: Cortex-M4F at 25 MHz.
# Included by mk/targets.mk when TARGET=mps2-an386.
# Single-precision FPU, hard-float ABI. startup.c turns the FPU on first thing.
TARGET_CPU_FLAGS    := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
TARGET_QEMU_MACHINE := mps2-an386
# Memory map: targets/mps2-an386/memory.ld, included by the common script.
TARGET_LDSCRIPT     := $(MBP_ROOT)/targets/common/cortex-m.ld
TARGET_LDDIR        := $(MBP_ROOT)/targets/mps2-an386
# SysTick tick in ns of QEMU virtual time. With -icount shift=3 (8 ns per
# instruction, targets/run-qemu.sh) a tick is 40/8 = 5/2^0 instructions.
TARGET_TICK_NS             := 40
TARGET_INSN_PER_TICK_NUM   := 5
TARGET_INSN_PER_TICK_SHIFT := 0
# Library configuration the test matrix uses here: config/mbp_config_2d_float.h
TARGET_CONFIG       := 2d_float
