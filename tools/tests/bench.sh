#!/bin/bash
# Printed benchmarks (not pass/fail): cost of one record next to a bare
# per-CPU increment, and memory per metric per CPU for each frac_bits,
# measured in a QEMU guest on Debian's stock kernel.
set -euo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
tools/vm/run-guest.sh --out build/bench --timeout 900 -- bash -c '
	insmod kmod/clkstat.ko probes=
	insmod kmod/clkstat_bench.ko
	rmmod clkstat_bench clkstat
	dmesg | grep -o "clkstat_bench: .*"' > build/bench.log 2>&1 || {
	echo "bench: guest run failed; see build/bench/console.log" >&2
	exit 1
}
tr -d '\r' < build/bench.log | grep '^clkstat_bench:'
