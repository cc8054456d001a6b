#!/bin/sh
# SPDX-License-Identifier: MIT
# check-freestanding.sh: checks that lib/ is what mbp promises a firmware: freestanding C, no
# allocator or C library, no floating point in a fixed-point build, no global mutable state, no
# recursion and no dynamic stack. Run from anywhere; it works in the repository root.
#
# One "test" per check; ends with "freestanding: N passed, N failed" (as the suites do, so
# `make test` can add it to its totals) and exits 1 when a check failed.
#
#   1 build        make lib TARGET=microbit: build/microbit/libmbp.a (Cortex-M0, config m0,
#                  2D fixed point)
#   2 no-float     its undefined symbols include no soft-float helper (__aeabi_f*, __aeabi_d*,
#                  __aeabi_i2f, __addsf3, ...)
#   3 no-libc      its undefined symbols are only memcpy/memset/memmove, libgcc's integer
#                  helpers (division, 64-bit shifts and multiplies, Thumb-1 switch tables) and
#                  mbp_port_assert_failed: no malloc, printf, abort, ...
#   4 no-globals   it defines no writable data (.data/.bss/common): no global mutable state
#   5 headers      lib/ includes only <stdint.h> <stddef.h> <stdbool.h> <limits.h> <float.h>
#   6,7 no-recursion  the call graph of lib/ (gcc -fcallgraph-info=su) has no cycle, on the M0
#                  (config m0) and the M4 (config 3d_float); an indirect call is taken to reach
#                  every lib/ function whose address is taken (relocations other than calls)
#   8,9 static-stack  -fstack-usage reports no function with a dynamic frame (VLA, alloca)
# It also prints the worst stack depth of a public function (frames summed along the deepest
# call path; memcpy/memset and libgcc helpers count 0): information, not a check.
set -u
cd "$(dirname "$0")/.." || exit 1

CROSS=${CROSS_PREFIX:-arm-none-eabi-}
work=build/freestanding
rm -rf "$work"
mkdir -p "$work"
pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "ok   freestanding $1"; }
bad() { fail=$((fail + 1)); echo "FAIL freestanding $1: $2"; }

# ---- 1: the M0 library ----
lib=build/microbit/libmbp.a
rm -f "$lib"
if make --no-print-directory -s lib TARGET=microbit >"$work/lib.log" 2>&1 && [ -f "$lib" ]; then
    ok "build ($lib)"
else
    bad build "make lib TARGET=microbit failed:"
    sed 's/^/    /' "$work/lib.log" | head -n 30
fi

# ---- 2, 3, 4: symbols ----
if [ -f "$lib" ]; then
    ${CROSS}nm -u "$lib" | awk 'NF == 2 && $1 == "U" { print $2 }' | sort -u >"$work/undef"
    ${CROSS}nm --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u >"$work/defined"
    comm -23 "$work/undef" "$work/defined" >"$work/external"
    float_re='^__aeabi_([fd]|[iu]?l?2[fd]|c[fd])|^__(add|sub|mul|div|neg|cmp|eq|ne|lt|le|gt|ge|unord|extend|trunc)[sdtx]f|^__(float|fix)'
    allowed_re='^(memcpy|memset|memmove|mbp_port_assert_failed)$|^__aeabi_(u?idiv|u?idivmod|lmul|u?ldivmod|llsl|llsr|lasr|u?lcmp)$|^__gnu_thumb1_case_|^__(clz|ctz|popcount|ffs)[sd]i2$|^__(ashl|ashr|lshr|mul|u?div|u?mod|u?divmod|u?cmp)di3$'
    float=$(grep -E "$float_re" "$work/external" | tr '\n' ' ')
    if [ -z "$float" ]; then ok "no-float"; else bad no-float "soft-float helpers: $float"; fi
    other=$(grep -vE "$allowed_re" "$work/external" | grep -vE "$float_re" | tr '\n' ' ')
    if [ -z "$other" ]; then ok "no-libc"; else bad no-libc "other external symbols: $other"; fi
    data=$(${CROSS}nm "$lib" | awk 'NF == 3 && $2 ~ /^[DdBbCcGgSsVv]$/ { print $3 }' | sort -u | tr '\n' ' ')
    if [ -z "$data" ]; then ok "no-globals"; else bad no-globals "writable data: $data"; fi
else
    bad no-float "no library"; bad no-libc "no library"; bad no-globals "no library"
fi

# ---- 5: headers ----
hdr=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' lib/*.c lib/*.h |
    grep -vE '<(stdint|stddef|stdbool|limits|float)\.h>' | tr '\n' ' ')
if [ -z "$hdr" ]; then ok "headers"; else bad headers "$hdr"; fi

