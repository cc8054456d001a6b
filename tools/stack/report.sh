#!/bin/sh
# SPDX-License-Identifier: MIT
# report.sh <objdir> <libgcc.a> <label>: the worst-case stack depth of every public function.
#
# <objdir> holds lib/*.o and the port's object compiled with -fstack-usage -fcallgraph-info=su
# (tools/stack/stack.mk does that with the target's own flags, so the figures are those of the
# code the test images run). For every function declared in lib/mbp.h it prints
#
#     <function> <bytes> <deepest call path, callee frames summed>
#
# Frames come from the .su files (gcc's own count: saved registers, locals, outgoing arguments).
# Calls come from the .ci call graph plus every call relocation of the objects (libgcc helpers
# such as __gnu_thumb1_case_uqi are called without appearing in the .ci). An indirect call may
# reach every function whose address is taken (a relocation other than a call). Functions not
# compiled here (libgcc's) are measured from their disassembly: every push, vpush and sub sp of
# the body added up, whatever the path, plus their own calls: an upper bound.
# Exits 1 with a message when a function's frame is unknown or dynamic, or the graph has a cycle:
# then there is no bound to give.
set -u
objdir=$1 libgcc=$2 label=$3
CROSS=${CROSS_PREFIX:-arm-none-eabi-}
tmp=$objdir/report.tmp
mkdir -p "$tmp"

find "$objdir" -name '*.su' -exec cat {} + >"$tmp/su"
find "$objdir" -name '*.ci' -exec cat {} + >"$tmp/ci"
: >"$tmp/reloc"
for o in $(find "$objdir" -name '*.o' | sort); do
    src=$(sed -n 's/^graph: { title: "\(.*\)"$/\1/p' "${o%.o}.ci")
    # "<src> call <caller> <callee>" and "<src> addr <symbol>"
    ${CROSS}objdump -dr "$o" | awk -v src="$src" '
        /^[0-9a-f]+ <[^>]+>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
        $2 ~ /^R_ARM_/ {
            s = $3; sub(/[-+]0x[0-9a-f]+$/, "", s); sub(/^\.text\./, "", s)
            if (s ~ /^\./) next
            if ($2 ~ /CALL|JUMP24|JUMP19|JUMP11|JUMP8|PC22/) print src, "call", f, s
            else print src, "addr", s
        }' >>"$tmp/reloc"
done
# libgcc, every symbol named (aliases such as __aeabi_uidiv/__udivsi3 share a body)
${CROSS}objdump -dr --show-all-symbols "$libgcc" >"$tmp/libgcc.dis" 2>/dev/null

