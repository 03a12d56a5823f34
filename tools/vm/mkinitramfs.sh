#!/bin/bash
# Pack a busybox initramfs for clkstat's QEMU guests.
#
# usage: mkinitramfs.sh OUT.cpio.gz --9p KVER
#        mkinitramfs.sh OUT.cpio.gz --9p-builtin
#        mkinitramfs.sh OUT.cpio.gz --payload DIR
# --9p KVER:     the virtio and 9p modules of Debian kernel KVER, so that
#                guest-init can mount the host's root (see guest-init).
# --9p-builtin:  the same for a kernel with virtio and 9p built in (the
#                debug kernel, tools/vm/debug.config): no modules to load.
# --payload DIR: DIR (a run.sh and what it needs) as /payload, for a kernel
#                without 9p such as the KUnit test kernel.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
out=$1 mode=$2 arg=${3:-}

# Load order matters: each module needs the ones before it.
nine_p_modules="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev
virtio_pci 9pnet 9pnet_virtio netfs fscache 9p"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,newroot,modules}
cp /bin/busybox "$stage/bin/busybox"
cp "$here/guest-init" "$stage/init"
chmod 755 "$stage/init"
mknod "$stage/dev/console" c 5 1

case "$mode" in
--9p)
	for m in $nine_p_modules; do
		f=$(find "/lib/modules/$arg/kernel" -name "$m.ko" | head -1)
		[ -n "$f" ] || { echo "mkinitramfs: module $m not found for $arg" >&2; exit 1; }
		cp "$f" "$stage/modules/"
		echo "$m" >> "$stage/modules/order"
	done
	;;
--9p-builtin)
	: > "$stage/modules/order"
	;;
--payload)
	cp -r "$arg" "$stage/payload"
	;;
*)
	echo "usage: $0 OUT.cpio.gz --9p KVER | --9p-builtin | --payload DIR" >&2
	exit 2
	;;
esac
# Two guests may start at once and pack the same image: each writes its
# own file and renames it into place, which is atomic.
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
