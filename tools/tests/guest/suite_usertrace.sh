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

# clkstat-report trace add|del|list over netlink: lists as debugfs's
# traces and info, counts, the module's reasons on one line each with the
# tool's exit status (2: refused before sending, 1: by the module), all or
# nothing, the limit, no leak under valgrind.
t_trace_cli() {
	local R=$top/tools/clkstat-report rc i s SB=clkstat_tt_sec_begin SE=clkstat_tt_sec_end
	local specs=() fns=(clkstat_tt_delay $SB $SE clkstat_tt_recurse clkstat_tt_args7)
	trap 'rmmod clkstat_hookbench 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu variant=kprobe
	insmod "$KMOD/clkstat_hookbench.ko"
	"$R" trace add clkstat_tt_delay sec:$SB-$SE || fail "trace add"
	expect_eq "trace list" "$("$R" trace list)" "1 func:clkstat_tt_delay
2 sec:$SB-$SE"
	expect_eq "debugfs traces" "$(cat $D/traces)" "$("$R" trace list)"
	expect_eq "trace list --format json" "$("$R" trace list --format json)" \
		'{"limit":16,"traces":[{"id":1,"spec":"func:clkstat_tt_delay"},{"id":2,"spec":"sec:'$SB-$SE'"}]}'
	expect_eq "info" "$("$R" info | grep '^trace')" "trace_limit 16
trace 1 func:clkstat_tt_delay
trace 2 sec:$SB-$SE"
	echo "delay 10 1000" > $HB/targets
	"$R" --csv > /tmp/tr.csv
	expect_eq "func count" "$(awk -F, '$1 == "func:clkstat_tt_delay" && $2 == "kprobe" && $3 == "all" { print $4 }' /tmp/tr.csv)" 10
	# refused RC LINE... -- ARGS: exactly these lines on stderr
	refused() {
		local want_rc=$1 want="" a
		shift
		while [ "$1" != -- ]; do want+="${want:+$'\n'}$1"; shift; done
		shift
		rc=0; "$R" "$@" 2> /tmp/tr.err || rc=$?
		expect_eq "clkstat-report $*: exit status" "$rc" "$want_rc"
		expect_eq "clkstat-report $*: stderr" "$(cat /tmp/tr.err)" "$want"
	}
	refused 1 "clkstat-report: trace add clkstat_tt_delay: already traced" -- trace add clkstat_tt_delay
	refused 1 "clkstat-report: trace add func:no_such_function_xyz: no such function (or inlined everywhere)" \
		-- trace add func:no_such_function_xyz
	refused 1 "clkstat-report: trace add tp:sched_switch-sched_wakeup: only the tracepoint variant reaches tracepoints" \
		-- trace add tp:sched_switch-sched_wakeup
	refused 2 "clkstat-report: trace add sec:a: a section needs two ends, A-B" -- trace add sec:a
	refused 2 "clkstat-report: trace add func:a-b: a function or tracepoint name is empty or has a character other than letters, digits and '_' (or starts with a digit)" \
		-- trace add func:a-b
	refused 2 "clkstat-report: trace add x: given twice (as func:x)" -- trace add func:x x
	refused 1 "clkstat-report: trace del func:nope: not traced" -- trace del clkstat_tt_delay func:nope
	refused 1 "clkstat-report: ctrl untrace func:nope: not traced" -- ctrl untrace func:nope
	refused 2 "clkstat-report: trace: unknown command 'rm' (add, del, list)" -- trace rm x
	# All or nothing: the first of two is removed again when the second is refused.
	refused 1 "clkstat-report: trace add func:no_such_function_xyz: no such function (or inlined everywhere)" \
		"clkstat-report: trace add func:$SB: removed again (func:no_such_function_xyz was refused: all or nothing)" \
		-- trace add func:$SB func:no_such_function_xyz
	expect_eq "trace list after refusals" "$("$R" trace list)" "1 func:clkstat_tt_delay
2 sec:$SB-$SE"
	# The limit: 16 in all, the 17th refused with the module's reason.
	for i in "${fns[@]}"; do for s in "${fns[@]}"; do
		[ "$i-$s" = "$SB-$SE" ] || specs+=("sec:$i-$s")
	done; done
	"$R" trace add "${specs[@]:0:14}" || fail "trace add of 14 more"
	expect_eq "traces" "$("$R" trace list | wc -l)" 16
	refused 1 "clkstat-report: trace add ${specs[14]}: all 16 traces in use (untrace one first)" -- trace add "${specs[14]}"
	"$R" trace del "${specs[@]:0:14}" sec:$SB-$SE || fail "trace del of 15"
	expect_eq "trace list after del" "$("$R" trace list)" "1 func:clkstat_tt_delay"
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full "$R" trace add func:$SE sec:$SB-$SE > /dev/null 2> /tmp/vg || rc=$?
	[ "$rc" = 0 ] || fail "valgrind, trace add: $rc $(cat /tmp/vg)"
	valgrind -q --error-exitcode=99 --leak-check=full "$R" trace add func:$SE 2> /tmp/vg || rc=$?
	[ "$rc" = 1 ] || fail "valgrind, trace add refused: $rc $(cat /tmp/vg)"
	rc=0
	for c in "trace list" "trace list --format json" "info" "trace del func:$SE sec:$SB-$SE"; do
		# shellcheck disable=SC2086
		valgrind -q --error-exitcode=99 --leak-check=full "$R" $c > /dev/null 2> /tmp/vg || rc=$?
		[ "$rc" = 0 ] || fail "valgrind, $c: $rc $(cat /tmp/vg)"
	done
	"$R" trace del func:clkstat_tt_delay
	expect_eq "traces at the end" "$(cat $D/traces)" ""
	rmmod clkstat_hookbench
	rmmod clkstat
}

