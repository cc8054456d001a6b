#!/bin/sh
# readme-tables.sh: rewrites the figures in README.md from build/bench.csv and build/size.csv.
#
#   make bench && make size && make readme-tables
#
# Everything between "<!-- figures:begin -->" and "<!-- figures:end -->" is replaced; nothing in
# those tables is typed by hand.
set -eu
bench=build/bench.csv
size=build/size.csv
[ -f "$bench" ] && [ -f "$size" ] || { echo "readme-tables: run make bench and make size first" >&2; exit 1; }

tables=$(mktemp)
{
    echo "Instructions per body per frame on Cortex-M4 (mps2-an386 under QEMU, \`make bench\`;"
    echo "instructions, not cycles; every measured frame checked against brute force):"
    echo
    awk -F, '
    NR > 1 && $4 == "mps2-an386" && $6 != "" {
        key = $1 "," $2 "," $3; v[key] = $6 / $3; be[$1] = 1; sc[$2] = 1; ns[$3] = 1
        if ($8 != "1") bad = bad " " key
    }
    END {
        split("brute sweep sap grid hash hgrid tree", order, " ")
        split("sparse dense cluster teleport static", scenes, " ")
        nn = 0; for (n in ns) list[++nn] = n + 0
        for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (list[j] < list[i]) { t = list[i]; list[i] = list[j]; list[j] = t }
        printf "| backend |"; for (s = 1; s <= 5; s++) for (i = 1; i <= nn; i++) printf " %s %d |", scenes[s], list[i]
        printf "\n|---|"; for (s = 1; s <= 5; s++) for (i = 1; i <= nn; i++) printf "---:|"
        printf "\n"
        for (o = 1; o <= 7; o++) {
            b = order[o]; if (!(b in be)) continue
            printf "| %s |", b
            for (s = 1; s <= 5; s++) for (i = 1; i <= nn; i++) {
                key = b "," scenes[s] "," list[i]
                if (key in v) printf " %.0f |", v[key]; else printf " |"
            }
            printf "\n"
        }
        if (bad != "") printf "\nNot matching brute force:%s\n", bad
    }' "$bench"
    echo
    echo "Flash and RAM (\`make size\`, -Os; flash = the library linked into a minimal program"
    echo "that uses that backend, RAM = sizeof(mbp_world), whose pair set holds 2 pairs per body):"
    echo
    echo "| backend | target | config | flash bytes | RAM bytes | RAM bytes per body |"
    echo "|---|---|---|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$size"
} > "$tables"

awk -v tables="$tables" '
/<!-- figures:begin -->/ { print; while ((getline line < tables) > 0) print line; skip = 1; next }
/<!-- figures:end -->/ { skip = 0 }
!skip { print }' README.md > README.md.tmp && mv README.md.tmp README.md
rm -f "$tables"
echo "README.md: figures rewritten from $bench and $size"
