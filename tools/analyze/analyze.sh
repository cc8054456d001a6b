#!/bin/sh
# SPDX-License-Identifier: MIT
# analyze.sh: static analysis of lib/ with three tools, over the host configurations below:
#
#   gcc-analyzer  gcc -fanalyzer with the host warnings (-Wall -Wextra -Wconversion -Wshadow)
#   clang-tidy    bugprone-*, cert-*, clang-analyzer-* (tools/analyze/clang-tidy.yaml says which
#                 checks are off and why)
#   cppcheck      its own checks (warning, style, portability, performance) and the MISRA C:2012
#                 addon, on a 32-bit platform (int and long 32 bits, as on Cortex-M)
#
# A finding is suppressed only by a line of tools/analyze/<tool>.supp, which names the finding's
# id, a file and the code it accepts (see the top of those files); a MISRA rule may be suppressed
# only when docs/MISRA.md lists it as a deviation. Anything else fails. Line numbers are not part
# of a suppression, so code moving around keeps its suppression while new code gets none.
#
# Usage: tools/analyze/analyze.sh            every tool, every config; ends with
#                                            "analyze: N passed, N failed" (one check)
#        ANALYZE_TOOLS="cppcheck" ANALYZE_CONFIGS="2d_fixed" tools/analyze/analyze.sh
# Environment: ANALYZE_CONFIGS, ANALYZE_TIDY_CONFIGS (config/mbp_config_<name>.h; defaults below),
# ANALYZE_TOOLS, ANALYZE_CFLAGS (the host flags; make analyze passes the Makefile's), ANALYZE_JOBS
# (default 2).
# Output: build/analyze/<tool>-<config>.{raw,log}, build/analyze/findings, build/analyze/suppressed.
set -u
cd "$(dirname "$0")/../.." || exit 1

here=tools/analyze
out=build/analyze
# Four configurations cover every #if branch of lib/: float and fixed, 2D and 3D, SAP with and
# without quantized endpoints. clang-tidy, the slowest by far, runs on two: fixed 2D with quantized
# SAP, float 3D without, so each scalar type, dimension and SAP variant once (make analyze takes
# about a minute and a half of two idle cores).
configs=${ANALYZE_CONFIGS:-2d_float 3d_fixed 2d_fixed_sapq 3d_float_sapq}
tidy_configs=${ANALYZE_TIDY_CONFIGS:-2d_fixed_sapq 3d_float}
tools=${ANALYZE_TOOLS:-clang-tidy cppcheck gcc-analyzer}
cflags=${ANALYZE_CFLAGS:--std=c99 -O2 -ffp-contract=off -Wall -Wextra -Wconversion -Wshadow}
jobs=${ANALYZE_JOBS:-2}
inc="-Ilib -Iport -Iconfig"

