#!/bin/sh
# SPDX-License-Identifier: MIT
# plot.sh <bench.csv> <out.svg>: the scaling plot of make bench, if gnuplot is installed: host
# time per frame against n, log-log, one line per backend, one panel per scene. Without gnuplot
# it says so and succeeds (apt-get install gnuplot-nox gives it).
csv=$1
out=$2
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "bench: no gnuplot, no plot (apt-get install --no-install-recommends gnuplot-nox)"
    exit 0
fi
dir=$(dirname "$out")/bench/plot
rm -rf "$dir"
mkdir -p "$dir"
# One data file per scene and backend: "n ns_per_frame", host rows that have a time.
awk -F, -v dir="$dir" 'NR > 1 && $4 == "host" && $5 != "" {
    f = dir "/" $2 "-" $1 ".dat"; print $3, $5 >> f; close(f)
    if (!($1 in b)) { b[$1] = 1; bl = bl " " $1 }
    if (!($2 in s)) { s[$2] = 1; sl = sl " " $2 }
} END { print bl > (dir "/backends"); print sl > (dir "/scenes") }' "$csv"
backends=$(cat "$dir/backends")
scenes=$(cat "$dir/scenes")
[ -n "$scenes" ] || { echo "bench: no host rows to plot"; exit 0; }
{
    echo "set terminal svg size 1200,760 dynamic font 'sans,11'"
    echo "set output '$out'"
    echo "set logscale xy"
    echo "set grid"
    echo "set key top left"
    echo "set xlabel 'bodies (n)'"
    echo "set ylabel 'ns per frame (host)'"
    echo "set multiplot layout 2,3 title 'mbp: time per frame against n (make bench, host)'"
    for s in $scenes; do
        echo "set title '$s'"
        printf "plot"
        sep=""
        for b in $backends; do
            [ -f "$dir/$s-$b.dat" ] || continue
            printf "%s '%s' using 1:2 with linespoints title '%s'" "$sep" "$dir/$s-$b.dat" "$b"
            sep=","
        done
        echo
    done
    echo "unset multiplot"
} > "$dir/plot.gp"
if gnuplot "$dir/plot.gp"; then
    echo "wrote $out"
else
    echo "bench: gnuplot failed, no plot ($dir/plot.gp)"
fi
