#!/bin/bash
# Kernel style: checkpatch.pl (from Debian's linux-source-6.12) on every
# kernel source file, and sparse over the module build for each kernel
# whose headers are installed; README.md's Layout against the tree
# (layout_check.py); source heads of at most 30 lines and no tracker
# references (heads_check.py); every section a file cites of a document
# exists (doc_refs_check.py).  One test each.
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
src=$(tools/vm/build-test-kernel.sh --extract-only)
pass=0 fail=0
files=$(ls kmod/*.c kmod/*.h kmod/*.S kmod/uapi/*.h kmod/shared/*.h kunit/*.c kunit/*.h |
	grep -v "\.mod\.c$" | grep -v '^kmod/compat\.h$' |
	grep -v '^kmod/uapi/clkstat_catalog\.h$' |
	grep -v '^kmod/uapi/clkstat_buckets\.h$' |
	grep -v -x -e kmod/netlink_gen.c -e kmod/netlink_gen.h \
		-e kmod/uapi/clkstat_netlink.h)
# Findings are collected first: checkpatch's own exit status must not
# decide, its output does.  compat.h is the one place allowed to test
# LINUX_VERSION_CODE (an out-of-tree module's kernel differences).  The
# catalog's X-macro lists expand to bare list items, which parentheses
# would break, and each X callback takes every field of an entry whether
# it uses it or not.  clkstat_buckets.h, shared with userspace and BPF,
# spells always_inline as the attribute where those lack __always_inline,
# which checkpatch allows in include/uapi/ (the kernel's uapi headers)
# but cannot recognize in kmod/uapi/, in a macro that begins with
# "static" (CLKSTAT_ALWAYS_INLINE), which no parentheses can enclose.
# The netlink family's generated files (tools/netlink-gen.sh) are left
# out: their form is the kernel's ynl-gen-c.py's, not ours to edit, and
# unit.sh checks them against the spec instead.
found=$(cd "$src" && { perl scripts/checkpatch.pl --no-tree --terse \
	-f $(printf "$top/%s " $files)
	perl scripts/checkpatch.pl --no-tree --terse --ignore LINUX_VERSION_CODE \
	-f "$top/kmod/compat.h"
	perl scripts/checkpatch.pl --no-tree --terse \
	--ignore COMPLEX_MACRO,MACRO_ARG_UNUSED \
	-f "$top/kmod/uapi/clkstat_catalog.h"
	perl scripts/checkpatch.pl --no-tree --terse \
	--ignore PREFER_DEFINED_ATTRIBUTE_MACRO,COMPLEX_MACRO \
	-f "$top/kmod/uapi/clkstat_buckets.h"; } 2>&1 | grep -E 'ERROR|WARNING')
if [ -n "$found" ]; then
	echo "$found"
	fail=$((fail + 1)); echo "not ok - checkpatch.pl"
else
	pass=$((pass + 1)); echo "ok - checkpatch.pl"
fi
# sparse against every kernel build tree on the host (6.1 and 6.12; 7.x
# builds in a chroot without sparse), each on a copy of the sources so
# that kmod/'s own objects stay those of `make`.
for kdir in ${KDIR:-$(ls -d /lib/modules/*/build | sort -V)}; do
	kver=$(basename "$(dirname "$kdir")")
	copy=$top/build/sparse-$kver
	rm -rf "$copy" && mkdir -p "$copy" && cp -a Kbuild kmod "$copy/"
	rm -f "$copy"/kmod/*.o "$copy"/kmod/*.ko
	found=$(make -s -C "$kdir" M="$copy" C=2 CHECK="sparse" modules 2>&1 |
		grep -E 'warning|error' | grep -v 'Skipping BTF')
	if [ -n "$found" ]; then
		echo "$found"
		fail=$((fail + 1)); echo "not ok - sparse ($kver)"
	else
		pass=$((pass + 1)); echo "ok - sparse ($kver)"
	fi
done
if python3 tools/tests/layout_check.py; then
	pass=$((pass + 1)); echo "ok - README.md's Layout names every file"
else
	fail=$((fail + 1)); echo "not ok - README.md's Layout names every file"
fi
if python3 tools/tests/heads_check.py; then
	pass=$((pass + 1)); echo "ok - heads of at most 30 lines, no tracker references"
else
	fail=$((fail + 1)); echo "not ok - heads of at most 30 lines, no tracker references"
fi
if python3 tools/tests/doc_refs_check.py; then
	pass=$((pass + 1)); echo "ok - every cited section of a document exists"
else
	fail=$((fail + 1)); echo "not ok - every cited section of a document exists"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
