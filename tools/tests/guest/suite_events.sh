#!/bin/bash
# suite_events.sh - the event log (events=N, debugfs "events") and probe
# marker: wakeup, enqueue and first read events against the workload's
# truth, markers, a small ring overwriting, clocksource switch and read
# events.  The log through netlink: t_netlink_events, suite_netlink.sh.
# usage: suite_events.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The event log against the workload's truth: one wakeup, one enqueue and
# one first_tkread per wakeup, each pair sharing a correlation id, the
# latencies adding up (enqueue and read times minus the wakeup time), the
# lines in time order, and a marker from a shell with its pid and text.
t_events() {
	local ev=/tmp/events
	insmod "$KO" probes=ttwu,tkread,marker events=4096
	[ -e "$D/events" ] && [ -e "$D/marker" ] || fail "no events or marker file"
	expect_eq "marker mode" "$(stat -c %a $D/marker)" 200
	# Only the workload's window records (and logs) its threads' events.
	echo stop > "$D/control"
	"$PINGPONG" -n 100 --reads 1 --control "$D/control" > /tmp/truth
	echo "phase-1 begins" > "$D/marker"
	# The log also holds other tasks' events from between the load and the
	# stop: keep the workload's threads.
	local a b
	a=$(awk '$1 == "tid_a" { print $2 }' /tmp/truth)
	b=$(awk '$1 == "tid_b" { print $2 }' /tmp/truth)
	awk -v a="$a" -v b="$b" '$1 ~ /^#/ || $4 == a || $4 == b || $2 == "marker"' \
		"$D/events" > $ev
	note "$(head -4 $ev | tr '\n' '|')"
	note "$(tail -1 $ev)"
	expect_eq "wakeup events" "$(grep -c ' wakeup ' $ev)" 200
	expect_eq "enqueue events" "$(grep -c ' enqueue ' $ev)" 200
	expect_eq "first_tkread events" "$(grep -c ' first_tkread ' $ev)" 200
	expect_eq "trailer" "$(tail -1 $ev | awk '{ print $5 }')" 0
	expect_eq "header" "$(head -1 $ev)" "# ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns"
	# migrated: 1 or 0 on enqueue and first_tkread, - on the others.
	awk '$1 ~ /^#/ { next }
	     ($2 == "enqueue" || $2 == "first_tkread") && $8 != "0" && $8 != "1" { bad = 1 }
	     $2 != "enqueue" && $2 != "first_tkread" && $8 != "-" { bad = 1 }
	     NF != 9 { bad = 1 }
	     END { exit bad }' $ev || fail "migrated column: $(head -5 $ev | tr '\n' '|')"
	grep -Eq "^[0-9]+ marker [0-9]+ $BASHPID - phase-1_begins - - -\$" $ev ||
		fail "no marker line for pid $BASHPID: $(grep marker $ev)"
	awk '
		$1 ~ /^#/ { next }
		$1 < last { print "out of order: " $0; bad = 1 }
		{ last = $1 }
		$2 == "wakeup" { w[$5] = $1; wp[$5] = $4 }
		$2 == "enqueue" || $2 == "first_tkread" {
			if (!($5 in w)) { print "no wakeup for " $0; bad = 1; next }
			if ($4 != wp[$5]) { print "pid differs: " $0; bad = 1 }
			if ($1 - w[$5] != $7) { print "latency " $7 " but " $1 - w[$5] ": " $0; bad = 1 }
			n[$2]++
		}
		END { if (n["enqueue"] != 200 || n["first_tkread"] != 200) bad = 1; exit bad }' $ev ||
		fail "inconsistent event log"
	# Bad marker writes: nothing logged, EINVAL.
	printf '\n' > "$D/marker" 2>/dev/null && fail "empty marker accepted"
	head -c 5000 /dev/zero | tr '\0' a |
		dd of="$D/marker" bs=5000 count=1 iflag=fullblock 2>/dev/null &&
		fail "a 5000-byte marker accepted"
	expect_eq "markers" "$(grep -c ' marker ' $D/events)" 1
	rmmod clkstat
	# A small ring: the oldest are overwritten and counted.
	insmod "$KO" probes=ttwu events=64
	"$PINGPONG" -n 200 --control "$D/control" > /tmp/truth
	tail -1 "$D/events" > /tmp/trailer
	note "events=64: $(cat /tmp/trailer)"
	[ "$(awk '{ print $5 }' /tmp/trailer)" -gt 0 ] || fail "nothing overwritten"
	[ "$(awk '{ print $3 }' /tmp/trailer)" -le $((64 * $(nproc))) ] || fail "more events than the rings hold"
	rmmod clkstat
	bad_param "events=1048577: out of range 0..1048576" events=1048577
	bad_param "probe marker writes to the event log: load with events=N (N > 0)" probes=ttwu,marker
}

