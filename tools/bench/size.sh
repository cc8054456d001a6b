#!/bin/bash
# SPDX-License-Identifier: MIT
# size.sh <cpu> <fixed|float> <outdir> "<lib sources>" "<port sources>" [dim]: the rows of
# build/size.csv for one CPU, scalar and dimension (2 unless given; make size runs it inside a
# sub-make for that QEMU machine, which passes CC, SIZE, NM, CFLAGS, LDFLAGS and LDLIBS in the
# environment, and SIZE_CAPS and SIZE_BENCH).
#
# For each backend compiled in by default (lib/mbp_config.h), alone, and for all of them
# together, and for brute-spheres and sap-spheres (brute force and SAP alone with sphere bodies,
# MBP_WITH_SPHERES 1: what they cost) and sap-lean (SAP alone with MBP_SAP_QUANTIZED 1: what a
# firmware short of RAM builds), at each capacity of SIZE_CAPS (bodies; pairs are the default 2
# per body):
#   flash_bytes  text+data of tools/bench/size_probe.c linked with --gc-sections, minus the same
#                program without mbp (startup, port, assert hook): the library's flash
#   ram_bytes    sizeof(mbp_world): the only RAM mbp uses besides a little stack
#   bytes_per_body  ram_bytes / bodies
#   bytes_per_pair  what one more pair of capacity costs: sizeof(mbp_world) again with
#                MBP_MAX_PAIRS doubled, minus ram_bytes, over MBP_MAX_PAIRS. That is the pair set
#                (key, flag, hash index), whose free entries also hold the events (no room is
#                reserved for them by default, MBP_MAX_EVENTS 0); the rest of the world does not
#                depend on it.
#   bytes_per_pair_no_events  the same with no event lists (MBP_WITH_EVENTS 0)
#   bytes_per_body_alone  what one more body costs with the pair capacity kept: sizeof(mbp_world)
#                again with MBP_MAX_BODIES doubled, MBP_MAX_PAIRS and MBP_HASH_BUCKETS as they
#                were, minus ram_bytes, over bodies. bytes_per_body counts the default 2 pairs of
#                capacity per body besides; this does not, so RAM = a few hundred bytes (plus
#                the hash buckets) + bodies * this + pairs * bytes_per_pair
#   ram_bytes_bench  sizeof(mbp_world) with make bench's capacities for this CPU: SIZE_BENCH is
#                "<pairs per body> <grid entries per body>" (0: the default), "8 8" unless set
#                (config/mbp_config_bench.h; the microbit's config/mbp_config_bench_m0.h is "8 0"),
#                and as many entries for events as for pairs (MBP_MAX_EVENTS, as both set it)
set -eu
cpu=$1 scalar=$2 out=$3 libsrc=$4 portsrc=$5 dim=${6:-2}
caps=${SIZE_CAPS:-64 256}
read -r bench_pairs bench_entries <<EOF
${SIZE_BENCH:-8 8}
EOF
mkdir -p "$out"
scalar_def=$([ "$scalar" = fixed ] && echo MBP_FIXED || echo MBP_FLOAT)
all="brute sweep sap grid hash hgrid tree quadtree"

config_value() { # MACRO [defs...] -> the macro's value after lib/mbp_config.h, with those defs
    local m=$1
    shift
    printf '#include "mbp_config.h"\n%s\n' "$m" | $CC $CFLAGS "$@" -E -P -x c - 2>/dev/null | tail -1
}

# The backends on by default: ask the preprocessor.
enabled=""
for b in $all; do
    B=$(echo "$b" | tr a-z A-Z)
    v=$(config_value "MBP_WITH_$B" -DMBP_DIM=$dim -DMBP_SCALAR=$scalar_def)
    [ "$v" = 1 ] && enabled="$enabled $b"
done

flash() { # elf -> text + data
    $SIZE -B "$1" | awk 'NR == 2 { print $1 + $2 }'
}

$CC $CFLAGS -DMBP_DIM=$dim -DMBP_SCALAR=$scalar_def -DSIZE_BASELINE tools/bench/size_probe.c \
    $portsrc $LDFLAGS $LDLIBS -o "$out/baseline.elf"
base=$(flash "$out/baseline.elf")

# The library sources a build with these backends on needs: the files of backends that are off
# are left out, as a firmware's build would (they do not all compile to nothing when off).
sources() { # "on backends" -> sources
    local src="" f b keep
    for f in $libsrc; do
        keep=1
        for b in $all; do
            case " $1 " in *" $b "*) ;; *) case $f in lib/mbp_$b.c|lib/mbp_${b}_*.c) keep=0 ;; esac ;; esac
        done
        case " $1 " in *" grid "*|*" hash "*|*" hgrid "*) ;; *) case $f in lib/mbp_cells.c|lib/mbp_cells_*.c) keep=0 ;; esac ;; esac
        [ $keep = 1 ] && src="$src $f"
    done
    echo "$src"
}

# The world, and an array of MBP_MAX_PAIRS bytes that says what the default pairs are.
probe='#include "mbp.h"\nmbp_world size_world_ram;\nunsigned char size_pairs[MBP_MAX_PAIRS];\n'

