#!/bin/sh
# SPDX-License-Identifier: MIT
# check-layers.sh: lib/'s dependencies point one way (lib/mbp_bp.h describes the layers):
#   1. a backend's files include mbp_bp.h (or another backend file), never mbp_internal.h, and
#      never name mbp_world: a backend is a data structure under the world;
#   2. the files of shapes and scalars, at the bottom, never name mbp_world (they share
#      mbp_internal.h's declarations, but take plain values: a shape, a box, a view of volumes);
#   3. the includes among lib/'s files have no cycle.
# Prints "layers: N passed, N failed" (tools/suite.sh, tools/total.sh); exits 1 on failure.
set -u
cd "$(dirname "$0")/.." || exit 1

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "layers: FAIL $*"; }

world='mbp_world[[:space:]]*\*|struct mbp_world' # a file that names the world

# 1. Backends.
check_backend() { # name files...
    name=$1
    shift
    for f in "$@"; do
        [ -f "lib/$f" ] || continue
        if grep -n '#include "mbp_internal.h"' "lib/$f"; then
            bad "lib/$f ($name) includes mbp_internal.h"
        elif grep -nE "$world" "lib/$f"; then
            bad "lib/$f ($name) names mbp_world"
        else
            ok
        fi
    done
}
check_backend brute mbp_brute.c
check_backend sweep mbp_sweep.c mbp_sweep.h
check_backend sap mbp_sap.c mbp_sap.h mbp_sap_jump.c \
    mbp_sap_run.h mbp_sap_sort.c
check_backend cells mbp_cells.c mbp_cells.h \
    mbp_cells_core.h mbp_cells_update.c mbp_grid.c mbp_grid.h mbp_hash.c mbp_hgrid.c mbp_hgrid.h
check_backend tree mbp_tree.c mbp_tree.h \
    mbp_tree_nodes.c mbp_tree_nodes.h mbp_tree_update.c mbp_tree_build.c \
    mbp_tree_fat.c
check_backend quadtree mbp_quadtree.c mbp_quadtree.h mbp_quadtree_frame.c mbp_quadtree_walk.h
# The files below the world, listed: each must exist (a renamed file fails, so the list cannot go
# stale unseen) and none may match pattern.
below_world() { # pattern "what they are" files...
    pat=$1
    what=$2
    shift 2
    for f in "$@"; do
        if [ ! -f "lib/$f" ]; then
            bad "lib/$f is gone: update this list"
        elif grep -nE "$pat" "lib/$f"; then
            bad "lib/$f is $what but reaches the world"
        else
            ok
        fi
    done
}
below_world "#include \"mbp_internal.h\"|$world" "under the backends" \
    mbp_bp.h mbp_heap.h mbp_pairs.c mbp_sort.c

# 2. Shapes and scalars.
below_world "$world" "a shape file" \
    mbp_scalar.h mbp_volume.c mbp_overlap.c mbp_shape.c mbp_shape.h mbp_sat.c mbp_obb.c \
    mbp_kdop.c mbp_kdop.h mbp_kdop_vs.c mbp_kdop_verts.c mbp_kdop_verts.h mbp_capsule.c mbp_rss.c \
    mbp_swept.c mbp_fit.c mbp_fit.h mbp_fit_obb.c mbp_fit_sphere.c

# 3. No include cycle: a depth-first walk of the include graph (quoted includes of lib/ files).
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
