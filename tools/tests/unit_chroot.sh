#!/bin/bash
# make check-unit in a bookworm chroot that has only the userspace build
# dependencies (tools/vm/unit-root.sh): no kernel image or headers, no
# clang, no bpftool.  The tree is copied in (its files, not build/), so
# that nothing built here is reused.  Its output is indented; the last
# line is this test's: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }

if ! root=$(tools/vm/unit-root.sh > build/unit-root.log 2>&1 && tail -1 build/unit-root.log); then
	tail -20 build/unit-root.log
	not_ok "the unit chroot (tools/vm/unit-root.sh; log: build/unit-root.log)"
	echo "$pass passed, $fail failed"
	exit 1
fi
# What the chroot must not have, or the run shows nothing.
found=$(cd "$root" && ls -d usr/bin/clang* usr/sbin/bpftool usr/bin/bpftool \
	boot/vmlinuz* usr/src/linux-* lib/modules/* 2>/dev/null)
if [ -z "$found" ]; then
	ok "the unit chroot has no clang, bpftool, kernel image or headers"
else
	not_ok "the unit chroot has what the unit tests must not need: $found"
fi
rm -rf "$root/src" && mkdir -p "$root/src"
git ls-files -z --cached --others --exclude-standard | grep -zv '^build/' |
	xargs -0 cp -P --parents -t "$root/src"
# CLKSTAT_UNIT_CHROOT=1: unit.sh skips, and says so, the one check that
# needs the kernel source (the generated netlink C), which the host's unit
# stage runs.
out=$(tools/vm/in-root.sh "$root" /bin/bash -c 'cd /src && CLKSTAT_UNIT_CHROOT=1 make -j2 check-unit' 2>&1)
rc=$?
sed 's/^/    /' <<< "$out"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' <<< "$out" | tail -1)
rest=${line#* passed, }
if [ "$rc" = 0 ] && [ -n "$line" ] && [ "${rest%%,*}" = "0 failed" ] &&
   [ "${line%% *}" -gt 0 ]; then
	ok "make check-unit in the chroot: $line"
else
	not_ok "make check-unit in the chroot (status $rc): ${line:-no result line}"
fi
rm -rf "$root/src"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
