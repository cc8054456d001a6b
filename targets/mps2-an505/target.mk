# SPDX-License-Identifier: MIT
# mps2-an505: Cortex-M33 at 20 MHz, running Secure.
# Included by mk/targets.mk when TARGET=mps2-an505.
# QEMU's M33 has the single-precision FPU and DSP extension; hard-float ABI.
# The default config is fixed point, so the FPU matters only to float configs.
TARGET_CPU_FLAGS    := -mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16
TARGET_QEMU_MACHINE := mps2-an505
# Memory map: targets/mps2-an505/memory.ld, included by the common script.
TARGET_LDSCRIPT     := $(MBP_ROOT)/targets/common/cortex-m.ld
TARGET_LDDIR        := $(MBP_ROOT)/targets/mps2-an505
# SysTick tick in ns of QEMU virtual time. With -icount shift=3 (8 ns per
# instruction, targets/run-qemu.sh) a tick is 50/8 = 25/2^2 instructions.
TARGET_TICK_NS             := 50
TARGET_INSN_PER_TICK_NUM   := 25
TARGET_INSN_PER_TICK_SHIFT := 2
# Library configuration the test matrix uses here: config/mbp_config_2d_fixed.h
TARGET_CONFIG       := 2d_fixed
