#!/bin/sh
# SPDX-License-Identifier: MIT
# zephyr/check.sh [build dir]: what can be checked of mbp's Zephyr module without Zephyr, whose
# tools (west, the SDK, the zephyr tree) Debian does not package. Prints "zephyr: N passed, N
# failed" (tools/suite.sh, tools/total.sh); exits 1 when a check failed.
#
#   module   zephyr/module.yml parses as YAML (python3-yaml), names mbp, and its build.cmake
#            folder and build.kconfig file exist
#   kconfig  zephyr/Kconfig parses with kconfiglib (python3-kconfiglib, the library Zephyr's own
#            Kconfig tooling is built on) without a warning, and each prj.conf below gives the
#            symbol values expected of it
#   cmake-*  for each prj.conf: zephyr/CMakeLists.txt, included by a stand-in for Zephyr's build
#            (zephyr_library_named(), zephyr_library_sources() ... as small CMake functions, and
#            stand-ins for <zephyr/kernel.h>), configured with the Kconfig values as Zephyr
#            passes them (CONFIG_MBP=y ...), then built with arm-none-eabi-gcc for a Cortex-M4F
#            with -Werror: the library, the assert hook, and an application file that checks
#            with the preprocessor that it sees the options the library was built with
#            (MBP_DIM, MBP_SCALAR, MBP_MAX_BODIES, MBP_MAX_PAIRS). With CONFIG_MBP off no mbp
#            library may be defined.
# Not checked: a real Zephyr build (west build), Zephyr's own Kconfig tree around this file,
# the real zephyr_* functions, printk and k_panic.
#
# Without python3-yaml, kconfiglib, cmake or arm-none-eabi-gcc (make deps installs them) the
# checks that need them say so and are not counted.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${1:-$root/build/zephyr}
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "zephyr: $1: ok"; }
bad() { fail=$((fail + 1)); echo "zephyr: $1: FAILED ($2)"; }
# verdict <exit status> <label> <name> <log>: ok, or failed with the log's text.
verdict() {
    if [ "$1" -eq 0 ]; then ok "$2"; else bad "$3" "$(cat "$4")"; fi
}

