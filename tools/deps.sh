#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh [quick|cross|peers]: make sure the tools `make test` uses are there; with `quick`, only those
# of `make check` (the QEMU ones, cmake, python3 with yaml and kconfiglib); with `cross`, only arm-none-eabi-gcc and
# qemu-system-arm (`make demo`, `make size`); with `peers`, only what `make bench-peers` and
# `make scenes` need (g++, valgrind and the headers and libraries of Bullet, Box2D and Chipmunk).
#
# Needs arm-none-eabi-gcc and qemu-system-arm (the targets link without a
# C library, so newlib is not required); clang-tidy, cppcheck and python3
# (its MISRA addon) for make analyze; clang with its sanitizer and libFuzzer
# runtimes (Debian: libclang-rt-dev) for make test-sanitize and make fuzz;
# valgrind for make test-valgrind; gcovr for make coverage; cmake for the
# CMake and find_package builds of make test-firmware; python3's yaml and
# kconfiglib for zephyr/check.sh. Installs the
# Debian/Ubuntu packages when it can do so without asking (root, or sudo
# without a password); otherwise says what is missing and fails.

set -u
want=${1:-all}

# py_has <module>: python3, or Debian's own, imports it.
py_has() {
    python3 -c "import $1" 2>/dev/null || /usr/bin/python3 -c "import $1" 2>/dev/null
}

# The packages whose tools are missing (one word list).
missing() {
    m=""
    if [ "$want" = peers ]; then
        command -v g++ >/dev/null 2>&1 || m="$m g++"
        command -v valgrind >/dev/null 2>&1 && [ -f /usr/include/valgrind/callgrind.h ] || m="$m valgrind"
        [ -f /usr/include/bullet/btBulletCollisionCommon.h ] || m="$m libbullet-dev"
        [ -f /usr/include/box2d/b2_broad_phase.h ] || m="$m libbox2d-dev"
        [ -f /usr/include/chipmunk/chipmunk.h ] || m="$m libchipmunk-dev"
        echo "${m# }"; return
    fi
    command -v arm-none-eabi-gcc >/dev/null 2>&1 || m="$m gcc-arm-none-eabi"
    command -v qemu-system-arm   >/dev/null 2>&1 || m="$m qemu-system-arm"
    if [ "$want" = cross ]; then echo "${m# }"; return; fi
    command -v cmake             >/dev/null 2>&1 || m="$m cmake"
    command -v python3           >/dev/null 2>&1 || m="$m python3"
    py_has yaml                                  || m="$m python3-yaml"
    py_has kconfiglib                            || m="$m python3-kconfiglib"
    if [ "$want" = quick ]; then echo "${m# }"; return; fi
    command -v clang-tidy        >/dev/null 2>&1 || m="$m clang-tidy"
    command -v cppcheck          >/dev/null 2>&1 || m="$m cppcheck"
    command -v valgrind          >/dev/null 2>&1 || m="$m valgrind"
    command -v gcovr             >/dev/null 2>&1 || m="$m gcovr"
    if ! command -v clang >/dev/null 2>&1; then
        m="$m clang libclang-rt-dev"
    elif ! ls "$(clang -print-runtime-dir 2>/dev/null)"/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
        m="$m libclang-rt-dev" # clang without its runtimes: no -fsanitize=fuzzer
    fi
    echo "${m# }"
}

pkgs=$(missing)
[ -z "$pkgs" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    sudo="none"
fi

# $sudo and $pkgs are word lists: unquoted on purpose.
# shellcheck disable=SC2086
if [ "$sudo" != "none" ] && command -v apt-get >/dev/null 2>&1; then
    echo "mbp: installing $pkgs" >&2
    if $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
       $sudo env DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq --no-install-recommends $pkgs >/dev/null &&
       [ -z "$(missing)" ]; then
        exit 0
    fi
    pkgs=$(missing)
fi

echo "mbp: missing packages: $pkgs (install them with apt-get install --no-install-recommends $pkgs)" >&2
exit 1
