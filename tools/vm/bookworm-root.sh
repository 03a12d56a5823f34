#!/bin/bash
# The bookworm chroot that tools/tests/deb.sh installs clkstat's packages
# into (a copy of it) and boots in a guest: made once (debootstrap
# minbase, cached in CLKSTAT_CACHE/deb/bookworm), brought up to date on
# every call, under a lock (two callers at once share it).
#   - its sources: bookworm, its updates and security, and
#     bookworm-backports as tools/vm/apt says; no service ever starts in it
#     (policy-rc.d says no);
#   - PKG..., what clkstat's packages depend on as far as this checkout
#     says (dkms, dwarves, kmod, and the libraries clkstat-report links),
#     systemd (for systemd-analyze), man-db and linux-headers-KVER
#     installed, what is missing only; another kernel's headers purged;
#   - depmod's files for KVER, as a machine that runs it has (the chroot
#     has its headers, not its modules).
# What clkstat's packages depend on is installed here, so that deb.sh's own
# install and purge are of clkstat's packages alone.  tools/install-deps.sh
# makes it (about 6 minutes on a fresh machine), make check too when it is
# missing; deb.sh calls it again with the built packages' exact
# dependencies.
#
# usage: bookworm-root.sh KVER [PKG...]
# The log goes to stdout; exit status 0 when the chroot is ready.
# shellcheck disable=SC2016  # single quotes: dpkg-query's formats
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 KVER [PKG...]" >&2; exit 2; }
kver=$1; shift
top=$(realpath "$(dirname "$0")/../..")
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
base=$cache/deb/bookworm
mkdir -p "$cache/deb"

# in_root COMMAND...: COMMAND in the chroot (in-root.sh: /proc, a mount
# namespace of its own, no environment of ours).
in_root() { "$top/tools/vm/in-root.sh" "$base" "$@"; }

exec 8> "$cache/deb/bookworm.lock"
flock 8
# The libraries' packages: for each library the Makefile asks pkg-config
# for, the first non-dev package its -dev package depends on (libgsl-dev:
# libgsl27), as the built package's shlibs will say.
libs() {
	local pc dev
	grep -o 'pkg-config --[a-z-]* [A-Za-z0-9._-]*' "$top/Makefile" |
		awk '{ print $3 }' | sort -u | while read -r pc; do
		dev=$(dpkg -S "$(pkg-config --variable=pcfiledir "$pc")/$pc.pc" 2>/dev/null |
			cut -d: -f1) || continue
		dpkg-query -W -f='${Depends}\n' "$dev" | tr ',' '\n' |
			sed 's/(.*)//; s/|.*//; s/[[:space:]]//g' | grep -v -- '-dev$' | grep . | head -1 || true
	done
}

# shellcheck disable=SC2046  # libs(): one package a word
"$top/tools/vm/bookworm-base.sh" "$base" --backports "$@" dkms dwarves kmod \
	$(libs) systemd man-db "linux-headers-$kver"
# Another kernel's headers go (their kbuild and common with them).
old=$(in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
	'linux-headers-*-amd64' 2>/dev/null | awk '$1 ~ /^.i/ { print $2 }' |
	grep -vxF "linux-headers-$kver" || true)
if [ -n "$old" ]; then
	# shellcheck disable=SC2086
	in_root apt-get purge -y $old
	in_root apt-get autoremove --purge -y
	in_root apt-get clean
fi
# The install's depmod changes these files, the purge's puts them back.
[ -f "$base/lib/modules/$kver/modules.dep" ] || in_root depmod "$kver"
echo "bookworm-root: $base ready (linux-headers-$kver)"
