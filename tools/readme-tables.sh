#!/bin/sh
# SPDX-License-Identifier: MIT
# readme-tables.sh [file...]: rewrites the tables of figures in README.md and docs/guide.md from
# build/bench.csv and build/size.csv.
#
#   make bench && make size && make readme-tables
#
# README.md: everything between "<!-- figures:begin -->" and "<!-- figures:end -->".
# docs/guide.md: everything between "<!-- choose:begin -->" and "<!-- choose:end -->" (one table
# for choosing a backend: Cortex-M4 at GUIDE_N bodies, default 256).
# README.md's "mbp and its peers": everything between "<!-- peers:begin -->" and
# "<!-- peers:end -->", and its plot docs/peers.svg, from build/peers.csv (make bench-peers;
# tools/bench/peers/readme.sh), when it exists; `readme-tables.sh peers` does only that, without
# build/bench.csv and build/size.csv.
# With file arguments, only those files. Nothing in those tables is typed by hand.
set -eu
bench=build/bench.csv
size=build/size.csv
peers=build/peers.csv
guide_n=${GUIDE_N:-256}
# The worked example: the default backend's frame on the Cortex-M4 at worked_n bodies (a size
# make bench measures there), in the worked_scene scene, turned into time at worked_mhz.
worked_n=${WORKED_N:-256}
worked_mhz=${WORKED_MHZ:-64}
worked_scene=${WORKED_SCENE:-sparse}
case " ${*:-README.md} " in
    *" README.md "*|" peers ") [ ! -f "$peers" ] || tools/bench/peers/readme.sh "$peers" README.md docs/peers.svg ;;
esac
[ "$*" != peers ] || exit 0
[ -f "$bench" ] && [ -f "$size" ] || { echo "readme-tables: run make bench and make size first" >&2; exit 1; }
files=${*:-README.md docs/guide.md}

# platform_table <platform> <name> [column]: instructions per body per frame, one row per backend:
# the mean (column 6, instr_per_frame) or the worst frame (column 10, worst_frame).
platform_table() {
    awk -F, -v plat="$1" -v name="$2" -v col="${3:-6}" '
    NR > 1 && $4 == plat && $6 != "" && $col != "" {
        key = $1 "," $2 "," $3; v[key] = $col / $3; be[$1] = 1; sc[$2] = 1
        if ($2 != "pyramid" && $2 != "drum" && $2 != "impact") ns[$3] = 1 # generated scenes only
    }
    # ok = 0: not matching brute force, or a frame failed (a status other than MBP_OK: no figures)
    NR > 1 && $4 == plat && $8 != "1" { bad = bad " " $1 "," $2 "," $3 }
    END {
        nord = split("brute sweep sap grid hash hgrid tree quadtree", order, " ")
        nsc = split("sparse dense cluster teleport static calm mixed level smash", scenes, " ")
        nn = 0; for (n in ns) list[++nn] = n + 0
        for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (list[j] < list[i]) { t = list[i]; list[i] = list[j]; list[j] = t }
        printf "| backend |"; for (s = 1; s <= nsc; s++) for (i = 1; i <= nn; i++) printf " %s %d |", scenes[s], list[i]
        printf "\n|---|"; for (s = 1; s <= nsc; s++) for (i = 1; i <= nn; i++) printf "---:|"
        printf "\n"
        for (o = 1; o <= nord; o++) {
            b = order[o]; if (!(b in be)) continue
            printf "| %s |", b
            for (s = 1; s <= nsc; s++) for (i = 1; i <= nn; i++) {
                key = b "," scenes[s] "," list[i]
                if (key in v) printf " %.0f |", v[key]; else printf " |"
            }
            printf "\n"
        }
        if (bad != "") printf "\nNot matching brute force, or a frame failed:%s\n", bad
        if (nn == 0) printf "\nNo %s figures in the bench results: run the whole make bench.\n", name
    }' "$bench"
}

