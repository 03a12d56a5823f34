#!/bin/bash
# suite_ttwu.sh - probe ttwu (wakeup to enqueue, kmod/probe_ttwu.c):
# exact counts against the workload's truth and ftrace, local and
# migrating (pingpong_exact, lib.sh), and every task against ftrace's
# count of sched_waking.  Through every variant: suite_variants.sh.
# usage: suite_ttwu.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t_pingpong_local() { pingpong_exact 2000; }
t_pingpong_migrate() { pingpong_exact 1000 --migrate; }

# Every task, no filter: the module's wakeups counter against ftrace's count
# of sched_waking over windows opened and closed back to back (module, then
# tracing, within one process).  Wakeups of other tasks can fall between the
# two writes at each edge, hence the tolerance of 2% plus 20 events.  Each
# edge's writes run at real-time priority (where chrt is there), so that
# the storm's 40 processes cannot preempt the writer between them and
# stretch an edge past the tolerance.  The window stays open until the
# module has counted 3000 wakeups (up to 300 s): ftrace's count, within
# the tolerance of it, is then well above the 1000 a meaningful
# comparison needs, however slow the machine, and the few events of the
# edges are small against the tolerance.  (Reading the trace file would
# pause tracing: the module's counter is what is watched.)
rt_edge() {
	if chrt -f 50 true 2>/dev/null; then
		chrt -f 50 bash -c "$1"
	else
		bash -c "$1"
	fi
}
t_all_tasks_vs_ftrace() {
	local end
	insmod "$KO"
	echo stop > "$D/control"
	trace_setup 0
	storm_start
	sleep 1
	rt_edge "echo reset > '$D/control'; echo start > '$D/control'; echo 1 > '$T/tracing_on'"
	end=$((SECONDS + 300))
	while [ "$(field ttwu_enqueue wakeups)" -lt 3000 ] && [ $SECONDS -lt $end ]; do
		sleep 0.1
	done
	rt_edge "echo stop > '$D/control'; echo 0 > '$T/tracing_on'"
	storm_stop
	local traced mod
	traced=$(trace_count)
	mod=$(field ttwu_enqueue wakeups)
	trace_off
	note "sched_waking (ftrace) $traced, module wakeups $mod, enqueues $(field ttwu_enqueue count)"
	[ "$traced" -gt 1000 ] || fail "too few wakeups traced ($traced) for a meaningful comparison"
	local diff=$((mod > traced ? mod - traced : traced - mod))
	[ "$diff" -le $((traced / 50 + 20)) ] || fail "module $mod vs ftrace $traced: off by $diff"
	local lost
	lost=$(( $(field ttwu_enqueue unmatched) + $(field ttwu_enqueue evicted) + $(field ttwu_enqueue busy) ))
	note "unmatched+evicted+busy $lost"
	check_consistent ttwu_enqueue
	check_consistent ttwu_enqueue_local
	check_consistent ttwu_enqueue_migrated
}

# The suite, in the order module_tests.sh runs it.
TTWU_TESTS="t_pingpong_local t_pingpong_migrate t_all_tasks_vs_ftrace"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$TTWU_TESTS}
