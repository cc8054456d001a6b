#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: make bench-peers' run (mk/peers.mk builds build/peers/n<n>/peers first).
#
# For each n of PEERS_NS, and for each recorded scene of PEERS_SCENES (with the largest n's
# program, whose capacity holds them), two runs of the same frames:
#   check: native; every method's pairs on every frame against brute force's, the median wall
#          time per measured frame, the bytes each method holds
#   count: under valgrind --tool=callgrind, instructions collected inside the measured frames
#          only (the program's client requests); one dump per method and scene
# Jobs run two at a time (PEERS_JOBS). Then build/peers.csv, one row per method, scene and n:
#   method,family,scene,n,instr_per_body_frame,ns_per_frame,pairs_per_frame,bytes_per_body,
#   missed,added,dup,frames_checked,ok
# and build/peers.svg. Fails when an mbp backend's pairs differ from brute force on any frame
# (a peer that differs is reported, not failed: it is the peer's own behaviour).
set -eu
ns=${PEERS_NS:-256 1024 4096 16384}
scenes=${PEERS_SCENES-}
jobs=${PEERS_JOBS:-2}
out=build/peers
big=16384 # the recorded scenes run in the largest program (its capacity holds them)

# job <name> <n> [scene file]: one check run and one count run, in $out/job-<name>/.
job() {
    d=$out/job-$1
    rm -rf "$d"
    mkdir -p "$d"
    set -- "$1" "$2" ${3:+-s "$3"}
    prog=$out/n$2/peers
    shift 2
    st=0
    nice "$prog" check "$@" > "$d/check.txt" 2> "$d/check.err" || st=$?
    nice valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
        --callgrind-out-file="$d/cg.out" "$prog" count "$@" > "$d/count.txt" 2> "$d/count.err" ||
        { echo "bench-peers: callgrind failed: $d/count.err" >&2; st=2; }
    times > "$d/times" # CPU time: the shell's, then its children's (user, system)
    echo "$st" > "$d/status"
}

# xargs runs each job as "run.sh --job <name> <n> [scene file]"; "run.sh --merge" only gathers
# the jobs already in $out into build/peers.csv.
if [ "${1-}" = "--job" ]; then shift; job "$@"; exit 0; fi
merge=0
[ "${1-}" = "--merge" ] && merge=1

start=$(date +%s)
if [ "$merge" = 0 ]; then
    list=$(mktemp)
    trap 'rm -f "$list"' EXIT
    for n in $ns; do echo "n$n $n"; done > "$list"
    for f in $scenes; do
        [ -f "$f" ] || { echo "bench-peers: no scene file $f (make scenes)" >&2; exit 1; }
        echo "$(basename "$f" .scene) $big $f"
    done >> "$list"
    echo "bench-peers: $(wc -l < "$list") jobs, $jobs at a time (check, then callgrind)"
    rm -rf "$out"/job-*
    xargs -P "$jobs" -L 1 "$0" --job < "$list"
fi

fail=0
for d in "$out"/job-*; do
    name=${d##*/job-}
    grep -q . "$d/status" 2>/dev/null || { echo "bench-peers: $name did not finish" >&2; fail=1; continue; }
    st=$(cat "$d/status")
    grep '^#' "$d/check.txt" 2>/dev/null || true
    [ "$st" = 0 ] || { echo "bench-peers: $name: status $st (an mbp backend differs from brute force, or a run failed: $d)" >&2; fail=1; }
done

# Instructions: the label and the totals of each callgrind dump.
for d in "$out"/job-*; do
    for f in "$d"/cg.out.*; do
        [ -f "$f" ] || continue
        awk '/^desc: Trigger: Client Request: / { sub(/^desc: Trigger: Client Request: /, ""); l = $0 }
             /^totals: / { t = $2 } END { if (l != "") print l "," t }' "$f"
    done
done > "$out/instr.txt"

{
    echo "method,family,scene,n,instr_per_body_frame,ns_per_frame,pairs_per_frame,bytes_per_body,missed,added,dup,frames_checked,ok"
    # The generated scenes' rows first (jobs n<n>), then the recorded scenes'.
    cat "$out"/job-n[0-9]*/check.txt $(ls "$out"/job-*/check.txt 2>/dev/null | grep -v '/job-n[0-9]') 2>/dev/null |
    grep '^CSV,' | sed 's/^CSV,//' |
    awk -F, -v instr="$out/instr.txt" '
    BEGIN { while ((getline line < instr) > 0) { split(line, a, ","); ir[a[1] "," a[2] "," a[3]] = a[5] / a[4] / a[3] } }
    { key = $1 "," $3 "," $4
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4,
             (key in ir) ? sprintf("%.1f", ir[key]) : "", $5, $6, $7, $8, $9, $10, $11, $13 }'
} > build/peers.csv
tools/bench/commit.sh > build/peers.commit
echo "wrote build/peers.csv ($(($(date +%s) - start)) s, commit $(cat build/peers.commit))"
tools/bench/peers/table.sh build/peers.csv
tools/bench/peers/svg.sh build/peers.csv build/peers.svg && echo "wrote build/peers.svg"
exit $fail
