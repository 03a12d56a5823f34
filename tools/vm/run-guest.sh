#!/bin/bash
# Boot a QEMU/TCG guest and run a command in it.
#
# usage: run-guest.sh [options] --out DIR -- COMMAND [ARG...]
#        run-guest.sh [options] --out DIR --root DIR --init PROG
#        run-guest.sh [options] --out DIR --payload PAYLOAD_DIR
# The options are listed where they are parsed, below.
#
# The default mode runs COMMAND with bash in the host's own userspace
# (mounted read-only over 9p, like virtme-ng), in the current folder, with
# DIR (a host folder) writable at the same path; COMMAND finds DIR's path
# in the guest in $CLKSTAT_GUEST_OUT.  --payload runs a self-contained
# PAYLOAD_DIR/run.sh from the initramfs instead (for kernels without 9p);
# its results are read from the console.  The console goes to
# DIR/console.log and to stdout.  The guest caches what it reads of the
# host's root (9p cache=loose: execs a third faster): a file the host
# changes while the guest runs may keep its old content there, so what the
# host hands a running guest goes through DIR, which is not cached.  The
# guest mounts tmpfs on /tmp, /run and /var/tmp; DIR and the current
# folder may still be below them (a clone in /tmp): guest-init mounts them
# again on top.  In 9p mode the initramfs (cached in build/vm per kernel
# version) carries the kernel's own virtio and 9p modules.  Every guest
# runs TCG single-threaded (--accel below).  Documentation/clkstat.rst,
# "Testing in QEMU".
#
# Exit status: the command's (in --payload mode QEMU's), 124 on timeout,
# 125 if the guest ended without reporting one (a crash).
set -euo pipefail
here=$(dirname "$(realpath "$0")")
top=$(realpath "$here/../..")

# Options:
#   --kver LINE      boot that kernel line's image (tools/vm/kernels.sh:
#                    6.1, 6.12, 7.3) with its own virtio and 9p modules
#   --kernel IMAGE   boot IMAGE instead; its modules are those of
#                    /lib/modules/<the version IMAGE names>
#                    Neither: the line CLKSTAT_KVER names (`make` sets it
#                    from its KVER), else kernels.sh's default line (6.12).
#   --9p-builtin     IMAGE has virtio and 9p built in (the debug kernel):
#                    the initramfs carries no modules
#   --smp N          vCPUs (default 2)     --mem MB  memory (default 1024)
#   --timeout S      wall-clock limit (default 1800)
#   --append ARGS    extra kernel command line
#   --accel ACCEL    QEMU's -accel value (default tcg,thread=single: why,
#                    Documentation/clkstat.rst, "QEMU and code patching")
#   --root DIR       the guest's userspace is DIR (a Debian tree, e.g. the
#                    bookworm chroot tools/tests/deb.sh installs the
#                    packages into) instead of the host's /: COMMAND runs
#                    there, in /, with DIR's programs, modules and
#                    /etc; the results folder (--out) is at /run/clkstat-out
#                    in the guest (a tmpfs the guest makes, so DIR need not
#                    have it)
#   --init PROG      with --root: PROG of DIR (e.g. /lib/systemd/systemd)
#                    boots as PID 1 instead of running a COMMAND (none is
#                    given): DIR's own init starts what DIR enables, and a
#                    unit of DIR's must write the exit status to
#                    /run/clkstat-out/rc and end the guest (reboot or
#                    poweroff); DIR stays read-only
# Environment: CLKSTAT_QEMU_ARGS adds QEMU options (split on spaces), e.g.
# "-monitor unix:/path/mon.sock,server,nowait" to inspect a hung guest.
#
# Why single-threaded TCG (the default of --accel): with QEMU 7.2's
# multi-threaded TCG, a vCPU can keep executing a stale translation of
# code the guest kernel has patched.
# Caught in the act (Documentation/clkstat.rst, "QEMU and code patching"):
# both vCPUs trapping forever on an int3 at try_to_wake_up+0 that
# text_poke_bp() had already replaced with the final nop; the kernel's
# int3 handler sees no int3 in memory and rewinds to re-execute, the vCPU
# runs its stale copy again.  Every hook attach and detach patches code
# that the other vCPU runs, so every guest here runs single-threaded.
accel=tcg,thread=single kernel="" line="" builtin9p=0 smp=2 mem=1024 timeout=1800 append="" out="" payload="" root="" init=""
while [ $# -gt 0 ]; do
	case "$1" in
	--accel) accel=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--kver) line=$2; shift 2 ;;
	--9p-builtin) builtin9p=1; shift ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--payload) payload=$2; shift 2 ;;
	--root) root=$2; shift 2 ;;
	--init) init=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help)
		# The usage and the options, from the comments above.
		sed -n -e '4,6s/^# //p' -e '/^# Options:/,/^# Environment:/{/^# Environment:/q;s/^# \{0,1\}//p}' "$0"
		echo "Example, your own commands in the guest, from a clone with \`make\` run:"
		echo "  tools/vm/run-guest.sh --kver 6.12 --out /tmp/g -- \\"
		echo "    sh -c 'insmod kmod/clkstat.ko && tools/workload/clkstat-pingpong -n 100 && tools/clkstat-report'"
		echo "Documentation/clkstat.rst, \"Testing in QEMU\"."
		exit 0 ;;
	*) echo "run-guest: unknown option $1 (run-guest.sh --help lists them)" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || { echo "run-guest: --out DIR is required" >&2; exit 2; }
