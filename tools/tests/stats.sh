#!/bin/bash
# The statistics of clkstat-report --compare, checked from outside:
# against scipy.stats.bootstrap on the same data, and by simulated studies
# whose truth is known (the coverage of the run-level interval); --unit
# host against a numpy reference on simulated fleets, and its coverage
# there; xcorr's r(k) against numpy on the same binned series; and plot's
# figures read back from their SVG against recordings of a known answer.  Each
# script prints its own ok/not ok lines (indented here); one test each.
# Last line: "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
pass=0 fail=0
for t in scipy_check coverage fleet_check fleet_coverage xcorr_check \
	 plot_check plot_events_check; do
	if /usr/bin/python3 tools/tests/stats/$t.py 2>&1 | sed 's/^/    /'; then
		pass=$((pass + 1)); echo "ok - $t"
	else
		fail=$((fail + 1)); echo "not ok - $t"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
