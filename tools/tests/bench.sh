#!/bin/bash
# Printed benchmarks (not pass/fail): cost of one record next to a bare
# per-CPU increment, memory per metric per CPU for each frac_bits, and what
# each hook variant adds to a call of the function it hooks (hot and cold,
# with ratios to nothing attached), measured in one QEMU guest on Debian's
# stock kernel.
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
tools/vm/run-guest.sh --out build/bench --timeout 900 -- bash -c '
	insmod kmod/clkstat.ko probes=
	insmod kmod/clkstat_bench.ko
	insmod kmod/clkstat_hookbench.ko
	rmmod clkstat_hookbench clkstat_bench clkstat
	dmesg | grep -o "clkstat_\(hook\)\?bench: .*"' > build/bench.log 2>&1 || {
	echo "bench: guest run failed; see build/bench/console.log" >&2
	exit 1
}
tr -d '\r' < build/bench.log | grep '^clkstat_\(hook\)\?bench:'
# clkstat-report --compare: 10000 resamples over 300 runs x 2 variants,
# beside scipy.stats.bootstrap on the same data (printed figures).
echo "clkstat-report --compare, against scipy.stats.bootstrap:"
/usr/bin/python3 tools/tests/stats/bench.py
