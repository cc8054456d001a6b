#!/bin/sh
# SPDX-License-Identifier: MIT
# check-layers.sh: lib/'s dependencies point one way (lib/mbp_bp.h describes the layers):
#   1. a backend's files include mbp_bp.h (or another backend file), never mbp_internal.h, and
#      never name mbp_world: a backend is a data structure under the world;
#   2. the includes among lib/'s files have no cycle.
# Prints "layers: N passed, N failed" (tools/suite.sh, tools/total.sh); exits 1 on failure.
set -u
cd "$(dirname "$0")/.." || exit 1

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "layers: FAIL $*"; }

# 1. Backends. A backend whose header still says MBP__<B>_LAYERED 0 is not yet moved to the
# interface of mbp_bp.h, and is skipped (named, so the skip shows).
layered() { # header macro -> 0 or 1
    v=$(sed -n "s/^#define $2 \([01]\).*/\1/p" "lib/$1")
    [ -z "$v" ] && v=1 # the macro is gone once every backend is moved
    echo "$v"
}
check_backend() { # name layered files...
    name=$1
    lay=$2
    shift 2
    if [ "$lay" != 1 ]; then
        echo "layers: $name not yet on mbp_bp.h's interface (skipped)"
        return
    fi
    for f in "$@"; do
        [ -f "lib/$f" ] || continue
        if grep -n '#include "mbp_internal.h"' "lib/$f"; then
            bad "lib/$f ($name) includes mbp_internal.h"
        elif grep -nE 'mbp_world[[:space:]]*\*|struct mbp_world' "lib/$f"; then
            bad "lib/$f ($name) names mbp_world"
        else
            ok
        fi
    done
}
check_backend brute 1 mbp_brute.c
check_backend sweep "$(layered mbp_sweep.h MBP__SWEEP_LAYERED)" mbp_sweep.c mbp_sweep.h
check_backend sap "$(layered mbp_sap.h MBP__SAP_LAYERED)" mbp_sap.c mbp_sap.h mbp_sap_jump.c \
    mbp_sap_run.h mbp_sap_sort.c
check_backend cells "$(layered mbp_grid.h MBP__CELLS_LAYERED)" mbp_cells.c mbp_cells.h \
    mbp_cells_core.h mbp_cells_update.c mbp_grid.c mbp_grid.h mbp_hash.c mbp_hgrid.c mbp_hgrid.h
check_backend tree "$(layered mbp_tree.h MBP__TREE_LAYERED)" mbp_tree.c mbp_tree.h \
    mbp_tree_nodes.c mbp_tree_nodes.h mbp_tree_update.c
check_backend quadtree 1 mbp_quadtree.c mbp_quadtree.h mbp_quadtree_frame.c mbp_quadtree_walk.h
for f in mbp_bp.h mbp_heap.h mbp_pairs.c mbp_sort.c; do # the layer under the backends
    if grep -nE '#include "mbp_internal.h"|mbp_world[[:space:]]*\*|struct mbp_world' "lib/$f"; then
        bad "lib/$f is under the backends but reaches the world"
    else
        ok
    fi
done

# 2. No include cycle: a depth-first walk of the include graph (quoted includes of lib/ files).
edges=$(for f in lib/*.c lib/*.h; do
    sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        [ -f "lib/$inc" ] && echo "${f#lib/} $inc"
    done
done)
cycle=$(echo "$edges" | awk '
    { succ[$1] = succ[$1] " " $2; node[$1] = 1; node[$2] = 1 }
    function visit(n,    i, k, parts) {
        if (state[n] == 1) { found = found " " n; return }
        if (state[n] == 2) return
        state[n] = 1
        k = split(succ[n], parts, " ")
        for (i = 1; i <= k; i++) visit(parts[i])
        state[n] = 2
    }
    END { for (n in node) visit(n); print found }')
if [ -n "$(echo "$cycle" | tr -d ' ')" ]; then
    bad "include cycle through:$cycle"
else
    ok
fi

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
