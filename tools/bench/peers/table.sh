#!/bin/sh
# SPDX-License-Identifier: MIT
# table.sh <peers.csv>: make bench-peers' tables in Markdown (tools/readme-tables.sh puts them in
# README.md's "mbp and its peers"). First, per scene and n, mbp's best backend against the best
# peer; then one table per scene: instructions per body per frame of every method at every n,
# each mbp backend with its ratio to the best peer (the lowest of Bullet, Box2D and Chipmunk
# whose pairs matched brute force on every frame), and the bytes each method holds per body at
# the scene's largest n. A method whose pairs differ from brute force is marked and listed.
set -eu
awk -F, '
NR == 1 { next }
$5 != "" {
    m = $1; s = $3; n = $4 + 0
    if (!(s in seen_s)) { seen_s[s] = 1; sl[++ns] = s }
    if (!(m in seen_m)) { seen_m[m] = 1; ml[++nm] = m; fam[m] = $2 }
    if (!((s, n) in seen_n)) { seen_n[s, n] = 1; nl[s] = nl[s] " " n }
    v[m, s, n] = $5; by[m, s, n] = $8; ok[m, s, n] = $13
    if ($13 != "1") bad[++nb] = sprintf("%s on %s, n = %d: %s pairs missed and %s added over %s frames", m, s, n, $9, $10, $12)
    if ($2 == "peer" && $13 == "1" && (!((s, n) in bp) || $5 + 0 < bp[s, n])) { bp[s, n] = $5 + 0; bpn[s, n] = m }
    if ($2 == "mbp" && m != "mbp-brute" && (!((s, n) in bm) || $5 + 0 < bm[s, n])) { bm[s, n] = $5 + 0; bmn[s, n] = m }
}
function sorted_ns(s,    a, k, i, j, t) {
    k = split(nl[s], a, " ")
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    cnt = k; for (i = 1; i <= k; i++) nn[i] = a[i]
}
END {
    print "mbp'"'"'s best backend against the best peer, instructions per body per frame (ratio above 1: mbp"
    print "trails):"
    print ""
    print "| scene | n | best mbp backend | best peer | mbp / peer |"
    print "|---|---:|---|---|---:|"
    for (i = 1; i <= ns; i++) {
        s = sl[i]; sorted_ns(s)
        for (j = 1; j <= cnt; j++) {
            n = nn[j]
            if (!((s, n) in bm) || !((s, n) in bp)) continue
            printf "| %s | %d | %s %.0f | %s %.0f | %.2f |\n", s, n, bmn[s, n], bm[s, n], bpn[s, n], bp[s, n], bm[s, n] / bp[s, n]
        }
    }
    for (i = 1; i <= ns; i++) {
        s = sl[i]; sorted_ns(s)
        print ""
        printf "**%s**: instructions per body per frame (mbp: ratio to the best peer)\n\n", s
        printf "| method |"; for (j = 1; j <= cnt; j++) printf " n = %d |", nn[j]
        printf " bytes per body, n = %d |\n|---|", nn[cnt]; for (j = 1; j <= cnt + 1; j++) printf "---:|"
        printf "\n"
        for (f = 1; f <= 3; f++) for (k = 1; k <= nm; k++) {
            m = ml[k]
            if (fam[m] != (f == 1 ? "mbp" : f == 2 ? "peer" : "ref")) continue
            any = 0; for (j = 1; j <= cnt; j++) if ((m, s, nn[j]) in v) any = 1
            if (!any) continue
            printf "| %s |", m
            for (j = 1; j <= cnt; j++) {
                n = nn[j]
                if (!((m, s, n) in v)) { printf " |"; continue }
                c = sprintf("%.0f", v[m, s, n])
                if (bpn[s, n] == m) c = "**" c "**"
                if (fam[m] == "mbp" && ((s, n) in bp)) c = c sprintf(" (%.2f)", v[m, s, n] / bp[s, n])
                if (ok[m, s, n] != "1") c = c " ≠"
                printf " %s |", c
            }
            n = nn[cnt]
            printf " %s |\n", ((m, s, n) in by) ? sprintf("%.0f", by[m, s, n]) : ""
        }
    }
    if (nb > 0) {
        print ""
        print "≠: pairs differ from brute force'"'"'s (not a failure for a peer; for an mbp backend, make"
        print "bench-peers fails):"
        print ""
        for (i = 1; i <= nb; i++) print "- " bad[i]
    }
}' "$1"
