#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh: the Debian packages make bench-peers needs (the peers' headers and libraries, and
# valgrind for callgrind), installed the way tools/deps.sh installs make test's: when it can be
# done without asking (root, or sudo without a password); otherwise one line naming them, and
# failure.
set -u

missing() {
    m=""
    [ -f /usr/include/bullet/btBulletCollisionCommon.h ] || m="$m libbullet-dev"
    [ -f /usr/include/box2d/b2_broad_phase.h ] || m="$m libbox2d-dev"
    [ -f /usr/include/chipmunk/chipmunk.h ] || m="$m libchipmunk-dev"
    [ -f /usr/include/valgrind/callgrind.h ] && command -v valgrind >/dev/null 2>&1 || m="$m valgrind"
    command -v g++ >/dev/null 2>&1 || m="$m g++"
    echo "${m# }"
}

pkgs=$(missing)
[ -z "$pkgs" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    sudo="none"
fi

# shellcheck disable=SC2086
if [ "$sudo" != "none" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench-peers: installing $pkgs" >&2
    if $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
       $sudo env DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq --no-install-recommends $pkgs >/dev/null &&
       [ -z "$(missing)" ]; then
        exit 0
    fi
    pkgs=$(missing)
fi

echo "bench-peers: missing packages: $pkgs (install them with apt-get install --no-install-recommends $pkgs)" >&2
exit 1
