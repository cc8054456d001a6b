#!/bin/sh
# size-table.sh <size.csv>: the readable table of make size.
[ -f "$1" ] || { echo "size-table.sh: no $1" >&2; exit 1; }
awk -F, 'NR == 1 { printf "%-8s %-10s %-14s %12s %10s %14s\n", "backend", "target", "config", "flash bytes", "RAM bytes", "bytes/body"; next }
         { printf "%-8s %-10s %-14s %12s %10s %14s\n", $1, $2, $3, $4, $5, $6 }' "$1"
