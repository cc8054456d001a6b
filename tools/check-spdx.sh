#!/bin/sh
# SPDX-License-Identifier: MIT
# check-spdx.sh: every source, build and script file of the repository names its licence on an
# "SPDX-License-Identifier:" line in its first 5 lines (LICENSE holds the text). One check;
# prints "spdx: N passed, N failed" (tools/suite.sh, tools/total.sh) and exits 1 on failure.
#
# Files checked: those git tracks (all files when this is not a git checkout) that are C
# (.c .h), assembly (.s .S), shell, Python, awk and gnuplot (.sh .py .awk .gp), make (.mk,
# Makefile), CMake (.cmake, CMakeLists.txt), linker scripts (.ld), Kconfig, YAML (.yml .yaml),
# or start with "#!". Not checked: documents (.md), JSON (no comments: library.json has a
# "license" field instead), LICENSE, data (fuzz corpus, scenes, suppression lists), .gitignore.
set -u
cd "$(dirname "$0")/.." || exit 1

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files)
else
    files=$(find . -type f ! -path './build/*' ! -path './.git/*' | sed 's|^\./||')
fi

n=0
missing=""
for f in $files; do
    [ -f "$f" ] || continue # deleted in the work tree, not yet committed
    case $f in
        *.c|*.h|*.s|*.S|*.sh|*.py|*.awk|*.gp|*.mk|*/Makefile|Makefile|*.cmake|*/CMakeLists.txt|\
        CMakeLists.txt|*.ld|*/Kconfig|Kconfig|*.yml|*.yaml) ;;
        *) head -c 2 "$f" | grep -q '^#!' || continue ;;
    esac
    n=$((n + 1))
    head -n 5 "$f" | grep -q 'SPDX-License-Identifier: ' || missing="$missing $f"
done

if [ "$n" -eq 0 ]; then
    echo "FAIL spdx: no source files found"
    echo "spdx: 0 passed, 1 failed"
    exit 1
elif [ -n "$missing" ]; then
    echo "FAIL spdx: no SPDX-License-Identifier line in the first 5 lines of:$missing"
    echo "spdx: 0 passed, 1 failed"
    exit 1
fi
echo "ok   spdx: $n source, build and script files carry an SPDX-License-Identifier line"
echo "spdx: 1 passed, 0 failed"
