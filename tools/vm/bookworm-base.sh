#!/bin/bash
# A Debian bookworm root (debootstrap minbase) at ROOT, made once and
# kept: its sources (bookworm, its updates and security; with --backports
# bookworm-backports too, as tools/vm/apt says), a policy-rc.d that starts
# no service, the host's resolv.conf, and PKG... installed where missing.
# The chroots clkstat's tests install into start here (bookworm-root.sh,
# unit-root.sh); each holds its own lock around the call.
#
# usage: bookworm-base.sh ROOT [--backports] [PKG...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 ROOT [--backports] [PKG...]" >&2; exit 2; }
base=$1; shift
backports=0
[ "${1:-}" != --backports ] || { backports=1; shift; }
top=$(realpath "$(dirname "$0")/../..")
mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if [ ! -f "$base/.clkstat-done" ]; then
	rm -rf "$base" "$base.new"
	mkdir -p "$base.new"
	unshare -m -- debootstrap --variant=minbase --keyring="$keyring" \
		bookworm "$base.new" "$mirror"
	touch "$base.new/.clkstat-done"
	mv "$base.new" "$base"
fi
{
	echo "deb [signed-by=$keyring] $mirror bookworm main"
	echo "deb [signed-by=$keyring] $mirror bookworm-updates main"
	echo "deb [signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main"
	[ $backports = 0 ] || grep '^deb ' "$top/tools/vm/apt/sources.list"
} > "$base/etc/apt/sources.list"
printf '#!/bin/sh\nexit 101\n' > "$base/usr/sbin/policy-rc.d"
chmod 755 "$base/usr/sbin/policy-rc.d"
cp -L /etc/resolv.conf "$base/etc/resolv.conf" 2>/dev/null || true
# shellcheck disable=SC2016  # single quotes: dpkg-query's format
in_root() { "$top/tools/vm/in-root.sh" "$base" "$@"; }
missing=()
for p in "$@"; do
	in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	in_root apt-get update
	in_root apt-get install -y --no-install-recommends "${missing[@]}"
	in_root apt-get clean
fi
