#!/bin/bash
# Pack a busybox initramfs for clkstat's QEMU guests.
#
# usage: mkinitramfs.sh OUT.cpio.gz --9p MODDIR
#        mkinitramfs.sh OUT.cpio.gz --9p-builtin
#        mkinitramfs.sh OUT.cpio.gz --payload DIR
# --9p MODDIR:   the virtio and 9p modules of the kernel whose modules
#                folder (lib/modules/KVER) MODDIR is (a bare KVER means
#                /lib/modules/KVER), so that guest-init can mount the host's
#                root (see guest-init).  What the kernel has built in
#                (MODDIR/modules.builtin) is left out, and each module
#                comes after those it depends on (its modinfo "depends"):
#                Debian's 6.1 needs virtio's core and PCI transport
#                (five modules), 9pnet, 9pnet_virtio, netfs, fscache and
#                9p; 6.12 has virtio built in and needs netfs, 9pnet,
#                9pnet_virtio and 9p (9pnet needs netfs there).
#                Compressed modules (.ko.xz, .ko.zst, .ko.gz) are
#                unpacked: busybox's insmod reads only plain ones.
# --9p-builtin:  the same for a kernel with virtio and 9p built in (the
#                debug kernel, tools/vm/debug.config): no modules to load.
# --payload DIR: DIR (a run.sh and what it needs) as /payload, for a kernel
#                without 9p such as the KUnit test kernel.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
out=$1 mode=$2 arg=${3:-}

# What guest-init needs: the PCI transport of virtio, 9p over virtio, and
# the 9p filesystem; their dependencies follow from the modules.
nine_p_roots="virtio_pci 9pnet_virtio 9p"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,newroot,modules}
cp /bin/busybox "$stage/bin/busybox"
cp "$here/guest-init" "$stage/init"
chmod 755 "$stage/init"
mknod "$stage/dev/console" c 5 1

case "$mode" in
--9p)
	moddir=$arg
	case "$moddir" in */*) ;; *) moddir=/lib/modules/$moddir ;; esac
	[ -d "$moddir/kernel" ] || { echo "mkinitramfs: no modules in $moddir" >&2; exit 1; }
	# Module names use "_" where file names may have "-".
	declare -A file=() builtin=() packed=()
	while IFS= read -r f; do
		n=${f##*/}; n=${n%%.ko*}; file[${n//-/_}]=$f
	done < <(find "$moddir/kernel" \( -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' \))
	if [ -f "$moddir/modules.builtin" ]; then
		while IFS= read -r f; do
			n=${f##*/}; n=${n%.ko}; builtin[${n//-/_}]=1
		done < "$moddir/modules.builtin"
	fi
	: > "$stage/modules/order"
	# pack NAME: NAME's dependencies, then NAME (depth first, so that
	# the order file lists every module after the ones it needs).
	pack() {
		local m=$1 f dst d
		[ -z "${builtin[$m]:-}" ] && [ -z "${packed[$m]:-}" ] || return 0
		f=${file[$m]:-}
		[ -n "$f" ] || { echo "mkinitramfs: module $m not found in $moddir" >&2; exit 1; }
		dst=$stage/modules/$m.ko
		case "$f" in
		*.ko.xz) xz -dc "$f" > "$dst" ;;
		*.ko.zst) zstd -qdc "$f" > "$dst" ;;
		*.ko.gz) gzip -dc "$f" > "$dst" ;;
		*) cp "$f" "$dst" ;;
		esac
		packed[$m]=1
		for d in $(modinfo -F depends "$dst" | tr ',' ' '); do
			pack "$d"
		done
		echo "$m" >> "$stage/modules/order"
	}
	for m in $nine_p_roots; do
		pack "$m"
	done
	;;
--9p-builtin)
	: > "$stage/modules/order"
	;;
--payload)
	cp -r "$arg" "$stage/payload"
	;;
*)
	echo "usage: $0 OUT.cpio.gz --9p MODDIR | --9p-builtin | --payload DIR" >&2
	exit 2
	;;
esac
# Two guests may start at once and pack the same image: each writes its
# own file and renames it into place, which is atomic.
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