# record --probes with a user-defined probe: traced for the runs only,
# every run's count exact and its durations at least the delay; one the
# module already had is kept; refusals up front leave nothing; Ctrl-C
# removes what record added.
t_trace_record() {
	local R=$top/tools/clkstat-report out=/tmp/trrec.json rc i v n min pid
	local SB=clkstat_tt_sec_begin SE=clkstat_tt_sec_end
	trap 'rmmod clkstat_hookbench 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu
	insmod "$KMOD/clkstat_hookbench.ko"
	"$R" record -q -o $out --runs 4 --variants kprobe,kprobe-int3 \
		--probes ttwu,func:clkstat_tt_delay -- \
		sh -c "echo 'delay 100 20000' > $HB/targets" || fail "record failed"
	for i in 0 1 2 3; do
		v=$("$R" info -i $out | awk -v i=$i '$1 == "run" && $2 == i { print $4 }')
		"$R" -i $out --run $i --csv > /tmp/run.csv
		n=$(awk -F, -v v=$v '$1 == "func:clkstat_tt_delay" && $2 == v && $3 == "all" { print $4 }' /tmp/run.csv)
		min=$(awk -F, -v v=$v '$1 == "func:clkstat_tt_delay" && $2 == v && $3 == "all" { print $5 }' /tmp/run.csv)
		note "run $i ($v): count $n, min $min ns"
		expect_eq "run $i ($v) count" "$n" 100
		awk -v m="$min" 'BEGIN { exit !(m >= 20000) }' || fail "run $i ($v): min $min ns < 20 us"
		[ -n "$(awk -F, -v v=$v '$1 == "ttwu_enqueue" && $2 == v' /tmp/run.csv)" ] ||
			fail "run $i: no ttwu_enqueue beside the trace"
	done
	expect_eq "traces after record" "$(cat $D/traces)" ""
	expect_eq "variant restored" "$(head -1 $D/control | awk '{ print $1, $2 }')" "variant direct"
	# The text report, JSON and --compare by name take the name whole.
	"$R" -i $out --no-hist --metric func:clkstat_tt_delay.kprobe | grep -q '^func:clkstat_tt_delay' ||
		fail "text report: $("$R" -i $out --no-hist --metric func:clkstat_tt_delay.kprobe | head -3)"
	"$R" -i $out --compare kprobe --metric func:clkstat_tt_delay --resamples 200 > /tmp/cmp.txt ||
		fail "--compare: $(cat /tmp/cmp.txt)"
	grep -q "func:clkstat_tt_delay" /tmp/cmp.txt || fail "--compare: $(head -5 /tmp/cmp.txt)"
	# One the module had stays; the one record added goes (the trace is
	# added in kprobe: direct does not time a return yet).
	ctl variant kprobe && ctl trace func:clkstat_tt_delay || fail "trace in kprobe"
	"$R" record -q -o $out --runs 1 --variants kprobe \
		--probes func:clkstat_tt_delay,sec:$SB-$SE -- \
		sh -c "echo 'sec 3 100' > $HB/targets" || fail "record with a trace there"
	expect_eq "traces kept" "$(awk '{ print $2 }' $D/traces)" func:clkstat_tt_delay
	expect_eq "sec count" "$("$R" -i $out --csv | awk -F, '$1 == "sec:'$SB-$SE'" && $3 == "all" { print $4 }')" 3
	# Refused up front, with the module's reason: nothing left, nothing written.
	cp $out /tmp/trrec.before
	rc=0; "$R" record -q -o $out --runs 2 --variants kprobe \
		--probes sec:$SB-$SE,func:no_such_function_xyz -- true 2> /tmp/err || rc=$?
	expect_eq "exit status, refused probe" "$rc" 1
	expect_eq "message" "$(cat /tmp/err)" \
		"clkstat-report: record: --probes func:no_such_function_xyz: no such function (or inlined everywhere)"
	expect_eq "traces after a refusal" "$(awk '{ print $2 }' $D/traces)" func:clkstat_tt_delay
	cmp -s $out /tmp/trrec.before || fail "a refused record changed the snapshot"
	rc=0; "$R" record -q -o $out --variants kprobe --probes func:a-b -- true 2> /tmp/err || rc=$?
	expect_eq "exit status, bad spec" "$rc" 2
	# Ctrl-C: record ends after the current run and removes its trace.
	"$R" record -q -o /tmp/int.json --runs 1000 --variants kprobe \
		--probes sec:$SB-$SE -- sleep 0.2 2> /tmp/err &
	pid=$!
	for i in $(seq 100); do
		grep -q "sec:$SB-$SE" $D/traces && break
		sleep 0.1
	done
	grep -q "sec:$SB-$SE" $D/traces || fail "record's trace never appeared"
	sleep 0.5
	kill -INT $pid
	rc=0; wait $pid || rc=$?
	expect_eq "exit status, interrupted" "$rc" 0
	expect_eq "traces after Ctrl-C" "$(awk '{ print $2 }' $D/traces)" func:clkstat_tt_delay
	ctl untrace func:clkstat_tt_delay || fail "untrace"
	rmmod clkstat_hookbench
	rmmod clkstat
}

