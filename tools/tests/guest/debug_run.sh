#!/bin/bash
# debug_run.sh - inside the debug kernel's guest (tools/tests/debug.sh):
# run the guest suites, then have kmemleak scan and save what it found
# and the whole kernel log to the results folder RESULTS.
#
# usage: debug_run.sh RESULTS                 the suites in DEBUG_SUITES,
#                                             each SCRIPT (all its tests)
#                                             or SCRIPT:TEST,TEST
#        debug_run.sh RESULTS SCRIPT [TEST...] one suite
# Every suite prints its own "N passed, N failed" line.
set -u
here=$(dirname "$0")
res=$1; shift
K=/sys/kernel/debug/kmemleak

# What the kernel allocated while booting is not ours to judge.
echo clear > $K
if [ $# -gt 0 ]; then
	# A suite of tools/tests/guest/ by its name, as debug.sh documents.
	s=$1; shift
	[ -f "$s" ] || s=$here/$s
	bash "$s" "$@"
else
	for s in ${DEBUG_SUITES:-}; do
		# shellcheck disable=SC2046
		bash "$here/${s%%:*}" $([ "${s#*:}" = "$s" ] || echo "${s#*:}" | tr , ' ')
	done
fi
rmmod clkstat_hookbench clkstat_bench clkstat 2>/dev/null
# kmemleak reports an object once a scan finds no reference to it and it
# is older than 5 s; two scans apart let the last frees settle.
sleep 6
echo scan > $K
sleep 1
echo scan > $K
cat $K > "$res/kmemleak.txt"
dmesg > "$res/dmesg.txt"
