#!/bin/sh
# SPDX-License-Identifier: MIT
# coverage.sh [--suite] <config>...: line and branch coverage of lib/, run by `make coverage`.
#
# For each config, build/cov-<config>/run (lib/ compiled -O0 --coverage, the tests without
# coverage; mk/coverage.mk builds it) runs the test suite; gcovr reads that config's .gcda files
# (lib/ only) into build/coverage/<config>.json; tools/coverage.py merges the configs, lists
# what no test reaches and matches it against docs/coverage.md; gcovr then reports the merged
# figures (build/coverage/report.txt, build/coverage/html/index.html).
#
# Counted: every line and branch of lib/*.c and lib/*.h that the compiler emits code for, in
# any config. Not counted (see docs/coverage.md): branches the compiler adds that no source
# expresses (gcovr --exclude-unreachable-branches), and the branches of MBP__ASSERT and
# MBP__CHECK_WORLD lines (the programmer-error checks: their failing side calls the assert hook,
# which does not return).
#
# Output ends with "lines: N%" and "branches: N%". Fails when a test fails, or when the figures
# are below COV_MIN_LINES (default 100) or COV_MIN_BRANCHES (default 95) percent. --suite adds a
# "coverage: N passed, N failed" line after them, for the total of `make test`. --deps only
# checks for gcovr (installing it if it can), silently unless it is missing. A config's run is
# killed after COV_TIMEOUT seconds (default 1200: the -O0 library is slower than the usual -O2).
#
# gcovr (Debian package gcovr) is installed when missing if this runs as root or with
# password-less sudo; otherwise it stops with one line naming the package.
set -u

suite=0
deps=0
while [ $# -gt 0 ]; do
    case $1 in
    --suite) suite=1 ;;
    --deps) deps=1 ;;
    *) break ;;
    esac
    shift
done
min_lines=${COV_MIN_LINES:-100}
min_branches=${COV_MIN_BRANCHES:-95}
out=build/coverage
doc=docs/coverage.md

finish() { # <status>: the suite line when asked, then exit
    if [ $suite -eq 1 ]; then
        if [ "$1" -eq 0 ]; then
            echo "coverage: 1 passed, 0 failed"
        else
            echo "coverage: 0 passed, 1 failed"
        fi
    fi
    exit "$1"
}

# ---- gcovr ----
if ! command -v gcovr >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        sudo="none"
    fi
    # $sudo is a word list: unquoted on purpose.
    # shellcheck disable=SC2086
    if [ "$sudo" != "none" ] && command -v apt-get >/dev/null 2>&1; then
        echo "mbp: installing gcovr" >&2
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
            $sudo env DEBIAN_FRONTEND=noninteractive \
                apt-get install -y -qq --no-install-recommends gcovr >/dev/null
    fi
    if ! command -v gcovr >/dev/null 2>&1; then
        echo "mbp: missing package: gcovr" \
             "(install it with apt-get install --no-install-recommends gcovr)" >&2
        finish 1
    fi
fi

[ $deps -eq 1 ] && exit 0 # --deps: only make sure gcovr is there

# ---- run the suites: every config at once, up to one per CPU ----
rm -rf "$out"
mkdir -p "$out"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# A run that hangs is killed after COV_TIMEOUT seconds (and counts as failed).
timeout=""
command -v timeout >/dev/null 2>&1 && timeout="timeout ${COV_TIMEOUT:-1200}"
for c in "$@"; do
    find "build/cov-$c" -name '*.gcda' -exec rm -f {} +
    echo "$c"
done | xargs -P "$jobs" -I{} sh -c \
    "tools/suite.sh cov-{} $timeout ./build/cov-{}/run > build/cov-{}/run.log 2>&1"
fail=0
for c in "$@"; do
    if ! grep -qE '^cov-[a-z0-9_-]+: [0-9]+ passed, 0 failed$' "build/cov-$c/run.log" ||
       grep -qE ': 0 passed, 1 failed \(' "build/cov-$c/run.log"; then
        grep -E '^FAIL|failed' "build/cov-$c/run.log" | head -n 20
        echo "coverage: the suite failed in config $c (build/cov-$c/run.log)"
        fail=1
    fi
