#!/bin/bash
# The build check of every kernel line clkstat supports (tools/vm/kernels.sh
# lines: 6.1, 6.12, 7.3): clkstat.ko, the bench modules and
# clkstat_fakefreq.ko built against each line's own headers and kbuild
# (7.3's in its trixie chroot) with
# `kernels.sh build --strict`, which fails on any compiler, objtool or
# modpost warning in the log.  objtool runs as each kernel's kbuild runs it
# (on 6.12 and 7.3 with --ibt, so a missing ENDBR64 or an indirect jump
# objtool cannot follow is a warning here).  Each module built is checked
# for its vermagic (the line's version) and, where the kernel has IBT, for
# the ENDBR64 the direct trampolines start with (each entry hook's own,
# made by direct_tramp.h).  A line not fetched yet is
# fetched here (tools/install-deps.sh fetches them all).  Then a kernel config without
# direct calls: the build leaves the direct variant out and keeps its
# refusal by name.  Last line: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top" || exit 1
mkdir -p build/kmod
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $*"; }
indent() { sed 's/^/#   /'; }

# endbr_at KO SYMBOL: does SYMBOL's code in KO start with ENDBR64?
endbr_at() {
	# awk reads to the end: objdump must not die of a closed pipe.
	objdump -d --no-show-raw-insn "$1" 2>/dev/null |
		awk -v s="<$2>:" 'found == 1 { print; found = 2 } $2 == s { found = 1 }' |
		grep -q endbr64
}

# misaligned KO: its direct trampolines whose offset is not a multiple of
# 16 (7.x's ftrace takes an odd trampoline address for a jump, not a call).
misaligned() {
	nm "$1" | while read -r a _ s; do
		case "$s" in
		clkstat_direct_tramp*) [ $((0x$a % 16)) = 0 ] || echo "$s" ;;
		esac
	done
}

for line in $(tools/vm/kernels.sh lines); do
	# The build the guest stages of this line reuse (tools/tests/guest.sh).
	out=build/kmod/$line
	t0=$SECONDS
	# Its stdout alone is evaluated: a first fetch's notes go to stderr
	# (7.3 is fetched on first use; with them, eval failed and the line
	# was checked against the previous line's kernel).
	if ! info=$(tools/vm/kernels.sh info "$line" 2> "$out.info-err"); then
		not_ok "$line: no kernel: $(tail -n 3 "$out.info-err")"
		continue
	fi
	# kver= image= moddir= kdir= chroot=, quoted for the shell; none
	# left from the line before.
	unset kver image moddir kdir chroot
	if ! eval "$info" || [ -z "${kver:-}" ]; then
		not_ok "$line: kernels.sh info said no kernel: $info"
		continue
	fi
	if ! tools/vm/kernels.sh build --strict --reuse "$line" "$out" > "$out.out" 2>&1; then
		not_ok "$line ($kver): the build is not clean"
		indent < "$out.out"
		continue
	fi
	ok "$line ($kver): clkstat.ko, the bench modules and clkstat_fakefreq.ko, no compiler, objtool or modpost warning ($((SECONDS - t0)) s)"
	for ko in clkstat clkstat_bench clkstat_hookbench clkstat_fakefreq; do
		vm=$(modinfo -F vermagic "$out/kmod/$ko.ko" 2>/dev/null | awk '{ print $1 }')
		if [ "$vm" = "$kver" ]; then
			ok "$line: $ko.ko's vermagic is $kver"
		else
			not_ok "$line: $ko.ko's vermagic is '$vm', not $kver"
		fi
	done
	bad=$(misaligned "$out/kmod/clkstat.ko"; misaligned "$out/kmod/clkstat_hookbench.ko")
	# grep without -q: it reads to the end, nm must not die of a closed pipe.
	if [ -z "$bad" ] && nm "$out/kmod/clkstat.ko" | grep clkstat_direct_tramp_ttwu_on_wakeup > /dev/null; then
		ok "$line: the direct trampolines are 16-byte aligned"
	elif [ -n "$bad" ]; then
		not_ok "$line: direct trampolines not 16-byte aligned: $(echo $bad)"
	fi
	# The line's config: in the chroot for 7.3.
	if grep -qx 'CONFIG_X86_KERNEL_IBT=y' "$chroot$kdir/.config"; then
		if endbr_at "$out/kmod/clkstat.ko" clkstat_direct_tramp_ttwu_on_wakeup &&
		   endbr_at "$out/kmod/clkstat.ko" clkstat_direct_tramp_tk_ktime_get &&
		   endbr_at "$out/kmod/clkstat.ko" clkstat_direct_tramp_trace_both_15 &&
		   endbr_at "$out/kmod/clkstat_hookbench.ko" clkstat_direct_tramp_bench; then
			ok "$line: IBT kernel: the direct trampolines start with ENDBR64"
		else
			not_ok "$line: IBT kernel: a direct trampoline without ENDBR64"
		fi
	fi
done

# A kernel without a variant's ftrace feature: 6.12's headers with
# CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS taken out of their config (a
# copy; the links into kbuild made absolute).  The build must stay clean,
# leave the direct variant's code out and keep the stand-in that refuses
# it by name at load.  Build only: a module built against an edited
# config has struct layouts (ftrace_ops) that are not the running
# kernel's, so it is never loaded.
nodirect() {
	local src tree=build/strict-nodirect-tree out=build/strict-nodirect opt=CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS l strs
	eval "$(tools/vm/kernels.sh info 6.12)" || return 1
	src=$(realpath "$kdir")
	rm -rf "$tree"
	cp -a "$src" "$tree"
	for l in scripts tools; do
		[ ! -L "$tree/$l" ] || ln -sfn "$(realpath "$src/$l")" "$tree/$l"
	done
	sed -i "/^$opt=/d" "$tree/.config" "$tree/include/config/auto.conf"
	sed -i "/^#define $opt 1\$/d" "$tree/include/generated/autoconf.h"
	if grep -q "$opt" "$tree/include/config/auto.conf" "$tree/include/generated/autoconf.h"; then
		not_ok "no-direct-calls tree: $opt still set"
		return
	fi
	if ! tools/vm/kernels.sh build --strict "$(realpath "$tree")" "$out" > "$out.out" 2>&1; then
		not_ok "a 6.12 config without $opt: the build is not clean"
		indent < "$out.out"
		return
	fi
	ok "a 6.12 config without $opt: clkstat.ko builds without a warning"
	if nm "$out/kmod/clkstat.ko" "$out/kmod/clkstat_hookbench.ko" |
	   grep -cE ' clkstat_direct_tramp(_ttwu_on_wakeup|_trace_both_0|_bench)$' > /dev/null; then
		not_ok "without $opt: the direct trampolines are still built in"
	else
		ok "without $opt: no direct trampolines, no direct-call code"
	fi
	strs=$(strings "$out/kmod/clkstat.ko")
	if grep -qx "$opt" <<< "$strs" &&
	   grep -q 'variant %s needs %s, which this kernel lacks' <<< "$strs" &&
	   nm "$out/kmod/clkstat.ko" | grep -c ' clkstat_direct_missing$' > /dev/null; then
		ok "without $opt: the load refuses variant direct naming $opt"
	else
		not_ok "without $opt: no message naming $opt in clkstat.ko"
	fi
}
nodirect || not_ok "no-direct-calls tree: 6.12 is not there"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
