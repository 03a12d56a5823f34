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
	expect_eq "files" "$(ls $D | tr '\n' ' ')" "clock control last_error tkread.$V traces "
}

# rq->clock (kmod/rq_clock.c) against the event log's truth.  Every
# enqueue and first read of the workload's threads carries its CPU's rq
# clock, which never goes back on one CPU along the log (an enqueue's rq is
# the CPU its pair's first read runs on); ttwu_tkread_rqclock holds one
# sample per ttwu_tkread pair, and its samples are the events' advances
# (first read's rq clock minus the enqueue's): the same count, migrated and
# local split, minimum and maximum.  Each advance lies in
# [0, the pair's ttwu_tkread latency + RQ_EPS_NS]: both ends are one CPU's
# clock, and the enqueue's value is that of the update_rq_clock() made for
# it, after the wakeup began (ttwu_queue()'s remote enqueue, the wakelist's
# sched_ttwu_pending(), ttwu_runnable()), and the read's is read before
# the read's stamp (with it after, a tick between the two once made an
# advance of 3.6 ms in a pair of 105 us), so the clock cannot advance by
# more than the time from the wakeup to the read.  (It can by more than
# the time from the enqueue to the read: a vCPU the host stops between the
# update and the enqueue, with the rq lock held, leaves the enqueue a clock
# that old; seen once, 4.2 ms, on 6.12.)  RQ_EPS_NS: rq->clock counts
# sched_clock (the TSC), the timestamps CLOCK_MONOTONIC (the suite's hpet),
# read at slightly different instants.  The load says where the layout
# came from, and no check failed.
RQ_EPS_NS=50000
rqclock_check() {
	local ev=/tmp/rqev a b
	insmod "$KO" probes=ttwu,tkread events=4096
	dmesg | tail -5 | grep -q 'clkstat: rq clock: struct rq from the BTF of ' ||
		fail "no rq clock load line: $(dmesg | grep 'rq clock' | tail -2)"
	echo stop > "$D/control"
	"$PINGPONG" -n 100 --reads 1 --control "$D/control" "$@" > /tmp/truth
	a=$(awk '$1 == "tid_a" { print $2 }' /tmp/truth)
	b=$(awk '$1 == "tid_b" { print $2 }' /tmp/truth)
	# debugfs "events": ts type cpu pid corr name latency migrated rq_clock,
	# as ts type cpu pid corr flags latency rq_clock (flags: CLKSTAT_EVF_MIGRATED).
	awk '$1 !~ /^#/ { print $1, $2, $3, $4, $5, ($8 == "1" ? 2 : 0), $7, $9 }' \
		"$D/events" > /tmp/rqev.all || fail "no events file"
	awk -v a="$a" -v b="$b" '$4 == a || $4 == b' /tmp/rqev.all > $ev
	note "$(grep -m1 ' enqueue ' $ev) | $(grep -m1 ' first_tkread ' $ev)"
	expect_eq "enqueue events" "$(grep -c ' enqueue ' $ev)" 200
	expect_eq "first_tkread events" "$(grep -c ' first_tkread ' $ev)" 200
	# fields: ts type cpu pid corr flags latency rq_clock
	awk -v eps=$RQ_EPS_NS -v out=/tmp/rqadv '
		NR == FNR {	# pass 1: the CPU of each pair'"'"'s first read
			if ($2 == "first_tkread") rcpu[$5] = $3
			next
		}
		$2 == "wakeup" { wts[$5] = $1; wrq[$5] = $8; next }
		$2 != "enqueue" && $2 != "first_tkread" { next }
		$8 == "-" { print "    # no rq clock: " $0; bad = 1; next }
		{
			cpu = $2 == "enqueue" ? rcpu[$5] : $3
			if (cpu == "") { print "    # no first read for " $0; bad = 1; next }
			if ((cpu in last) && $8 < last[cpu]) {
				print "    # rq clock of CPU " cpu " back from " last[cpu] ": " $0 " after " lastl[cpu]; bad = 1
			}
			last[cpu] = $8; lastl[cpu] = $0
		}
		$2 == "enqueue" { ets[$5] = $1; erq[$5] = $8; next }
		{	# first_tkread
			if ($5 in ets) { t0 = ets[$5]; r0 = erq[$5] } else { t0 = wts[$5]; r0 = wrq[$5] }
			adv = $8 - r0; wall = $1 - t0
			if (adv < 0 || adv > $7 + eps) {
				print "    # advance " adv " from the enqueue " wall ": " $0; bad = 1
			}
			mig = int($6 / 2) % 2
			n++; nm += mig
			if (n == 1 || adv < min) min = adv
			if (n == 1 || adv > max) max = adv
			if (adv - wall > over) over = adv - wall
		}
		END {
			printf "n %d migrated %d min %d max %d over %d\n", n, nm, min, max, over > out
			exit bad
		}' $ev $ev || fail "rq clocks inconsistent"
	note "from events: $(cat /tmp/rqadv) (over: the largest advance past the wall time)"
	note "ttwu_tkread_rqclock: $(grep ^summary $D/ttwu_tkread_rqclock.$V)"
	expect_eq "rqclock count" "$(field ttwu_tkread_rqclock count)" "$(field ttwu_tkread count)"
	expect_eq "rqclock count, events" "$(field ttwu_tkread_rqclock count)" "$(awk '{ print $2 }' /tmp/rqadv)"
	expect_eq "rqclock_migrated count" "$(field ttwu_tkread_rqclock_migrated count)" \
		"$(field ttwu_tkread_migrated count)"
	expect_eq "rqclock_local count" "$(field ttwu_tkread_rqclock_local count)" \
		"$(field ttwu_tkread_local count)"
	expect_eq "rqclock migrated, events" "$(field ttwu_tkread_rqclock_migrated count)" \
		"$(awk '{ print $4 }' /tmp/rqadv)"
	expect_eq "rqclock min" "$(field ttwu_tkread_rqclock min)" "$(awk '{ print $6 }' /tmp/rqadv)"
	expect_eq "rqclock max" "$(field ttwu_tkread_rqclock max)" "$(awk '{ print $8 }' /tmp/rqadv)"
	# (check_consistent wants min > 0: an rq clock often has not moved.)
	expect_eq "rqclock slots" "$(awk '$1 == "slot" && $4 == "all" { n += $8 } END { print n + 0 }' \
		$D/ttwu_tkread_rqclock.$V)" 200
	! dmesg | grep -q 'clkstat: rq clock off' || fail "$(dmesg | grep 'rq clock off')"
	rmmod clkstat
}

t_tkread_rqclock() {
	note "$(dmesg | grep -m2 -iE 'unstable|sched_clock' | tr '\n' '|')"
	rqclock_check
	rqclock_check --migrate
}

# The suite, in the order module_tests.sh runs it.
TKREAD_TESTS="t_tkread_local t_tkread_migrate t_tkread_variants
	t_tkread_alone t_tkread_rqclock"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$TKREAD_TESTS}
