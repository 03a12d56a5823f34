#!/bin/bash
# suite_variants.sh - the hook variants (direct, ftrace, kprobe,
# kprobe-int3, tracepoint, off) and switching between them: what each
# hooks as the kernel's lists show, exact counts through each
# (variants_exact, lib.sh), the direct call shared with BPF, switches at
# runtime and their errors, off, and switches in a loop under a workload.
# usage: suite_variants.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The same exact counts through every variant, local and migrating.
t_variants_exact() {
	variants_exact direct ftrace kprobe kprobe-int3 tracepoint
}

# Each variant hooks what it says it does, as the kernel's own lists show,
# and leaves nothing behind.
t_variant_hooks() {
	local kp=/sys/kernel/debug/kprobes/list
	insmod "$KO" variant=direct
	# Each entry hook has a trampoline of its own (direct_tramp.h).
	grep -A1 '^try_to_wake_up' "$T/enabled_functions" |
		grep -q 'direct-->clkstat_direct_tramp_ttwu_on_wakeup+' ||
		fail "direct: $(grep -A1 '^try_to_wake_up' "$T/enabled_functions")"
	grep -A1 "^$ENQ " "$T/enabled_functions" |
		grep -q 'direct-->clkstat_direct_tramp_ttwu_on_activate+' ||
		fail "direct: $(grep -A1 "^$ENQ " "$T/enabled_functions")"
	[ -e "$D/ttwu_enqueue.direct" ] || fail "no ttwu_enqueue.direct"
	rmmod clkstat
	insmod "$KO" variant=kprobe
	grep -qE " k +try_to_wake_up\+$FENTRY .*\[FTRACE\]" "$kp" || fail "kprobe: $(cat $kp)"
	grep -qE " k +$ENQ\+$FENTRY .*\[FTRACE\]" "$kp" || fail "kprobe: $(cat $kp)"
	rmmod clkstat
	insmod "$KO" variant=kprobe-int3
	grep -E " k +try_to_wake_up\+$INT3 " "$kp" | grep -qv 'FTRACE\|OPTIMIZED' ||
		fail "kprobe-int3: $(cat $kp)"
	rmmod clkstat
	insmod "$KO" variant=tracepoint
	! grep -qE "$HOOKED_RE" "$T/enabled_functions" ||
		fail "tracepoint variant patched a function"
	[ -e "$D/ttwu_enqueue.tracepoint" ] || fail "no ttwu_enqueue.tracepoint"
	rmmod clkstat
	! grep -q clkstat "$kp" || fail "kprobes left: $(cat $kp)"
	! grep -qE "$HOOKED_RE" "$T/enabled_functions" ||
		fail "hook left after rmmod"
}

# Switching the variant at runtime: the control file says which is
# attached, the kernel's lists agree, the new variant's files appear and
# record, the old ones stop and keep what they had; bad switches change
# nothing.
t_variant_switch() {
	local c before
	insmod "$KO" probes=ttwu,tkread
	grep -q '^variant direct switches 0$' "$D/control" || fail "control: $(head -1 $D/control)"
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" >/dev/null
	echo "variant kprobe" > "$D/control"
	grep -q '^variant kprobe switches 1$' "$D/control" || fail "control: $(head -1 $D/control)"
	grep -qE " k +try_to_wake_up\+$FENTRY " /sys/kernel/debug/kprobes/list || fail "no kprobe after the switch"
	! grep -A1 '^try_to_wake_up' "$T/enabled_functions" | grep -q 'direct-->' ||
		fail "direct call left after the switch"
	for f in ttwu_enqueue ttwu_enqueue_local ttwu_enqueue_migrated tkread ttwu_tkread \
		 ttwu_tkread_migrated ttwu_tkread_local enqueue_tkread; do
		[ -e "$D/$f.kprobe" ] || fail "no $f.kprobe"
	done
	# The workload's window closed with "stop": the state carried over.
	grep -q '^metric ttwu_enqueue variant kprobe recording off$' "$D/control" || fail "$(cat $D/control)"
	grep -q '^metric ttwu_enqueue variant direct recording off$' "$D/control" || fail "$(cat $D/control)"
	expect_eq "direct count kept" "$(V=direct field ttwu_enqueue count)" 100
	expect_eq "kprobe count before" "$(V=kprobe field ttwu_enqueue count)" 0
	# Only the attached variant's metrics start.
	echo start > "$D/control"
	grep -q '^metric ttwu_enqueue variant kprobe recording on$' "$D/control" || fail "$(cat $D/control)"
	grep -q '^metric ttwu_enqueue variant direct recording off$' "$D/control" || fail "$(cat $D/control)"
	if echo "start ttwu_enqueue.direct" > "$D/control" 2>/dev/null; then
		fail "a detached variant's metric started"
	fi
	# The workload's window begins with a bare reset: every variant.
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" >/dev/null
	expect_eq "kprobe count" "$(V=kprobe field ttwu_enqueue count)" 100
	expect_eq "kprobe ttwu_tkread count" "$(V=kprobe field ttwu_tkread count)" 100
	expect_eq "direct count after a bare reset" "$(V=direct field ttwu_enqueue count)" 0
	# Back to direct: the same files again; a started metric stays started.
	echo start > "$D/control"
	echo "variant direct" > "$D/control"
	grep -q '^variant direct switches 2$' "$D/control" || fail "control: $(head -1 $D/control)"
	grep -q '^metric ttwu_enqueue variant direct recording on$' "$D/control" || fail "$(cat $D/control)"
	grep -q '^metric ttwu_enqueue variant kprobe recording off$' "$D/control" || fail "$(cat $D/control)"
	# No-ops and errors: nothing changes, errors are EINVAL with a warning.
	echo "variant direct" > "$D/control"
	before=$(cat "$D/control")
	expect_eq "switches after a no-op" "$(head -1 $D/control)" "variant direct switches 2"
	for c in "variant nosuch" "variant tracepoint" "variant" "variant a b" \
		 "start ttwu_enqueue.kprobe"; do
		mark
		if echo "$c" > "$D/control" 2>/tmp/err; then
			fail "'$c' accepted"
		fi
		grep -q 'Invalid argument' /tmp/err || fail "'$c': $(cat /tmp/err)"
		since_mark | grep -q 'clkstat: control: ' || fail "no warning for '$c'"
		expect_eq "state after '$c'" "$(cat "$D/control")" "$before"
	done
	mark; echo "variant tracepoint" > "$D/control" 2>/dev/null || true
	since_mark | grep -q 'variant tracepoint cannot run probe tkread' || fail "no message naming tkread"
}

