#!/bin/sh
# SPDX-License-Identifier: MIT
# commit.sh: the commit a measurement runs at, for make bench and make bench-peers to record
# beside their CSV (build/bench.commit, build/peers.commit) and make readme-tables to print:
# git's short hash, "-dirty" when lib/, tools/ or config/ differ from it, or "unknown" outside
# git.
# commit.sh --of <file.csv>: the commit recorded beside that CSV (<file>.commit), or "unknown".
set -eu
if [ "${1:-}" = --of ]; then
    f="${2%.csv}.commit"
    if [ -f "$f" ]; then cat "$f"; else echo unknown; fi
    exit 0
fi
h=$(git rev-parse --short HEAD 2>/dev/null) || { echo unknown; exit 0; }
if ! git diff --quiet HEAD -- lib tools config 2>/dev/null; then
    h="$h-dirty"
fi
echo "$h"
