#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: make determinism. Builds tools/determinism/det.c for every configuration in DET_CONFIGS
# on the host (gcc; clang too when installed) and on every machine in DET_TARGETS, runs each
# (QEMU for the machines), and checks, per configuration, that
#   - every platform ran every backend compiled in, with no unexpected status,
#   - every backend on every platform gave the same events hash (pairs, events, queries),
#   - each backend's order hash (its own walking order, its work count) is the same everywhere.
# Two checks per configuration (events, order): ends with "determinism: N passed, N failed" and
# exits 1 on a failure.
# Every line of output is kept in build/det/results.txt.
set -u
cd "$(dirname "$0")/../.." || exit 1
configs=${DET_CONFIGS:-det_2d_fixed det_3d_fixed det_2d_float det_3d_float}
targets=${DET_TARGETS:-mps2-an385 mps2-an386 mps2-an500 mps2-an505 microbit}
out=build/det
mkdir -p "$out"
: >"$out/results.txt"
: >"$out/build.log"

hosts="host-gcc"
command -v clang >/dev/null 2>&1 && hosts="$hosts host-clang"

# ---- build: host binaries, then one image per machine and configuration, two at a time ----
goals=""
for c in $configs; do for h in $hosts; do goals="$goals $out/$h/$c/det"; done; done
# $goals is a word list: unquoted on purpose.
# shellcheck disable=SC2086
make --no-print-directory -s -j2 $goals >>"$out/build.log" 2>&1
for t in $targets; do for c in $configs; do echo "$t $c"; done; done |
    xargs -P 2 -L 1 sh -c 'make --no-print-directory -s TARGET=$0 MBP_CONFIG=$1 det-elf >>'"$out"'/build.log 2>&1'

# ---- run ----
for c in $configs; do
    for h in $hosts; do
        if [ -x "$out/$h/$c/det" ]; then
            "./$out/$h/$c/det" >>"$out/results.txt" 2>&1 || echo "det $h $c run failed" >>"$out/results.txt"
        else
            echo "det $h $c not built" >>"$out/results.txt"
        fi
    done
    for t in $targets; do
        elf=build/$t/$c/det.elf
        if [ -f "$elf" ]; then
            targets/run-qemu.sh "$t" "$elf" 120 >>"$out/results.txt" 2>&1 ||
                echo "det $t $c run failed" >>"$out/results.txt"
        else
            echo "det $t $c not built" >>"$out/results.txt"
        fi
    done
done

# ---- compare: per configuration, one check of the events and one of the walking orders ----
platforms="$hosts $targets"
pass=0
fail=0
for c in $configs; do
    for what in events order; do
        if awk -v c="$c" -v what="$what" -v plats="$platforms" '
            BEGIN { np = split(plats, P, " ") }
            $1 == "det" && $3 == c && NF == 6 { ev[$2, $4] = $5; ord[$2, $4] = $6; be[$4] = 1 }
            $1 == "det" && $3 == c && $4 == "all" { all[$2] = $5 }
            $1 == "det" && $3 == c && $0 ~ / (run failed|not built)$/ { all[$2] = $4 " " $5 }
            END {
                ok = 1; h = ""; nb = 0
                for (b in be) nb++
                for (i = 1; i <= np; i++) {
                    p = P[i]
                    if (!(p in all)) { printf "  %s %s: no result\n", c, p; ok = 0; continue }
                    if (all[p] !~ /^[0-9a-f]+$/) { printf "  %s %s: %s\n", c, p, all[p]; ok = 0; continue }
                    if (what == "events") {
                        if (h == "") h = all[p]
                        else if (all[p] != h) { printf "  %s %s: %s, not %s\n", c, p, all[p], h; ok = 0 }
                    }
                    for (b in be) {
                        if (!((p, b) in ev)) { printf "  %s %s: backend %s missing\n", c, p, b; ok = 0 }
                        else if (what == "order" && ord[p, b] != ord[P[1], b])
                            { printf "  %s %s: backend %s walks its pairs in another order than on %s\n", c, p, b, P[1]; ok = 0 }
                    }
                }
                if (ok && what == "events") printf "determinism %s events: %s on %s (%d backends each)\n", c, h, plats, nb
                if (ok && what == "order") printf "determinism %s order: each backend the same on every platform\n", c
                exit !ok
            }' "$out/results.txt"; then
            pass=$((pass + 1))
        else
            echo "determinism $c $what: FAILED (build/det/results.txt, build/det/build.log)"
            fail=$((fail + 1))
        fi
    done
done
[ -n "${hosts##*clang*}" ] && echo "determinism: note: clang not installed, host-clang skipped"
echo "determinism: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
