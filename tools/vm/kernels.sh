#!/bin/bash
# The kernel lines clkstat supports, and the one place that knows them:
# where each line's kernel comes from, where its image, modules and build
# tree are, and how the modules are built for it.
#
# usage: kernels.sh lines            the lines, one a line
#        kernels.sh default          the line used when none is named
#        kernels.sh fetch LINE...    get each line's newest Debian version
#        kernels.sh info LINE        kver= image= moddir= kdir= chroot=
#        kernels.sh build [--strict] [--kunit] [--reuse] LINE|TREE OUT [VAR=VALUE...]
#
# The lines: 6.1 (Debian 12's own), 6.12 (bookworm-backports, the default)
# and 7.3 (trixie-backports' newest, built in a trixie chroot kept in the
# cache, CLKSTAT_CACHE, default /var/cache/clkstat).  Where each comes
# from: Documentation/clkstat-kernels.rst, "Kernel lines"; what each subcommand
# does: the comment at its function in this script (fetch, info, build).
# shellcheck disable=SC2016  # single quotes: for the shell in the chroot, dpkg and apt
set -euo pipefail
here=$(dirname "$(realpath "$0")")
top=$(realpath "$here/../..")
# Cache (CLKSTAT_CACHE, default /var/cache/clkstat):
#   apt/lists, apt/sources.list.d  bookworm-backports' lists, and the
#                                  machine's own sources gathered beside it
#   kernels/LINE.env, LINE.lock    the fetched version; the line's lock
#   kernels/7.3/chroot             the trixie chroot, headers installed
#   kernels/7.3/KVER               the unpacked image and modules
#   kernels/vmlinux-KVER           the ELF image (module BTF on 6.1)
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
kcache=$cache/kernels
mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The lines:
#   6.1   Debian 12's own: linux-image-amd64 and linux-headers-amd64 from
#         bookworm, installed system-wide (tools/install-deps.sh does).
#   6.12  the LTS line from bookworm-backports (tools/vm/apt/sources.list):
#         the version that backports' linux-headers-amd64 depends on,
#         image (-unsigned) and headers installed system-wide, which is how
#         a Debian 12 user gets it.  The default line.
#   7.3   trixie-backports' newest (7.x): its kbuild needs trixie's glibc,
#         so the modules build in a trixie chroot (debootstrap minbase)
#         kept in the cache; its image and modules are unpacked from the
#         packages (dpkg-deb -x) into the cache, never installed.  Should
#         trixie-backports move on to 7.4, the line follows (with a note)
#         until it is renamed here.
LINES="6.1 6.12 7.3"
DEFAULT_LINE=6.12

die() { echo "kernels.sh: $*" >&2; exit 1; }
note() { echo "kernels.sh: $*" >&2; }

check_line() {
	case " $LINES " in
	*" $1 "*) ;;
	*) die "unknown kernel line '$1' (lines: $LINES)" ;;
	esac
}

# quietly COMMAND...: COMMAND's output (apt's, dpkg's, debootstrap's) into
# the fetch's log, its end on the terminal if it fails.
quietly() {
	if ! "$@" >> "$flog" 2>&1; then
		tail -20 "$flog" >&2
		die "failed: $*; the whole log: $flog"
	fi
}

need_root() {
	[ "$(id -u)" = 0 ] || die "fetching $1 needs root (apt-get, debootstrap)"
}

# lock LINE MODE: hold the line's lock (MODE -x or -s) on fd 9 until the
# calling (sub)shell exits.
lock() {
	mkdir -p "$kcache"
	exec 9> "$kcache/$1.lock"
	flock "$2" 9
}

# The version a metapackage's Depends name: "linux-headers-KVER (= ...)".
headers_kver() {
	sed -n 's/^Depends: //p' | grep -o 'linux-headers-[^ ,]*' | head -1 |
		sed 's/^linux-headers-//'
}