# A bare "reset" empties the log: markers from before it are gone, and
# "overwritten" counts only what a full ring lost since.  Markers from one
# CPU (python3 pins itself to CPU 0) into a ring of 64: 100 of them lose
# 36; after the reset, 70 lose 6.
t_events_reset() {
	local marks='import os, sys
os.sched_setaffinity(0, {0})
for i in range(int(sys.argv[2])):
    with open("/sys/kernel/debug/clkstat/marker", "w") as f:
        f.write("%s%d" % (sys.argv[1], i))'
	insmod "$KO" probes=ttwu,marker events=64
	echo stop > "$D/control"
	python3 -c "$marks" a 100 || fail "markers"
	expect_eq "before the reset" "$(tail -1 "$D/events")" "# events 64 overwritten 36"
	echo reset > "$D/control"
	expect_eq "after the reset" "$(cat "$D/events")" \
		"$(printf '%s\n%s' "# ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns" "# events 0 overwritten 0")"
	python3 -c "$marks" b 70 || fail "markers"
	tail -1 "$D/events" > /tmp/trailer
	expect_eq "since the reset" "$(cat /tmp/trailer)" "# events 64 overwritten 6"
	expect_eq "oldest kept" "$(awk '$2 == "marker" { print $6; exit }' "$D/events")" b6
	grep -q ' a[0-9]* ' "$D/events" && fail "a marker from before the reset"
	# A reset of one metric leaves the log alone.
	echo "reset ttwu_enqueue" > "$D/control"
	expect_eq "after a metric's reset" "$(tail -1 "$D/events")" "# events 64 overwritten 6"
	rmmod clkstat
}

# Clocksource events: each switch an entry and an exit sharing an id, the
# exit's latency its duration, the target named; reads of both.
t_cs_events() {
	local ev=/tmp/events
	insmod "$KO" probes=csread,csswitch events=65536
	echo acpi_pm > $CS
	echo hpet > $CS
	sleep 0.2
	echo stop > "$D/control"
	cat "$D/events" > $ev
	expect_eq "switch entries" "$(grep -c ' clocksource_switch_entry ' $ev)" 2
	expect_eq "switch exits" "$(grep -c ' clocksource_switch_exit ' $ev)" 2
	expect_eq "switch targets" "$(awk '$2 == "clocksource_switch_entry" { printf "%s ", $6 }' $ev)" "acpi_pm hpet "
	awk '$2 == "clocksource_switch_entry" { t[$5] = $1 }
	     $2 == "clocksource_switch_exit" { if (!($5 in t) || $1 - t[$5] != $7) bad = 1; n++ }
	     END { exit bad || n != 2 }' $ev || fail "switch events do not pair: $(grep clocksource_switch $ev)"
	grep -q ' clocksource_read [0-9]* [0-9]* - hpet [0-9]* - [-0-9]*$' $ev || fail "no hpet read event"
	grep -q ' clocksource_read [0-9]* [0-9]* - acpi_pm [0-9]* - [-0-9]*$' $ev || fail "no acpi_pm read event"
}

# The suite, in the order module_tests.sh runs it.
EVENTS_TESTS="t_events t_events_reset t_cs_events"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$EVENTS_TESTS}
