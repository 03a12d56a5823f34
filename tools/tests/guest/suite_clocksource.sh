#!/bin/bash
# suite_clocksource.sh - probes csread and csswitch (clocksource reads and
# switches, kmod/probe_clocksource.c): reads against a kprobe event's
# count, switches counted exactly, exit hooks through variant switches
# while switches sleep in them.  Their event log lines: suite_events.sh.
# And the probes' clock (kmod/clock.c): TSC or mono as the clocksource
# says, against ktime over known sleeps, exact counts on the TSC, the
# fallback when the kernel leaves the TSC.  6.1's guest keeps tsc only
# when booted with tsc=reliable (CLKSTAT_GUEST_APPEND, guest.sh).
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
# when its variant goes.  Every switch seen is one that happened.  The
# variants are switched 8 times at least, and on until the clocksource
# has been switched 20 times (up to 300 s): how many clocksource
# switches fit in a given number of variant switches depends on the
# machine.
t_exit_hooks_switch_loop() {
	local n=0 k v bg done_=0 seen=0 end=$((SECONDS + 300)) vs=(ftrace kprobe kprobe-int3 direct)
	insmod "$KO" probes=csread,csswitch
	rm -f /tmp/cs-stop /tmp/cs-n
	( k=0; while [ ! -e /tmp/cs-stop ]; do
		echo acpi_pm > $CS; echo hpet > $CS; k=$((k + 2)); echo $k > /tmp/cs-n
	  done ) &
	bg=$!
	while :; do
		k=""
		read -r k 2>/dev/null < /tmp/cs-n || true
		[ "$n" -lt 8 ] || [ "${k:-0}" -lt 20 ] || break
		[ $SECONDS -lt $end ] || break
		echo "variant ${vs[n % 4]}" > "$D/control" || { touch /tmp/cs-stop; fail "switch to ${vs[n % 4]}"; }
		n=$((n + 1))
		sleep 0.$((RANDOM % 3))
	done
	touch /tmp/cs-stop
	wait "$bg"
	done_=$(cat /tmp/cs-n)
	for v in direct ftrace kprobe kprobe-int3; do
		seen=$((seen + $(V=$v field csswitch switches)))
	done
	rmmod clkstat
	note "$n variant switches during $done_ clocksource switches, $seen of them seen"
	[ "$done_" -ge 20 ] || fail "only $done_ clocksource switches"
	[ "$seen" -gt 0 ] && [ "$seen" -le "$done_" ] || fail "seen $seen of $done_ switches"
	expect_eq "clocksource after" "$(cat $CS)" hpet
}

# The probes' clock (kmod/clock.c).  clock_to CS: make CS the clocksource
# if the kernel takes it (6.1's guest refuses tsc, which fails TCG's
# watchdog there, unless booted with tsc=reliable); prints the current one.
clock_to() {
	echo "$1" > "$CS" 2>/dev/null || true
	cat "$CS"
}

# clock_word: the clock the loaded module reads now (debugfs "clock").
clock_word() { awk '$1 == "clock" { print $2 }' "$D/clock"; }

# clock_compare MS: clkstat_now() against ktime_get_ns() over a sleep of
# MS ms on an hrtimer, through debugfs "clock" (kmod/clock.c): ktime's
# interval is at least MS.  Both are
# CLOCK_MONOTONIC from the same timekeeper readout (the TSC clock copies
# the timekeeper's cycle_last, base, mult and shift at every update; mono
# is the timekeeper's fast copy), so at one instant they differ by less
# than 1 ns (the dropped fraction), and the kernel keeps its readout
# continuous across updates to a ns.  Each end reads clkstat_now(),
# ktime_get_ns(), clkstat_now() with interrupts off: ktime lies in that
# window (offset 0..window, 2 ns of rounding either side), and the two
# intervals differ by at most half of each end's window plus the rounding:
# max(window) + 4 ns is the tolerance.  No NTP runs in the guest; with NTP
# both clocks take the same adjusted mult, so the same holds.  The probes'
# stamps (a raw TSC on the TSC clock, the interval converted at once with
# the timekeeper's mult and shift) are read inside the same window: their
# interval (stamp_ns) is held to the same tolerance.
clock_compare() {
	local line
	echo "compare $1" > "$D/clock" || fail "compare $1: write refused"
	line=$(grep '^compare ' "$D/clock")
	note "$line"
	echo "$line" | awk -v ms="$1" '{
		for (i = 2; i < NF; i++) f[$i] = $(i + 1)
		w0 = $(NF - 4); w1 = $(NF - 3); o0 = $(NF - 1); o1 = $NF
		d = f["diff_ns"]; if (d < 0) d = -d
		sd = f["stamp_diff_ns"]; if (sd < 0) sd = -sd
		tol = (w0 > w1 ? w0 : w1) + 4
		if (!("stamp_ns" in f) || f["stamp_ns"] == 0) { print "no stamp interval"; exit 1 }
		if (sd > tol) { print "stamp and ktime intervals differ by " f["stamp_diff_ns"] " ns, tolerance " tol; exit 1 }
		if (f["sleep_ms"] != ms) { print "sleep_ms " f["sleep_ms"] ", want " ms; exit 1 }
		if (f["ktime_ns"] < ms * 1000000) { print "ktime interval " f["ktime_ns"] " shorter than the sleep"; exit 1 }
		if (d > tol) { print "clkstat and ktime intervals differ by " f["diff_ns"] " ns, tolerance " tol; exit 1 }
		if (o0 < -2 || o0 > w0 + 2 || o1 < -2 || o1 > w1 + 2) { print "ktime outside the window: offsets " o0 " " o1; exit 1 }
	}' || fail "compare $1 ms: $line"
}

