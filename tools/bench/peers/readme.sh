#!/bin/sh
# SPDX-License-Identifier: MIT
# readme.sh <peers.csv> <README.md> <plot.svg>: README.md's "mbp and its peers" from make
# bench-peers' results (tools/readme-tables.sh calls it): the lines between
# "<!-- peers:begin -->" and "<!-- peers:end -->" become table.sh's tables, and svg.sh draws the
# plot the section shows. Nothing in them is typed by hand.
set -eu
dir=$(dirname "$0")
grep -q '^<!-- peers:begin -->' "$2" || { echo "readme-tables: $2 has no <!-- peers:begin --> marker" >&2; exit 1; }
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
{ echo "Measured at commit $("$dir/../commit.sh" --of "$1")."; echo; "$dir/table.sh" "$1"; } > "$tables"
awk -v tables="$tables" '
/^<!-- peers:begin -->/ { print; while ((getline line < tables) > 0) print line; skip = 1; next }
/^<!-- peers:end -->/ { skip = 0 }
!skip { print }' "$2" > "$2.tmp" && mv "$2.tmp" "$2"
"$dir/svg.sh" "$1" "$3"
echo "$2: mbp and its peers rewritten from $1; $3 drawn"
