# SPDX-License-Identifier: MIT
# lib/mbp.mk: mbp for your firmware's Makefile (GNU make). It lists the sources and the flags;
# it adds no rules and builds nothing, so your own rules compile mbp like the rest of your code.
#
#   MBP_CONFIG_DIR  := config              # the folder of your configuration header
#   MBP_CONFIG_FILE := my_mbp_config.h     # its name (start from config/mbp_config_template.h)
#   include path/to/mbp/lib/mbp.mk
#
#   SRC    += $(MBP_SRC)                   # compile and link them like your own files
#   CFLAGS += $(MBP_CFLAGS)                # -I and -D: your files and mbp's
#
# and MBP_LIB_CFLAGS on mbp's objects, with a target-specific variable for instance.
# examples/firmware/Makefile is a complete firmware built with this file.
#
# Inputs, all optional:
#   MBP_DIR          mbp's top folder (the one holding lib/, port/, config/). Default: the
#                    folder above this file, as the include line named it.
#   MBP_CONFIG_FILE  the header with your options, as #include finds it: its name without quotes,
#                    and its folder in MBP_CONFIG_DIR. Empty: every option keeps its default (lib/mbp_config.h),
#                    or set single options with -D flags in your CFLAGS.
#   MBP_CONFIG_DIR   folders added to the include path for it (several allowed).
#
# Outputs:
#   MBP_SRC          every lib/*.c. All of them, whatever the configuration: the file of a
#                    backend that is off (MBP_WITH_<backend> 0) compiles to nothing or close to
#                    it, and -ffunction-sections with --gc-sections drops the rest.
#   MBP_INC          include folders: lib/ (mbp.h), port/ (mbp_port.h, the one platform hook
#                    you implement: mbp_port_assert_failed), then MBP_CONFIG_DIR.
#   MBP_DEFS         -DMBP_CONFIG_FILE="..." when MBP_CONFIG_FILE is set.
#   MBP_CFLAGS       -I for MBP_INC, and MBP_DEFS: for your code and for mbp's. The library and
#                    everything that includes mbp.h must see the same options, or mbp_init()
#                    fails (a link error for MBP_DIM and MBP_SCALAR, MBP_E_CONFIG for the rest).
#   MBP_LIB_CFLAGS   for mbp's sources (gcc, clang; the top-level CMakeLists.txt gives its
#                    target the same): -ffp-contract=off, the flag behind the determinism
#                    promise in float (README.md, Determinism; for another compiler, check it
#                    does not fuse multiply-adds); -ffunction-sections -fdata-sections, so that
#                    your -Wl,--gc-sections keeps only what you call; -fmacro-prefix-map, so that
#                    assert messages name lib/mbp_x.c wherever mbp lies (the same flash size
#                    from every checkout path and from the CMake build).
#
# mbp needs a C99 compiler and <stdint.h>, <stddef.h>, <stdbool.h>; no C library. Warnings:
# it compiles clean with -Wall -Wextra -Wconversion -Wshadow.

ifndef MBP_DIR
# Immediate (:=): MAKEFILE_LIST grows with every include. "lib/mbp.mk" gives ".",
# "../mbp/lib/mbp.mk" gives "../mbp".
MBP_DIR := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))
endif
# "" when MBP_DIR is ".", so that mbp's own Makefile gets the same names as $(wildcard lib/*.c).
mbp_dir_prefix := $(if $(filter .,$(MBP_DIR)),,$(MBP_DIR)/)

MBP_SRC        := $(sort $(wildcard $(mbp_dir_prefix)lib/*.c))
MBP_INC        := $(mbp_dir_prefix)lib $(mbp_dir_prefix)port $(MBP_CONFIG_DIR)
MBP_DEFS       := $(if $(strip $(MBP_CONFIG_FILE)),-DMBP_CONFIG_FILE=\"$(strip $(MBP_CONFIG_FILE))\")
MBP_CFLAGS     := $(addprefix -I,$(MBP_INC)) $(MBP_DEFS)
MBP_LIB_CFLAGS := -ffp-contract=off -ffunction-sections -fdata-sections \
                  $(if $(mbp_dir_prefix),-fmacro-prefix-map=$(mbp_dir_prefix)=)

ifeq ($(MBP_SRC),)
$(error mbp.mk: no sources in '$(MBP_DIR)/lib': set MBP_DIR to the folder that holds mbp's lib/)
endif
