# SPDX-License-Identifier: MIT
# microbit: nRF51822, Cortex-M0 at 16 MHz, 256 KB flash, 16 KB RAM.
# Included by mk/targets.mk when TARGET=microbit.
# No FPU and no divide instruction: division is a libgcc call, so keep it
# out of hot loops. 2 KB of stack (memory.ld).
TARGET_CPU_FLAGS    := -mcpu=cortex-m0 -mthumb -mfloat-abi=soft
TARGET_QEMU_MACHINE := microbit
# Memory map: targets/microbit/memory.ld, included by the common script.
TARGET_LDSCRIPT     := $(MBP_ROOT)/targets/common/cortex-m.ld
TARGET_LDDIR        := $(MBP_ROOT)/targets/microbit
# SysTick tick in ns of QEMU virtual time. With -icount shift=3 (8 ns per
# instruction, targets/run-qemu.sh) a tick is 62.5/8 = 125/2^4 instructions.
TARGET_TICK_NS             := 62.5
TARGET_INSN_PER_TICK_NUM   := 125
TARGET_INSN_PER_TICK_SHIFT := 4
# Library configuration the test matrix uses here: config/mbp_config_m0.h (16 KB RAM)
TARGET_CONFIG       := m0
# 16 KB cannot hold two test worlds, the oracle and every test file's buffers at once: the
# suite runs as one image per test file (Makefile, TARGET_TEST_SPLIT).
TARGET_TEST_SPLIT   := 1
