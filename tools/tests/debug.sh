#!/bin/bash
# The guest suites on the debug kernel: Debian's linux-source-6.1 built
# with KASAN, kmemleak, lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, UBSAN,
# DEBUG_LIST and fault injection (tools/vm/debug.config), with clkstat's
# modules built against it (kmod/ keeps the build for Debian's kernel).
#
# Runs the whole integration suite (module_tests.sh) and the hardening
# suites, then fails on any report of the checkers in the kernel log, or a
# leak kmemleak finds, and prints the hardening report.
#
# usage: debug.sh                       the hardening suites and a part of
#                                       module_tests.sh (DEBUG_MODULE_TESTS)
#        debug.sh --full                the same with all of module_tests.sh
#        debug.sh SCRIPT [TEST...]      one suite of tools/tests/guest/
# Last line: "N passed, N failed".
#
# Why a part by default: everything runs 3 to 10 times slower on this
# kernel under TCG (a module load and unload takes 4.5 s, 0.8 s on
# Debian's; kmemleak's tracking of every allocation is half of it), and
# the whole of module_tests.sh takes about an hour there; `make check`
# has 90 minutes for everything, of which this stage gets about 20 (it
# runs beside the stages on Debian's kernel, tools/tests/run-all.sh).
# The part: every hook variant attached, switched and detached, the exit
# hooks of csswitch, reset; the KUnit suites (two CPUs), the hostile-input
# suite at full length, the fault sweeps sampled, a short soak.  --full
# (`make check-debug`) runs all of module_tests.sh and every
# hardening_*.sh at full length (Documentation/clkstat-hardening.rst).
# CLKSTAT_DEBUG_TIMEOUT: the guest's limit in seconds (2700; --full
# 36000).
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
cache=${CLKSTAT_CACHE:-/var/cache/clkstat}
src=$cache/linux-source-6.1
out=$top/build/debug
mkdir -p "$out"

if ! kbuild=$(tools/vm/build-test-kernel.sh kunit/kernel.config tools/vm/debug.config 2> "$out/kernel-build.log"); then
	tail -20 "$out/kernel-build.log" >&2
	echo "debug: the debug kernel did not build; see $out/kernel-build.log"
	echo "0 passed, 1 failed"
	exit 1
fi

# The modules, from a copy of the sources (no objects of kmod/'s build),
# with the fault-injection hooks (CLKSTAT_FAULT_HOOKS, see kmod/Kbuild).
# DEBUG_INFO_BTF_MODULES gives them BTF against the debug kernel.
mod=$out/src
rm -rf "$mod"
mkdir -p "$mod"
tar -C "$top" -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude=modules.order \
	--exclude=Module.symvers Kbuild kmod kunit | tar -C "$mod" -x
# The KUnit suites too (hardening_kunit.sh): the debug kernel has KUnit.
if ! make -C "$src" O="$kbuild" M="$mod" CLKSTAT_FAULT_HOOKS=1 modules > "$out/module-build.log" 2>&1 ||
   ! make -C "$src" O="$kbuild" M="$mod" CLKSTAT_KUNIT=1 modules >> "$out/module-build.log" 2>&1; then
	tail -20 "$out/module-build.log" >&2
	echo "debug: the modules did not build against the debug kernel"
	echo "0 passed, 1 failed"
	exit 1
fi

DEBUG_MODULE_TESTS="t_load_files t_variant_hooks t_variant_switch
	t_csswitch t_stop_start_reset"
DEBUG_SUITES="hardening_kunit.sh hardening_input.sh hardening_faults.sh
	hardening_soak.sh"
timeout=${CLKSTAT_DEBUG_TIMEOUT:-2700}
if [ "${1:-}" = --full ]; then
	DEBUG_MODULE_TESTS=""
	DEBUG_SUITES=$(cd tools/tests/guest && echo hardening_*.sh)
	timeout=${CLKSTAT_DEBUG_TIMEOUT:-36000}
	shift
