#!/bin/bash
# suite_clockoff.sh - probe clockoff (kmod/probe_clockoff.c): a sample at
# every wakeup ttwu records, and a refused load without ttwu.
# usage: suite_clockoff.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# clockoff samples at every wakeup ttwu records: as many samples (of
# either sign) as wakeups.  Alone it has nothing to sample at and
# refuses to load.
t_clockoff() {
	local pos neg
	insmod "$KO" probes=ttwu,clockoff
	"$PINGPONG" -n 200 --control "$D/control" > /tmp/truth
	pos=$(field clockoff count) neg=$(field clockoff_neg count)
	note "clockoff: $(grep ^summary $D/clockoff.$V)"
	note "clockoff_neg: $(grep ^summary $D/clockoff_neg.$V)"
	expect_eq "offset samples" "$((pos + neg))" "$(field ttwu_enqueue wakeups)"
	expect_eq "offset samples" "$((pos + neg))" 400
	rmmod clkstat
	bad_param "probe clockoff samples at the events of ttwu, tkread or csswitch: enable one of them too" \
		probes=clockoff
}

# The suite, in the order module_tests.sh runs it.
CLOCKOFF_TESTS="t_clockoff"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$CLOCKOFF_TESTS}
