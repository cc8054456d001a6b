#!/bin/sh
# deps.sh: make sure the cross compiler, QEMU and the static analysers are there.
#
# Needs arm-none-eabi-gcc and qemu-system-arm (the targets link without a
# C library, so newlib is not required), and clang-tidy, cppcheck and
# python3 (its MISRA addon) for make analyze. Installs the Debian/Ubuntu
# packages when it can do so without asking (root, or sudo without a
# password); otherwise says what is missing and fails.

set -u

pkgs=""
command -v arm-none-eabi-gcc >/dev/null 2>&1 || pkgs="$pkgs gcc-arm-none-eabi"
command -v qemu-system-arm   >/dev/null 2>&1 || pkgs="$pkgs qemu-system-arm"
command -v clang-tidy        >/dev/null 2>&1 || pkgs="$pkgs clang-tidy"
command -v cppcheck          >/dev/null 2>&1 || pkgs="$pkgs cppcheck"
command -v python3           >/dev/null 2>&1 || pkgs="$pkgs python3"
pkgs=${pkgs# }
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
       command -v arm-none-eabi-gcc >/dev/null 2>&1 &&
       command -v qemu-system-arm >/dev/null 2>&1 &&
       command -v clang-tidy >/dev/null 2>&1 &&
       command -v cppcheck >/dev/null 2>&1 &&
       command -v python3 >/dev/null 2>&1; then
        exit 0
    fi
fi

echo "mbp: missing packages: $pkgs (install them with apt-get install --no-install-recommends $pkgs)" >&2
exit 1
