#!/bin/bash
# The guest suites on the debug kernel: Debian's linux-source-6.12 built
# with KASAN, kmemleak, lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, UBSAN,
# DEBUG_LIST and fault injection (tools/vm/debug.config), with clkstat's
# modules built against it (kmod/ keeps the build for Debian's kernel).
#
# Runs the guest suites there, then fails on any report of the checkers
# in the kernel log, or a leak kmemleak finds, and prints the hardening
# report.
#
# usage: debug.sh                  make check's part, in one guest
#        debug.sh --part faults    its fault sweeps (sampled) and soak
#        debug.sh --part input     its hook variants, KUnit and hostile
#                                  input (the two parts: make check runs
#                                  each in a guest of its own)
#        debug.sh --full           all of module_tests.sh and every
#                                  hardening_*.sh at full length
#                                  (make check-debug)
#        debug.sh SCRIPT [TEST...] one suite of tools/tests/guest/
# Last line: "N passed, N failed".
#
# Why a part by default (everything runs 3 to 10 times slower on this
# kernel under TCG, and `make check` has 90 minutes for everything), and
# what each part runs: Documentation/clkstat-hardening.rst, "The debug
# kernel".
# CLKSTAT_DEBUG_TIMEOUT: the guest's limit in seconds (3600; --full
# 36000).
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
part=""
if [ "${1:-}" = --part ]; then
	part=$2
	shift 2
	case "$part" in
	faults|input) ;;
	*) echo "debug: --part faults or --part input, not '$part'" >&2; exit 2 ;;
	esac
fi
out=$top/build/debug${part:+-$part}
mkdir -p "$out"

if ! kbuild=$(tools/vm/build-test-kernel.sh debug 2> "$out/kernel-build.log"); then
	tail -20 "$out/kernel-build.log" >&2
	echo "debug: the debug kernel did not build; see $out/kernel-build.log"
	echo "0 passed, 1 failed"
	exit 1
fi
src=$(tools/vm/build-test-kernel.sh --extract-only)

# The modules, with the fault-injection hooks (CLKSTAT_FAULT_HOOKS, see
# kmod/Kbuild), and the KUnit suites (hardening_kunit.sh): the debug
# kernel has KUnit.  DEBUG_INFO_BTF_MODULES gives them BTF against it.
# One build for both parts (make check runs them at once).
mod=$top/build/kmod/debug
if ! tools/tests/fault-modules.sh --kunit "$mod" -C "$src" O="$kbuild"; then
	echo "debug: the modules did not build against the debug kernel; see $mod.log"
	echo "0 passed, 1 failed"
	exit 1
fi

# The suites (tools/tests/guest/), each SCRIPT or SCRIPT:TEST,TEST.
PART_INPUT="module_tests.sh:t_load_files,t_variant_hooks,t_variant_switch,t_csswitch,t_stop_start_reset
	suite_usertrace.sh:t_trace_targets,t_trace_sleeper,t_trace_own_clock,t_trace_churn
	suite_netlink.sh:t_trace_dump_pause suite_sweep.sh:t_sweep
	hardening_kunit.sh hardening_input.sh"
# A sample of the trace sweep (Documentation/clkstat-traces.rst, "Safety"):
# CLKSTAT_SWEEP_N functions of the call graph and as many sampled, 3 each
# unless given; CLKSTAT_SWEEP_TP tracepoint pairs, 2.
export CLKSTAT_SWEEP_N=${CLKSTAT_SWEEP_N:-3}
export CLKSTAT_SWEEP_GRAPH=${CLKSTAT_SWEEP_GRAPH:-$CLKSTAT_SWEEP_N}
export CLKSTAT_SWEEP_TP=${CLKSTAT_SWEEP_TP:-2}
PART_FAULTS="hardening_faults.sh:t_fault_load,t_fault_switch hardening_soak.sh"
case "$part" in
input) DEBUG_SUITES=$PART_INPUT ;;
faults) DEBUG_SUITES=$PART_FAULTS ;;
*) DEBUG_SUITES="$PART_INPUT $PART_FAULTS" ;;
esac
timeout=${CLKSTAT_DEBUG_TIMEOUT:-3600}
if [ "${1:-}" = --full ]; then
	DEBUG_SUITES="module_tests.sh $(cd tools/tests/guest && echo hardening_*.sh)"
	timeout=${CLKSTAT_DEBUG_TIMEOUT:-36000}
	shift
elif [ $# = 0 ]; then
	# The part's lengths, chosen so that both parts take about 6½
	# minutes each beside another guest on the machine of
	# CLKSTAT_DEBUG_REF_MS (debug_run.sh), so that make check ends within
	# its time on a fresh machine: the fault sweeps fail every 60th
	# allocation of a load or a switch (from an offset each run's seed
	# gives, so runs cover different ones), not every one (every one:
	# hours here); a soak of 4 cycles and 4 switches under kmemleak (a
	# cycle under the storm takes 35 s here; the full 1000 and 1000:
	# `make soak` on Debian's kernel, --full here); 40 trace/untrace
	# pairs under load (1000 on Debian's kernel: a leak per pair shows
	# in 40 all the same); 30000 hostile inputs per interface (10^5 with
	# --full).  run-guest.sh passes them on to the guest, which shrinks
	# them on a slower machine (CLKSTAT_DEBUG_FIT=0: as given).  The
	# security suite and the missing targets check nothing that needs
	# the checkers or fault injection: they run on Debian's kernel, in
	# make check's stages security and missing (three times faster
	# there).
	export CLKSTAT_FAULT_STEP=${CLKSTAT_FAULT_STEP:-60}
	export CLKSTAT_SOAK_CYCLES=${CLKSTAT_SOAK_CYCLES:-4}
	export CLKSTAT_SOAK_SWITCHES=${CLKSTAT_SOAK_SWITCHES:-4}
	export CLKSTAT_TRACE_CHURN=${CLKSTAT_TRACE_CHURN:-40}
	export CLKSTAT_FUZZ_INPUTS=${CLKSTAT_FUZZ_INPUTS:-30000}
	export CLKSTAT_DEBUG_FIT=${CLKSTAT_DEBUG_FIT:-1}
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
	CLKSTAT_DEBUG_KERNEL=1 DEBUG_SUITES="$DEBUG_SUITES" \
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
echo "=== hardening report (debug kernel $(basename "$kbuild")${part:+, part $part})"
tr -d '\r' < "$g.log" | awk '
	$1 == "#" && $2 == "report:" { n[$3] += $4; if (!($3 in seen)) { seen[$3] = 1; order[++k] = $3 } }
	END { for (i = 1; i <= k; i++) printf "  %-28s %d\n", order[i], n[order[i]] }'
printf '  %-28s %d\n' "failures found" "$failed"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
