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
# With file arguments, only those files. Nothing in those tables is typed by hand.
set -eu
bench=build/bench.csv
size=build/size.csv
guide_n=${GUIDE_N:-256}
[ -f "$bench" ] && [ -f "$size" ] || { echo "readme-tables: run make bench and make size first" >&2; exit 1; }
files=${*:-README.md docs/guide.md}

# platform_table <platform> <name> [column]: instructions per body per frame, one row per backend:
# the mean (column 6, instr_per_frame) or the worst frame (column 10, worst_frame).
platform_table() {
    awk -F, -v plat="$1" -v name="$2" -v col="${3:-6}" '
    NR > 1 && $4 == plat && $6 != "" && $col != "" {
        key = $1 "," $2 "," $3; v[key] = $col / $3; be[$1] = 1; sc[$2] = 1; ns[$3] = 1
        if ($8 != "1") bad = bad " " key
    }
    END {
        split("brute sweep sap grid hash hgrid tree", order, " ")
        nsc = split("sparse dense cluster teleport static calm mixed", scenes, " ")
        nn = 0; for (n in ns) list[++nn] = n + 0
        for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (list[j] < list[i]) { t = list[i]; list[i] = list[j]; list[j] = t }
        printf "| backend |"; for (s = 1; s <= nsc; s++) for (i = 1; i <= nn; i++) printf " %s %d |", scenes[s], list[i]
        printf "\n|---|"; for (s = 1; s <= nsc; s++) for (i = 1; i <= nn; i++) printf "---:|"
        printf "\n"
        for (o = 1; o <= 7; o++) {
            b = order[o]; if (!(b in be)) continue
            printf "| %s |", b
            for (s = 1; s <= nsc; s++) for (i = 1; i <= nn; i++) {
                key = b "," scenes[s] "," list[i]
                if (key in v) printf " %.0f |", v[key]; else printf " |"
            }
            printf "\n"
        }
        if (bad != "") printf "\nNot matching brute force:%s\n", bad
        if (nn == 0) printf "\nNo %s figures in the bench results: run the whole make bench.\n", name
    }' "$bench"
}

readme_tables() {
    echo "Instructions per body per frame on Cortex-M4 (mps2-an386 under QEMU, \`make bench\`;"
    echo "instructions, not cycles; every measured frame checked against brute force):"
    echo
    platform_table mps2-an386 Cortex-M4
    echo
    echo "The worst frame on Cortex-M4: instructions per body in the dearest measured frame, what a"
    echo "frame deadline has to allow (the tree re-inserts bodies that move alike in bursts):"
    echo
    platform_table mps2-an386 Cortex-M4 10
    echo
    echo "The mean again on Cortex-M0 (M0 code, 2D fixed point, run on mps2-an385 for its RAM; docs/bench.md):"
    echo
    platform_table cortex-m0 Cortex-M0
    echo
    echo "Flash and RAM (\`make size\`, -Os; flash = the library linked into a minimal program"
    echo "that uses that backend, RAM = sizeof(mbp_world), whose pair set holds 2 pairs per body;"
    echo "per pair = what one more pair of capacity costs, docs/bench.md):"
    echo
    echo "| backend | target | config | flash bytes | RAM bytes | RAM bytes per body | RAM bytes per pair |"
    echo "|---|---|---|---:|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$size"
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
        if ($8 != "1") bad = bad " " $1 "," $2
    }
    file == 2 && $2 == "cortex-m4" && $3 == "2d_float_" n { fl[$1] = $4; rb[$1] = $6; be[$1] = 1 }
    END {
        split("brute sweep sap grid hash hgrid tree", order, " ")
        nsc = split("sparse dense cluster teleport static calm mixed", scenes, " ")
        printf "| backend |"; for (s = 1; s <= nsc; s++) printf " %s |", scenes[s]
        printf " flash bytes | RAM bytes per body |\n|---|"
        for (s = 1; s <= nsc + 2; s++) printf "---:|"
        printf "\n"
        for (o = 1; o <= 7; o++) {
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
        if (bad != "") printf "\nNot matching brute force:%s\n", bad
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
