#!/bin/bash
# The demo: boot a QEMU guest on Debian's stock kernel, load clkstat with the
# ttwu probe, run a wakeup-heavy workload (hackbench, then the pinned
# ping-pong), and print every debugfs file.
set -euo pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
tools/vm/run-guest.sh --out build/demo --timeout 900 -- bash -c '
	set -e
	echo "### insmod kmod/clkstat.ko probes=ttwu"
	insmod kmod/clkstat.ko probes=ttwu
	echo "### hackbench -g 4 -l 500 (wakeup storm), then 2000 pinned ping-pong rounds"
	hackbench -g 4 -l 500 -P
	tools/workload/clkstat-pingpong -n 2000 -c 0,1 > /dev/null
	echo stop > /sys/kernel/debug/clkstat/control
	for f in /sys/kernel/debug/clkstat/*; do
		echo "### cat $f"
		cat "$f"
	done
	rmmod clkstat' 2>&1 | tr -d '\r' | sed -n '/^### insmod/,$p' | grep -v '^\[ *[0-9.]*\] reboot'
