#!/bin/sh
# SPDX-License-Identifier: MIT
# run-qemu.sh <machine> <elf> [timeout_s]
#
# Runs one image under qemu-system-arm and returns its exit status:
# 0 for success, the program's mbp_port_exit() status otherwise (3 for a
# failed assert, 4 for a fault), 124 for a timeout. The program's output
# (semihosting, which QEMU writes to stderr) comes out on stdout; a failure
# adds one "mbp: ..." line on stderr.
#
# -icount shift=3: every instruction advances virtual time by 8 ns, so the
# SysTick counter counts instructions, the same on every run. The port's
# per-target constants (targets/<machine>/target.mk) assume shift=3.
#
# timeout always: a program that loops, or waits for an interrupt that
# never comes, would keep QEMU running forever. (A core that locks up, a
# fault inside the fault handler, makes QEMU 7.2 abort with "Lockup".)

set -u

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 <machine> <elf> [timeout_s]" >&2
    exit 2
fi
machine=$1
elf=$2
limit=${3:-120}

if [ ! -f "$elf" ]; then
    echo "mbp: $elf: no such file" >&2
    exit 2
fi
if ! command -v qemu-system-arm >/dev/null 2>&1; then
    echo "mbp: qemu-system-arm not found (tools/deps.sh installs it)" >&2
    exit 2
fi

# stdin from /dev/null: QEMU never waits on the terminal.
# --kill-after: a QEMU that ignores SIGTERM still goes.
timeout --kill-after=5 "$limit" qemu-system-arm \
    -M "$machine" -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native \
    -icount shift=3 \
    -kernel "$elf" </dev/null 2>&1
status=$?

case $status in
    0)   ;;
    124|137)
         echo "mbp: $elf on $machine: timed out after ${limit}s" >&2
         status=124 ;;
    134) echo "mbp: $elf on $machine: QEMU aborted (lockup: a fault while handling a fault?)" >&2 ;;
    3)   echo "mbp: $elf on $machine: assert failed (exit 3)" >&2 ;;
    4)   echo "mbp: $elf on $machine: fault (exit 4)" >&2 ;;
    *)   echo "mbp: $elf on $machine: failed (exit $status)" >&2 ;;
esac
exit $status