done

# gcov reads the sources as they are now: a file of lib/ edited since the builds makes the line
# numbers lie. Say so (make rebuilds at the next run).
for c in "$@"; do
    newer=$(find lib -newer "build/cov-$c/run" \( -name '*.c' -o -name '*.h' \) | head -n 3)
    if [ -n "$newer" ]; then
        echo "coverage: warning: lib/ changed since build/cov-$c/run was built" \
             "($(echo $newer)): rerun make coverage"
        break
    fi
done

# ---- gcovr per config, then merged ----
# An assert line's branches: MBP__ASSERT(e) and MBP__CHECK_WORLD(w) (lib/mbp_internal.h).
excl_br='.*\bMBP__(ASSERT|CHECK_WORLD)\(.*'
for c in "$@"; do
    gcovr -j "$jobs" --root . --filter 'lib/' \
          --exclude-unreachable-branches --exclude-throw-branches \
          --exclude-branches-by-pattern "$excl_br" \
          --json -o "$out/$c.json" "build/cov-$c" 2>"$out/$c.gcovr.log" ||
        { cat "$out/$c.gcovr.log"; echo "coverage: gcovr failed on config $c"; finish 1; }
done
# shellcheck disable=SC2046
python3 tools/coverage.py --doc "$doc" ${COV_WRITE_DOC:+--write-doc} "$out" \
    $(for c in "$@"; do echo "$out/$c.json"; done) > "$out/notes.txt" || finish 1

tracefiles=$(for c in "$@"; do printf -- '--add-tracefile %s ' "$out/tracefiles/$c.json"; done)
# shellcheck disable=SC2086
gcovr --root . $tracefiles --txt "$out/lines.txt" >/dev/null &&
    gcovr --root . $tracefiles --branches --txt "$out/branches.txt" >/dev/null &&
    mkdir -p "$out/html" &&
    gcovr --root . $tracefiles --html-details "$out/html/index.html" >/dev/null &&
    gcovr --root . $tracefiles --print-summary > "$out/summary.txt" ||
    { echo "coverage: gcovr failed to merge the configs"; finish 1; }

# The per-file tables (lines, then branches), what is not reached, then the figures.
sed -n '/^File/,$p' "$out/lines.txt" | grep -v '^-*$' | grep -v '^TOTAL'
sed -n '/^File/,$p' "$out/branches.txt" | grep -v '^-*$'
cat "$out/notes.txt"
pct() { # <kind>: "covered total" from gcovr's summary line "<kind>: P% (C out of T)"
    sed -n "s/^$1: [0-9.]*% (\([0-9]*\) out of \([0-9]*\)).*/\1 \2/p" "$out/summary.txt"
}
configs=$*
set -- $(pct lines) $(pct branches)
if [ $# -ne 4 ]; then
    cat "$out/summary.txt"
    echo "coverage: no summary from gcovr"
    finish 1
fi
lc=$1 lt=$2 bc=$3 bt=$4
# Rounded down to 0.1%: 100.0% means every line.
fmt() {
    awk -v c="$1" -v t="$2" \
        'BEGIN { if (t == 0) print "100.0"; else printf "%.1f\n", int(1000 * c / t) / 10 }'
}
if ! awk -v c="$lc" -v t="$lt" -v m="$min_lines" 'BEGIN { exit !(c * 100 >= m * t) }'; then
    echo "coverage: lines below $min_lines%"
    fail=1
fi
if ! awk -v c="$bc" -v t="$bt" -v m="$min_branches" 'BEGIN { exit !(c * 100 >= m * t) }'; then
    echo "coverage: branches below $min_branches%"
    fail=1
fi
echo "coverage: $lc of $lt lines and $bc of $bt branches of lib/ run, over configs: $configs"
echo "lines: $(fmt "$lc" "$lt")%"
echo "branches: $(fmt "$bc" "$bt")%"
finish $fail