# A python3 that has a module: the one on PATH, or Debian's.
py_with() {
    for p in python3 /usr/bin/python3; do
        if command -v "$p" >/dev/null 2>&1 && "$p" -c "import $1" 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# ---- module.yml ----
if ! py=$(py_with yaml); then
    echo "zephyr: module.yml not checked: no python3 with yaml (apt-get install python3-yaml)"
else
    "$py" - "$root" > "$out/module.log" 2>&1 <<'PY'
import os, sys, yaml
root = sys.argv[1]
m = yaml.safe_load(open(os.path.join(root, "zephyr/module.yml")))
b = m.get("build", {})
bad = []
if m.get("name") != "mbp":
    bad.append("name is %r, not mbp" % m.get("name"))
if not os.path.isfile(os.path.join(root, str(b.get("cmake")), "CMakeLists.txt")):
    bad.append("build.cmake %r has no CMakeLists.txt" % b.get("cmake"))
if not os.path.isfile(os.path.join(root, str(b.get("kconfig")))):
    bad.append("build.kconfig %r is not a file" % b.get("kconfig"))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
    verdict $? "module (zephyr/module.yml)" module "$out/module.log"
fi

# ---- Kconfig: each prj.conf, the values expected, and the values as CMake -D flags ----
# name|prj.conf lines (";" between)|expected symbol values (";" between)|app checks (-D)|the
# application's include folder (zephyr_include_directories() in its CMakeLists.txt)
scenarios='defaults|CONFIG_MBP=y|MBP_DIM=2;MBP_SCALAR_FLOAT=y;MBP_MAX_BODIES=64;MBP_MAX_PAIRS=0;MBP_ZEPHYR_ASSERT=y|-DWANT_DIM=2 -DWANT_SCALAR=MBP_FLOAT -DWANT_BODIES=64 -DWANT_PAIRS=128
set|CONFIG_MBP=y;CONFIG_MBP_DIM=3;CONFIG_MBP_SCALAR_FIXED=y;CONFIG_MBP_MAX_BODIES=200;CONFIG_MBP_MAX_PAIRS=1600|MBP_DIM=3;MBP_SCALAR_FIXED=y;MBP_SCALAR_FLOAT=n;MBP_MAX_BODIES=200;MBP_MAX_PAIRS=1600|-DWANT_DIM=3 -DWANT_SCALAR=MBP_FIXED -DWANT_BODIES=200 -DWANT_PAIRS=1600
header|CONFIG_MBP=y;CONFIG_MBP_CONFIG_FILE="app_mbp_config.h"|MBP_CONFIG_FILE=app_mbp_config.h;MBP_DIM=;MBP_MAX_BODIES=|-DWANT_DIM=2 -DWANT_SCALAR=MBP_FLOAT -DWANT_BODIES=8 -DWANT_PAIRS=28|'"$root"'/examples/firmware
off|# CONFIG_MBP is not set|MBP=n;MBP_DIM=;MBP_ZEPHYR_ASSERT=n|'

if ! kpy=$(py_with kconfiglib); then
    echo "zephyr: Kconfig and the CMake builds not checked: no python3 with kconfiglib (apt-get install python3-kconfiglib)"
    kpy=""
else
    echo "$scenarios" | while IFS='|' read -r name conf want _; do
        printf '%s\n' "$conf" | tr ';' '\n' > "$out/$name.conf"
        printf '%s\n' "$want" | tr ';' '\n' > "$out/$name.want"
    done
    "$kpy" - "$root" "$out" > "$out/kconfig.log" 2>&1 <<'PY'
import glob, os, sys
import kconfiglib
root, out = sys.argv[1], sys.argv[2]
bad = []
for conf in sorted(glob.glob(os.path.join(out, "*.conf"))):
    name = os.path.basename(conf)[:-5]
    k = kconfiglib.Kconfig(os.path.join(root, "zephyr/Kconfig"), warn_to_stderr=False)
    k.load_config(conf)
    bad += ["%s: %s" % (name, w) for w in k.warnings]
    for line in open(os.path.join(out, name + ".want")).read().split():
        sym, want = line.split("=", 1)
        got = k.syms[sym].str_value if k.syms[sym].visibility or k.syms[sym].choice else ""
        if k.syms[sym].orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE):
            got = k.syms[sym].str_value
        if got != want:
            bad.append("%s: CONFIG_%s is %r, expected %r" % (name, sym, got, want))
    # The values as Zephyr's build hands them to CMake: CONFIG_<name> set, strings unquoted.
    with open(os.path.join(out, name + ".cmake"), "w") as f:
        for s in k.unique_defined_syms:
            if s.config_string and s.str_value not in ("n", ""):
                f.write('set(CONFIG_%s "%s")\n' % (s.name, s.str_value))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    verdict $? "kconfig (zephyr/Kconfig, 4 prj.conf files)" kconfig "$out/kconfig.log"
fi

# ---- CMake: the module's CMakeLists.txt inside a stand-in for Zephyr's build ----
if [ -z "$kpy" ]; then
    :
elif ! command -v cmake >/dev/null 2>&1 || ! command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    echo "zephyr: CMake builds not run: they need cmake and arm-none-eabi-gcc (make deps)"
else
    stub=$out/stub
    mkdir -p "$stub/include/zephyr/sys"
    printf '%s\n' '#define k_panic() for (;;) {}' '#define CODE_UNREACHABLE __builtin_unreachable()' \
        > "$stub/include/zephyr/kernel.h"
    printf '%s\n' 'void printk(const char *fmt, ...);' > "$stub/include/zephyr/sys/printk.h"
    cat > "$stub/app.c" <<'EOF'