# auto takes the TSC exactly where the kernel keeps time with it: on tsc
# (where the kernel takes it) and on hpet, the metadata (debugfs, netlink
# through clkstat-report info) says which, and clkstat_now() agrees with
# ktime_get_ns() over 10 ms and 100 ms sleeps.
t_clock_auto() {
	local cs want
	for cs in tsc hpet; do
		cs=$(clock_to $cs)
		want=mono
		[ "$cs" != tsc ] || want=tsc
		note "clocksource $cs: clock $want"
		insmod "$KO"
		expect_eq "clocksource $cs: debugfs clock" "$(clock_word)" $want
		expect_eq "clocksource $cs: info clock" \
			"$("$top/tools/clkstat-report" info | awk '$1 == "clock" { print $2 }')" $want
		expect_eq "clocksource $cs: param" "$(awk '$1 == "param" { print $2 }' "$D/clock")" auto
		clock_compare 10
		clock_compare 100
		rmmod clkstat
	done
	clock_to hpet > /dev/null
}

# clock=tsc loads where the kernel keeps time with the TSC, and fails the
# load naming the clocksource elsewhere; clock=mono never reads the TSC; a
# clock that does not exist fails the load naming the value.
t_clock_param() {
	local cs
	for cs in tsc hpet; do
		cs=$(clock_to $cs)
		if [ "$cs" = tsc ]; then
			insmod "$KO" clock=tsc
			expect_eq "clock=tsc on tsc" "$(clock_word)" tsc
			expect_eq "param" "$(awk '$1 == "param" { print $2 }' "$D/clock")" tsc
			grep -q '^tsc_mult [1-9][0-9]* shift [0-9]*$' "$D/clock" || fail "no tsc_mult line: $(cat "$D/clock")"
			clock_compare 10
			rmmod clkstat
		else
			bad_param "clock=tsc: the kernel keeps time with clocksource $cs, not a stable TSC" clock=tsc
		fi
		insmod "$KO" clock=mono
		expect_eq "clock=mono on $cs" "$(clock_word)" mono
		clock_compare 10
		rmmod clkstat
	done
	clock_to hpet > /dev/null
	bad_param "clock=rdtsc: unknown clock (auto, tsc or mono)" clock=rdtsc
	bad_param "clock=: unknown clock" clock=
}

# The wakeup counts stay exact on the TSC clock (on hpet: suite_ttwu.sh).
t_clock_tsc_exact() {
	local cs
	cs=$(clock_to tsc)
	if [ "$cs" != tsc ]; then
		note "the kernel does not take tsc here (clocksource $cs): nothing to check (boot with tsc=reliable)"
		return 0
	fi
	( pingpong_exact 300
	  expect_eq "clock" "$(clock_word)" tsc
	  rmmod clkstat
	  pingpong_exact 300 --migrate
	  rmmod clkstat ) || { clock_to hpet > /dev/null; fail "on tsc"; }
	clock_to hpet > /dev/null
}