# apt_install [APT_OPTION...] -- PACKAGE...: install those not installed
# yet, after an update of the lists when APT_OPTION names none of its own
# (the machine's lists may be stale or empty on a fresh machine).
# DPkg::Lock::Timeout: another apt (a second fetch, install-deps) may hold
# dpkg's lock for a while.
apt_install() {
	local opts=() p missing=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	note "installing ${missing[*]}"
	[ ${#opts[@]} -gt 0 ] || quietly apt-get update
	quietly env DEBIAN_FRONTEND=noninteractive apt-get "${opts[@]}" -o DPkg::Lock::Timeout=600 \
		install -y --no-install-recommends "${missing[@]}"
}

write_env() {	# write_env LINE KVER: the fetched version, atomically
	echo "kver=$2" > "$kcache/$1.env.tmp"
	mv "$kcache/$1.env.tmp" "$kcache/$1.env"
}

read_env() {	# read_env LINE: the fetched version, or nothing
	sed -n 's/^kver=//p' "$kcache/$1.env" 2>/dev/null || true
}

# --- 6.1: Debian 12's own ---------------------------------------------

kver_6_1() {
	dpkg-query -W -f='Depends: ${Depends}\n' linux-headers-amd64 2>/dev/null | headers_kver
}

fetch_6_1() {
	need_root 6.1
	apt_install -- linux-image-amd64 linux-headers-amd64
	local kver; kver=$(kver_6_1)
	case "$kver" in
	6.1.*) ;;
	*) die "linux-headers-amd64 depends on '$kver', not a 6.1 kernel (is a backports metapackage installed?)" ;;
	esac
	note "6.1: $kver"
}

# --- 6.12: bookworm-backports, installed system-wide -------------------

# apt's options for the project's own sources: tools/vm/apt/sources.list
# in place of /etc/apt/sources.list, lists of its own, and as source parts
# a copy of the machine's sources (its sources.list and sources.list.d),
# so that bookworm stays visible whichever of the two holds it.
bpo_apt_opts() {
	local parts=$cache/apt/sources.list.d f
	mkdir -p "$cache/apt/lists/partial"
	rm -rf "$parts.new"
	mkdir -p "$parts.new"
	[ ! -f /etc/apt/sources.list ] || cp /etc/apt/sources.list "$parts.new/00-machine.list"
	for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ ! -f "$f" ] || cp "$f" "$parts.new/"
	done
	rm -rf "$parts"
	mv "$parts.new" "$parts"
	bpo=(-o "Dir::Etc::SourceList=$here/apt/sources.list"
	     -o "Dir::Etc::SourceParts=$parts"
	     -o "Dir::State::Lists=$cache/apt/lists")
}

fetch_6_12() {
	need_root 6.12
	local bpo kver
	bpo_apt_opts
	quietly apt-get "${bpo[@]}" update
	kver=$(apt-cache "${bpo[@]}" show linux-headers-amd64/bookworm-backports | headers_kver)
	case "$kver" in
	6.12.*) ;;
	*) die "bookworm-backports' linux-headers-amd64 depends on '$kver', not a 6.12 kernel" ;;
	esac
	# linux-source-6.12: the KUnit and debug test kernels' source
	# (build-test-kernel.sh), whichever of bookworm's security updates and
	# bookworm-backports has it.
	apt_install "${bpo[@]}" -- "linux-image-$kver-unsigned" "linux-headers-$kver" \
		linux-source-6.12
	write_env 6.12 "$kver"
	note "6.12: $kver"
}

# --- 7.3: trixie-backports, in the cache --------------------------------

root73=$kcache/7.3/chroot

# unshare -m makes every mount private to its namespace, which needs / to
# be a mount point: it is on a machine or in a container, not inside a
# plain chroot.  Better to say so than to leak mounts.
need_private_mounts() {
	mountpoint -q / || die "7.3 needs / to be a mount point (unshare -m); run this outside a chroot"
}

