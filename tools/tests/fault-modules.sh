#!/bin/bash
# Build clkstat's modules with the test-only fault hooks
# (CLKSTAT_FAULT_HOOKS=1: the fault_hook= parameter, kmod/Kbuild), which
# `make` never builds, from a copy of the sources in OUT (no objects of
# kmod/'s own build), against the kernel build tree MAKE_ARGS name.
# With --kunit, the KUnit suites too (OUT/kunit/clkstat_test.ko).
#
# usage: fault-modules.sh [--kunit] OUT MAKE_ARGS...
#   Debian's headers:   fault-modules.sh build/fault -C /lib/modules/V/build
#   an O= build tree:   fault-modules.sh OUT -C SOURCE O=BUILD
# The modules land in OUT/kmod; the log in OUT.log.  Exit status 0 or 1.
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
kunit=0
[ "${1:-}" = --kunit ] && { kunit=1; shift; }
out=$(realpath -m "$1"); shift
rm -rf "$out"
mkdir -p "$out"
tar -C "$top" -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude=modules.order \
	--exclude=Module.symvers Kbuild kmod kunit | tar -C "$out" -x
if ! make "$@" M="$out" CLKSTAT_FAULT_HOOKS=1 modules > "$out.log" 2>&1 ||
   { [ $kunit = 1 ] && ! make "$@" M="$out" CLKSTAT_KUNIT=1 modules >> "$out.log" 2>&1; }; then
	tail -20 "$out.log" >&2
	exit 1
fi
