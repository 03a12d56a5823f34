#!/bin/bash
# clkstat on a kernel that lacks variants: the lean test kernel
# (tools/vm/build-test-kernel.sh lean: static ftrace, so no direct calls
# and no ftrace_ops with args).  Builds clkstat's modules against it as
# `make` does, which must be warning-free too, and runs
# tools/tests/guest/lean_variants.sh in a guest booted on it, in the
# host's userspace over 9p.
# usage: lean.sh [TEST...]; last line "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
out=$top/build/lean
mkdir -p "$out"
passed=0 failed=0

if ! kbuild=$(tools/vm/build-test-kernel.sh lean 2> "$out/kernel-build.log"); then
	tail -20 "$out/kernel-build.log" >&2
	echo "lean: the lean kernel did not build; see $out/kernel-build.log"
	echo "0 passed, 1 failed"
	exit 1
fi
src=$(tools/vm/build-test-kernel.sh --extract-only)
if tools/vm/kernels.sh build --strict "$src" "$out/src" O="$kbuild" > "$out/build.out" 2>&1; then
	echo "ok - clkstat's modules build against the lean kernel without a warning"
	passed=$((passed + 1))
else
	sed 's/^/    # /' "$out/build.out"
	echo "not ok - clkstat's modules build against the lean kernel without a warning"
	echo "0 passed, 1 failed"
	exit 1
fi

g=$out/guest
tools/vm/run-guest.sh --kernel "$kbuild/arch/x86/boot/bzImage" --9p-builtin \
	--mem 1024 --timeout 1200 --out "$g" -- \
	env CLKSTAT_KMOD="$out/src/kmod" \
	bash tools/tests/guest/lean_variants.sh "$@" > "$g.log" 2>&1
rc=$?
tr -d '\r' < "$g.log" | grep -oE '((not )?ok [0-9]+ - .*|^    .*)' || true
line=$(tr -d '\r' < "$g.log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
if [ -n "$line" ]; then
	passed=$((passed + $(echo "$line" | awk '{ print $1 }')))
	failed=$((failed + $(echo "$line" | awk '{ print $3 }')))
else
	echo "lean: no result line (guest exit status $rc); see $g/console.log" >&2
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
