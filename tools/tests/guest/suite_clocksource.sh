#!/bin/bash
# suite_clocksource.sh - probes csread and csswitch (clocksource reads and
# switches, kmod/probe_clocksource.c): reads against a kprobe event's
# count, switches counted exactly, exit hooks through variant switches
# while switches sleep in them.  Their event log lines: suite_events.sh.
# usage: suite_clocksource.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# csread against an independent count, in every variant that can hook a
# function's exit: a kprobe event on read_hpet, enabled over the same
# window as the module's recording, back to back.  Reads of the guest's
# hpet are frequent (every timer tick and ktime_get reads it), hence the
# tolerance of 2% plus 50 at the window's edges.
t_csread_vs_kprobe_event() {
	local v
	expect_eq "clocksource" "$(cat $CS)" hpet
	echo 8192 > "$T/buffer_size_kb"
	echo 'p:clkstat_t/rd read_hpet' >> "$T/kprobe_events"
	for v in direct ftrace kprobe kprobe-int3; do
		( V=$v; csread_window ) || { echo '-:clkstat_t/rd' >> "$T/kprobe_events"; fail "variant $v"; }
	done
	echo '-:clkstat_t/rd' >> "$T/kprobe_events"
}

csread_window() {
	local traced mod diff
	insmod "$KO" probes=csread variant=$V
	echo stop > "$D/control"
	echo 0 > "$T/tracing_on"
	echo > "$T/trace"
	echo 1 > "$T/events/clkstat_t/rd/enable"
	# Reads the window holds whatever the machine's load: 300 rounds of
	# 2 clock_gettime syscalls per wakeup (hpet has no vDSO), 1200 reads
	# of read_hpet at least, besides the timer ticks' (a 2 s sleep gave
	# only 430 reads with the host's cores shared by four guests).
	( echo reset > "$D/control"; echo start > "$D/control"; echo 1 > "$T/tracing_on"
	  "$PINGPONG" -n 300 --reads 2 > /dev/null
	  echo stop > "$D/control"; echo 0 > "$T/tracing_on" )
	echo 0 > "$T/events/clkstat_t/rd/enable"
	traced=$(grep -c ' rd: ' "$T/trace" || true)
	mod=$(field csread_hpet count)
	echo > "$T/trace"
	note "$V read_hpet: kprobe event $traced, module $mod; $(grep ^summary $D/csread_hpet.$V)"
	[ "$traced" -gt 500 ] || fail "too few reads traced ($traced)"
	diff=$((mod > traced ? mod - traced : traced - mod))
	[ "$diff" -le $((traced / 50 + 50)) ] || fail "module $mod vs kprobe event $traced: off by $diff"
	check_consistent csread_hpet
	# An emulated MMIO read: more than 10 ns, less than 1 ms at the median.
	[ "$(field csread_hpet p50)" -gt 10 ] && [ "$(field csread_hpet p50)" -lt 1000000 ] ||
		fail "csread_hpet p50 $(field csread_hpet p50) ns"
	rmmod clkstat
}

# N clocksource switches between hpet and acpi_pm in every variant that
# can hook a function's exit: N switch samples, N first reads after them,
# reads of both clocksources; the tracepoint variant refuses the probes.
t_csswitch() {
	local v
	expect_eq "clocksource" "$(cat $CS)" hpet
	for v in direct ftrace kprobe kprobe-int3; do
		( V=$v
		  insmod "$KO" probes=csread,csswitch variant=$v
		  echo reset > "$D/control"
		  for i in 1 2 3 4 5; do echo acpi_pm > $CS; echo hpet > $CS; done
		  sleep 0.5
		  echo stop > "$D/control"
		  note "$v: csswitch $(grep ^summary $D/csswitch.$v)"
		  note "$v: first read $(grep ^summary $D/csswitch_first_read.$v)"
		  expect_eq "$v csswitch count" "$(field csswitch count)" 10
		  expect_eq "$v switches" "$(field csswitch switches)" 10
		  expect_eq "$v failed" "$(field csswitch failed)" 0
		  expect_eq "$v csswitch_first_read count" "$(field csswitch_first_read count)" 10
		  [ "$(field csread_acpi_pm count)" -gt 0 ] || fail "$v: no acpi_pm read"
		  [ "$(field csread_hpet count)" -gt 0 ] || fail "$v: no hpet read"
		  check_consistent csswitch
		  check_consistent csswitch_first_read
		  check_consistent csread_acpi_pm
		  rmmod clkstat ) || fail "variant $v"
	done
	expect_eq "clocksource after" "$(cat $CS)" hpet
	bad_param "probe csread cannot run with variant=tracepoint" probes=csread variant=tracepoint
	bad_param "probe csswitch cannot run with variant=tracepoint" probes=csswitch variant=tracepoint
}

# Exit hooks through variant switches and an unload, while clocksource
# switches (which sleep in stop_machine() inside the hooked function) and
# reads keep coming: nothing may still run in a wrapper or a kretprobe
# when its variant goes.  Every switch seen is one that happened.
t_exit_hooks_switch_loop() {
	local n v bg done_=0 seen=0 vs=(ftrace kprobe kprobe-int3 direct)
	insmod "$KO" probes=csread,csswitch
	rm -f /tmp/cs-stop
	( k=0; while [ ! -e /tmp/cs-stop ]; do
		echo acpi_pm > $CS; echo hpet > $CS; k=$((k + 2)); echo $k > /tmp/cs-n
	  done ) &
	bg=$!
	for n in $(seq 0 7); do
		echo "variant ${vs[n % 4]}" > "$D/control" || { touch /tmp/cs-stop; fail "switch to ${vs[n % 4]}"; }
		sleep 0.$((RANDOM % 3))
	done
	touch /tmp/cs-stop
	wait "$bg"
	done_=$(cat /tmp/cs-n)
	for v in direct ftrace kprobe kprobe-int3; do
		seen=$((seen + $(V=$v field csswitch switches)))
	done
	rmmod clkstat
	note "8 variant switches during $done_ clocksource switches, $seen of them seen"
	[ "$done_" -ge 20 ] || fail "only $done_ clocksource switches"
	[ "$seen" -gt 0 ] && [ "$seen" -le "$done_" ] || fail "seen $seen of $done_ switches"
	expect_eq "clocksource after" "$(cat $CS)" hpet
}

# The suite, in the order module_tests.sh runs it.
CLOCKSOURCE_TESTS="t_csread_vs_kprobe_event t_csswitch
	t_exit_hooks_switch_loop"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$CLOCKSOURCE_TESTS}
