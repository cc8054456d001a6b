#!/bin/sh
# SPDX-License-Identifier: MIT
# rows.sh: filters a bench program's output (stdin): its "CSV,<row>" lines go to stdout without
# the prefix, its "# ..." notes (a failed update, pairs that differ) to stderr, the rest is
# dropped (QEMU's own messages).
awk '/^CSV,/ { print substr($0, 5); next } /^# / { print > "/dev/stderr" }'