# ---- one tool on one config: writes $out/<tool>-<config>.raw as "file:line:col: id: message" ----
one() {
    tool=$1 cfg=$2
    raw=$out/$tool-$cfg.raw
    log=$out/$tool-$cfg.log
    def="-DMBP_CONFIG_FILE=\"mbp_config_$cfg.h\""
    : >"$raw"
    rm -f "$raw.fail"
    case $tool in
    gcc-analyzer)
        for f in lib/*.c; do
            # $cflags and $inc are flag lists: unquoted on purpose.
            # shellcheck disable=SC2086
            gcc $cflags -Wno-error -fanalyzer $inc "$def" -c "$f" -o /dev/null 2>>"$log" ||
                echo "$f:0:0: gcc-error: gcc failed (exit $?)" >>"$raw.fail"
        done
        # "lib/x.c:12:5: warning: text [-Wanalyzer-...]" -> "lib/x.c:12:5: -Wanalyzer-...: text"
        sed -n 's/^\([^: ]*:[0-9]*:[0-9]*\): \(warning\|error\): \(.*\) \[\([^]]*\)\]$/\1: \4: \3/p
                s/^\([^: ]*:[0-9]*:[0-9]*\): \(error\|fatal error\|internal compiler error\): \([^[]*\)$/\1: gcc-error: \3/p' \
            "$log" >"$raw"
        ;;
    clang-tidy)
        # One file per run: clang-tidy 14 has crashed on the whole list at once, never on one file.
        for f in lib/*.c; do
            # shellcheck disable=SC2086
            clang-tidy --quiet --config-file="$here/clang-tidy.yaml" --header-filter='/lib/' \
                "$f" -- -std=c99 -ffp-contract=off $inc "$def" >>"$log" 2>&1 ||
                echo "$f:0:0: clang-tidy-run: clang-tidy failed (exit $?)" >>"$raw.fail"
        done
        sed -n "s|^$PWD/||; s/^\([^: ]*:[0-9]*:[0-9]*\): \(warning\|error\): \(.*\) \[\([^]]*\)\]$/\1: \4: \3/p" \
            "$log" >"$raw"
        ;;
    cppcheck)
        # A fresh build dir: a kept one feeds the cross-file rules (5.6, 5.7, 8.5) stale copies of
        # files that have changed since, as duplicate declarations.
        rm -rf "$out/cppcheck-$cfg"
        mkdir -p "$out/cppcheck-$cfg"
        # shellcheck disable=SC2086
        cppcheck --std=c99 --language=c --platform=unix32 --addon=misra \
            --enable=warning,style,portability,performance \
            --cppcheck-build-dir="$out/cppcheck-$cfg" --error-exitcode=0 -q \
            --template='{file}:{line}:{column}: {id}: {message}' \
            $inc "$def" lib/*.c >"$log" 2>&1
        grep -E '^[^: ]+:[0-9]+:[0-9]+: [A-Za-z0-9_.-]+: ' "$log" >"$raw"
        # cppcheck's own errors about the run (a crashed addon, a bad option) are findings too.
        grep -E '^(cppcheck|Failed|Bailing|error):|Traceback' "$log" |
            sed 's/^/cppcheck:0:0: cppcheck-run: /' >>"$raw"
        ;;
    esac
    if [ -f "$raw.fail" ]; then cat "$raw.fail" >>"$raw"; rm -f "$raw.fail"; fi
    sort -u -o "$raw" "$raw"
}

if [ "${1:-}" = "--one" ]; then
    one "$2" "$3"
    exit 0
fi

mkdir -p "$out"
rm -f "$out"/*.raw "$out"/*.log "$out"/all "$out"/findings "$out"/suppressed "$out"/badsupp "$out"/unused

# ---- the tools must be there: a CI machine without them fails rather than passes ----
missing=""
for t in $tools; do
    case $t in
    gcc-analyzer) command -v gcc >/dev/null 2>&1 || missing="$missing gcc" ;;
    clang-tidy) command -v clang-tidy >/dev/null 2>&1 || missing="$missing clang-tidy" ;;
    cppcheck)
        command -v cppcheck >/dev/null 2>&1 || missing="$missing cppcheck"
        command -v python3 >/dev/null 2>&1 || missing="$missing python3" ;;
    esac
done
if [ -n "$missing" ]; then
    echo "analyze: missing tools:$missing (tools/deps.sh installs them)"
    echo "analyze: 0 passed, 1 failed"
    exit 1
fi

start=$(date +%s)
# The tool/config pairs, slowest first.
pairs() {
    for t in $tools; do
        if [ "$t" = clang-tidy ]; then cs=$tidy_configs; else cs=$configs; fi
        for c in $cs; do echo "$t $c"; done
    done
}
pairs | xargs -P "$jobs" -L 1 "$0" --one

# ---- suppressions ----
# <tool>.supp: "<id> <file glob> <ERE>" per line (the ERE is the rest of the line, matched
# against the flagged source line without its leading blanks); # comments and blank lines.
# A run that left no result (the tool died, the build folder vanished) is a finding too.
pairs | while read -r t c; do
    if [ -f "$out/$t-$c.raw" ] && [ -f "$out/$t-$c.log" ]; then
        sed "s/^/$t $c /" "$out/$t-$c.raw"
    else
        echo "$t $c lib:0:0: analyze-run: no result from $t on $c"
    fi
done >"$out/all"

# MISRA rules that docs/MISRA.md lists: the first cell of its table rows ("| 15.5 |", "| 10.3, 10.4 |").
awk -F'|' '/^\|/ && $2 ~ /^ *[0-9]+\.[0-9]+/ { n = split($2, r, /[^0-9.]+/); for (i = 1; i <= n; i++) if (r[i] != "") print r[i] }' \
    docs/MISRA.md 2>/dev/null >"$out/deviations"

awk -v here="$here" -v devfile="$out/deviations" -v outdir="$out" '
    function glob2re(g) { gsub(/[.+^$(){}|]/, "\\\\&", g); gsub(/\*/, ".*", g); gsub(/\?/, ".", g); return "^" g "$" }
    function src(file, line,   l, n) {
        if (!(file in loaded)) {
            loaded[file] = 1; n = 0
            while ((getline l < file) > 0) text[file, ++n] = l
            close(file)
        }
        l = text[file, line]; sub(/^[ \t]+/, "", l); return l
    }
    BEGIN {
        while ((getline d < devfile) > 0) dev[d] = 1
        ns = 0
    }
    # Load every tool suppression file once, the first time the tool shows up.
    function load(tool,   f, l, a, n) {
        if (tool in seen) return
        seen[tool] = 1; f = here "/" tool ".supp"; n = 0
        while ((getline l < f) > 0) {
            n++
            if (l ~ /^[ \t]*(#|$)/) continue
            split(l, a, /[ \t]+/)
            re = l; sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", re)
            ns++; s_tool[ns] = tool; s_id[ns] = a[1]; s_file[ns] = glob2re(a[2]); s_re[ns] = re
            s_where[ns] = f ":" n
            if (a[1] ~ /^misra-c2012-/) {
                r = a[1]; sub(/^misra-c2012-/, "", r)
                if (!(r in dev)) bad_supp[ns] = "MISRA rule " r " is not a deviation in docs/MISRA.md"
            }
        }
        close(f)
    }
    {
        tool = $1; cfg = $2; load(tool)
        rest = $0; sub(/^[^ ]+ [^ ]+ /, "", rest)
        split(rest, p, ":"); file = p[1]; line = p[2] + 0
        id = rest; sub(/^[^:]*:[^:]*:[^:]*: /, "", id); msg = id; sub(/:.*/, "", id); sub(/^[^:]*: /, "", msg)
        code = (file ~ /^lib\//) ? src(file, line) : ""
        key = tool " " file ":" line ":" p[3] " " id
        hit = 0
        for (i = 1; i <= ns; i++)
            if (s_tool[i] == tool && s_id[i] == id && file ~ s_file[i] && code ~ s_re[i] && !(i in bad_supp)) { hit = i; break }
        if (hit) { used[hit] = 1; sup[key] = 1; supcount[tool]++ ; if (!(key in supseen)) { supseen[key] = 1; sup_by_rule[tool " " id]++ } }
        else {
            if (!(key in finding)) { finding[key] = msg; fcode[key] = code; order[++nf] = key }
            cfgs[key] = cfgs[key] " " cfg
        }
    }
    END {
        for (k = 1; k <= nf; k++) {
            key = order[k]
            printf "%s:%s [%s]\n      %s\n", key, (finding[key] != "" ? " " finding[key] : ""), substr(cfgs[key], 2), fcode[key] > (outdir "/findings")
        }
        for (k in sup_by_rule) printf "%s %d\n", k, sup_by_rule[k] > (outdir "/suppressed")
        for (i = 1; i <= ns; i++) {
            if (i in bad_supp) printf "bad suppression %s: %s\n", s_where[i], bad_supp[i] > (outdir "/badsupp")
            else if (!(i in used)) printf "%s: matches nothing (%s %s)\n", s_where[i], s_id[i], s_re[i] > (outdir "/unused")
        }
    }' "$out/all"
touch "$out/findings" "$out/suppressed" "$out/badsupp" "$out/unused"
sort -o "$out/suppressed" "$out/suppressed"

nfind=$(grep -c '^[a-z]' "$out/findings")
nbad=$(wc -l <"$out/badsupp")
for t in $tools; do
    n=$(grep -c "^$t " "$out/findings")
    s=$(awk -v t="$t" '$1 == t { s += $3 } END { print s + 0 }' "$out/suppressed")
    cs=$(pairs | awk -v t="$t" '$1 == t { printf "%s%s", sep, $2; sep = " " }')
    echo "analyze $t: $n findings, $s suppressed (configs: $cs)"
done
if [ -s "$out/unused" ]; then
    echo "analyze: note: suppressions that match nothing now (remove them when the code is settled):"
    sed 's/^/    /' "$out/unused"
fi
cat "$out/findings" "$out/badsupp"
echo "analyze: $(($(date +%s) - start)) s; details in $out/"
if [ "$nfind" -eq 0 ] && [ "$nbad" -eq 0 ]; then
    echo "analyze: 1 passed, 0 failed"
else
    echo "analyze: $nfind findings, $nbad bad suppressions"
    echo "analyze: 0 passed, 1 failed"
    exit 1
fi