# in_chroot [BIND_SRC BIND_DST --] COMMAND...: run COMMAND in the trixie
# chroot with /proc mounted (objtool and dpkg need it), optionally the host
# folder BIND_SRC at BIND_DST (a path inside the chroot), all in a mount
# namespace of its own: nothing stays mounted when it ends, whatever way.
in_chroot() {
	local src="" dst=""
	if [ "${3:-}" = -- ]; then src=$1 dst=$2; shift 3; fi
	unshare -m -- /bin/bash -c '
		set -e
		root=$1 src=$2 dst=$3; shift 3
		mount -t proc proc "$root/proc"
		[ -z "$src" ] || mount --bind "$src" "$root$dst"
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' in_chroot "$root73" "$src" "$dst" "$@"
}

make_chroot() {
	[ ! -f "$root73/.clkstat-done" ] || return 0
	command -v debootstrap > /dev/null || die "7.3 needs debootstrap: run tools/install-deps.sh"
	note "7.3: debootstrap trixie (minbase) into $root73"
	rm -rf "$root73" "$root73.new"
	mkdir -p "$root73.new"
	# In a namespace of its own: debootstrap mounts /proc and /sys in the
	# target, and a failure must not leave them mounted.
	quietly unshare -m -- debootstrap --variant=minbase --keyring="$keyring" trixie \
		"$root73.new" "$mirror"
	touch "$root73.new/.clkstat-done"
	mv "$root73.new" "$root73"
}