# recorded_table <platform>: the scenes recorded from Box2D (make scenes) on that platform, one
# row per backend, "mean (worst frame)" in instructions per body per frame; the n of each scene
# is the bodies of its cut-down on the M4 (docs/bench.md).
recorded_table() {
    awk -F, -v plat="$1" '
    NR > 1 && $4 == plat && $6 != "" && ($2 == "pyramid" || $2 == "drum" || $2 == "impact") {
        key = $1 "," $2; mean[key] = $6 / $3; worst[key] = $10 / $3; be[$1] = 1; n[$2] = $3
    }
    NR > 1 && $4 == plat && $8 != "1" && ($2 == "pyramid" || $2 == "drum" || $2 == "impact") {
        bad = bad " " $1 "," $2
    }
    END {
        nsc = split("pyramid drum impact", scenes, " ")
        got = 0; for (s = 1; s <= nsc; s++) if (scenes[s] in n) got++
        if (got == 0) { printf "No recorded scenes on %s in the bench results: run the whole make bench (make scenes needs libbox2d-dev).\n", plat; exit }
        printf "| backend |"; for (s = 1; s <= nsc; s++) if (scenes[s] in n) printf " %s, %d bodies |", scenes[s], n[scenes[s]]
        printf "\n|---|"; for (s = 1; s <= nsc; s++) if (scenes[s] in n) printf "---:|"
        printf "\n"
        nord = split("brute sweep sap grid hash hgrid tree quadtree", order, " ")
        for (o = 1; o <= nord; o++) {
            b = order[o]; if (!(b in be)) continue
            printf "| %s |", b
            for (s = 1; s <= nsc; s++) {
                if (!(scenes[s] in n)) continue
                key = b "," scenes[s]
                if (key in mean) printf " %.0f (%.0f) |", mean[key], worst[key]; else printf " |"
            }
            printf "\n"
        }
        if (bad != "") printf "\nNot matching brute force, or a frame failed:%s\n", bad
    }' "$bench"
}

readme_tables() {
    echo "Measured at commit $(tools/bench/commit.sh --of "$bench")."
    echo
    echo "Instructions per body per frame on Cortex-M4 (mps2-an386 under QEMU, \`make bench\`;"
    echo "instructions, not cycles; every measured frame checked against brute force):"
    echo
    platform_table mps2-an386 Cortex-M4
    echo
    echo "The worst frame on Cortex-M4: instructions per body in the dearest measured frame, what a"
    echo "frame deadline has to allow:"
    echo
    platform_table mps2-an386 Cortex-M4 10
    echo
    worked_example
    echo
    echo "The scenes recorded from Box2D (\`make scenes\`: a pyramid settling, a turning drum of small"
    echo "boxes, a heavy box hitting a packed grid) on Cortex-M4, cut down to their first frames and"
    echo "at most the bodies in the header (docs/bench.md); instructions per body per frame, the mean"
    echo "and (the worst frame), every frame checked against brute force:"
    echo
    recorded_table mps2-an386
    echo
    echo "The mean again on Cortex-M0 (M0 code, 2D fixed point, run on mps2-an385 for its RAM; docs/bench.md):"
    echo
    platform_table cortex-m0 Cortex-M0
    echo
    echo "Flash and RAM (\`make size\`, -Os; flash = the library linked into a minimal program"
    echo "that uses that backend, RAM = sizeof(mbp_world), whose pair set holds the default 2 pairs"
    echo "per body, and again with make bench's 8 pairs and 8 event entries per body (and, on the M4, 8 grid entries);"
    echo "per body alone = what one more body costs with the pair capacity (and the hash buckets) kept,"
    echo "so that RAM is about a few hundred bytes (hash, hgrid: plus 2 bytes a hash bucket) + bodies ×"
    echo "per body alone + pairs × per pair;"
    echo "per pair = what one more pair of capacity costs (the frame's begin and end events go into"
    echo "the entries the pairs leave free: no room is kept for them alone unless \`MBP_MAX_EVENTS\`"
    echo "asks for it, 4 bytes an entry). The rows build the default options, which leave sphere"
    echo "bodies out; brute-spheres and sap-spheres = that backend alone with \`MBP_WITH_SPHERES 1\`"
    echo "(what sphere bodies cost), sap-lean = SAP alone with \`MBP_SAP_QUANTIZED 1\`, what a firmware"
    echo "short of RAM builds. Grid, hash and hgrid share one"
    echo "cell engine, lib/mbp_cells*.c, hence their flash figures within bytes of each other;"
    echo "docs/bench.md):"
    echo
    echo "| backend | target | config | flash bytes | RAM bytes | RAM bytes per body | RAM bytes per body alone | RAM bytes per pair | RAM bytes, 8 pairs and 8 events per body (make bench) |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, ($10 == "" ? "?" : $10), $7, $8 }' "$size"
}

