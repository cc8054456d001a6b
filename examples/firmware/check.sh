#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh [build dir]: `make test`'s check of the ways a firmware takes mbp in. Prints
# "firmware: N passed, N failed" (tools/suite.sh, tools/total.sh), one check each:
#
#   make     this folder's Makefile (lib/mbp.mk) builds app.elf with -Werror; it runs under QEMU
#            on the mps2-an386 and prints "firmware: ok" (its own results checked out)
#   cmake    the same with CMake (CMakeLists.txt here, mbp's top-level CMakeLists.txt, the
#            toolchain file arm-none-eabi-m4f.cmake), -Werror; same output as the make build
#   package  mbp configured, built and installed on its own (cmake --install to a temporary
#            prefix, with this firmware's options header), then this firmware built against it
#            with find_package(mbp) (-DMBP_FROM_PACKAGE=ON); runs with the same output
#   size     the three builds give the same flash size: the bytes of the input sections the
#            linker kept in flash (the link map's .text and .data, padding left out) are equal,
#            and so, within 16 bytes, is text + data (arm-none-eabi-size). Link order alone
#            moves alignment padding by a few bytes (the make build links objects, CMake an
#            archive); a flag that differs moves far more (sections: kilobytes; the path in
#            assert messages: a dozen bytes per file).
#   json     library.json (PlatformIO) is valid JSON, has the fields a registry wants (name,
#            version, description, license, authors, build), its version is lib/mbp.h's
#            MBP_VERSION_* and has a CHANGELOG.md entry, its licence is the SPDX identifier of
#            the sources, and the folders and files it names exist
#   export   a copy of only what library.json exports builds every example in it: this firmware
#            with its Makefile and with CMake (arm-none-eabi-gcc), examples/frame_loop and
#            examples/demo with the host compiler as mbp's Makefile builds them. So every file
#            an exported example includes, links or reads is exported; an example this script
#            has no build for fails the check
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

# flash <elf>: text + data, the bytes the image takes in flash.
flash() {
    arm-none-eabi-size -B "$1" | awk 'NR == 2 { print $1 + $2 }'
}

# judge <name> <build exit status> <log> <elf> <output file> <label>: one build's check: it built,
# it runs and checks out under QEMU, and it prints what the make build printed.
judge() {
    if [ "$2" -ne 0 ]; then
        problems "$3"; bad "$1" "build failed: $3"
    elif ! run "$4" "$5"; then
        cat "$5"; bad "$1" "run failed"
        if [ "$1" = make ]; then rm -f "$5"; fi
    elif [ "$1" != make ] && [ -f "$out/make.out" ] && ! cmp -s "$out/make.out" "$5"; then
        diff "$out/make.out" "$5"; bad "$1" "output differs from the make build's"
    else
        ok "$6"
    fi
}

