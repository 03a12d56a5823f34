#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The C of the "clkstat" generic netlink family, made from its spec
# (Documentation/netlink/specs/clkstat.yaml) by the kernel's own generator,
# tools/net/ynl/ynl-gen-c.py of Debian's linux-source-6.12 (unpacked in
# CLKSTAT_CACHE by tools/vm/build-test-kernel.sh --extract-only):
#   kmod/uapi/clkstat_netlink.h  the ABI (--mode uapi --header)
#   kmod/netlink_gen.h           the module's policy and operations table,
#   kmod/netlink_gen.c           declared and defined (--mode kernel)
# The files are committed; the unit tests run --check.
#
# usage: netlink-gen.sh          write them (make netlink-gen)
#        netlink-gen.sh --check  make them in a temporary folder and diff
#                                them against the committed ones
# Exit status: 0 written or current, 1 not current (the diff is printed),
# 2 the generator failed, 3 no kernel source (nothing was checked).
# The generator wants the spec inside a kernel tree (it finds the schema
# two folders up, and the tree by its MAINTAINERS): the spec is copied
# into a folder laid out so, beside the source's schema.  Debian's
# python3 runs it, with python3-yaml and python3-jsonschema.
set -euo pipefail
top=$(realpath "$(dirname "$0")/..")
ksrc=${CLKSTAT_KSRC:-${CLKSTAT_CACHE:-/var/cache/clkstat}/linux-source-6.12}
python=${CLKSTAT_PYTHON:-/usr/bin/python3}
gen=$ksrc/tools/net/ynl/ynl-gen-c.py
spec=Documentation/netlink/specs/clkstat.yaml
files="kmod/uapi/clkstat_netlink.h kmod/netlink_gen.h kmod/netlink_gen.c"
check=0
[ "${1:-}" = --check ] && check=1

if [ ! -f "$gen" ]; then
	echo "netlink-gen: no kernel source at $ksrc (no $gen):" \
		"tools/vm/build-test-kernel.sh --extract-only unpacks it" >&2
	exit 3
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/tree
mkdir -p "$stage/Documentation/netlink/specs" "$tmp/out/kmod/uapi"
touch "$stage/MAINTAINERS"
cp "$top/$spec" "$stage/$spec"
cp "$ksrc/Documentation/netlink/genetlink-legacy.yaml" "$stage/Documentation/netlink/"

# run MODE ARG OUT: one file, into $tmp/out.
run() {
	if ! (cd "$stage" && "$python" "$gen" --mode "$1" "$2" --spec "$spec" \
		-o "$tmp/out/$3") > "$tmp/log" 2>&1; then
		echo "netlink-gen: ynl-gen-c.py --mode $1 $2 failed for $3:" >&2
		cat "$tmp/log" >&2
		exit 2
	fi
}
run uapi --header kmod/uapi/clkstat_netlink.h
run kernel --header kmod/netlink_gen.h
run kernel --source kmod/netlink_gen.c

if [ "$check" = 0 ]; then
	for f in $files; do
		cmp -s "$tmp/out/$f" "$top/$f" || { cp "$tmp/out/$f" "$top/$f"; echo "  GEN     $f"; }
	done
	exit 0
fi
stale=0
for f in $files; do
	if ! diff -u "$top/$f" "$tmp/out/$f" --label "$f (committed)" --label "$f (generated)"; then
		stale=1
	fi
done
if [ "$stale" = 1 ]; then
	echo "netlink-gen: the files above are not what $spec makes: run make netlink-gen" >&2
	exit 1
fi
echo "netlink-gen: $files are current"
