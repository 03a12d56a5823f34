#!/bin/bash
# in-root.sh ROOT COMMAND...: COMMAND in the chroot ROOT with /proc, in a
# mount namespace of its own (nothing stays mounted), with no environment
# of the caller's.  Services are never started there: no systemd runs in
# it, and the chroots clkstat makes (tools/vm/bookworm-root.sh) have a
# policy-rc.d that says no.  Exit status: COMMAND's.
# shellcheck disable=SC2016  # single quotes: the inner shell's own words
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 ROOT COMMAND..." >&2; exit 2; }
exec unshare -m -- /bin/bash -c '
	set -e
	root=$1; shift
	mount -t proc proc "$root/proc"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
' in-root "$@"
