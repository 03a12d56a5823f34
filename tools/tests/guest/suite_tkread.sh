#!/bin/bash
# suite_tkread.sh - probe tkread (timekeeping reads, and the wakeup to
# first read pairs with ttwu): exact against the workload's truth, local
# and migrating, in every variant that can hook it, and alone.
# usage: suite_tkread.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ttwu_tkread against the workload's truth.  Every wakeup of the two
# threads is followed by clock_gettime syscalls, and nothing else they do
# in the window reads a clock, so the pairs are exactly the wakeups, and
# each pair lies inside one of the workload's rounds.
tkread_exact() {
	local rounds=$1; shift
	insmod "$KO" probes=ttwu,tkread variant="$V"
	trace_setup 'comm ~ "clkpp-*"'
	timeout 300 "$PINGPONG" -n "$rounds" --reads 3 --control "$D/control" --tracing "$T" "$@" > /tmp/truth ||
		fail "workload failed or hung"
	local wakeups migrated local_ reads maxr c
	wakeups=$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)
	expect_migrated "$(awk '$1 == "migrated" { print $2 }' /tmp/truth)"
	trace_off
	migrated=$MIGRATED local_=$((wakeups - MIGRATED))
	reads=$(awk '$1 == "reads" { print $2 }' /tmp/truth)
	maxr=$(awk '$1 == "max_round_ns" { print $2 }' /tmp/truth)
	note "truth: wakeups $wakeups migrated $migrated reads $reads max_round_ns $maxr"
	note "ttwu_tkread: $(grep ^summary $D/ttwu_tkread.$V)"
	note "enqueue_tkread: $(grep ^summary $D/enqueue_tkread.$V)"
	note "tkread: $(grep ^counter $D/tkread.$V | awk '$3 > 0 { printf "%s=%s ", $2, $3 }')"
	expect_eq "ttwu_tkread count" "$(field ttwu_tkread count)" "$wakeups"
	expect_eq "enqueue_tkread count" "$(field enqueue_tkread count)" "$wakeups"
	expect_eq "ttwu_tkread migrated" "$(field ttwu_tkread migrated)" "$migrated"
	expect_eq "ttwu_tkread_migrated count" "$(field ttwu_tkread_migrated count)" "$migrated"
	expect_eq "ttwu_tkread_local count" "$(field ttwu_tkread_local count)" "$local_"
	for c in no_enqueue stale replaced evicted busy; do
		expect_eq "ttwu_tkread $c" "$(field ttwu_tkread $c)" 0
	done
	expect_eq "clock_gettime syscalls" "$(field tkread __x64_sys_clock_gettime)" "$reads"
	expect_eq "ktime_get_ts64 reads" "$(field tkread ktime_get_ts64)" "$reads"
	[ "$(field ttwu_tkread min)" -gt 0 ] || fail "a ttwu_tkread sample of 0"
	[ "$(field ttwu_tkread max)" -le "$maxr" ] ||
		fail "ttwu_tkread max $(field ttwu_tkread max) > longest round $maxr"
	# The enqueue lies inside the wakeup-to-read interval.
	[ "$(field enqueue_tkread max)" -le "$(field ttwu_tkread max)" ] || fail "enqueue_tkread max > ttwu_tkread max"
	[ "$(field enqueue_tkread mean)" -le "$(field ttwu_tkread mean)" ] || fail "enqueue_tkread mean > ttwu_tkread mean"
	check_consistent ttwu_tkread
	check_consistent enqueue_tkread
}

t_tkread_local() { tkread_exact 500; }
t_tkread_migrate() { tkread_exact 500 --migrate; }

# The same in every variant that can hook timekeeping reads; the
# tracepoint variant refuses the probe, naming it.
t_tkread_variants() {
	local v
	for v in direct ftrace kprobe kprobe-int3; do
		note "variant $v"
		( V=$v
		  tkread_exact 200; rmmod clkstat
		  tkread_exact 200 --migrate; rmmod clkstat ) || fail "variant $v"
	done
	bad_param "probe tkread cannot run with variant=tracepoint: the kernel has no tracepoint for it (use direct, ftrace or kprobe)" \
		probes=ttwu,tkread variant=tracepoint
}

# tkread without ttwu: reads are counted, there is no wakeup to pair them
# with, so none of the paired metrics exists.
t_tkread_alone() {
	insmod "$KO" probes=tkread
	"$PINGPONG" -n 100 --reads 2 --control "$D/control" > /tmp/truth
	expect_eq "clock_gettime syscalls" "$(field tkread __x64_sys_clock_gettime)" 400
	[ ! -e "$D/ttwu_tkread.$V" ] || fail "ttwu_tkread exists without ttwu"
	expect_eq "files" "$(ls $D | tr '\n' ' ')" "control tkread.$V "
}

# The suite, in the order module_tests.sh runs it.
TKREAD_TESTS="t_tkread_local t_tkread_migrate t_tkread_variants
	t_tkread_alone"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$TKREAD_TESTS}
