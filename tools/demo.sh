#!/bin/bash
# The demo: boot a QEMU guest on Debian's stock kernel, load clkstat with the
# ttwu and tkread probes (default variant, direct), run a wakeup-heavy
# workload (hackbench, then the pinned ping-pong reading the clock after
# each wakeup), switch to the kprobe variant and run the ping-pong again,
# and print every debugfs file: each metric once per variant.
set -euo pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
tools/vm/run-guest.sh --out build/demo --timeout 900 -- bash -c '
	set -e
	echo "### insmod kmod/clkstat.ko probes=ttwu,tkread"
	insmod kmod/clkstat.ko probes=ttwu,tkread
	echo "### hackbench -g 4 -l 500 (wakeup storm), then 2000 pinned ping-pong rounds,"
	echo "### half of them migrating, each wakeup followed by a clock_gettime syscall"
	hackbench -g 4 -l 500 -P
	tools/workload/clkstat-pingpong -n 1000 -c 0,1 --reads 1 > /dev/null
	tools/workload/clkstat-pingpong -n 1000 -c 0,1 --reads 1 --migrate > /dev/null
	echo "### echo \"variant kprobe\" > control, and the ping-pong again"
	echo "variant kprobe" > /sys/kernel/debug/clkstat/control
	tools/workload/clkstat-pingpong -n 1000 -c 0,1 --reads 1 > /dev/null
	tools/workload/clkstat-pingpong -n 1000 -c 0,1 --reads 1 --migrate > /dev/null
	echo stop > /sys/kernel/debug/clkstat/control
	for f in /sys/kernel/debug/clkstat/*; do
		echo "### cat $f"
		cat "$f"
	done
	rmmod clkstat' 2>&1 | tr -d '\r' |
	# The first line shares the console with firmware escape codes.
	sed -e 's/^.*### insmod/### insmod/' | sed -n '/^### insmod/,$p' |
	grep -v '^\[ *[0-9.]*\] reboot'