# The kernel leaves the TSC (a write to current_clocksource; the watchdog
# marking it unstable takes the same path): clkstat falls back to mono
# within a tick, says so in the kernel log and the metadata, stays on mono
# when the TSC comes back, and still agrees with ktime.
t_clock_fallback() {
	local cs i
	cs=$(clock_to tsc)
	if [ "$cs" != tsc ]; then
		note "the kernel does not take tsc here (clocksource $cs): nothing to check (boot with tsc=reliable)"
		return 0
	fi
	insmod "$KO" probes=ttwu,clockoff
	expect_eq "clock" "$(clock_word)" tsc
	mark
	"$PINGPONG" -n 200 > /dev/null &
	clock_to hpet > /dev/null
	wait
	# Within a tick; up to 30 s on a slow machine.
	for i in $(seq 300); do
		[ "$(clock_word)" != mono ] || break
		sleep 0.1
	done
	expect_eq "clock after the switch" "$(clock_word)" mono
	grep -q '^clock mono (tsc until [0-9]* ns, then clocksource hpet)$' "$D/clock" ||
		fail "debugfs clock: $(head -1 "$D/clock")"
	"$top/tools/clkstat-report" info | grep -q '^clock mono (tsc until [0-9]* ns, then clocksource hpet)$' ||
		fail "info: $("$top/tools/clkstat-report" info | grep ^clock)"
	since_mark | grep -q 'clkstat: clock: the kernel left the TSC for clocksource hpet' ||
		fail "no kernel log line: $(since_mark | tail -3)"
	clock_compare 10
	clock_to tsc > /dev/null
	sleep 0.1
	expect_eq "clock with tsc back" "$(clock_word)" mono
	clock_compare 10
	check_consistent ttwu_enqueue
	rmmod clkstat
	clock_to hpet > /dev/null
}

# On the TSC clock: the event log against userspace's CLOCK_MONOTONIC and
# CLOCK_REALTIME (suite_events.sh's t_record_events: record's run_start
# and run_end markers, stamped in userspace, around the module's markers
# and events; a marker's realtime against date's); the clock of a
# recording (tsc), of its runs in the events output (the module's tsc,
# the twin's mono) and of the live log.
t_clock_tsc_events() {
	local cs R=$top/tools/clkstat-report
	cs=$(clock_to tsc)
	if [ "$cs" != tsc ]; then
		note "the kernel does not take tsc here (clocksource $cs): nothing to check (boot with tsc=reliable)"
		return 0
	fi
	declare -F t_record_events > /dev/null ||
		. "$(dirname "${BASH_SOURCE[0]}")/suite_events.sh"
	( t_record_events ) || { clock_to hpet > /dev/null; fail "t_record_events on tsc"; }
	rmmod clkstat 2>/dev/null || true
	# A module run, then a twin run: the twin's timestamps are mono.
	( insmod "$KO" probes=ttwu events=256
	  rm -f /tmp/clkrec.db
	  "$R" record -q -o /tmp/clkrec.db --variants direct --events 100 -- \
		"$PINGPONG" -n 20 > /dev/null || fail "record failed"
	  expect_eq "the recording's clock" \
		"$("$R" info -i /tmp/clkrec.db | awk '$1 == "clock" { print $2 }')" tsc
	  "$R" events -i /tmp/clkrec.db > /tmp/clkev.txt
	  expect_eq "events: the run's clock" "$(grep '^# run 0 clock ' /tmp/clkev.txt)" "# run 0 clock tsc"
	  rm -f /tmp/clkrec.db
	  "$R" record -q -o /tmp/clkrec.db --variants bpf-kprobe --events 100 -- \
		"$PINGPONG" -n 20 > /dev/null || fail "record bpf-kprobe failed"
	  "$R" events -i /tmp/clkrec.db > /tmp/clkev.txt
	  expect_eq "events: the twin run's clock" "$(grep '^# run 0 clock ' /tmp/clkev.txt)" "# run 0 clock mono"
	  "$R" events > /tmp/clkev.txt
	  grep -q '^# live clock tsc$' /tmp/clkev.txt || fail "live events: $(tail -3 /tmp/clkev.txt)"
	  rmmod clkstat ) || { clock_to hpet > /dev/null; exit 1; }
	clock_to hpet > /dev/null
}

# The suite, in the order module_tests.sh runs it.
CLOCKSOURCE_TESTS="t_csread_vs_kprobe_event t_csswitch
	t_exit_hooks_switch_loop t_clock_auto t_clock_param t_clock_tsc_exact
	t_clock_fallback t_clock_tsc_events"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$CLOCKSOURCE_TESTS}
