#!/bin/bash
# suite_usertrace.sh - user-defined probes (issue 19): trace and untrace
# through the control file, counts against clkstat_hookbench's known
# number of calls, in every variant that reaches a function; refusals.
# usage: suite_usertrace.sh [TEST...]; last line "N passed, N failed".
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HB=/sys/kernel/debug/clkstat_hookbench
TGT=clkstat_bench_target

# count METRIC.VARIANT: its sample count
mcount() {
	awk '$1 == "summary" { for (i = 2; i < NF; i += 2) if ($i == "count") print $(i + 1) }' "$D/$1"
}
# mcounter METRIC.VARIANT NAME: one counter
mcounter() { awk -v k="$2" '$1 == "counter" && $2 == k { print $3 }' "$D/$1"; }
ctl() { echo "$*" > "$D/control" || return 1; }
ctl_refused() {	# ctl_refused CMD WANT_ERRNO_TEXT DMESG_TEXT
	local rc=0
	mark
	echo "$1" 2>/tmp/ctl_err > "$D/control" || rc=$?
	[ "$rc" != 0 ] || fail "'$1' accepted"
	grep -q "$2" /tmp/ctl_err || fail "'$1': $(cat /tmp/ctl_err), want $2"
	since_mark | grep -qF -- "$3" || fail "'$1': no '$3' in the log: $(since_mark | tail -3)"
}

# func: and a section on the hookbench's target: exact counts in every
# variant that reaches a function, a switch carrying the traces along.
t_trace_counts() {
	local v
	trap 'rmmod clkstat_hookbench 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu variant=kprobe
	insmod "$KMOD/clkstat_hookbench.ko"
	ctl trace func:$TGT
	ctl trace sec:$TGT-$TGT
	expect_eq "traces" "$(cat $D/traces)" "1 func:$TGT
2 sec:$TGT-$TGT"
	for v in kprobe kprobe-int3 ftrace direct; do
		# Not yet: the direct and ftrace variants time a return only
		# where BTF shows the prototype (hook_exit.c).
		[ "$v" != ftrace ] || ctl untrace func:$TGT
		ctl variant $v || fail "switch to $v"
		ctl reset
		echo "hot 1000" > $HB/run
		[ "$v" = ftrace ] || [ "$v" = direct ] ||
			expect_eq "$v: func count" "$(mcount func:$TGT.$v)" 1000
		expect_eq "$v: sec count" "$(mcount sec:$TGT-$TGT.$v)" 999
		expect_eq "$v: sec unmatched" "$(mcounter sec:$TGT-$TGT.$v unmatched)" 1
	done
	ctl untrace $TGT-$TGT 2>/dev/null && fail "untrace of a malformed spec accepted"
	ctl untrace sec:$TGT-$TGT
	expect_eq "traces after untrace" "$(cat $D/traces)" ""
	[ ! -e "$D/func:$TGT.kprobe" ] || fail "metric file left after untrace"
	rmmod clkstat_hookbench
	rmmod clkstat
}

# Refusals: one line in the log naming the spec and why, nothing left.
t_trace_refusals() {
	insmod "$KO" probes=ttwu variant=kprobe
	ctl_refused "trace func:no_such_function_xyz" "No such file" "func:no_such_function_xyz: no_such_function_xyz: no such function"
	ctl_refused "trace func:ktime_get_mono_fast_ns" "Invalid argument" "clkstat's recorders call it"
	ctl_refused "trace func:_printk" "Invalid argument" "printk, tracing and probing"
	ctl_refused "trace sec:a" "Invalid argument" "a section needs two ends"
	ctl_refused "trace sec:a-b:exit:exit" "Invalid argument" "unknown or repeated option"
	ctl_refused "trace tp:sched_switch-sched_wakeup" "Invalid argument" "variant kprobe cannot reach tracepoints"
	ctl_refused "trace func:do_nanosleep-x" "Invalid argument" "has a character other than"
	ctl trace func:do_nanosleep
	ctl_refused "trace do_nanosleep" "File exists" "already traced"
	ctl_refused "variant tracepoint" "Invalid argument" "cannot run probe func:do_nanosleep"
	expect_eq "traces" "$(cat $D/traces)" "1 func:do_nanosleep"
	rmmod clkstat
}

# tp: through the tracepoint variant: sched_waking to sched_wakeup of the
# same task is rare (they run in the waker), sys_enter to sys_exit of a
# task's syscalls is a section every syscall closes.
t_trace_tp() {
	insmod "$KO" probes=ttwu variant=tracepoint
	ctl trace tp:sys_enter-sys_exit
	ctl tgid $BASHPID
	ctl reset
	sleep 0.2
	local n; n=$(mcount tp:sys_enter-sys_exit.tracepoint)
	[ "$n" -gt 0 ] || fail "no syscall section recorded"
	rmmod clkstat
}

USERTRACE_TESTS="t_trace_counts t_trace_refusals t_trace_tp"
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$USERTRACE_TESTS}
