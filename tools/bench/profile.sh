#!/bin/bash
# SPDX-License-Identifier: MIT
# profile.sh <backend> <scene> <n> <frames-from> <frames-to> <out>: instructions per frame of each
# function on the Cortex-M4 (mps2-an386 under QEMU), for `make profile-m4` (docs/bench.md).
#
# tools/bench/profile.c is built twice, to run <frames-from> and <frames-to> frames of the scene,
# and each image runs under QEMU with one instruction a translation block (-singlestep) and the
# execution log on (-d exec,nochain): every instruction executed is one log line with its
# address. The addresses are counted, each count goes to the function whose symbol covers it
# (arm-none-eabi-nm -S), and the two runs' counts are subtracted and divided by the frames
# between them: what one frame costs in each function, setup and the first frames left out.
# Deterministic, like make bench's counts (the same image gives the same trace). An instruction
# that touches a device is logged twice (QEMU replays it under -icount); the library touches none.
#
# Writes <out> (function, instructions per frame, largest first; a LIBRARY line, mbp's functions
# alone, and a TOTAL line, with the scene's generator and the driver) and prints its first lines.
set -euo pipefail # QEMU's exit status is the program's (semihosting): a failed run stops here
be=$1 scene=$2 n=$3 f1=$4 f2=$5 out=$6
if [ "$f2" -le "$f1" ]; then
    echo "profile: PROFILE_FRAMES_TO ($f2) must be above PROFILE_FRAMES_FROM ($f1)" >&2
    exit 2
fi
case " brute sweep sap grid hash hgrid tree quadtree " in *" $be "*) ;; *)
    echo "profile: no backend '$be' (brute sweep sap grid hash hgrid tree quadtree)" >&2; exit 2 ;;
esac
case " sparse dense cluster teleport static calm mixed level smash " in *" $scene "*) ;; *)
    echo "profile: no scene '$scene' (sparse dense cluster teleport static calm mixed level smash)" >&2
    exit 2 ;;
esac
BE=$(echo "$be" | tr a-z A-Z) SC=$(echo "$scene" | tr a-z A-Z)
dir=build/profile/$be-$scene-n$n
mkdir -p "$dir"

count() { # frames -> $dir/f<frames>.fn: "function count" for one run
    local f=$1 bd=$dir/f$1
    make --no-print-directory -s TARGET=mps2-an386 BENCH_N="$n" BUILD_DIR="$bd" MBP_CONFIG=bench \
        PROFILE_DEFS="-DPROFILE_BACKEND=MBP_$BE -DPROFILE_SCENE=SCENE_$SC -DPROFILE_FRAMES=${f}u" \
        profile-image
    local elf
    elf=$(find "$bd" -name profile.elf | head -1)
    arm-none-eabi-nm -S --defined-only "$elf" |
        awk 'NF == 4 && $3 ~ /^[tT]$/ { print $1, $2, $4 }' > "$dir/f$f.sym"
    # The trace's lines: "Trace 0: 0x<host> [<flags>/<pc>/<flags>/<flags>] <symbol>". A failed
    # operation must not pass as a profile: QEMU exits with the program's status.
    timeout 600 qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -icount shift=3 -singlestep \
        -d exec,nochain -D /dev/stdout -kernel "$elf" </dev/null 2>/dev/null |
        awk '$1 == "Trace" { split($4, a, "/"); c[a[2]]++ } END { for (k in c) print k, c[k] }' \
        > "$dir/f$f.pc" || {
        echo "profile: $elf failed under QEMU (exit $?): an operation or an update of the scene failed" >&2
        exit 1
    }
    if [ ! -s "$dir/f$f.pc" ]; then
        echo "profile: no trace from $elf (does this QEMU take -singlestep and -d exec?)" >&2
        exit 1
    fi
    # Each address to the function that covers it (symbols sorted by address, addresses too).
    awk 'function hex(s,   v, j) { v = 0; for (j = 1; j <= length(s); j++)
                                      v = v * 16 + index("0123456789abcdef", substr(s, j, 1)) - 1
                                  return v }
         NR == FNR { a[NR] = hex($1); z[NR] = hex($2); nm[NR] = $3; ns = NR; next }
         { pc = hex($1); c = $2
           while (i < ns && a[i + 1] <= pc) i++
           name = (i > 0 && pc < a[i] + z[i]) ? nm[i] : "?"
           fn[name] += c }
         END { for (k in fn) print k, fn[k] }' \
        <(sort -k1,1 "$dir/f$f.sym") <(sort -k1,1 "$dir/f$f.pc") > "$dir/f$f.fn"
}
count "$f1"
count "$f2"
# The library's functions: those defined by its objects (the rest is the scene, the driver and
# libgcc's helpers, which the scene's generator uses).
find "$dir/f$f2" -path '*/obj/lib/*.o' -exec arm-none-eabi-nm --defined-only {} + |
    awk 'NF == 3 && $2 ~ /^[tT]$/ { print $3 }' | sort -u > "$dir/lib.names"
awk -v d=$((f2 - f1)) 'FILENAME == ARGV[1] { lib[$1] = 1; next }
    FILENAME == ARGV[2] { a[$1] = $2; next }
    { x = ($2 - a[$1]) / d; t += x; if ($1 in lib) l += x
      if (x >= 0.05) printf "%s %.1f\n", $1, x }
    END { printf "LIBRARY %.1f\nTOTAL %.1f\n", l, t }' \
    "$dir/lib.names" "$dir/f$f1.fn" "$dir/f$f2.fn" | sort -k2,2 -rn > "$out"
echo "profile: $be, scene $scene, n=$n, Cortex-M4 (mps2-an386): instructions per frame, frames $f1..$f2"
echo "(TOTAL includes the scene's generator and the driver; LIBRARY is mbp's functions alone)"
head -25 "$out" | awk '{ printf "%12s  %s\n", $2, $1 }'
echo "profile: wrote $out"
