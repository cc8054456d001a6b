#!/bin/sh
# SPDX-License-Identifier: MIT
# table.sh <bench.csv>: the readable table of make bench. One line per platform, scene and n;
# one column per backend: microseconds per frame on the host, instructions per body per frame under QEMU
# (instr_per_frame / n). A '!' after a figure marks ok=0 (pairs differed from brute force or an
# update failed), '?' an unchecked row (brute force not compiled in).
[ -f "$1" ] || { echo "table.sh: no $1" >&2; exit 1; }
awk -F, '
NR == 1 { next }
{
    key = $4 SUBSEP $2 SUBSEP $3
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key; plat[key] = $4; scn[key] = $2; nn[key] = $3 }
    if (!($1 in isb)) { isb[$1] = 1; bes[++nb] = $1 }
    if ($6 != "")      v = sprintf("%.1f", $6 / $3)
    else if ($5 != "") { u = $5 / 1000; v = sprintf(u < 10 ? "%.2f" : u < 1000 ? "%.1f" : "%.0f", u) }
    else               v = "failed"
    if ($8 == "0") v = v "!"; else if ($8 == "") v = v "?"
    cell[key, $1] = v
    pairs[key] = $7
}
END {
    last = ""
    for (i = 1; i <= nk; i++) {
        k = keys[i]
        if (plat[k] != last) {
            last = plat[k]
            unit = (last == "host") ? "microseconds per frame" : "instructions per body per frame"
            printf "\n%s: %s\n", last, unit
            printf "%-9s %5s %8s", "scene", "n", "pairs"
            for (j = 1; j <= nb; j++) printf " %9s", bes[j]
            printf "\n"
        }
        printf "%-9s %5s %8s", scn[k], nn[k], pairs[k]
        for (j = 1; j <= nb; j++) printf " %9s", ((k, bes[j]) in cell) ? cell[k, bes[j]] : "-"
        printf "\n"
    }
    printf "\n"
}' "$1"