# worked_example: one paragraph turning the default backend's mean and worst frame on the M4
# into milliseconds at worked_mhz, and what QEMU's instruction count leaves out.
worked_example() {
    awk -F, -v n="$worked_n" -v mhz="$worked_mhz" -v scene="$worked_scene" '
    NR > 1 && $4 == "mps2-an386" && $3 == n && $2 == scene && $6 != "" { mean[$1] = $6; worst[$1] = $10 }
    END {
        # The backend mbp_params_default() picks: the first of these compiled in (lib/mbp_world.c).
        split("sap tree grid sweep brute", order, " ")
        for (o = 1; o <= 5; o++) if (order[o] in mean) { b = order[o]; break }
        if (b == "") {
            printf "No Cortex-M4 figures for %s at %d bodies: run the whole make bench for the worked example.\n", scene, n
            exit
        }
        m = mean[b]; w = (worst[b] != "") ? worst[b] : m
        printf "**From instructions to time, a worked example.** The default backend (%s) on the Cortex-M4,\n", b
        printf "%d bodies, scene `%s`: %.0f instructions per body per frame on average is %.0f instructions a\n", n, scene, m / n, m
        printf "frame, and the dearest measured frame took %.0f. On a %d MHz Cortex-M4 at one cycle per\n", w, mhz
        printf "instruction that is %.2f ms a frame on average and %.2f ms at worst: a floor, not a\n", m / (mhz * 1000), w / (mhz * 1000)
        printf "prediction. QEMU counts instructions, not cycles, and leaves out what makes a real M4 slower:\n"
        printf "loads, stores and taken branches that take 2 or more cycles, flash wait states (several at\n"
        printf "full clock on most parts) and how much of them the flash accelerator, prefetch buffer or\n"
        printf "cache hides, cache misses, bus contention with DMA, and the interrupts that preempt the\n"
        printf "frame. An allowance of 1.5 cycles per instruction, an assumption and not a measurement, gives\n"
        printf "%.2f ms and %.2f ms; measure your board with the DWT cycle counter around `mbp_update()`.\n", 1.5 * m / (mhz * 1000), 1.5 * w / (mhz * 1000)
    }' "$bench"
}

# One row per backend: the five scenes at n = guide_n on the M4 (the lowest of each scene in
# bold), then that backend's flash alone and RAM per body at the same capacity on the M4.
guide_table() {
    echo "Cortex-M4F (mps2-an386 under QEMU), $guide_n bodies, 2D float. Scenes: instructions per"
    echo "body per frame from \`make bench\` (the lowest of each scene in bold; docs/bench.md"
    echo "describes the scenes). Flash and RAM: the backend alone, from \`make size\`."
    echo
    awk -F, -v n="$guide_n" '
    FNR == 1 { file++; next }
    file == 1 && $4 == "mps2-an386" && $3 == n && $6 != "" {
        v[$1 "," $2] = $6 / $3; be[$1] = 1; got++
        if (!(($2) in lo) || $6 / $3 < lo[$2]) lo[$2] = $6 / $3
    }
    file == 1 && $4 == "mps2-an386" && $3 == n && $8 != "1" { bad = bad " " $1 "," $2 }
    file == 2 && $2 == "cortex-m4" && $3 == "2d_float_" n { fl[$1] = $4; rb[$1] = $6; be[$1] = 1 }
    END {
        nord = split("brute sweep sap grid hash hgrid tree quadtree", order, " ")
        nsc = split("sparse dense cluster teleport static calm mixed level smash", scenes, " ")
        printf "| backend |"; for (s = 1; s <= nsc; s++) printf " %s |", scenes[s]
        printf " flash bytes | RAM bytes per body |\n|---|"
        for (s = 1; s <= nsc + 2; s++) printf "---:|"
        printf "\n"
        for (o = 1; o <= nord; o++) {
            b = order[o]; if (!(b in be)) continue
            printf "| %s |", b
            for (s = 1; s <= nsc; s++) {
                key = b "," scenes[s]
                if (!(key in v)) printf " |"
                else if (sprintf("%.0f", v[key]) == sprintf("%.0f", lo[scenes[s]])) printf " **%.0f** |", v[key]
                else printf " %.0f |", v[key]
            }
            printf " %s | %s |\n", fl[b], rb[b]
        }
        if (bad != "") printf "\nNot matching brute force, or a frame failed:%s\n", bad
        if (got == 0) printf "\nNo Cortex-M4 figures at %d bodies in the bench results: run the whole make bench.\n", n
    }' "$bench" "$size"
}

# replace <file> <marker> <tables>: the lines between the marker pair become the tables.
replace() {
    grep -q "<!-- $2:begin -->" "$1" || { echo "readme-tables: $1 has no <!-- $2:begin --> marker" >&2; exit 1; }
    awk -v tables="$3" -v begin="<!-- $2:begin -->" -v end="<!-- $2:end -->" '
    index($0, begin) == 1 { print; while ((getline line < tables) > 0) print line; skip = 1; next }
    index($0, end) == 1 { skip = 0 }
    !skip { print }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
    echo "$1: figures rewritten from $bench and $size"
}

tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
for f in $files; do
    case $f in
        README.md) readme_tables > "$tables"; replace "$f" figures "$tables" ;;
        docs/guide.md) guide_table > "$tables"; replace "$f" choose "$tables" ;;
        *) echo "readme-tables: no tables for $f" >&2; exit 1 ;;
    esac
done