ram_of() { # object defs... -> sizeof(mbp_world) built with defs (the object is kept)
    local o=$1
    shift
    printf "$probe" | $CC $CFLAGS "$@" -x c -c - -o "$o" || return 1
    $NM -S -t d "$o" | awk '/size_world_ram/ { print $2 + 0 }'
}

one() { # name "with-flags" backend cap "on backends"
    local name=$1 with=$2 be=$3 cap=$4 tag="$1-$4"
    local defs="-DMBP_DIM=$dim -DMBP_SCALAR=$scalar_def -DMBP_MAX_BODIES=$cap $with"
    $CC $CFLAGS $defs -DSIZE_BACKEND=$be tools/bench/size_probe.c $(sources "$5") $portsrc \
        $LDFLAGS -Wl,--defsym=size_world=0x20000000 $LDLIBS -o "$out/$tag.elf"
    # Declared apart from their assignment, so that a failed build stops the script (set -e).
    local ram pairs ram2 ramn ramn2 ramb ramd
    ram=$(ram_of "$out/$tag-ram.o" $defs)
    pairs=$($NM -S -t d "$out/$tag-ram.o" | awk '/size_pairs/ { print $2 + 0 }')
    ram2=$(ram_of "$out/$tag-ram2.o" $defs -DMBP_MAX_PAIRS=$((2 * pairs)))
    # Again with no event lists, at both capacities.
    ramn=$(ram_of "$out/$tag-ramn.o" $defs -DMBP_WITH_EVENTS=0)
    ramn2=$(ram_of "$out/$tag-ramn2.o" $defs -DMBP_WITH_EVENTS=0 -DMBP_MAX_PAIRS=$((2 * pairs)))
    local bench="-DMBP_MAX_PAIRS=$((bench_pairs * cap)) -DMBP_MAX_EVENTS=$((bench_pairs * cap))"
    [ "$bench_entries" -gt 0 ] && bench="$bench -DMBP_GRID_MAX_ENTRIES=$((bench_entries * cap))"
    ramb=$(ram_of "$out/$tag-ramb.o" $defs $bench)
    # Twice the bodies, the same pairs and hash buckets (the buckets step by 2x with the bodies:
    # a capacity of their own, like the pairs). The -U drops $defs' MBP_MAX_BODIES.
    local buckets
    buckets=$(config_value MBP_HASH_BUCKETS $defs)
    ramd=$(ram_of "$out/$tag-ramd.o" $defs -UMBP_MAX_BODIES -DMBP_MAX_BODIES=$((2 * cap)) \
        -DMBP_MAX_PAIRS="$pairs" -DMBP_HASH_BUCKETS="$buckets")
    local fl=$(( $(flash "$out/$tag.elf") - base ))
    echo "$name,$cpu,${dim}d_${scalar}_$cap,$fl,$ram,$(awk -v r="$ram" -v r2="$ram2" -v c="$cap" -v p="$pairs" \
        'BEGIN { printf "%.1f,%.1f", r / c, (r2 - r) / p }'),$ramb,$(awk -v r="$ramn" -v r2="$ramn2" -v p="$pairs" \
        'BEGIN { printf "%.1f", (r2 - r) / p }'),$(awk -v r="$ram" -v rd="$ramd" -v c="$cap" \
        'BEGIN { printf "%.1f", (rd - r) / c }')" > "$out/$tag.row"
}

with_only() { # backend -> -D flags with only it on
    local f=""
    for b in $all; do
        f="$f -DMBP_WITH_$(echo "$b" | tr a-z A-Z)=$([ "$b" = "$1" ] && echo 1 || echo 0)"
    done
    echo "$f"
}

# Variant rows, <backend>-<variant> (when the backend is on by default): brute force and SAP with
# sphere bodies, and SAP as a firmware short of RAM builds it.
variants=""
for v in brute-spheres sap-spheres sap-lean; do
    case " $enabled " in *" ${v%%-*} "*) variants="$variants $v" ;; esac
done
variant_flags() { # variant -> its options
    case $1 in
    *-spheres) echo "-DMBP_WITH_SPHERES=1" ;;
    *-lean) echo "-DMBP_SAP_QUANTIZED=1" ;;
    esac
}

pids=""
for cap in $caps; do
    for b in $enabled; do
        one "$b" "$(with_only "$b")" "MBP_$(echo "$b" | tr a-z A-Z)" "$cap" "$b" & pids="$pids $!"
    done
    allf=""
    for b in $all; do
        case " $enabled " in *" $b "*) v=1 ;; *) v=0 ;; esac
        allf="$allf -DMBP_WITH_$(echo "$b" | tr a-z A-Z)=$v"
    done
    first=$(echo $enabled | awk '{ print toupper($1) }')
    one all "$allf" "MBP_$first" "$cap" "$enabled" & pids="$pids $!"
    for v in $variants; do
        b=${v%%-*}
        one "$v" "$(with_only "$b") $(variant_flags "$v")" "MBP_$(echo "$b" | tr a-z A-Z)" \
            "$cap" "$b" & pids="$pids $!"
    done
    for p in $pids; do wait "$p"; done
    pids=""
done
for cap in $caps; do
    for b in $enabled all; do cat "$out/$b-$cap.row"; done
    for v in $variants; do cat "$out/$v-$cap.row"; done
done
