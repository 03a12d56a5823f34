#!/bin/bash
# Kernel style: checkpatch.pl (from Debian's linux-source-6.1) on every
# kernel source file, and sparse over the module build.  One test each.
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
src=${CLKSTAT_CACHE:-/var/cache/clkstat}/linux-source-6.1
[ -d "$src" ] || tools/vm/build-test-kernel.sh --extract-only >/dev/null
pass=0 fail=0
files=$(ls kmod/*.c kmod/*.h kmod/uapi/*.h kunit/*.c kunit/*.h | grep -v "\.mod\.c$")
# Findings are collected first: checkpatch's own exit status must not
# decide, its output does.
found=$(cd "$src" && perl scripts/checkpatch.pl --no-tree --terse \
	-f $(printf "$top/%s " $files) 2>&1 | grep -E 'ERROR|WARNING')
if [ -n "$found" ]; then
	echo "$found"
	fail=$((fail + 1)); echo "not ok - checkpatch.pl"
else
	pass=$((pass + 1)); echo "ok - checkpatch.pl"
fi
kdir=${KDIR:-$(ls -d /lib/modules/*/build | sort -V | tail -1)}
found=$(make -s -C "$kdir" M="$top" C=2 CHECK="sparse" modules 2>&1 |
	grep -E 'warning|error' | grep -v 'Skipping BTF')
if [ -n "$found" ]; then
	echo "$found"
	fail=$((fail + 1)); echo "not ok - sparse"
else
	pass=$((pass + 1)); echo "ok - sparse"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
