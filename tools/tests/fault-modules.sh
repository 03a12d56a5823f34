#!/bin/bash
# Build clkstat's modules with the test-only fault hooks
# (CLKSTAT_FAULT_HOOKS=1: the fault_hook= parameter, kmod/Kbuild), which
# `make` never builds, for a kernel line or against a kernel build tree:
# tools/vm/kernels.sh build does the work (a copy of the sources in OUT,
# without kmod/'s own objects).  With --kunit, the KUnit suites too
# (OUT/kunit/clkstat_test.ko).  A build already in OUT from the same
# sources for the same kernel is reused (kernels.sh build --reuse).
#
# usage: fault-modules.sh [--kunit] OUT LINE [VAR=VALUE...]
#        fault-modules.sh [--kunit] OUT -C TREE [VAR=VALUE...]
#   a line (tools/vm/kernels.sh):  fault-modules.sh build/fault 6.1
#   an O= build tree:              fault-modules.sh OUT -C SOURCE O=BUILD
# The modules land in OUT/kmod; the log in OUT.log.  Exit status 0 or 1.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
kunit=()
[ "${1:-}" = --kunit ] && { kunit=(--kunit); shift; }
out=$1; shift
if [ "${1:-}" = -C ]; then
	# An absolute path: kernels.sh takes it for a tree, not a line.
	target=$(realpath "$2"); shift 2
else
	target=$1; shift
fi
exec "$here/../vm/kernels.sh" build --reuse "${kunit[@]}" "$target" "$out" CLKSTAT_FAULT_HOOKS=1 "$@"
