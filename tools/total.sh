#!/bin/sh
# SPDX-License-Identifier: MIT
# total.sh <log>: adds up every "<name>: N passed, N failed" line of a test log and prints the
# overall "N passed, N failed" line; exits 1 when anything failed or nothing ran.
set -u
awk '
/^[A-Za-z0-9_-]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4; n++ }
END {
    if (n == 0) { f = 1 }
    printf "%d passed, %d failed\n", p, f
    exit (f > 0) ? 1 : 0
}' "$1"
