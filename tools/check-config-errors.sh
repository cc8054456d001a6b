#!/bin/sh
# SPDX-License-Identifier: MIT
# check-config-errors.sh: bad option sets give exactly one #error, the one that names the mistake.
#
# Each case compiles a translation unit that includes lib/mbp.h (as an application does) with
# a set of -D options, and passes when the compiler reports exactly one error and that error is
# the expected #error text (a prefix of it). Good option sets must compile without any error.
# Prints "config-errors: N passed, N failed". CC defaults to cc.
set -u
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "mbp.h"\nint mbp_config_errors_probe;\n' >"$tmp/tu.c"
pass=0
fail=0

# expect "<expected #error text prefix, or empty for none>" -D... -D...
expect() {
    want=$1
    shift
    "$CC" -std=c99 -fsyntax-only -Ilib -Iport "$@" "$tmp/tu.c" >"$tmp/out" 2>&1
    got=$(grep -E 'error:' "$tmp/out")
    n=$(printf '%s' "$got" | grep -c 'error:')
    if [ -z "$want" ]; then
        ok=$([ "$n" -eq 0 ] && echo 1 || echo 0)
    else
        # gcc prints 'error: #error "text"', clang 'error: "text"'
        ok=$([ "$n" -eq 1 ] && printf '%s' "$got" | sed 's/#error "/"/' | grep -qF "error: \"$want" &&
            echo 1 || echo 0)
    fi
    if [ "$ok" -eq 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $* : expected ${want:-no error}, got $n error(s):"
        sed 's/^/    /' "$tmp/out"
    fi
}

B01='must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE'

# Defaults and valid corner values compile.
expect ''
expect '' -DMBP_MAX_BODIES=1
expect '' -DMBP_MAX_BODIES=65534 -DMBP_WITH_TREE=0 -DMBP_WITH_GRID=0 -DMBP_WITH_HASH=0 \
    -DMBP_WITH_HGRID=0
expect '' -DMBP_MAX_BODIES=40000 -DMBP_WITH_TREE=0 -DMBP_GRID_MAX_ENTRIES=65535
expect '' -DMBP_WITH_OBB=1 -DMBP_WITH_KDOP=1 -DMBP_WITH_CAPSULE=1 -DMBP_WITH_FAST=1 -DMBP_ASSERT=0
expect '' -DMBP_WITH_OBB=1 -DMBP_WITH_CAPSULE=1 -DMBP_WITH_RSS=1
expect 'MBP_WITH_RSS needs MBP_WITH_OBB and MBP_WITH_CAPSULE' -DMBP_WITH_RSS=1 -DMBP_WITH_OBB=1

# Every boolean option accepts only 0 and 1, and an empty #define gets the same readable message.
for o in MBP_WITH_SPHERES MBP_WITH_EVENTS MBP_WITH_BRUTE MBP_WITH_SWEEP MBP_WITH_SAP MBP_SAP_QUANTIZED \
    MBP_WITH_GRID MBP_WITH_HASH MBP_WITH_HGRID MBP_WITH_TREE MBP_WITH_QUADTREE MBP_WITH_OBB \
    MBP_WITH_KDOP MBP_WITH_CAPSULE MBP_WITH_RSS MBP_WITH_FAST MBP_ASSERT; do
    expect "$o $B01" "-D$o=2"
    expect "$o $B01" "-D$o=-1"
    expect "$o $B01" "-D$o="
done
# The per-pair user slot, likewise.
for v in 2 -1 ''; do expect "MBP_PAIR_USER $B01" "-DMBP_PAIR_USER=$v"; done
expect '' -DMBP_PAIR_USER=1

# Numbers: out of range or empty, one message naming the option.
expect 'MBP_DIM must be 2 or 3' -DMBP_DIM=4
expect 'MBP_DIM must be 2 or 3' -DMBP_DIM=
expect 'MBP_SCALAR must be MBP_FLOAT or MBP_FIXED' -DMBP_SCALAR=3
expect 'MBP_FIXED_FRAC_BITS must be 0..24' -DMBP_FIXED_FRAC_BITS=25
expect 'MBP_MAX_BODIES must be 1..65534' -DMBP_MAX_BODIES=0
expect 'MBP_MAX_BODIES must be 1..65534' -DMBP_MAX_BODIES=
expect 'MBP_MAX_BODIES must be 1..65534' -DMBP_MAX_BODIES=70000
expect 'MBP_MAX_PAIRS must be 1..1048576' -DMBP_MAX_PAIRS=0
expect 'MBP_MAX_EVENTS must be 0..2097152' -DMBP_MAX_EVENTS=-1
expect 'MBP_MAX_EVENTS must be 0..2097152' -DMBP_MAX_EVENTS=
expect '' -DMBP_MAX_EVENTS=0
expect '' -DMBP_MAX_EVENTS=2097152
expect '' -DMBP_WITH_EVENTS=0
expect 'MBP_MAX_EVENTS reserves room for events, which MBP_WITH_EVENTS 0 leaves out' \
    -DMBP_WITH_EVENTS=0 -DMBP_MAX_EVENTS=8
expect 'MBP_PAIR_USER 1 needs the event lists' -DMBP_PAIR_USER=1 -DMBP_WITH_EVENTS=0
expect 'MBP_GRID_MAX_CELLS must be 1..1048576' -DMBP_GRID_MAX_CELLS=0
expect 'MBP_GRID_MAX_ENTRIES must be 1..65535: set it' -DMBP_GRID_MAX_ENTRIES=70000
expect 'MBP_GRID_MAX_CELLS_PER_BODY must be 1..1024' -DMBP_GRID_MAX_CELLS_PER_BODY=0
expect 'MBP_HASH_BUCKETS must be a power of two' -DMBP_HASH_BUCKETS=1000
expect 'MBP_HGRID_LEVELS must be 1..16' -DMBP_HGRID_LEVELS=17
expect 'MBP_TREE_STACK must be MBP_TREE_HEIGHT_MAX+1..64' -DMBP_TREE_STACK=2
expect 'MBP_QUADTREE_NODES must be 1..65534' -DMBP_QUADTREE_NODES=0
expect 'MBP_MAX_SHAPES must be 1..MBP_MAX_BODIES' -DMBP_WITH_OBB=1 -DMBP_MAX_SHAPES=0

# A derived value names where it came from, and only when its backend is compiled in.
expect 'MBP_GRID_MAX_ENTRIES (default 4 x MBP_MAX_BODIES) must be 1..65535' \
    -DMBP_MAX_BODIES=40000 -DMBP_WITH_TREE=0
expect 'MBP_WITH_TREE (on by default) needs MBP_MAX_BODIES <= 32767' -DMBP_MAX_BODIES=40000 \
    -DMBP_WITH_GRID=0 -DMBP_WITH_HASH=0 -DMBP_WITH_HGRID=0
expect '' -DMBP_MAX_BODIES=40000 -DMBP_WITH_TREE=0 -DMBP_WITH_GRID=0 -DMBP_WITH_HASH=0 \
    -DMBP_WITH_HGRID=0
# Options of a backend that is left out are not checked.
expect '' -DMBP_WITH_HGRID=0 -DMBP_HGRID_LEVELS=99
expect '' -DMBP_WITH_TREE=0 -DMBP_TREE_STACK=1
expect '' -DMBP_WITH_QUADTREE=0 -DMBP_QUADTREE_NODES=0

# One message per mistake, and two mistakes give two messages.
expect 'no backend compiled in' -DMBP_WITH_BRUTE=0 -DMBP_WITH_SWEEP=0 -DMBP_WITH_SAP=0 \
    -DMBP_WITH_GRID=0 -DMBP_WITH_HASH=0 -DMBP_WITH_HGRID=0 -DMBP_WITH_TREE=0 \
    -DMBP_WITH_QUADTREE=0
"$CC" -std=c99 -fsyntax-only -Ilib -Iport -DMBP_MAX_BODIES=0 -DMBP_WITH_SAP=2 "$tmp/tu.c" \
    >"$tmp/out" 2>&1
if [ "$(grep -c 'error:' "$tmp/out")" -eq 2 ] &&
    grep -qF '#error "MBP_MAX_BODIES must be' "$tmp/out" &&
    grep -qF '#error "MBP_WITH_SAP must be 0 or 1' "$tmp/out"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: MBP_MAX_BODIES=0 MBP_WITH_SAP=2: expected its two messages, got:"
    sed 's/^/    /' "$tmp/out"
fi

echo "config-errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
