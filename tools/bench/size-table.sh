#!/bin/sh
# SPDX-License-Identifier: MIT
# size-table.sh <size.csv>: the readable table of make size. "RAM bytes": the default 2 pairs per
# body; "RAM as bench": with make bench's capacities (8 pairs per body); "body alone": one more
# body with the pair capacity kept (tools/bench/size.sh).
[ -f "$1" ] || { echo "size-table.sh: no $1" >&2; exit 1; }
awk -F, 'NR == 1 { printf "%-8s %-10s %-14s %12s %10s %11s %11s %13s %12s %11s\n", "backend", "target", "config", "flash bytes", "RAM bytes", "bytes/body", "bytes/pair", "RAM as bench", "pair, no ev", "body alone"; next }
         { printf "%-8s %-10s %-14s %12s %10s %11s %11s %13s %12s %11s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$1"