# The off variant: nothing of clkstat's on the path, metrics kept.
t_variant_off() {
	insmod "$KO" probes=ttwu,tkread variant=off
	! grep -qE "^((try_to_wake_up|$ENQ)( |\$)|ktime_get)" "$T/enabled_functions" ||
		fail "hooked with variant=off: $(cat $T/enabled_functions)"
	! grep -qE "try_to_wake_up|$ENQ" /sys/kernel/debug/kprobes/list ||
		fail "kprobe with variant=off"
	[ -e "$D/ttwu_enqueue.off" ] || fail "no ttwu_enqueue.off"
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null
	expect_eq "off count" "$(V=off field ttwu_enqueue count)" 0
	expect_eq "off wakeups" "$(V=off field ttwu_enqueue wakeups)" 0
	echo "variant direct" > "$D/control"
	grep -A1 '^try_to_wake_up' "$T/enabled_functions" | grep -q 'direct-->' ||
		fail "no direct call after switching from off"
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null
	expect_eq "direct count" "$(V=direct field ttwu_enqueue count)" 100
	echo "variant off" > "$D/control"
	grep -q '^variant off switches 2$' "$D/control" || fail "control: $(head -1 $D/control)"
	! grep -qE "^((try_to_wake_up|$ENQ)( |\$)|ktime_get)" "$T/enabled_functions" ||
		fail "hook left after switching to off"
	expect_eq "direct count kept under off" "$(V=direct field ttwu_enqueue count)" 100
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null
	expect_eq "off count after a run" "$(V=off field ttwu_enqueue count)" 0
	expect_eq "off tkread count" "$(V=off field ttwu_tkread count)" 0
	rmmod clkstat
}

