#!/bin/bash
# suite_clockoff.sh - probe clockoff (kmod/probe_clockoff.c): a sample at
# every wakeup ttwu records and every read tkread counts, and a refused
# load alone.
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

# With tkread too, clockoff samples at every read tkread counts as well
# (probe_tkread.c's tk_read_clockoff(), whose one stamp is the read's
# and the offset's), and the reads still close their pairs: a sample at
# every wakeup and every read of the workload's clock_gettime() calls
# (the syscall and the ktime_get_ts64() inside it), at most one more per
# other counted read (the few ktime_get*() the workload's writes of
# start and stop make: the metrics start and stop one after the other),
# and one ttwu_tkread sample per wakeup.
t_clockoff_tkread() {
	local pos neg reads wakeups calls
	insmod "$KO" probes=ttwu,tkread,clockoff
	"$PINGPONG" -n 200 --reads 1 --control "$D/control" > /tmp/truth
	pos=$(field clockoff count) neg=$(field clockoff_neg count)
	reads=$(awk '$1 == "counter" { n += $3 } END { print n + 0 }' "$D/tkread.$V")
	wakeups=$(field ttwu_enqueue wakeups)
	calls=$(field tkread __x64_sys_clock_gettime)
	note "tkread: $(awk '$1 == "counter" && $3 > 0 { printf "%s=%s ", $2, $3 }' "$D/tkread.$V")"
	note "clockoff: $pos + $neg samples; ttwu_tkread: $(grep ^summary $D/ttwu_tkread.$V)"
	expect_eq "wakeups" "$wakeups" 400
	expect_eq "clock_gettime syscalls" "$calls" "$(awk '$1 == "reads" { print $2 }' /tmp/truth)"
	expect_eq "ktime_get_ts64 reads" "$(field tkread ktime_get_ts64)" "$calls"
	[ $((pos + neg)) -ge $((wakeups + 2 * calls)) ] && [ $((pos + neg)) -le $((wakeups + reads)) ] ||
		fail "offset samples: $((pos + neg)), want $((wakeups + 2 * calls)) to $((wakeups + reads))"
	expect_eq "ttwu_tkread count" "$(field ttwu_tkread count)" 400
	rmmod clkstat
}

# The suite, in the order module_tests.sh runs it.
CLOCKOFF_TESTS="t_clockoff t_clockoff_tkread"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$CLOCKOFF_TESTS}
