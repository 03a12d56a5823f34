#!/bin/bash
# Printed benchmarks (not pass/fail), all in one QEMU guest on Debian's
# stock kernel: clkstat_bench.ko's cost of one record next to a bare
# per-CPU increment and memory per metric per CPU for each frac_bits; then
# `clkstat-report overhead`: the per-event cost of every hook variant,
# module and BPF, on clkstat_hookbench.ko's target (hot and cold, ratio to
# the module's direct variant), of userspace handshake points, and the
# throughput a hackbench wakeup storm keeps under each variant.
# Documentation/clkstat-overhead.rst shows a run and how to read it.
# OVERHEAD_ARGS adds options to clkstat-report overhead.
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
# The storm runs with the probes it is about (ttwu,tkread) and no event
# log: the marker needs one, and a wakeup logged there costs more.  So the
# dispatch and handshake sections run first, with the marker's module.
tools/vm/run-guest.sh --out build/bench --timeout 1500 --append tsc=reliable -- bash -c '
	set -e
	insmod kmod/clkstat.ko probes=
	insmod kmod/clkstat_bench.ko
	rmmod clkstat_bench clkstat
	dmesg | grep -o "clkstat_bench: .*"
	insmod kmod/clkstat.ko probes=ttwu,tkread,marker events=64
	insmod kmod/clkstat_hookbench.ko
	tools/clkstat-report overhead --only dispatch,handshake '"${OVERHEAD_ARGS:-}"'
	rmmod clkstat_hookbench clkstat
	insmod kmod/clkstat.ko probes=ttwu,tkread
	tools/clkstat-report overhead --only storm --storm-rounds 5 --storm-loops 2000 '"${OVERHEAD_ARGS:-}"'
	rmmod clkstat' > build/bench.log 2>&1 || {
	# run-guest.sh's own reason, if the guest never ran
	grep -E '^(run-guest|kernels.sh):' build/bench.log >&2
	echo "bench: guest run failed; see build/bench/console.log" >&2
	exit 1
}
# Lines of the two programs, without the kernel's console messages.
tr -d '\r' < build/bench.log | sed -n '/clkstat_bench: /,$p' |
	grep -v '^\[ *[0-9]*\.[0-9]*\]' | grep -v '^clkstat-report: \(ctrl\|overhead: checking\)'
# clkstat-report --compare: 10000 resamples over 300 runs x 2 variants,
# beside scipy.stats.bootstrap on the same data (printed figures).
echo "clkstat-report --compare, against scipy.stats.bootstrap:"
/usr/bin/python3 tools/tests/stats/bench.py