[ -n "$payload" ] || [ -n "$init" ] || [ $# -gt 0 ] || { echo "run-guest: no command" >&2; exit 2; }
if [ -n "$init" ]; then
	[ -n "$root" ] || { echo "run-guest: --init needs --root" >&2; exit 2; }
	[ $# = 0 ] || { echo "run-guest: --init runs no command" >&2; exit 2; }
	case "$init" in
	/*[[:space:]]*|[!/]*) echo "run-guest: --init '$init': an absolute path without spaces" >&2; exit 2 ;;
	esac
	[ -x "$root$init" ] || [ -L "$root$init" ] || { echo "run-guest: $root has no $init" >&2; exit 2; }
fi
[ -z "$kernel" ] || [ -z "$line" ] || { echo "run-guest: --kver or --kernel, not both" >&2; exit 2; }
[ -z "$root" ] || [ -z "$payload" ] || { echo "run-guest: --root or --payload, not both" >&2; exit 2; }
if [ -n "$root" ]; then
	[ -x "$root/bin/bash" ] || { echo "run-guest: $root has no /bin/bash: not a root to run in" >&2; exit 2; }
	root=$(realpath "$root")
fi
mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out/rc" "$out/console.log"
# In 9p mode both reach guest-init on the kernel command line, split on
# spaces; and a tmpfs the guest mounts must not be what they are.
for p in "$out" "$PWD" $root; do
	[ -z "$payload" ] || break
	case "$p" in
	*[[:space:]]*) echo "run-guest: '$p' has a space; the guest cannot mount it" >&2; exit 2 ;;
	/tmp|/run|/var/tmp) echo "run-guest: $p itself is a tmpfs in the guest; use a folder below it" >&2; exit 2 ;;
	esac
done

# image_release IMAGE: the kernel release an x86 bzImage names in its
# header (the string at 0x200 plus the 16-bit offset at 0x20e).
image_release() {
	local off
	[ "$(dd if="$1" bs=1 skip=$((0x202)) count=4 2>/dev/null)" = HdrS ] || return 0
	off=$(od -An -tu2 -j $((0x20e)) -N2 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$((off + 0x200)) count=128 2>/dev/null | tr '\0' '\n' | head -1 | cut -d' ' -f1
}

if [ -z "$kernel" ]; then
	line=${line:-${CLKSTAT_KVER:-$("$here/kernels.sh" default)}}
	# kver, image, moddir (and kdir, chroot) of the line
	info=$("$here/kernels.sh" info "$line") || exit 2
	eval "$info"
	# shellcheck disable=SC2154  # image: from kernels.sh info
	kernel=$image
else
	[ -r "$kernel" ] || { echo "run-guest: cannot read kernel $kernel" >&2; exit 2; }
	kver=$(image_release "$kernel")
	moddir=/lib/modules/$kver
	if [ -z "$payload" ] && [ $builtin9p = 0 ] && { [ -z "$kver" ] || [ ! -d "$moddir" ]; }; then
		echo "run-guest: no modules for $kernel (version '$kver') in /lib/modules: use --kver LINE, or --9p-builtin" >&2
		exit 2
	fi
fi
[ -r "$kernel" ] || { echo "run-guest: cannot read kernel $kernel" >&2; exit 2; }

cache=$top/build/vm
mkdir -p "$cache"
virtfs=()
if [ -n "$payload" ]; then
	initrd=$out/initramfs.cpio.gz
	"$here/mkinitramfs.sh" "$initrd" --payload "$payload"
else
	if [ $builtin9p = 1 ]; then
		initrd=$cache/initramfs-9p-builtin.cpio.gz
		mkargs=(--9p-builtin)
	else
		initrd=$cache/initramfs-9p-$kver.cpio.gz
		mkargs=(--9p "$moddir")
	fi
	if [ ! -f "$initrd" ] || [ "$initrd" -ot "$here/guest-init" ] ||
	   [ "$initrd" -ot "$here/mkinitramfs.sh" ]; then
		"$here/mkinitramfs.sh" "$initrd" "${mkargs[@]}"
	fi
	# Where the guest finds the host's root, the results folder and the
	# current folder: the same paths, or with --root DIR at DIR's /.
	export_root=/ guest_out=$out guest_cwd=$PWD
	[ -z "$root" ] || export_root=$root guest_out=/run/clkstat-out guest_cwd=/
	{
		echo "cd $(printf '%q' "$guest_cwd") || exit 125"
		printf 'export CLKSTAT_GUEST_OUT=%q\n' "$guest_out"
		# The guest's environment is otherwise empty: the test suites'
		# knobs (CLKSTAT_SOAK_*, CLKSTAT_FAULT_*, CLKSTAT_RACE_*,
		# CLKSTAT_TRACE_*, CLKSTAT_FUZZ_*, CLKSTAT_DEBUG_*,
		# CLKSTAT_*_SEED, CLKSTAT_VALGRIND, CLKSTAT_VALGRIND_QUEUE) and
		# the modules to test (CLKSTAT_KMOD) go with the command.
		{ env | grep -E '^CLKSTAT_(SOAK_[A-Z_]+|FAULT_[A-Z_]+|RACE_[A-Z_]+|TRACE_[A-Z_]+|SWEEP_[A-Z_]+|FUZZ_[A-Z_]+|DEBUG_[A-Z_]+|[A-Z]+_SEED|VALGRIND|VALGRIND_QUEUE|KMOD)=' || true; } |
			while IFS= read -r kv; do
				printf 'export %q\n' "$kv"
			done
		printf 'exec'
		printf ' %q' "$@"
		echo
	} > "$out/cmd.sh"
	virtfs=(-virtfs "local,path=$export_root,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$out,mount_tag=results,security_model=none,multidevs=remap")
	append="$append clkstat_out=$guest_out clkstat_cwd=$guest_cwd${init:+ clkstat_init=$init}"
fi

read -r -a extra <<< "${CLKSTAT_QEMU_ARGS:-}"
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 -accel "$accel" "${extra[@]}" -smp "$smp" -m "$mem" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=4 $append" \
	"${virtfs[@]}" -nographic -no-reboot -nodefaults -serial stdio \
	</dev/null 2>&1 | tee "$out/console.log"
qrc=${PIPESTATUS[0]}
set -e
if [ "$qrc" = 124 ]; then
	echo "run-guest: guest timed out after ${timeout}s" >&2
	exit 124
fi
if [ -n "$payload" ]; then
	exit "$qrc"
fi
if [ ! -f "$out/rc" ]; then
	echo "run-guest: guest ended without an exit status (crash?); see $out/console.log" >&2
	exit 125
fi
exit "$(cat "$out/rc")"