fetch_7_3() {
	need_root 7.3
	need_private_mounts
	local kver dl d old
	mkdir -p "$kcache/7.3"
	make_chroot
	cp "$here/apt/trixie.list" "$root73/etc/apt/sources.list"
	cp -L /etc/resolv.conf "$root73/etc/resolv.conf" 2>/dev/null || true
	quietly in_chroot apt-get update
	kver=$(in_chroot apt-cache show linux-headers-amd64/trixie-backports | headers_kver)
	case "$kver" in
	7.3.*) ;;
	7.*) note "trixie-backports' newest is $kver now: line 7.3 follows it (rename the line in kernels.sh)" ;;
	*) die "trixie-backports' linux-headers-amd64 depends on '$kver', not a 7.x kernel" ;;
	esac
	# The build's needs: the headers (their kbuild depends on gcc-14 and
	# pahole, which adds the modules' BTF), make, the linker, libc's
	# headers.  Older headers go: one version at a time.
	if ! in_chroot dpkg-query -W -f='${Status}' "linux-headers-$kver" 2>/dev/null |
	     grep -q 'install ok installed'; then
		note "7.3: installing linux-headers-$kver in the chroot"
		quietly in_chroot apt-get install -y --no-install-recommends \
			"linux-headers-$kver" make binutils libc6-dev
		quietly in_chroot apt-get clean
	fi
	old=$(in_chroot dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
		'linux-headers-*' 'linux-kbuild-*' 2>/dev/null |
		awk '$1 ~ /^.i/ { print $2 }' | grep -vF "${kver%-amd64}" || true)
	if [ -n "$old" ]; then
		note "7.3: removing ${old//$'\n'/ } from the chroot"
		# shellcheck disable=SC2086
		quietly in_chroot apt-get purge -y $old
		quietly in_chroot apt-get autoremove -y
	fi
	# The image (linux-binary: /usr/lib/modules/KVER/vmlinuz), the modules
	# and the base files (modules.builtin, config) beside them.
	d=$kcache/7.3/$kver
	if [ ! -d "$d" ]; then
		note "7.3: unpacking the image and modules of $kver into $d"
		dl=$(mktemp -d "$root73/tmp/dl.XXXXXX")
		quietly in_chroot /bin/sh -c 'cd "$1" && apt-get download \
			-o APT::Sandbox::User=root "linux-binary-$2" "linux-modules-$2" "linux-base-$2"' \
			sh "${dl#"$root73"}" "$kver"
		rm -rf "$d.new"
		mkdir -p "$d.new"
		for f in "$dl"/*.deb; do dpkg-deb -x "$f" "$d.new"; done
		rm -rf "$dl"
		[ -f "$d.new/usr/lib/modules/$kver/vmlinuz" ] || die "no vmlinuz in the packages of $kver"
		mv "$d.new" "$d"
	fi
	write_env 7.3 "$kver"
	# The previous versions' images (builds hold the lock shared: none is
	# running now).
	for old in "$kcache"/7.3/*; do
		case "$old" in
		"$root73"|"$d") ;;
		*) [ ! -d "$old" ] || { note "7.3: removing $old"; rm -rf "$old"; } ;;
		esac
	done
	note "7.3: $kver"
}

# fetch: idempotent; for 6.12 and 7.3 it asks Debian's mirror for the
# line's newest version each time and gets it if it is not there yet (a
# new version replaces the old one in the cache; system-wide packages stay
# installed, as apt leaves old kernels); 6.1 is whatever version the
# machine's linux-headers-amd64 depends on (apt upgrade moves it).  Needs
# root.  Safe to run concurrently: one fetch of a line at a time (flock),
# and builds in the 7.3 chroot keep a fetch from replacing it under them.
# Times here (fast mirror, 2 cores): 7.3 cold about 1 minute, 6.12 cold
# about 35 s (its initramfs included), warm 1 to 3 s each.
fetch() {
	local line
	for line in "$@"; do check_line "$line"; done
	for line in "$@"; do
		(
			lock "$line" -x
			flog=$kcache/$line-fetch.log
			: > "$flog"
			case "$line" in
			6.1) fetch_6_1 ;;
			6.12) fetch_6_12 ;;
			7.3) fetch_7_3 ;;
			esac
		)
	done
}

# --- info ---------------------------------------------------------------

# info_vars LINE: set kver image moddir kdir chroot, or fail.
info_vars() {
	local line=$1
	check_line "$line"
	chroot=""
	case "$line" in
	6.1)
		kver=$(kver_6_1)
		[ -n "$kver" ] || die "6.1 is not installed: run tools/install-deps.sh or, as root, tools/vm/kernels.sh fetch 6.1"
		image=/boot/vmlinuz-$kver moddir=/lib/modules/$kver kdir=/lib/modules/$kver/build
		;;
	6.12)
		kver=$(read_env 6.12)
		[ -n "$kver" ] || die "6.12 was not fetched: run tools/install-deps.sh or, as root, tools/vm/kernels.sh fetch 6.12"
		image=/boot/vmlinuz-$kver moddir=/lib/modules/$kver kdir=/lib/modules/$kver/build
		;;
	7.3)
		kver=$(read_env 7.3)
		if [ -z "$kver" ] || [ ! -d "$kcache/7.3/$kver" ] || [ ! -f "$root73/.clkstat-done" ]; then
			note "7.3 is not in $kcache yet: fetching it (once)"
			# (stdout is info's answer, which callers eval)
			fetch 7.3 >&2
			kver=$(read_env 7.3)
		fi
		moddir=$kcache/7.3/$kver/usr/lib/modules/$kver
		image=$moddir/vmlinuz kdir=/usr/src/linux-headers-$kver chroot=$root73
		;;
	esac
	[ -r "$image" ] || die "$line: no image $image: run tools/vm/kernels.sh fetch $line"
	[ -d "$moddir/kernel" ] || die "$line: no modules in $moddir: run tools/vm/kernels.sh fetch $line"
	[ -f "$chroot$kdir/Makefile" ] || die "$line: no build tree $chroot$kdir: run tools/vm/kernels.sh fetch $line"
}

# info: prints shell-sourceable lines for the fetched version: kver (the
# full version, `uname -r` in a guest), image (bootable), moddir (its
# lib/modules/KVER folder), kdir (the build tree; inside the chroot when
# chroot is set) and chroot (empty: builds on the host).  It never
# changes the system: a line never fetched fails with the command that
# fetches it, except 7.3, which lives only in the cache and is fetched
# on first use (about a minute).
info() {
	[ $# = 1 ] || die "usage: kernels.sh info LINE"
	local kver image moddir kdir chroot v
	info_vars "$1"
	for v in kver image moddir kdir chroot; do
		printf '%s=%q\n' "$v" "${!v}"
	done
}

# --- build --------------------------------------------------------------

# vmlinux_elf KVER IMAGE: the ELF image of IMAGE (module BTF's base),
# extracted once with the kernel's own extract-vmlinux (from Debian's
# linux-source-6.12, unpacked by build-test-kernel.sh).
vmlinux_elf() {
	local f=$kcache/vmlinux-$1 src
	if [ ! -s "$f" ]; then
		src=$(CLKSTAT_CACHE=$cache "$here/build-test-kernel.sh" --extract-only)
		mkdir -p "$kcache"
		"$src/scripts/extract-vmlinux" "$2" > "$f.tmp.$$"
		mv "$f.tmp.$$" "$f"
	fi
	echo "$f"
}

# build: copies Kbuild and kmod/ (with --kunit, kunit/ too) without
# objects into OUT and builds the modules there against LINE's tree (on
# the host, or in the chroot with OUT bind-mounted into it), or against
# the kernel tree TREE (any argument with a slash, e.g. the debug
# kernel's source with VAR O=its build folder).  VAR=VALUE go to make
# (CLKSTAT_FAULT_HOOKS=1, ...).  --kunit builds the KUnit suites after
# the modules (OUT/kunit/clkstat_test.ko).  Modules land in OUT/kmod, the
# whole log in OUT.log.  Where the headers carry no vmlinux (6.1), kbuild
# skips the modules' BTF: it is added with pahole against the line's own
# image, as kbuild does on the other lines; the same image's BTF gives the
# module struct rq's layout (CLKSTAT_BTF, kmod/gen_rq_offsets.sh).  --strict fails the build on
# any compiler, objtool or modpost warning in the log.  --reuse keeps
# what OUT holds when it was built from the same sources (their content,
# not their times), for the same kernel and with the same VARs, by an
# earlier build of this run or another: make check's stages of one line
# share one build so (tools/tests/guest.sh); builders of one OUT take
# turns (OUT.lock), so the second waits for the first and reuses.
build() {
	local strict=0 kunit=0 reuse=0 target out kver="" image="" moddir kdir chroot="" v ko rc=0 key
	while [ $# -gt 0 ]; do
		case "$1" in
		--strict) strict=1; shift ;;
		--kunit) kunit=1; shift ;;
		--reuse) reuse=1; shift ;;
		*) break ;;
		esac
	done
	[ $# -ge 2 ] || die "usage: kernels.sh build [--strict] [--kunit] [--reuse] LINE|TREE OUT [VAR=VALUE...]"
	target=$1 out=$(realpath -m "$2"); shift 2
	for v in "$@"; do
		[[ "$v" =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "build: '$v' is not VAR=VALUE"
	done
	case "$target" in
	*/*) kdir=$(realpath "$target") ;;
	*) info_vars "$target" ;;
	esac

	local dirs=(Kbuild kmod)
	[ $kunit = 0 ] || dirs+=(kunit)
	# The sources, without kmod/'s own build products; in a fixed order
	# with fixed owners and times, so that their hash is their content's.
	sources() {
		tar -C "$top" -c --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
			--exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
			--exclude='*.mod.c' --exclude='.*.cmd' --exclude=modules.order \
			--exclude=Module.symvers "${dirs[@]}"
	}
	# The kernel built, not only its configuration: a test kernel rebuilt
	# from the same .config has new BTF and symbol CRCs, and modules built
	# against the old one fail to load ("BPF: Invalid name").  The build
	# tree is O='s when one is given, else the kernel's directory.
	kernel_identity() {	# kernel_identity KDIR [VAR=VALUE...]
		local tree=$1 a f; shift
		for a in "$@"; do
			case "$a" in O=*) tree=${a#O=} ;; esac
		done
		for f in vmlinux Module.symvers; do
			stat -c "$f %s %Y" "$tree/$f" 2>/dev/null || echo "$f none"
		done
	}
	if [ $reuse = 1 ]; then
		mkdir -p "$(dirname "$out")"
		exec 7> "$out.lock"
		flock 7
		key=$( { echo "$target $kver $kdir $image kunit=$kunit $*"
			 cat "$chroot$kdir/.config" 2>/dev/null
			 kernel_identity "$chroot$kdir" "$@"
			 sources; } | sha256sum | cut -c1-32)
		if [ -f "$out/.clkstat-built" ] && [ "$(cat "$out/.clkstat-built")" = "$key" ]; then
			strict_check
			return
		fi
	fi
	rm -rf "$out"
	mkdir -p "$out"
	sources | tar -C "$out" -x

	if [ -n "$chroot" ]; then
		need_private_mounts
		# A fetch must not replace the chroot under the build; the
		# version is read again under the lock, in case one just did.
		lock "$target" -s
		info_vars "$target"
		# (global: the EXIT trap runs after build() has returned)
		mnt=$(mktemp -d "$chroot/mnt/build.XXXXXX")
		trap 'rmdir "$mnt"' EXIT
	fi
	kmake() {
		if [ -n "$chroot" ]; then
			in_chroot "$out" "${mnt#"$chroot"}" -- make -C "$kdir" M="${mnt#"$chroot"}" "$@" modules
		else
			make -C "$kdir" M="$out" "$@" modules
		fi
	}
	# struct rq's layout (kmod/gen_rq_offsets.sh) from the image's BTF
	# where the headers have no vmlinux (6.1): the same ELF image as the
	# modules' BTF below.
	local btf=()
	if [ -n "$image" ] && [ ! -e "$chroot$kdir/vmlinux" ]; then
		btf=("CLKSTAT_BTF=$(vmlinux_elf "$kver" "$image")")
	fi
	{
		kmake "$@" "${btf[@]}" &&
			{ [ $kunit = 0 ] || kmake "$@" "${btf[@]}" CLKSTAT_KUNIT=1; }
	} > "$out.log" 2>&1 || rc=$?
	if [ $rc = 0 ] && [ -n "$image" ] && [ ! -e "$chroot$kdir/vmlinux" ] &&
	   grep -qx 'CONFIG_DEBUG_INFO_BTF_MODULES=y' "$chroot$kdir/.config"; then
		v=$(vmlinux_elf "$kver" "$image")
		for ko in "$out"/kmod/*.ko "$out"/kunit/*.ko; do
			[ -f "$ko" ] || continue
			readelf -S "$ko" | grep -q '\.BTF' && continue
			echo "  PAHOLE  $ko (BTF, base $v)" >> "$out.log"
			pahole -J --btf_base "$v" "$ko" >> "$out.log" 2>&1 || { rc=$?; break; }
		done
	fi
	if [ $rc != 0 ]; then
		tail -20 "$out.log" >&2
		die "the modules did not build for $target (exit status $rc); see $out.log"
	fi
	strict_check
	[ $reuse = 0 ] || echo "$key" > "$out/.clkstat-built"
}

# strict_check: with build's --strict, fail on any warning in the
# build's log (a reused build's too: its log is the one it was built
# with).
strict_check() {
	[ $strict = 1 ] || return 0
	# Kbuild's note on headers without vmlinux is no warning.
	v=$(grep -E 'warning:|objtool|WARNING:' "$out.log" | grep -v 'Skipping BTF generation' || true)
	if [ -n "$v" ]; then
		echo "$v" >&2
		die "--strict: warnings building for $target; see $out.log"
	fi
}

case "${1:-}" in
lines) echo "$LINES" | tr ' ' '\n' ;;
default) echo "$DEFAULT_LINE" ;;
fetch) shift; [ $# -ge 1 ] || die "usage: kernels.sh fetch LINE..."; fetch "$@" ;;
info) shift; info "$@" ;;
build) shift; build "$@" ;;
*) sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