# kept <map>: the bytes of the input sections a GNU ld link map puts in .text and .data, before
# alignment padding (*fill*) and string merging: the same whatever the link order.
kept() {
    awk '
    function hex(s,   i, v) {
        v = 0; s = tolower(substr(s, 3))
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    /^Linker script and memory map/ { map = 1; next }
    !map { next }
    /^\.[^ ]/ { out = $1 }
    (out == ".text" || out == ".data") && /^ \./ {
        if (NF >= 4 && $2 ~ /^0x/) total += hex($3); else pending = 1
        next
    }
    pending && /^ +0x/ { total += hex($2); pending = 0; next }
    { pending = 0 }
    END { print total + 0 }' "$1"
}

# run <elf> <output file>: runs it under QEMU; true when it exits 0 and says "firmware: ok".
run() {
    "$root/targets/run-qemu.sh" mps2-an386 "$1" 60 > "$2" 2>&1 && grep -qx 'firmware: ok' "$2"
}

if ! command -v arm-none-eabi-gcc >/dev/null 2>&1 || ! command -v qemu-system-arm >/dev/null 2>&1; then
    echo "firmware: make and cmake builds not run: they need arm-none-eabi-gcc and qemu-system-arm (make deps)"
else
    rm -rf "$out/make" "$out/make.out" "$out/cmake" "$out/cmake.out"
    make -C "$here" BUILD="$out/make" WERROR=1 > "$out/make.log" 2>&1
    judge make $? "$out/make.log" "$out/make/app.elf" "$out/make.out" "make (lib/mbp.mk)"

    if ! command -v cmake >/dev/null 2>&1; then
        echo "firmware: cmake build not run: cmake not found (apt-get install cmake)"
    else
        { cmake -S "$here" -B "$out/cmake" -DWERROR=ON \
              -DCMAKE_TOOLCHAIN_FILE="$here/arm-none-eabi-m4f.cmake" &&
            cmake --build "$out/cmake"; } > "$out/cmake.log" 2>&1
        judge cmake $? "$out/cmake.log" "$out/cmake/app.elf" "$out/cmake.out" \
            "cmake (add_subdirectory, target_link_libraries)"

        # mbp alone, installed; then the firmware against the installed package.
        rm -rf "$out/pkg-build" "$out/prefix" "$out/pkg-app"
        { cmake -S "$root" -B "$out/pkg-build" -DMBP_WERROR=ON -DCMAKE_BUILD_TYPE=MinSizeRel \
              -DMBP_CONFIG_FILE=app_mbp_config.h -DMBP_CONFIG_DIR="$here" \
              -DCMAKE_TOOLCHAIN_FILE="$here/arm-none-eabi-m4f.cmake" &&
            cmake --build "$out/pkg-build" &&
            cmake --install "$out/pkg-build" --prefix "$out/prefix" &&
            cmake -S "$here" -B "$out/pkg-app" -DWERROR=ON -DMBP_FROM_PACKAGE=ON \
              -DCMAKE_PREFIX_PATH="$out/prefix" \
              -DCMAKE_TOOLCHAIN_FILE="$here/arm-none-eabi-m4f.cmake" &&
            cmake --build "$out/pkg-app"; } > "$out/package.log" 2>&1
        judge package $? "$out/package.log" "$out/pkg-app/app.elf" "$out/package.out" \
            "package (cmake --install, find_package(mbp), mbp::mbp)"
    fi

    # The same firmware, the same flash, however mbp came in.
    sizes="" lo="" hi="" kinds=""
    for b in make cmake pkg-app; do
        if [ ! -f "$out/$b/app.elf" ] || [ ! -f "$out/$b/app.elf.map" ]; then continue; fi
        f=$(flash "$out/$b/app.elf")
        k=$(kept "$out/$b/app.elf.map")
        sizes="$sizes $b=$f ($k kept)"
        kinds="$kinds $k"
        if [ -z "$lo" ] || [ "$f" -lt "$lo" ]; then lo=$f; fi
        if [ -z "$hi" ] || [ "$f" -gt "$hi" ]; then hi=$f; fi
    done
    if [ -z "$sizes" ]; then
        bad size "no firmware built"
    elif [ "$(echo "$kinds" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" -ne 1 ] || [ $((hi - lo)) -gt 16 ]; then
        bad size "flash bytes differ (text + data, and section bytes kept):$sizes"
    else
        ok "size (the same flash; text + data:$sizes)"
    fi
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "firmware: library.json not checked: python3 not found"
elif ! python3 -m json.tool "$root/library.json" > /dev/null 2>"$out/json.log"; then
    cat "$out/json.log"; bad library.json "not valid JSON"
elif ! python3 - "$root" <<'PY'
import glob, json, os, re, sys
root = sys.argv[1]
m = json.load(open(os.path.join(root, "library.json")))
bad = []
need = ["name", "version", "description", "license", "authors", "build"]
bad += ["missing field " + k for k in need if k not in m]
dirs = [m.get("build", {}).get("srcDir", ""), m.get("build", {}).get("includeDir", "")]
dirs += [f[3:] for f in m.get("build", {}).get("flags", []) if f.startswith("-I ")]
bad += ["absent folder " + d for d in dirs if not os.path.isdir(os.path.join(root, d))]
for e in m.get("export", {}).get("include", []):
    if not glob.glob(os.path.join(root, e)):
        bad.append("export names %s, which does not exist" % e)
h = open(os.path.join(root, "lib/mbp.h")).read()
v = ".".join(re.search(r"^#define MBP_VERSION_%s (\d+)$" % p, h, re.M).group(1)
             for p in ("MAJOR", "MINOR", "PATCH"))
if m.get("version") != v:
    bad.append("version %s, but lib/mbp.h says %s" % (m.get("version"), v))
log = os.path.join(root, "CHANGELOG.md")
if not os.path.isfile(log) or not re.search(r"^## .*\b%s\b" % re.escape(v), open(log).read(), re.M):
    bad.append("CHANGELOG.md has no '## ... %s' entry" % v)
spdx = re.search(r"SPDX-License-Identifier: (\S+)", h)
if not spdx or m.get("license") != spdx.group(1):
    bad.append("license %s, but the sources say %s" % (m.get("license"), spdx and spdx.group(1)))
if bad:
    print("library.json: " + "; ".join(bad))
    sys.exit(1)
PY
then
    bad library.json "fields, version, licence or paths"
else
    ok "library.json"
fi

# The export: copy what library.json exports, nothing else, and build the examples there.
if ! command -v python3 >/dev/null 2>&1; then
    echo "firmware: library.json's export not checked: python3 not found"
else
    exp=$out/export
    rm -rf "$exp" "$out/export-build"
    if ! python3 - "$root" "$exp" > "$out/export.log" 2>&1 <<'PY'
import glob, json, os, shutil, sys
root, dest = sys.argv[1], sys.argv[2]
for e in json.load(open(os.path.join(root, "library.json")))["export"]["include"]:
    for src in glob.glob(os.path.join(root, e)):
        to = os.path.join(dest, os.path.relpath(src, root))
        if os.path.isdir(src):
            shutil.copytree(src, to, symlinks=True, dirs_exist_ok=True)
        else:
            os.makedirs(os.path.dirname(to), exist_ok=True)
            shutil.copy2(src, to)
PY
    then
        cat "$out/export.log"; bad export "could not copy the exported files"
    else
        failed=""
        host="-std=c99 -O2 -Wall -Wextra -Wconversion -Wshadow -Werror -ffp-contract=off -Ilib -Iport -Iconfig"
        for ex in "$exp"/examples/*/; do
            name=$(basename "$ex")
            case $name in
                firmware)
                    if ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
                        echo "firmware: export: examples/firmware not built: no arm-none-eabi-gcc"
                        continue
                    fi
                    cmd="make -C examples/firmware BUILD=$out/export-build/make WERROR=1"
                    if command -v cmake >/dev/null 2>&1; then
                        cmd="$cmd && cmake -S examples/firmware -B $out/export-build/cmake -DWERROR=ON"
                        cmd="$cmd -DCMAKE_TOOLCHAIN_FILE=$exp/examples/firmware/arm-none-eabi-m4f.cmake"
                        cmd="$cmd && cmake --build $out/export-build/cmake"
                    fi ;;
                frame_loop|demo)
                    cmd="${CC:-cc} $host -Iexamples/$name -DMBP_CONFIG_FILE='\"mbp_config_2d_float.h\"'"
                    cmd="$cmd examples/$name/*.c lib/*.c port/host/mbp_port_host.c -o $out/export-build/$name" ;;
                *)
                    failed="$failed $name (no build known: add one to examples/firmware/check.sh)"
                    continue ;;
            esac
            mkdir -p "$out/export-build"
            if ! (cd "$exp" && eval "$cmd") >> "$out/export.log" 2>&1; then
                failed="$failed $name"
            fi
        done
        if [ -n "$failed" ]; then
            problems "$out/export.log"
            bad export "these examples do not build from what library.json exports:$failed ($out/export.log)"
        else
            ok "export (library.json's export builds every example in it)"
        fi
    fi
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