# ---- 6..9: call graph and frames ----
# graph <name> <cpu flags> <config>: compiles lib/ with -fcallgraph-info=su into $work/<name>/
graph() {
    name=$1 cpu=$2 cfg=$3
    d=$work/$name
    mkdir -p "$d"
    inc="-nostdinc -isystem $(${CROSS}gcc -print-file-name=include) -isystem $(${CROSS}gcc -print-file-name=include-fixed)"
    for f in lib/*.c; do
        b=$(basename "$f" .c)
        # $cpu and $inc are flag lists: unquoted on purpose.
        # shellcheck disable=SC2086
        ${CROSS}gcc $cpu -std=c99 -Os -ffreestanding -ffunction-sections -fdata-sections \
            -ffp-contract=off $inc -Ilib -Iport -Iconfig -DMBP_CONFIG_FILE="\"mbp_config_$cfg.h\"" \
            -fcallgraph-info=su -fstack-usage -dumpbase "$b" -dumpdir "$d/" \
            -c "$f" -o "$d/$b.o" >>"$d/log" 2>&1 || return 1
        # Functions whose address is taken: relocations that are not calls or jumps, against a
        # function's own section (-ffunction-sections) or its symbol.
        ${CROSS}objdump -r "$d/$b.o" | awk -v src="$f" '
            $2 ~ /^R_ARM_/ && $2 !~ /CALL|JUMP|_PC|PREL/ {
                s = $3; sub(/[-+]0x[0-9a-f]+$/, "", s)
                if (s ~ /^\.text\./) { sub(/^\.text\./, "", s); print src ":" s; print s }
                else if (s !~ /^\./) { print src ":" s; print s }
            }' >>"$d/addr"
    done
    return 0
}

# check <name> <label>: cycles, dynamic frames and the deepest public stack of $work/<name>/
check() {
    name=$1 label=$2
    d=$work/$name
    cat "$d"/*.su >"$d/su"
    cat "$d"/*.ci | awk -v addrfile="$d/addr" -v sufile="$d/su" '
        BEGIN {
            while ((getline l < addrfile) > 0) addr[l] = 1
            # .su: file:line:col:name<TAB>bytes<TAB>kind; node titles are name (extern) or
            # file:name (static), so index frames by both.
            while ((getline l < sufile) > 0) {
                split(l, f3, "\t"); n = split(f3[1], p, ":")
                frame[p[n]] = f3[2]; frame[p[1] ":" p[n]] = f3[2]
            }
        }
        /^node:/ { match($0, /title: "[^"]*"/); v = substr($0, RSTART + 8, RLENGTH - 9); node[v] = 1 }
        /^edge:/ {
            match($0, /sourcename: "[^"]*"/); s = substr($0, RSTART + 13, RLENGTH - 14)
            match($0, /targetname: "[^"]*"/); t = substr($0, RSTART + 13, RLENGTH - 14)
            if (!((s, t) in edge)) { edge[s, t] = 1; out[s] = out[s] " " t }
        }
        function depth(f,   n, i, c, best, x) {
            if (f in memo) return memo[f]
            if (f in busy) return 0
            busy[f] = 1; best = 0
            n = split(out[f], c, " ")
            for (i = 1; i <= n; i++) { x = depth(c[i]); if (x > best) best = x }
            delete busy[f]
            memo[f] = best + ((f in frame) ? frame[f] : 0)
            return memo[f]
        }
        END {
            # The indirect-call placeholder reaches every function whose address is taken.
            for (v in node) if (v in addr) { edge["__indirect_call", v] = 1; out["__indirect_call"] = out["__indirect_call"] " " v }
            # Peel off nodes that reach no remaining node; what stays lies on or leads to a cycle.
            for (v in node) alive[v] = 1
            do {
                changed = 0
                for (v in alive) {
                    n = split(out[v], c, " "); leaf = 1
                    for (i = 1; i <= n; i++) if (c[i] in alive) { leaf = 0; break }
                    if (leaf) { delete alive[v]; changed = 1 }
                }
            } while (changed)
            cyc = ""
            for (v in alive) cyc = cyc " " v
            print "CYCLE" cyc
            worst = 0; wf = ""
            for (v in node) if (v ~ /^mbp_/ && depth(v) > worst) { worst = depth(v); wf = v }
            print "STACK " worst " " wf
        }' >"$d/graph" 2>&1
    cyc=$(sed -n 's/^CYCLE *//p' "$d/graph")
    if ! grep -q '^CYCLE' "$d/graph" || ! grep -q '^node:' "$d"/*.ci; then
        bad "no-recursion ($label)" "no call graph: $(head -n 3 "$d/graph")"
    elif [ -z "$cyc" ]; then ok "no-recursion ($label)"; else bad "no-recursion ($label)" "on or into a call cycle: $cyc"; fi
    dyn=$(grep -vE '[[:space:]]static$' "$d/su" | cut -f1 | tr '\n' ' ')
    if [ -z "$dyn" ]; then ok "static-stack ($label)"; else bad "static-stack ($label)" "dynamic frames: $dyn"; fi
    sed -n 's/^STACK \([0-9]*\) \(.*\)/     deepest public function on '"$label"': \2, \1 bytes (frames of lib\/ only)/p' "$d/graph"
}

for g in "m0|-mcpu=cortex-m0 -mthumb -mfloat-abi=soft|m0|cortex-m0 m0" \
         "m4|-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16|3d_float|cortex-m4 3d_float"; do
    IFS='|' read -r name cpu cfg label <<EOF
$g
EOF
    if graph "$name" "$cpu" "$cfg"; then
        check "$name" "$label"
    else
        bad "no-recursion ($label)" "compile failed: $(head -n 5 "$work/$name/log")"
        bad "static-stack ($label)" "compile failed"
    fi
done

echo "freestanding: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