# Variants switched in a loop (A B C D E A ...) while the workload runs:
# no kernel complaint, and the counters add up across the variants.  (It
# caught a bare "start" from the workload starting a detached variant's
# metrics, which then counted while that variant's hooks were half
# attached.)
# Every wakeup a variant sees ends as a sample, as replaced, evicted or
# busy, or pending at a switch (counted as switch_lost by the next
# variant); the workload ends with both threads asleep, so none is left.
# Wakeups during a switch's gap are not seen at all.  The switching goes
# on after the workload if need be, to 5 switches at least (every
# variant): how many fit in the workload depends on the machine.
t_variant_switch_loop() {
	local v i n=0 during=0 pp vs=(ftrace kprobe kprobe-int3 tracepoint direct)
	insmod "$KO"
	"$PINGPONG" -n 20000 --migrate --control "$D/control" > /tmp/truth &
	pp=$!
	while kill -0 "$pp" 2>/dev/null || [ "$n" -lt 5 ]; do
		! kill -0 "$pp" 2>/dev/null || during=$((during + 1))
		v=${vs[n % 5]}
		echo "variant $v" > "$D/control" || fail "switch to $v failed"
		n=$((n + 1))
		sleep 0.$((RANDOM % 3))$((RANDOM % 10))
	done
	wait "$pp" || fail "workload failed"
	note "$n switches, $during of them begun while the workload ran"
	[ "$n" -ge 5 ] || fail "only $n switches"
	# Switching while the workload records is what is tested: the first
	# switch starts with it, so one at least lands inside it.
	[ "$during" -ge 1 ] || fail "no switch while the workload ran"
	grep -q "^variant [a-z0-9-]* switches $n\$" "$D/control" || fail "control: $(head -1 $D/control)"
	local w=0 count=0 rest=0 lost=0 truth
	for v in direct ftrace kprobe kprobe-int3 tracepoint; do
		[ -e "$D/ttwu_enqueue.$v" ] || continue
		w=$((w + $(V=$v field ttwu_enqueue wakeups)))
		count=$((count + $(V=$v field ttwu_enqueue count)))
		lost=$((lost + $(V=$v field ttwu_enqueue switch_lost)))
		for c in replaced evicted busy; do
			rest=$((rest + $(V=$v field ttwu_enqueue $c)))
		done
		note "$v: $(V=$v field ttwu_enqueue count) samples, $(grep ^counter "$D/ttwu_enqueue.$v" | awk '{ printf "%s %s ", $2, $3 }')"
		V=$v check_consistent ttwu_enqueue
	done
	truth=$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)
	note "truth $truth, seen $w = samples $count + switch_lost $lost + replaced/evicted/busy $rest"
	expect_eq "wakeups seen = samples + lost + dropped" "$w" "$((count + lost + rest))"
	# As in the exact tests, this workload's wakeups all reach an enqueue:
	# a replaced one would be a wakeup seen from a half-attached state.
	expect_eq "replaced, evicted and busy" "$rest" 0
	[ "$w" -le "$truth" ] || fail "more wakeups seen ($w) than happened ($truth)"
	[ "$count" -gt 0 ] || fail "no wakeup measured"
}

# A function takes one direct call at a time, and BPF's fentry programs
# use the same mechanism.  BPF first: variant=direct fails naming the
# function and the way out, and that way out (ftrace) works beside it.
# clkstat first: the BPF program cannot attach.
t_direct_conflict() {
	local bt i
	bpftrace -e 'kfunc:try_to_wake_up { @n = count(); }' > /tmp/bt.out 2>&1 &
	bt=$!
	# bpftrace's start (BTF, LLVM) takes minutes on a slow machine: up
	# to 900 s, as soon as it attached.
	for i in $(seq 900); do
		grep -A1 '^try_to_wake_up' "$T/enabled_functions" | grep -q 'direct-->' && break
		kill -0 "$bt" 2>/dev/null || fail "bpftrace ended: $(cat /tmp/bt.out)"
		sleep 1
	done
	grep -A1 '^try_to_wake_up' "$T/enabled_functions" | grep -q 'direct-->' ||
		{ kill "$bt"; fail "bpftrace's fentry program never attached"; }
	mark
	if insmod "$KO" variant=direct 2>/dev/null; then
		kill "$bt"; fail "variant=direct loaded beside a BPF fentry program"
	fi
	since_mark | grep -q 'clkstat: try_to_wake_up already has a direct call (a BPF fentry/fexit program?): use variant=ftrace or variant=kprobe' ||
		{ kill "$bt"; fail "no message naming the function: $(since_mark | tail -3)"; }
	! loaded || { kill "$bt"; fail "module loaded"; }
	insmod "$KO" variant=ftrace || { kill "$bt"; fail "variant=ftrace failed beside BPF"; }
	"$PINGPONG" -n 50 --control "$D/control" >/dev/null
	expect_eq "ftrace count beside BPF" "$(V=ftrace field ttwu_enqueue count)" 100
	rmmod clkstat
	kill -INT "$bt"; wait "$bt" 2>/dev/null
	insmod "$KO" variant=direct
	if timeout 900 bpftrace -e 'kfunc:try_to_wake_up { exit(); }' > /tmp/bt.out 2>&1; then
		fail "a BPF fentry program attached beside variant=direct"
	fi
	grep -qi 'error attaching' /tmp/bt.out || fail "bpftrace: $(cat /tmp/bt.out)"
	rmmod clkstat
}

# The suite, in the order module_tests.sh runs it.
VARIANTS_TESTS="t_variant_hooks t_variants_exact t_direct_conflict
	t_variant_switch t_variant_off t_variant_switch_loop"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$VARIANTS_TESTS}
