#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh [build dir]: `make test`'s check of the ways a firmware takes mbp in. Prints
# "firmware: N passed, N failed" (tools/suite.sh, tools/total.sh), one check each:
#
#   make     this folder's Makefile (lib/mbp.mk) builds app.elf with -Werror; it runs under QEMU
#            on the mps2-an386 and prints "firmware: ok" (its own results checked out)
#   cmake    the same with CMake (CMakeLists.txt here, mbp's top-level CMakeLists.txt, the
#            toolchain file arm-none-eabi-m4f.cmake), -Werror; same output as the make build
#   json     library.json (PlatformIO) is valid JSON and its folders exist
#   guide    every code block of docs/guide.md marked <!-- excerpt: file --> is still, line for
#            line, in that file (the guide's C excerpts come from programs make test builds), and
#            every option of lib/mbp_config.h is in its configuration reference
#
# Without arm-none-eabi-gcc or qemu-system-arm (make deps installs them) the two builds are not
# run, without cmake the CMake build, without python3 the JSON and guide checks: each says so on
# a line of its own and is not counted.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build/firmware}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Our own makes, serial: not the -j or jobserver of a make that called this script.
unset MAKEFLAGS MFLAGS MAKELEVEL
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "firmware: $1: ok"; }
bad() { fail=$((fail + 1)); echo "firmware: $1: FAILED ($2)"; }

# problems <log>: the errors and warnings of a build log.
problems() {
    grep -E ': (fatal )?error|: warning|undefined reference|\*\*\*|CMake Error' "$1" | head -20
}

# run <elf> <output file>: runs it under QEMU; true when it exits 0 and says "firmware: ok".
run() {
    "$root/targets/run-qemu.sh" mps2-an386 "$1" 60 > "$2" 2>&1 && grep -qx 'firmware: ok' "$2"
}

if ! command -v arm-none-eabi-gcc >/dev/null 2>&1 || ! command -v qemu-system-arm >/dev/null 2>&1; then
    echo "firmware: make and cmake builds not run: they need arm-none-eabi-gcc and qemu-system-arm (make deps)"
else
    rm -rf "$out/make" "$out/make.out" "$out/cmake" "$out/cmake.out"
    if ! make -C "$here" BUILD="$out/make" WERROR=1 > "$out/make.log" 2>&1; then
        problems "$out/make.log"; bad make "build failed: $out/make.log"
    elif ! run "$out/make/app.elf" "$out/make.out"; then
        cat "$out/make.out"; rm -f "$out/make.out"; bad make "run failed"
    else
        ok "make (lib/mbp.mk)"
    fi

    if ! command -v cmake >/dev/null 2>&1; then
        echo "firmware: cmake build not run: cmake not found (apt-get install cmake)"
    else
        if ! { cmake -S "$here" -B "$out/cmake" -DWERROR=ON \
                   -DCMAKE_TOOLCHAIN_FILE="$here/arm-none-eabi-m4f.cmake" &&
                 cmake --build "$out/cmake"; } > "$out/cmake.log" 2>&1; then
            problems "$out/cmake.log"; bad cmake "build failed: $out/cmake.log"
        elif ! run "$out/cmake/app.elf" "$out/cmake.out"; then
            cat "$out/cmake.out"; bad cmake "run failed"
        elif [ -f "$out/make.out" ] && ! cmp -s "$out/make.out" "$out/cmake.out"; then
            diff "$out/make.out" "$out/cmake.out"; bad cmake "output differs from the make build's"
        else
            ok "cmake (add_subdirectory, target_link_libraries)"
        fi
    fi
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "firmware: library.json not checked: python3 not found"
elif ! python3 -m json.tool "$root/library.json" > /dev/null 2>"$out/json.log"; then
    cat "$out/json.log"; bad library.json "not valid JSON"
elif ! python3 - "$root" <<'PY'
import json, os, sys
root = sys.argv[1]
m = json.load(open(os.path.join(root, "library.json")))
need = ["name", "version", "description", "build"]
missing = [k for k in need if k not in m]
dirs = [m["build"].get("srcDir", ""), m["build"].get("includeDir", "")]
dirs += [f[3:] for f in m["build"].get("flags", []) if f.startswith("-I ")]
absent = [d for d in dirs if not os.path.isdir(os.path.join(root, d))]
if missing or absent:
    print("library.json: missing fields", missing, "absent folders", absent)
    sys.exit(1)
PY
then
    bad library.json "fields or folders"
else
    ok "library.json"
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "firmware: docs/guide.md excerpts and options not checked: python3 not found"
elif ! python3 - "$root" <<'PY'
import os, re, sys
root = sys.argv[1]
lines = open(os.path.join(root, "docs/guide.md")).read().split("\n")
bad = n = 0
i = 0
while i < len(lines):
    m = re.match(r"<!-- excerpt: (\S+) -->$", lines[i])
    i += 1
    if not m:
        continue
    if i >= len(lines) or not lines[i].startswith("```"):
        print("docs/guide.md:%d: an excerpt marker must be followed by a code block" % i)
        bad += 1
        continue
    j = i + 1
    while j < len(lines) and lines[j] != "```":
        j += 1
    block, start, i = lines[i + 1:j], i + 1, j + 1
    n += 1
    try:
        src = open(os.path.join(root, m.group(1))).read().split("\n")
    except OSError:
        print("docs/guide.md:%d: no file %s" % (start, m.group(1)))
        bad += 1
        continue
    if not any(src[k:k + len(block)] == block for k in range(len(src) - len(block) + 1)):
        print("docs/guide.md:%d: this excerpt is no longer in %s, line for line: update the guide"
              % (start, m.group(1)))
        bad += 1
if n == 0:
    print("docs/guide.md: no excerpts found")
    bad += 1
text = "\n".join(lines)
config = open(os.path.join(root, "lib/mbp_config.h")).read()
for opt in sorted(set(re.findall(r"^#ifndef (MBP_[A-Z0-9_]+)$", config, re.M)) - {"MBP_CONFIG_H"}):
    if "`%s`" % opt not in text:
        print("docs/guide.md: option %s (lib/mbp_config.h) is not in the configuration reference"
              % opt)
        bad += 1
sys.exit(1 if bad else 0)
PY
then
    bad guide "excerpts or options"
else
    ok "docs/guide.md excerpts and options"
fi

echo "firmware: $pass passed, $fail failed"