elif [ $# = 0 ]; then
	# The part's lengths: the fault sweeps fail every 19th allocation of
	# a load or a switch, not every one (every one: hours here); a soak
	# of 10 cycles and 10 switches under kmemleak (the full 1000 and
	# 1000: `make soak` on Debian's kernel, --full here).  run-guest.sh
	# passes them on to the guest.  The security suite checks nothing
	# that needs the checkers: it runs on Debian's kernel, in make
	# check's hardening stage.
	export CLKSTAT_FAULT_STEP=${CLKSTAT_FAULT_STEP:-19}
	export CLKSTAT_SOAK_CYCLES=${CLKSTAT_SOAK_CYCLES:-10}
	export CLKSTAT_SOAK_SWITCHES=${CLKSTAT_SOAK_SWITCHES:-10}
fi

# pci=noacpi: PCI interrupt routing from the BIOS's table, not from ACPI's
# _PRT, whose AML loop runs into ACPICA's 30 s loop timeout under KASAN
# and TCG (twice per boot, a minute lost).  ACPI itself stays: acpi_pm.
# log_buf_len: the default 128 kB wrapped within one suite, and the scan
# below reads the log saved at the end.
append="pci=noacpi log_buf_len=16M"
g=$out/guest
tools/vm/run-guest.sh --kernel "$kbuild/arch/x86/boot/bzImage" --9p-builtin \
	--append "$append" \
	--mem 2048 --timeout "$timeout" --out "$g" -- \
	env CLKSTAT_KMOD="$mod/kmod" CLKSTAT_KUNIT_KO="$mod/kunit/clkstat_test.ko" \
	CLKSTAT_DEBUG_KERNEL=1 DEBUG_MODULE_TESTS="$DEBUG_MODULE_TESTS" \
	DEBUG_SUITES="$DEBUG_SUITES" \
	bash tools/tests/guest/debug_run.sh "$g" "$@" > "$g.log" 2>&1
rc=$?
tr -d '\r' < "$g.log" | grep -oE '((not )?ok [0-9]+ - .*|^    .*)' || true

passed=0 failed=0
while read -r p _ f _; do
	passed=$((passed + p)) failed=$((failed + f))
done < <(tr -d '\r' < "$g.log" | grep -E '^[0-9]+ passed, [0-9]+ failed')
if ! tr -d '\r' < "$g.log" | grep -qE '^[0-9]+ passed, [0-9]+ failed'; then
	echo "debug: no result line (guest exit status $rc); see $g/console.log" >&2
	failed=$((failed + 1))
fi

# The checkers' reports.  The console shows what the kernel printed at
# error level and above (a crash included); dmesg.txt, saved by the guest
# at the end, has the whole log.  Inside the fault-injection windows
# (between "clkstat-fault-window begin" and "end"), reports of failed
# allocations are what was asked for; everything else still counts.
hard='BUG: KASAN|UBSAN:|Oops|general protection|kernel BUG|BUG: sleeping function|BUG: unable to handle|BUG: scheduling while atomic|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|list_(add|del) corruption|BUG: (workqueue|spinlock|bad unlock)|Kernel panic'
soft='WARNING:|Call Trace|INFO: |BUG:'
log=$g/dmesg.txt
[ -s "$log" ] || log=$g/console.log
reports=$(tr -d '\r' < "$log" | awk -v hard="$hard" -v soft="$soft" '
	/clkstat-fault-window begin/ { inwin = 1 }
	/clkstat-fault-window end/ { inwin = 0 }
	$0 ~ hard || (!inwin && $0 ~ soft) { print }')
if [ -n "$reports" ]; then
	echo "$reports" | head -40 | sed 's/^/    # /'
	echo "not ok - debug kernel log free of KASAN, UBSAN, lockdep, BUG and WARNING reports"
	failed=$((failed + 1))
else
	echo "ok - debug kernel log free of KASAN, UBSAN, lockdep, BUG and WARNING reports"
	passed=$((passed + 1))
fi
if [ ! -f "$g/kmemleak.txt" ]; then
	echo "not ok - kmemleak: no final scan (the guest did not finish)"
	failed=$((failed + 1))
elif [ -s "$g/kmemleak.txt" ]; then
	head -40 "$g/kmemleak.txt" | sed 's/^/    # /'
	echo "not ok - kmemleak: no leak after every suite"
	failed=$((failed + 1))
else
	echo "ok - kmemleak: no leak after every suite"
	passed=$((passed + 1))
fi

# The hardening report: what the suites did, from their "# report: KEY N"
# lines (summed over tests).
echo "=== hardening report (debug kernel $(basename "$kbuild"))"
tr -d '\r' < "$g.log" | awk '
	$1 == "#" && $2 == "report:" { n[$3] += $4; if (!($3 in seen)) { seen[$3] = 1; order[++k] = $3 } }
	END { for (i = 1; i <= k; i++) printf "  %-28s %d\n", order[i], n[order[i]] }'
printf '  %-28s %d\n' "failures found" "$failed"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
