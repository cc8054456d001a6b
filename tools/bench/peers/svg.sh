#!/bin/sh
# SPDX-License-Identifier: MIT
# svg.sh <peers.csv> <out.svg>: make bench-peers' plot, written directly (no gnuplot): one panel
# per scene measured at more than one n, instructions per body per frame (callgrind) against n,
# both axes logarithmic; mbp backends solid, peers dashed, the plain sort-and-sweep dotted.
# Brute force is left out (its n^2 would flatten the rest).
set -eu
awk -F, '
NR == 1 { next }
$5 != "" && $1 !~ /brute/ {
    m = $1; s = $3; n = $4 + 0; y = $5 + 0
    if (!(s in seen_s)) { seen_s[s] = 1; sl[++ns] = s }
    if (!(m in seen_m)) { seen_m[m] = 1; ml[++nm] = m; fam[m] = $2 }
    v[m, s, n] = y; if (!((s, n) in has)) { has[s, n] = 1; cnt[s]++ }
    if (!(s in lo) || y < lo[s]) lo[s] = y
    if (!(s in hi) || y > hi[s]) hi[s] = y
    if (nmin == 0 || n < nmin) nmin = n
    if (n > nmax) nmax = n
}
function lg(x) { return log(x) / log(10) }
END {
    split("#1f77b4 #d62728 #2ca02c #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #ff7f0e #393b79 #637939 #843c39 #7b4173", col, " ")
    np = 0; for (i = 1; i <= ns; i++) if (cnt[sl[i]] > 1) pl[++np] = sl[i]
    W = 360; H = 240; ML = 56; MT = 28; cols = 3; rows = int((np + cols - 1) / cols)
    LW = 170; tw = cols * (W + ML + 16) + LW; th = rows * (H + MT + 44) + 10
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", tw, th
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    for (p = 1; p <= np; p++) {
        s = pl[p]; ox = ((p - 1) % cols) * (W + ML + 16) + ML; oy = int((p - 1) / cols) * (H + MT + 44) + MT
        y0 = lg(lo[s]) - 0.05; y1 = lg(hi[s]) + 0.05; x0 = lg(nmin); x1 = lg(nmax); if (x1 == x0) x1 = x0 + 1
        printf "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">%s</text>\n", ox, oy - 8, s
        printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n", ox, oy, W, H
        for (e = int(y0); e <= y1 + 1; e++) for (d = 1; d <= 9; d++) {
            t = e + lg(d); if (t < y0 || t > y1) continue
            yy = oy + H - (t - y0) / (y1 - y0) * H
            printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", ox, ox + W, yy, yy
            if (d == 1 || d == 2 || d == 5) printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", ox - 4, yy + 4, d * 10 ^ e
        }
        for (n = nmin; n <= nmax; n *= 2) {
            if (!((s, n) in has)) continue
            xx = ox + (lg(n) - x0) / (x1 - x0) * W
            printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#eee\"/>\n", xx, xx, oy, oy + H
            printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", xx, oy + H + 14, n
        }
        printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">bodies (n)</text>\n", ox + W / 2, oy + H + 30
        for (k = 1; k <= nm; k++) {
            m = ml[k]; path = ""
            for (n = nmin; n <= nmax; n *= 2) if ((m, s, n) in v) {
                xx = ox + (lg(n) - x0) / (x1 - x0) * W; yy = oy + H - (lg(v[m, s, n]) - y0) / (y1 - y0) * H
                path = path (path == "" ? "M" : " L") sprintf("%.1f %.1f", xx, yy)
            }
            dash = fam[m] == "peer" ? " stroke-dasharray=\"6 3\"" : fam[m] == "ref" ? " stroke-dasharray=\"2 2\"" : ""
            if (path != "") printf "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s/>\n", path, col[(k - 1) % 14 + 1], dash
        }
    }
    lx = cols * (W + ML + 16) + 4
    printf "<text x=\"%d\" y=\"%d\" font-size=\"12\">instructions per body per frame</text>\n", lx - 150, 14
    for (k = 1; k <= nm; k++) {
        m = ml[k]; yy = MT + k * 16
        dash = fam[m] == "peer" ? " stroke-dasharray=\"6 3\"" : fam[m] == "ref" ? " stroke-dasharray=\"2 2\"" : ""
        printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", lx, lx + 28, yy - 4, yy - 4, col[(k - 1) % 14 + 1], dash
        printf "<text x=\"%d\" y=\"%d\">%s</text>\n", lx + 34, yy, m
    }
    print "</svg>"
}' "$1" > "$2"
