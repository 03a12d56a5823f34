#!/bin/bash
# Printed benchmarks (not pass/fail), in two QEMU guests on Debian's stock
# kernel, both booted with tsc=reliable (clock reads are TSC reads, as on
# real hardware; each table names its clocksource):
#  1. under QEMU's -icount shift=0,sleep=off, where one ns of guest time is
#     one instruction, deterministic run to run: `clkstat-report overhead
#     --only dispatch --icount --json`, the instructions per call of every
#     dispatch row and handler row (build/bench-insn/insn.json); then the
#     wakeup storm with clkstat.ko's default probes (ttwu) in instructions
#     (build/bench-insn/storm.txt), the throughput each variant keeps
#     without the emulator's timing in it; and between the two, the BPF
#     twin's handlers on real wakeups beside the module's pair and triple
#     (`overhead --only handlers`, build/bench-insn/handlers.txt): each
#     program's instructions per run less the BPF statistics' own floor;
#  2. plain TCG: clkstat_bench.ko's cost of one record next to a bare
#     per-CPU increment and memory per metric per CPU for each frac_bits;
#     then `clkstat-report overhead --insn build/bench-insn/insn.json`: the
#     per-event cost of every hook variant, module and BPF, on
#     clkstat_hookbench.ko's target (median and IQR over 10 interleaved
#     rounds, baselines subtracted, cold calls as p10/p50/p90, the
#     instructions of run 1 beside the ns), of userspace handshake points,
#     and the throughput a hackbench wakeup storm keeps under each variant
#     (median and IQR over CLKSTAT_BENCH_STORM_ROUNDS rounds, 10 by default).
# Documentation/clkstat-overhead.rst shows a run and how to read it.
# OVERHEAD_ARGS adds options to clkstat-report overhead (both runs).  The
# kernel line is make's (`make bench KVER=6.1`: CLKSTAT_KVER).
# usage: bench.sh [insn|ns]: both (make bench), or one of the two: make
# check runs insn in its queue beside other guests (instruction counts
# do not depend on the machine's load) and ns alone at its end.
set -euo pipefail
# The storm's rounds (make check: 5; each round runs hackbench once per
# variant, interleaved, so that the median and IQR hold with fewer).
rounds=${CLKSTAT_BENCH_STORM_ROUNDS:-10}
case "$rounds" in
''|*[!0-9]*|0) echo "bench: CLKSTAT_BENCH_STORM_ROUNDS='$rounds': a count of rounds, at least 1" >&2; exit 2 ;;
esac
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
part=${1:-all}
case "$part" in
all|insn|ns) ;;
*) echo "usage: bench.sh [insn|ns]" >&2; exit 2 ;;
esac

fail() {	# fail LOG OUT: run-guest.sh's own reason, if the guest never ran
	grep -E '^(run-guest|kernels.sh):' "$1" >&2 || true
	echo "bench: guest run failed; see $2/console.log" >&2
	exit 1
}

# 1. Instructions.  The dispatch section: few calls are enough, the count
# does not vary.  Then the storm, whose "seconds" here are instructions of
# the whole guest: the throughput a variant keeps as the CPU would see it
# (the handshake's figures are wall time of userspace work, not run here).
# One vCPU: the dispatch section runs on one CPU anyway, and 6.1 never
# brings a second one up under icount (it waits at "smp: Bringing up
# secondary CPUs"); the storm then runs its 20 tasks on that one CPU.
if [ "$part" != ns ]; then
rm -f build/bench-insn/insn.json build/bench-insn/storm.txt build/bench-insn/handlers.txt
CLKSTAT_QEMU_ARGS="-icount shift=0,sleep=off" tools/vm/run-guest.sh \
	--smp 1 --append "tsc=reliable" --out build/bench-insn \
	--timeout 1500 -- bash -c '
	set -e
	insmod kmod/clkstat.ko probes=ttwu,tkread
	insmod kmod/clkstat_hookbench.ko
	tools/clkstat-report overhead --only dispatch --icount --json \
		--calls 20000 '"${OVERHEAD_ARGS:-}"' > build/bench-insn/insn.json
	tools/clkstat-report overhead --only handlers --icount --calls 20000 \
		'"${OVERHEAD_ARGS:-}"' > build/bench-insn/handlers.txt
	rmmod clkstat_hookbench clkstat
	insmod kmod/clkstat.ko
	tools/clkstat-report overhead --only storm --icount --storm-rounds '"$rounds"' \
		--storm-loops 2000 '"${OVERHEAD_ARGS:-}"' > build/bench-insn/storm.txt
	rmmod clkstat' > build/bench-insn.log 2>&1 ||
	fail build/bench-insn.log build/bench-insn
fi
if [ "$part" = insn ]; then
	echo "bench: instructions in build/bench-insn/insn.json, the twin's handlers in build/bench-insn/handlers.txt, the storm in build/bench-insn/storm.txt"
	exit 0
fi
[ -s build/bench-insn/insn.json ] || { echo "bench: no build/bench-insn/insn.json: run bench.sh insn first" >&2; exit 1; }

# 2. ns.  The dispatch section with the probes the storm is about
# (ttwu,tkread) and no event log; the handshake with the marker, which
# needs one (a wakeup logged there costs more); then the storm as 1.
tools/vm/run-guest.sh --append "tsc=reliable" --out build/bench \
	--timeout 2400 -- bash -c '
	set -e
	insmod kmod/clkstat.ko probes=
	insmod kmod/clkstat_bench.ko
	rmmod clkstat_bench clkstat
	dmesg | grep -o "clkstat_bench: .*"
	insmod kmod/clkstat.ko probes=ttwu,tkread
	insmod kmod/clkstat_hookbench.ko
	tools/clkstat-report overhead --only dispatch \
		--insn build/bench-insn/insn.json '"${OVERHEAD_ARGS:-}"'
	rmmod clkstat_hookbench clkstat
	insmod kmod/clkstat.ko probes=ttwu,tkread,marker events=64
	insmod kmod/clkstat_hookbench.ko
	tools/clkstat-report overhead --only handshake '"${OVERHEAD_ARGS:-}"'
	rmmod clkstat_hookbench clkstat
	insmod kmod/clkstat.ko probes=ttwu,tkread
	tools/clkstat-report overhead --only storm --storm-rounds '"$rounds"' --storm-loops 2000 '"${OVERHEAD_ARGS:-}"'
	rmmod clkstat' > build/bench.log 2>&1 || fail build/bench.log build/bench
# Lines of the two programs, without the kernel's console messages.
tr -d '\r' < build/bench.log | sed -n '/clkstat_bench: /,$p' |
	sed 's/^.*\(clkstat_bench: \)/\1/' | grep -v '^\[ *[0-9]*\.[0-9]*\]' | grep -v '^clkstat-report: \(ctrl\|overhead: checking\)'
echo "instructions: build/bench-insn/insn.json (QEMU -icount shift=0,sleep=off, tsc=reliable)"
# The storm under icount: its seconds are 10^9 guest instructions.
echo "the BPF twin's handlers under icount (one vCPU), beside clkstat.ko's:"
sed 1d build/bench-insn/handlers.txt
echo "wakeup storm under icount (one vCPU; seconds are 10^9 guest instructions), clkstat.ko's default probes:"
cat build/bench-insn/storm.txt
# clkstat-report --compare: 10000 resamples over 300 runs x 2 variants,
# beside scipy.stats.bootstrap on the same data (printed figures).
echo "clkstat-report --compare, against scipy.stats.bootstrap:"
/usr/bin/python3 tools/tests/stats/bench.py
