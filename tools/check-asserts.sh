#!/bin/sh
# SPDX-License-Identifier: MIT
# check-asserts.sh: misuse reaches the assert hook with a readable message (tests/misuse/).
#
# Builds tests/misuse/asserts.c with the library (default configuration) and the host port, runs
# one case per misuse and checks that the hook printed the expected message and stopped the
# program (the host hook exits with status 3), and that correct use runs through.
# Prints "asserts: N passed, N failed". CC defaults to cc.
set -u
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
if ! "$CC" -std=c99 -O1 -Wall -Wextra -Wconversion -Wshadow -Werror -Ilib -Iport \
    lib/mbp_*.c port/host/mbp_port_host.c tests/misuse/asserts.c -o "$tmp/asserts" \
    >"$tmp/build.log" 2>&1; then
    cat "$tmp/build.log"
    echo "asserts: 0 passed, 1 failed (build)"
    exit 1
fi

# expect <case> <exit status> <the message the hook printed, or empty>
expect() {
    "$tmp/asserts" "$1" >/dev/null 2>"$tmp/err"
    rc=$?
    # the message, without " at <file>:<line>", is the whole of stderr
    got=$(sed 's/ at lib\/[a-z_]*\.c:[0-9]*$//' "$tmp/err")
    if [ "$rc" -eq "$2" ] && [ "$got" = "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $1: expected exit $2 and '$3', got exit $rc and:"
        sed 's/^/    /' "$tmp/err"
    fi
}

expect null_add 3 'ASSERT world is NULL'
expect null_update 3 'ASSERT world is NULL'
expect uninit_add 3 'ASSERT world not initialised: call mbp_init() first'
expect uninit_update 3 'ASSERT world not initialised: call mbp_init() first'
expect uninit_query 3 'ASSERT world not initialised: call mbp_init() first'
expect user_out_of_range 3 'ASSERT index < MBP_MAX_BODIES'
expect user_in_range 0 ''

echo "asserts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
