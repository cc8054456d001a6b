#!/bin/bash
# SPDX-License-Identifier: MIT
# shapes.sh: make bench-shapes. Measures the shape tests on Cortex-M4 (mps2-an386) and Cortex-M0
# (microbit) under QEMU -icount, and the flash and RAM of each shape option, then rewrites the
# figures of docs/shapes.md between its "shapes:begin" and "shapes:end" markers.
#
#   instructions  tools/bench/shapes.c: each mbp_shape_overlap() call on 64 random pairs of each
#                 pair of kinds (about half overlapping), and mbp_shape_aabb() per kind
#   flash, RAM    tools/bench/shapes_probe.c (a world with one body of each kind compiled in)
#                 linked with --gc-sections for each option alone and all together; flash is
#                 text + data, RAM the .bss (the world), each minus the build with every shape
#                 option off
# Rows also go to build/bench-shapes/rows.csv. Run from the repository root (make does).
set -eu
out=build/bench-shapes
mkdir -p "$out"
rows=$out/rows.csv
: >"$rows"
runs="mps2-an386:2d_float mps2-an386:3d_float mps2-an386:3d_fixed microbit:m0"

for r in $runs; do
    t=${r%%:*} c=${r##*:}
    echo "bench-shapes: $t, config $c (QEMU)"
    if ! make --no-print-directory -s TARGET="$t" MBP_CONFIG="$c" BUILD_DIR="$out/run" shapes-image \
        >"$out/$t-$c.log" 2>&1; then
        echo "bench-shapes: $t $c does not build: $out/$t-$c.log"
        tail -5 "$out/$t-$c.log"
        exit 1
    fi
    make --no-print-directory -s TARGET="$t" MBP_CONFIG="$c" BUILD_DIR="$out/run" shapes-run 2>&1 |
        tr -d '\r' | grep -E '^(SHAPE|AABB),' | sed "s/^/$t,/" >>"$rows"
done

# MBP_WITH_RSS needs MBP_WITH_OBB and MBP_WITH_CAPSULE (lib/mbp_config.h), so its cost is the
# build with all three on minus the build with those two on (obbcap).
off="-DMBP_WITH_OBB=0 -DMBP_WITH_KDOP=0 -DMBP_WITH_CAPSULE=0 -DMBP_WITH_FAST=0 -DMBP_WITH_RSS=0"
variants="none|$off
obb|-DMBP_WITH_OBB=1 -DMBP_WITH_KDOP=0 -DMBP_WITH_CAPSULE=0 -DMBP_WITH_FAST=0 -DMBP_WITH_RSS=0
kdop|-DMBP_WITH_OBB=0 -DMBP_WITH_KDOP=1 -DMBP_WITH_CAPSULE=0 -DMBP_WITH_FAST=0 -DMBP_WITH_RSS=0
capsule|-DMBP_WITH_OBB=0 -DMBP_WITH_KDOP=0 -DMBP_WITH_CAPSULE=1 -DMBP_WITH_FAST=0 -DMBP_WITH_RSS=0
fast|-DMBP_WITH_OBB=0 -DMBP_WITH_KDOP=0 -DMBP_WITH_CAPSULE=0 -DMBP_WITH_FAST=1 -DMBP_WITH_RSS=0
obbcap|-DMBP_WITH_OBB=1 -DMBP_WITH_KDOP=0 -DMBP_WITH_CAPSULE=1 -DMBP_WITH_FAST=0 -DMBP_WITH_RSS=0
rss|-DMBP_WITH_OBB=1 -DMBP_WITH_KDOP=0 -DMBP_WITH_CAPSULE=1 -DMBP_WITH_FAST=0 -DMBP_WITH_RSS=1
all|-DMBP_WITH_OBB=1 -DMBP_WITH_KDOP=1 -DMBP_WITH_CAPSULE=1 -DMBP_WITH_FAST=1 -DMBP_WITH_RSS=1"
sizes="microbit:m0 mps2-an386:2d_float mps2-an386:3d_float"
for r in $sizes; do
    t=${r%%:*} c=${r##*:}
    echo "bench-shapes: flash and RAM, $t, config $c"
    while IFS='|' read -r v defs; do
        # The configurations set the options themselves: a config of the variant's own
        # includes the machine's and redefines them (a -D would clash with the config).
        mkdir -p "$out/cfg"
        {
            echo "#include \"mbp_config_$c.h\""
            for d in $defs; do
                d=${d#-D}
                echo "#undef ${d%%=*}"
                echo "#define ${d%%=*} ${d#*=}"
            done
        } >"$out/cfg/mbp_config_${c}_$v.h"
        fr=$(make --no-print-directory -s TARGET="$t" MBP_CONFIG="${c}_$v" BUILD_DIR="$out/size-$v" \
            SHAPES_DEFS="-I$PWD/$out/cfg" shapes-probe 2>"$out/size-$t-$c-$v.log" | tail -1)
        echo "SIZE,$t,$c,$v,$fr" >>"$rows"
    done <<<"$variants"
done

# ---- the tables ----
label() { # machine config -> column title
    case "$1:$2" in
    microbit:m0) echo "M0, 2D fixed" ;;
    mps2-an386:2d_float) echo "M4, 2D float" ;;
    mps2-an386:3d_float) echo "M4, 3D float" ;;
    mps2-an386:3d_fixed) echo "M4, 3D fixed" ;;
    *) echo "$1 $2" ;;
    esac
}
tables=$out/tables.md
{
    echo "Instructions per \`mbp_shape_overlap()\` call (QEMU \`-icount\`: instructions, not cycles;"
    echo "mean over 64 random pairs, then the mean over those that overlap / are apart), from"
    echo "\`make bench-shapes\`:"
    echo
    printf '| pair |'
    for r in $runs; do printf ' %s |' "$(label "${r%%:*}" "${r##*:}")"; done
    echo
    printf '|---|'
    for r in $runs; do printf -- '---:|'; done
    echo
    grep '^[^,]*,SHAPE,' "$rows" | awk -F, '{ print $4 "-" $5 }' | awk '!seen[$0]++' |
        while read -r p; do
            a=${p%-*} b=${p#*-}
            printf '| %s - %s |' "$a" "$b"
            for r in $runs; do
                t=${r%%:*} c=${r##*:}
                v=$(awk -F, -v t="$t" -v c="$c" -v a="$a" -v b="$b" \
                    '$1 == t && $2 == "SHAPE" && $3 == c && $4 == a && $5 == b { print $6 " (" $7 " / " $8 ")" }' "$rows")
                printf ' %s |' "${v:--}"
            done
            echo
        done
    echo
    echo "Instructions per \`mbp_shape_aabb()\` call (the box a move computes):"
    echo
    printf '| kind |'
    for r in $runs; do printf ' %s |' "$(label "${r%%:*}" "${r##*:}")"; done
    echo
    printf '|---|'
    for r in $runs; do printf -- '---:|'; done
    echo
    for k in box sphere obb kdop capsule rss; do
        printf '| %s |' "$k"
        for r in $runs; do
            t=${r%%:*} c=${r##*:}
            v=$(awk -F, -v t="$t" -v c="$c" -v k="$k" '$1 == t && $2 == "AABB" && $3 == c && $4 == k { print $5 }' "$rows")
            printf ' %s |' "${v:--}"
        done
        echo
    done
    echo
    echo "Flash and RAM of each option (bytes; \`tools/bench/shapes_probe.c\`, a world with one body of"
    echo "each kind compiled in, -Os, --gc-sections; each figure minus the build with all five off, but"
    echo "MBP_WITH_RSS's minus the build with MBP_WITH_OBB and MBP_WITH_CAPSULE on, which it needs; RAM"
    echo "is the world, for the configuration's capacity: m0 24 bodies and 6 shapes, 2d/3d_float 256"
    echo "bodies and 64 shapes):"
    echo
    printf '| option |'
    for r in $sizes; do printf ' %s flash | RAM |' "$(label "${r%%:*}" "${r##*:}")"; done
    echo
    printf '|---|'
    for r in $sizes; do printf -- '---:|---:|'; done
    echo
    for v in obb kdop capsule rss fast all; do
        base=none
        case $v in
        obb) name="MBP_WITH_OBB" ;; kdop) name="MBP_WITH_KDOP" ;; capsule) name="MBP_WITH_CAPSULE" ;;
        rss) name="MBP_WITH_RSS" base=obbcap ;; fast) name="MBP_WITH_FAST" ;; all) name="all five" ;;
        esac
        printf '| %s |' "$name"
        for r in $sizes; do
            t=${r%%:*} c=${r##*:}
            awk -F, -v t="$t" -v c="$c" -v v="$v" -v base="$base" '
                $1 == "SIZE" && $2 == t && $3 == c && $4 == base { f0 = $5; r0 = $6 }
                $1 == "SIZE" && $2 == t && $3 == c && $4 == v { f = $5; r = $6 }
                END { if (f == "" || f0 == "") printf " - | - |"; else printf " %d | %d |", f - f0, r - r0 }' "$rows"
        done
        echo
    done
} >"$tables"

doc=docs/shapes.md
if ! grep -q '<!-- shapes:begin -->' "$doc" || ! grep -q '<!-- shapes:end -->' "$doc"; then
    echo "bench-shapes: $doc has no shapes:begin/end markers; the tables are in $tables"
    exit 1
fi
awk -v f="$tables" '
    /<!-- shapes:end -->/ { while ((getline l < f) > 0) print l; skip = 0 }
    !skip { print }
    /<!-- shapes:begin -->/ { skip = 1 }' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
echo "bench-shapes: wrote $rows and the figures of $doc"