# Adds and removes from netlink and debugfs at once, while the target
# runs: nothing left, the module unloads cleanly.
t_trace_cli_race() {
	local R=$top/tools/clkstat-report N=${CLKSTAT_TRACE_RACE_N:-200} a b c i
	local S1=func:clkstat_tt_delay S2=sec:clkstat_tt_sec_begin-clkstat_tt_sec_end
	trap 'rmmod clkstat_hookbench 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu variant=kprobe
	insmod "$KMOD/clkstat_hookbench.ko"
	( for i in $(seq "$N"); do
		"$R" trace add $S1 $S2 2> /dev/null
		"$R" trace del $S1 2> /dev/null
		"$R" ctrl untrace $S2 2> /dev/null
	done; exit 0 ) &
	a=$!
	( for i in $(seq "$N"); do
		echo "trace $S2" > $D/control 2> /dev/null
		echo "trace $S1" > $D/control 2> /dev/null
		echo "untrace $S1" > $D/control 2> /dev/null
		echo "untrace $S2" > $D/control 2> /dev/null
	done; exit 0 ) &
	b=$!
	( while kill -0 $a 2> /dev/null || kill -0 $b 2> /dev/null; do
		echo "delay 20 1000" > $HB/targets
		echo "sec 5 10" > $HB/targets
	done ) &
	c=$!
	wait $a $b $c
	expect_eq "traces after the race" "$(cat $D/traces)" ""
	expect_eq "trace list after the race" "$("$R" trace list)" ""
	ls $D | grep -q ':' && fail "metric files left: $(ls $D | grep ':')"
	rmmod clkstat_hookbench
	rmmod clkstat || fail "rmmod after the race"
	! loaded || fail "still loaded"
}

USERTRACE_TESTS="t_trace_counts t_trace_refusals t_trace_tp t_trace_cli t_trace_record t_trace_cli_race"
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$USERTRACE_TESTS}
