#!/bin/bash
# Build (once) a small kernel from Debian's linux-source-6.12 with the given
# configuration fragments merged onto tinyconfig, for KUnit and debug runs.
#
# The result is cached outside the checkout, keyed by the hash of the
# fragments, of this script and of the source tarball, so that a second run on the same
# machine reuses it.  Prints the build folder (holding arch/x86/boot/bzImage
# and prepared for external modules) on stdout; the log goes to stderr.
#
# usage: build-test-kernel.sh lean|debug      one of the test kernels below
#        build-test-kernel.sh FRAGMENT...
#        build-test-kernel.sh --extract-only   (just the source tree)
#
# The test kernels, each tinyconfig plus its fragments:
#   lean   kunit/kernel.config, tools/vm/guest.config, tools/vm/lean.config:
#          KUnit (tools/tests/kunit.sh) and a kernel that lacks variants
#          (tools/tests/lean.sh)
#   debug  kunit/kernel.config, tools/vm/guest.config, tools/vm/debug.config:
#          the checkers (tools/tests/debug.sh)
set -euo pipefail

cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
tarball=$(ls /usr/src/linux-source-6.12.tar.xz)
src=$cache/linux-source-6.12

extract() {
	if [ ! -f "$src/.clkstat-extracted" ]; then
		echo "extracting $tarball" >&2
		rm -rf "$src"
		mkdir -p "$cache"
		tar -C "$cache" -xf "$tarball"
		touch "$src/.clkstat-extracted"
	fi
}
if [ "${1:-}" = --extract-only ]; then
	exec 9>"$cache/.lock-extract"
	flock 9
	extract
	echo "$src"
	exit 0
fi
[ $# -ge 1 ] || { echo "usage: $0 lean|debug|FRAGMENT..." >&2; exit 2; }
top=$(realpath "$(dirname "$0")/../..")
case "$1" in
lean|debug) set -- "$top/kunit/kernel.config" "$top/tools/vm/guest.config" \
		"$top/tools/vm/$1.config" ;;
esac
# merge_config.sh runs from the build folder: make the paths absolute.
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
set -- "${frags[@]}"
# This script's own steps are part of the key: a change to them rebuilds.
key=$( (cat "$@" "$0"; stat -c '%s %Y' "$tarball") | sha256sum | cut -c1-16)
out=$cache/kernel-$key

if [ -f "$out/.clkstat-done" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
# One builder at a time: a second caller waits for the first one's result.
exec 9>"$cache/.lock-$key"
flock 9
if [ -f "$out/.clkstat-done" ]; then
	echo "$out"
	exit 0
fi

extract

rm -rf "$out"
mkdir -p "$out"
echo "configuring kernel in $out" >&2
make -C "$src" O="$out" tinyconfig >&2
(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "$@") >&2
make -C "$src" O="$out" olddefconfig >&2
# Every requested option must have survived olddefconfig; a silent drop
# (a missing dependency) would make later failures hard to read.
missing=0
for frag in "$@"; do
	while IFS= read -r line; do
		case "$line" in CONFIG_*=y) ;; *) continue ;; esac
		grep -qx "$line" "$out/.config" || { echo "not set in the test kernel: $line" >&2; missing=1; }
	done < "$frag"
done
[ $missing -eq 0 ] || exit 1
echo "building kernel (a few minutes)" >&2
make -C "$src" O="$out" -j"$(nproc)" bzImage >&2
make -C "$src" O="$out" modules_prepare >&2
# Module.symvers, which modpost needs to resolve an external module's
# symbols (6.12's modpost fails without it; 6.1's only warned): the
# fragments build everything in, so `make modules` only writes it.
make -C "$src" O="$out" -j"$(nproc)" modules >&2
touch "$out/.clkstat-done"
echo "$out"
