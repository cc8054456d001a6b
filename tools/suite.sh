#!/bin/sh
# SPDX-License-Identifier: MIT
# suite.sh <name> <command...>: runs one test suite and guarantees a summary line.
#
# The suite prints "<name>: N passed, N failed" itself. When it crashes, hangs or fails to
# build before printing one, this adds "<name>: 0 passed, 1 failed (...)" so that the total at
# the end of `make test` can never count a broken suite as passing.
set -u
name=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if ! printf '%s\n' "$out" | grep -qE '^[A-Za-z0-9_-]+: [0-9]+ passed, [0-9]+ failed$'; then
    echo "$name: 0 passed, 1 failed (exit $rc, no summary line)"
elif [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -qE ': [0-9]+ passed, 0 failed$'; then
    echo "$name: 0 passed, 1 failed (exit $rc after a clean summary)"
fi
exit 0