awk -v sufile="$tmp/su" -v relocfile="$tmp/reloc" -v disfile="$tmp/libgcc.dis" -v hdr=lib/mbp.h \
    -v label="$label" -v debug="${STACK_DEBUG:-}" '
    function edge(s, t) { if (!((s, t) in E)) { E[s, t] = 1; out[s] = out[s] " " t } }
    function err(m) { print "stack-report (" label "): " m > "/dev/stderr"; bad = 1 }
    BEGIN {
        # .su: file:line:col:name<TAB>bytes<TAB>kind
        while ((getline l < sufile) > 0) {
            split(l, f3, "\t"); n = split(f3[1], p, ":")
            if (f3[3] != "static") dyn[p[n]] = f3[3]
            frame[p[1] ":" p[n]] = f3[2] + 0
            if (!(p[n] in frame) || f3[2] + 0 > frame[p[n]]) frame[p[n]] = f3[2] + 0
        }
        # libgcc: function bodies, their stack adjustments and calls
        cur = ""
        while ((getline l < disfile) > 0) {
            if (l ~ /^[0-9a-f]+ <[^>]+>:$/) {
                name = l; sub(/^[0-9a-f]+ </, "", name); sub(/>:$/, "", name)
                if (name ~ /^\$/) continue   # a mapping symbol ($t, $d): same function
                if (cur != "" && !(cur in body)) { alias[cur] = name }   # empty body: an alias
                cur = name; continue
            }
            if (cur != "" && l ~ /^\t+[0-9a-f]+: R_ARM_/) {
                # a call, or an address (a tail call through a literal, as to __aeabi_ldiv0)
                c2 = l; sub(/.*\t/, "", c2); sub(/[-+]0x[0-9a-f]+$/, "", c2)
                if (c2 != cur && c2 !~ /^\./) {
                    if (l ~ /(CALL|JUMP)/) gcall[cur] = gcall[cur] " " c2
                    else gref[cur] = gref[cur] " " c2
                }
                continue
            }
            if (cur == "" || l !~ /^ *[0-9a-f]+:\t/) continue
            body[cur] = 1
            n = split(l, tk, "\t"); ins = tk[3]; args = tk[4]
            if (ins ~ /^(push|stmdb|vpush)/ && (ins !~ /^stmdb/ || args ~ /^sp!/)) {
                r = args; sub(/^sp!, */, "", r); gsub(/[{}]/, "", r)
                k = split(r, rr, ","); nreg = 0
                for (i = 1; i <= k; i++) {
                    x = rr[i]; gsub(/ /, "", x)
                    if (x ~ /-/) { split(x, ab, "-"); nreg += substr(ab[2], 2) - substr(ab[1], 2) + 1; if (x ~ /^d/) nreg += substr(ab[2], 2) - substr(ab[1], 2) + 1 }
                    else nreg += (x ~ /^d/) ? 2 : 1
                }
                gframe[cur] += 4 * nreg
            } else if (ins ~ /^sub/ && args ~ /^sp, /) {
                v = args; sub(/.*#/, "", v); gframe[cur] += v + 0
            } else if (ins ~ /^str/ && args ~ /\[sp, #-[0-9]+\]!/) {
                v = args; sub(/.*#-/, "", v); sub(/\].*/, "", v); gframe[cur] += v + 0
            } else if (ins ~ /^(bl|blx|b|b\.w|b\.n)$/ && args ~ /<[^>+]+>$/) {
                c2 = args; sub(/.*</, "", c2); sub(/>$/, "", c2)
                if (c2 != cur) gcall[cur] = gcall[cur] " " c2
            }
        }
        # alias chains: a header followed directly by another names the same body
        for (al in alias) { b = alias[al]; while (b in alias) b = alias[b]; gframe[al] = gframe[b]; gcall[al] = gcall[b]; body[al] = 1 }
        # public functions: declarations in mbp.h (the init symbol behind the mbp_init macro)
        # a declaration inside "#if MBP_WITH_..." or "#if MBP_PAIR_USER" is optional: a
        # configuration without that option does not compile it
        hd = 0
        while ((getline l < hdr) > 0) {
            if (l ~ /^#if/) { cond[++hd] = (l ~ /^#if (MBP_WITH_|MBP_PAIR_USER)/) }
            else if (l ~ /^#endif/) { hd-- }
            if (l ~ /^[a-z][a-z0-9_ ]*[ *](mbp_[a-z0-9_]+|MBP_INIT_SYMBOL)\(/) {
                fn = l; sub(/\(.*/, "", fn); sub(/.*[ *]/, "", fn)
                if (!(fn in pub)) { pub[fn] = 1; order[++npub] = fn; inl[fn] = (l ~ /^static inline/) }
                for (j = 1; j <= hd; j++) if (cond[j]) opt[fn] = 1
            }
        }
    }
    # Graph names: a static function is "file:name" (and a clone "file:name.constprop.0"), an
    # external one plain "name".
    /^node:/ { match($0, /title: "[^"]*"/); v = substr($0, RSTART + 8, RLENGTH - 9); node[v] = 1; if (v ~ /:/) local[v] = 1 }
    /^edge:/ {
        match($0, /sourcename: "[^"]*"/); s = substr($0, RSTART + 13, RLENGTH - 14)
        match($0, /targetname: "[^"]*"/); t = substr($0, RSTART + 13, RLENGTH - 14)
        edge(s, t)
    }
    function depth(f,   n, i, c, best, x, fr, g) {
        if (f in memo) return memo[f]
        if (f in busy) { err("call cycle through " f); return 0 }
        busy[f] = 1; best = 0
        n = split(out[f], c, " ")
        for (i = 1; i <= n; i++) { x = depth(c[i]); if (i == 1 || x > best) { best = x; via[f] = c[i] } }
        delete busy[f]
        g = f; sub(/\.[0-9]+$/, "", g)   # a clone: "walk.constprop.0" in the graph, "walk.constprop" in .su
        if (f == "__indirect_call") fr = 0
        else if (f in frame) fr = frame[f]
        else if (g in frame) fr = frame[g]
        else if (f in body) fr = gframe[f]
        else { err("no stack frame known for " f); fr = 0 }
        if (f in dyn) err(f " has a " dyn[f] " frame")
        memo[f] = best + fr
        return memo[f]
    }
    # The graph name of symbol n of file src: "src:n" for a static function, else n.
    function key(src, n) {
        return ((src ":" n) in local) ? src ":" n : n
    }
    function path(f,   s) { s = f; while (via[f] != "") { f = via[f]; s = s " > " f } return s }
    END {
        while ((getline l < relocfile) > 0) {
            split(l, ra, " ")
            if (ra[2] == "call") {
                edge(key(ra[1], ra[3]), key(ra[1], ra[4]))
            } else {
                t = key(ra[1], ra[3]); g = t; sub(/\.[0-9]+$/, "", g)
                if ((t in frame) || (g in frame)) addr[t] = 1
            }
        }
        for (v in addr) edge("__indirect_call", v)
        # libgcc helpers call each other
        for (g in gcall) { n = split(gcall[g], c, " "); for (i = 1; i <= n; i++) edge(g, c[i]) }
        for (g in gref) { n = split(gref[g], c, " "); for (i = 1; i <= n; i++) if (c[i] in body) edge(g, c[i]) }
        init = ""
        for (v in frame) if (v ~ /^mbp_init_[23]d_(fixed|float)$/) init = v
        for (i = 1; i <= npub; i++) {
            fn = order[i]
            if (fn == "MBP_INIT_SYMBOL") fn = init
            if (inl[fn]) { printf "%s inline -\n", fn; continue }
            if (!(fn in frame) && (fn in opt)) continue # its option is off in this configuration
            if (!(fn in frame)) { err("public function " fn " not compiled"); continue }
            printf "%s %d %s\n", fn, depth(fn), path(fn)
        }
        if (debug) for (v in memo) printf "node %s %d %s\n", v, memo[v], path(v) > "/dev/stderr"
        exit bad
    }' "$tmp/ci"