/* The application's view: the options the library was built with. */
#include "mbp.h"
typedef char dim_ok[MBP_DIM == WANT_DIM ? 1 : -1];
typedef char scalar_ok[MBP_SCALAR == WANT_SCALAR ? 1 : -1];
typedef char bodies_ok[MBP_MAX_BODIES == WANT_BODIES ? 1 : -1];
typedef char pairs_ok[MBP_MAX_PAIRS == WANT_PAIRS ? 1 : -1];
mbp_status app_init(mbp_world *w);
mbp_status app_init(mbp_world *w) { return mbp_init(w, NULL); }
EOF
    cat > "$stub/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(zephyr_stand_in LANGUAGES C)
include(${SCENARIO})
# Zephyr's library functions, as far as zephyr/CMakeLists.txt uses them.
add_library(zephyr_interface INTERFACE)
target_include_directories(zephyr_interface INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
macro(zephyr_library_named name)
  set(ZEPHYR_CURRENT_LIBRARY ${name})
  add_library(${name} STATIC)
  target_link_libraries(${name} PUBLIC zephyr_interface)
endmacro()
function(zephyr_library_sources)
  target_sources(${ZEPHYR_CURRENT_LIBRARY} PRIVATE ${ARGN})
endfunction()
function(zephyr_library_sources_ifdef feature)
  if(${${feature}})
    target_sources(${ZEPHYR_CURRENT_LIBRARY} PRIVATE ${ARGN})
  endif()
endfunction()
function(zephyr_include_directories)
  target_include_directories(zephyr_interface INTERFACE ${ARGN})
endfunction()
function(zephyr_compile_definitions)
  target_compile_definitions(zephyr_interface INTERFACE ${ARGN})
endfunction()
function(zephyr_library_compile_options)
  target_compile_options(${ZEPHYR_CURRENT_LIBRARY} PRIVATE ${ARGN})
endfunction()
if(APP_INCLUDE)
  zephyr_include_directories(${APP_INCLUDE})
endif()
include(${MBP_ROOT}/zephyr/CMakeLists.txt)
if(TARGET mbp)
  file(WRITE ${CMAKE_BINARY_DIR}/mbp-defined "")
  add_library(app STATIC app.c)
  target_link_libraries(app PRIVATE zephyr_interface)
  separate_arguments(want UNIX_COMMAND "${WANT}")
  target_compile_options(app PRIVATE ${want})
  add_dependencies(app mbp)
endif()
EOF
    echo "$scenarios" | while IFS='|' read -r name _ _ want inc; do
        b=$out/cmake-$name
        if ! { cmake -S "$stub" -B "$b" -DSCENARIO="$out/$name.cmake" -DMBP_ROOT="$root" \
                   -DWANT="$want" -DAPP_INCLUDE="$inc" -DCMAKE_BUILD_TYPE=MinSizeRel \
                   -DCMAKE_C_FLAGS="-std=c99 -Wall -Wextra -Wconversion -Wshadow -Werror" \
                   -DCMAKE_TOOLCHAIN_FILE="$root/examples/firmware/arm-none-eabi-m4f.cmake" &&
                 cmake --build "$b"; } > "$b.log" 2>&1; then
            grep -E 'error|Error' "$b.log" | head -10 >&2
            echo "FAILED cmake-$name: build failed: $b.log"
        elif [ "$name" = off ]; then
            if [ ! -e "$b/mbp-defined" ] && [ ! -e "$b/libmbp.a" ]; then
                echo "ok cmake-$name: CONFIG_MBP off defines no mbp library"
            else
                echo "FAILED cmake-$name: CONFIG_MBP off, yet an mbp library is defined"
            fi
        elif [ -f "$b/libmbp.a" ] && [ -f "$b/libapp.a" ]; then
            echo "ok cmake-$name: libmbp.a ($(arm-none-eabi-ar t "$b/libmbp.a" | wc -l) objects) and the application agree on the options"
        else
            echo "FAILED cmake-$name: no libmbp.a or libapp.a"
        fi
    done > "$out/cmake.results"
    while read -r verdict name rest; do
        name=${name%:}
        if [ "$verdict" = ok ]; then ok "$name ($rest)"; else bad "$name" "$rest"; fi
    done < "$out/cmake.results"
fi

echo "zephyr: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
