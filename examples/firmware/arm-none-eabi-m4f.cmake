# SPDX-License-Identifier: MIT
# arm-none-eabi-m4f.cmake: a CMake toolchain file for arm-none-eabi-gcc on a Cortex-M4F.
#
#   cmake -S examples/firmware -B build/fw -DCMAKE_TOOLCHAIN_FILE=examples/firmware/arm-none-eabi-m4f.cmake
#
# The CPU flags are here rather than on a target because every object, mbp's included, must be
# built for the same CPU and float ABI (hard float: the FPU passes float arguments). They are
# targets/mps2-an386/target.mk's TARGET_CPU_FLAGS; another chip changes this line.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffreestanding")

# A bare-metal program cannot link without a startup file and linker script, which CMake's
# compiler check does not have: check the compiler by building a static library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
