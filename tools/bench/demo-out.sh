#!/bin/sh
# SPDX-License-Identifier: MIT
# demo-out.sh <demo output> <svg>: prints the demo's console lines and cuts the picture it
# wrote between "-----BEGIN SVG-----" and "-----END SVG-----" into <svg>.
out=$1
svg=$2
awk '/^-----BEGIN SVG-----$/ { inside = 1; next }
     /^-----END SVG-----$/   { inside = 0; next }
     !inside { print }' "$out"
if grep -q '^-----END SVG-----$' "$out"; then
    awk '/^-----BEGIN SVG-----$/ { inside = 1; next }
         /^-----END SVG-----$/   { inside = 0; next }
         inside { print }' "$out" > "$svg"
    echo "wrote $svg"
else
    echo "demo: no picture in the output (the run stopped early?)" >&2
    exit 1
fi
