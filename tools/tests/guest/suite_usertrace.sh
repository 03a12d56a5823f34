#!/bin/bash
# suite_usertrace.sh - user-defined probes: trace and untrace
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
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu variant=kprobe
	insmod "$KMOD/clkstat_hookbench.ko"
	ctl trace func:$TGT
	ctl trace sec:$TGT-$TGT
	expect_eq "traces" "$(cat $D/traces)" "1 func:$TGT
2 sec:$TGT-$TGT"
	# func: times returns through the kernel (fprobe, kretprobe), not
	# a direct call: direct holds both on one function too.
	for v in kprobe kprobe-int3 ftrace direct; do
		ctl variant $v || fail "switch to $v"
		ctl reset
		echo "hot 1000" > $HB/run
		expect_eq "$v: func count" "$(mcount func:$TGT.$v)" 1000
		expect_eq "$v: sec count" "$(mcount sec:$TGT-$TGT.$v)" 999
		expect_eq "$v: sec unmatched" "$(mcounter sec:$TGT-$TGT.$v unmatched)" 1
	done
	# One direct call per function: a second entry hook on it is
	# refused in direct, and so is a switch to direct with two.
	ctl_refused "trace sec:$TGT-clkstat_tt_sec_end" "Device or resource busy" "clkstat hooks it already"
	ctl variant ftrace
	ctl trace sec:$TGT-clkstat_tt_sec_end
	v=$(head -1 $D/control)
	mark
	ctl variant direct 2>/dev/null && fail "direct with two entry hooks on $TGT"
	since_mark | grep -q "clkstat hooks it already (one direct call per function" ||
		fail "direct refusal: $(since_mark | tail -2)"
	expect_eq "variant after the refusal" "$(head -1 $D/control)" "$v"
	ctl untrace sec:$TGT-clkstat_tt_sec_end
	ctl untrace func:$TGT
	ctl variant kprobe
	ctl trace func:$TGT
	ctl untrace $TGT-$TGT 2>/dev/null && fail "untrace of a malformed spec accepted"
	ctl untrace func:$TGT
	ctl untrace sec:$TGT-$TGT
	expect_eq "traces after untrace" "$(cat $D/traces)" ""
	[ ! -e "$D/func:$TGT.kprobe" ] || fail "metric file left after untrace"
	hb_unload
	rmmod clkstat
}

# Refusals: one line in the log naming the spec and why, nothing left.
t_trace_refusals() {
	insmod "$KO" probes=ttwu variant=kprobe
	ctl_refused "trace func:no_such_function_xyz" "No such file" "func:no_such_function_xyz: no_such_function_xyz: no such function"
	ctl_refused "trace func:_printk" "Invalid argument" "printk, tracing and probing"
	ctl_refused "trace func:migrate_disable" "Invalid argument" "tracing runs on it"
	ctl_refused "trace sec:a" "Invalid argument" "a section needs two ends"
	ctl_refused "trace sec:a-b:exit:exit" "Invalid argument" "unknown or repeated option"
	ctl_refused "trace tp:sched_switch-sched_wakeup" "Invalid argument" "variant kprobe cannot reach tracepoints"
	ctl_refused "trace func:do_nanosleep-x" "Invalid argument" "has a character other than"
	ctl trace func:do_nanosleep
	ctl_refused "trace do_nanosleep" "File exists" "already traced"
	ctl_refused "variant tracepoint" "Invalid argument" "cannot run probe func:do_nanosleep"
	expect_eq "traces" "$(cat $D/traces)" "1 func:do_nanosleep"
	# A return that never comes: refused for func: and a section's
	# :exit end, in every variant; an entry hook on it is fine.
	local v
	for v in kprobe ftrace direct; do
		ctl variant $v
		ctl_refused "trace func:do_exit" "Invalid argument" "func:do_exit: do_exit: it never returns"
		ctl_refused "trace sec:do_nanosleep-do_group_exit:exit" "Invalid argument" "do_group_exit: it never returns"
	done
	ctl variant kprobe
	ctl trace sec:do_exit-do_task_dead || fail "an entry hook on do_exit refused"
	ctl untrace sec:do_exit-do_task_dead
	# clkstat's own code, a function the kprobe blacklist holds, a
	# spec too long for a metric name.
	ctl_refused "trace func:clkstat_probes_trace" "Invalid argument" "clkstat's own code"
	ctl_refused "trace func:do_int3" "Invalid argument" "func:do_int3: do_int3:"
	ctl_refused "trace sec:$(printf 'a%.0s' $(seq 30))-$(printf 'b%.0s' $(seq 30))" \
		"Invalid argument" "longer than a metric name can be"
	# The limit: 16 (do_nanosleep and 15 more), the 17th refused.
	insmod "$KMOD/clkstat_hookbench.ko"
	local f g n=1
	for f in delay sec_begin sec_end recurse args7 ret16; do
		for g in func sec_end_$f sec_delay_$f; do
			[ $n -lt 16 ] || break
			case $g in
			func) ctl trace func:clkstat_tt_$f ;;
			sec_end_*) ctl trace sec:clkstat_tt_$f-clkstat_tt_sec_end ;;
			*) ctl trace sec:clkstat_tt_delay-clkstat_tt_$f:cpu ;;
			esac || fail "trace $n ($f $g)"
			n=$((n + 1))
		done
	done
	expect_eq "traces" "$(wc -l < $D/traces)" 16
	ctl_refused "trace sec:clkstat_tt_ret16-clkstat_tt_args7" "No space left" "all 16 traces in use"
	expect_eq "traces after the 17th" "$(wc -l < $D/traces)" 16
	hb_unload 2>/dev/null || true
	rmmod clkstat
}

# Traces in probes= at load: added after the built-in probes, attached
# with the load's variant; one refused fails the load, naming it and why,
# and nothing stays (the module is not loaded, nothing hooked).
t_trace_load() {
	insmod "$KO" "probes=ttwu,func:do_nanosleep,sec:do_nanosleep-hrtimer_nanosleep:cpu" variant=kprobe ||
		fail "load with traces"
	expect_eq "traces" "$(cat $D/traces)" "1 func:do_nanosleep
2 sec:do_nanosleep-hrtimer_nanosleep:cpu"
	sleep 0.1
	[ "$(mcount func:do_nanosleep.kprobe)" -gt 0 ] || fail "func:do_nanosleep recorded nothing"
	rmmod clkstat
	insmod "$KO" probes=tp:sys_enter-sys_exit variant=tracepoint || fail "tp at load"
	rmmod clkstat
	local spec why
	while read -r spec why; do
		mark
		insmod "$KO" "probes=ttwu,$spec" variant=kprobe 2>/dev/null &&
			fail "probes=ttwu,$spec loaded"
		since_mark | grep -qF "probes=: trace $spec refused: $why" ||
			fail "probes=ttwu,$spec: $(since_mark | tail -2)"
		loaded && fail "loaded after a refused $spec"
		grep -q try_to_wake_up $T/enabled_functions && fail "$spec: try_to_wake_up left hooked"
	done <<EOF
func:no_such_function_xyz no such function (or inlined everywhere)
sec:do_nanosleep a section needs two ends, A-B
func:_printk printk, tracing and probing run on it: a hook would recurse
tp:sys_enter-sys_exit only the tracepoint variant reaches tracepoints
EOF
	true
}

# A section whose first end attaches and whose second cannot: refused,
# and the first end detached again (ftrace's enabled_functions, the
# kprobe list), in the ftrace variant (read_tsc is notrace) and the
# direct one (try_to_wake_up has ttwu's direct call).
t_trace_partial() {
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu variant=ftrace
	insmod "$KMOD/clkstat_hookbench.ko"
	ctl_refused "trace sec:clkstat_tt_delay-read_tsc" "" "trace sec:clkstat_tt_delay-read_tsc: cannot attach with variant ftrace"
	grep -q clkstat_tt_delay $T/enabled_functions && fail "ftrace: clkstat_tt_delay left hooked"
	ctl variant direct
	ctl_refused "trace sec:clkstat_tt_delay-try_to_wake_up" "Device or resource busy" "clkstat hooks it already"
	grep -q clkstat_tt_delay $T/enabled_functions && fail "direct: clkstat_tt_delay left hooked"
	expect_eq "traces" "$(cat $D/traces)" ""
	expect_eq "trace metric files" "$(ls $D | grep -c :)" 0
	hb_unload
	rmmod clkstat
}

# With an event log, each sample of a trace is a "trace" event: its
# latency, the trace's number as corr, the spec's first 15 bytes.
t_trace_events() {
	trap 'hb_unload 2>/dev/null || true' EXIT
	# No built-in probe: nothing else fills the rings.
	insmod "$KO" probes= variant=ftrace events=256
	insmod "$KMOD/clkstat_hookbench.ko"
	ctl trace func:clkstat_tt_delay
	ctl reset
	hb_run "delay 10 5000"
	awk '$2 == "trace"' $D/events > /tmp/tev
	expect_eq "trace events" "$(wc -l < /tmp/tev)" 10
	expect_eq "corr, text" "$(awk '{ print $5, $6 }' /tmp/tev | sort -u)" "1 func:clkstat_tt"
	awk '$7 < 5000 { exit 1 }' /tmp/tev || fail "a latency below 5000 ns: $(cat /tmp/tev)"
	hb_unload
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

TT=$HB/targets
# summ METRIC.VARIANT KEY: a summary value (count, min, p50, max, ...)
summ() {
	awk -v k="$2" '$1 == "summary" { for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$D/$1"
}
# hb_run CMD: run a targets command; HB_MIN and HB_MAX from its read-back
hb_run() {
	echo "$1" > "$TT" || fail "targets: '$1' failed"
	set -- $(cat "$TT")
	HB_MIN=${10} HB_MAX=${12}
}
# expect_dur WHAT METRIC COUNT LOW: COUNT samples, none below LOW ns, the
# median and the largest no more than the hookbench's own largest (taken
# around the call, so around the hooks too) plus 1 us for the two clocks'
# conversions and 1% for the rates of the two clocks (the suite's hpet,
# the hookbench's TSC), as suite_trace.sh allows for the same pair.
expect_dur() {
	local c mn p50 mx
	c=$(summ "$2" count) mn=$(summ "$2" min) p50=$(summ "$2" p50) mx=$(summ "$2" max)
	expect_eq "$1: count" "$c" "$3"
	[ "$mn" -ge "$4" ] || fail "$1: min $mn < $4"
	[ "$p50" -ge "$4" ] || fail "$1: p50 $p50 < $4"
	[ "$mx" -le $((HB_MAX + HB_MAX / 100 + 1000)) ] || fail "$1: max $mx > the hookbench's $HB_MAX"
}

# Every kind on the hookbench's targets of known duration and count, in
# every module variant that reaches it: counts exact, durations at least
# what the target takes and at most what the hookbench measured around
# the call.
t_trace_targets() {
	local v f="func:clkstat_tt_delay" r="func:clkstat_tt_recurse"
	local s="sec:clkstat_tt_sec_begin-clkstat_tt_sec_end"
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu variant=kprobe
	insmod "$KMOD/clkstat_hookbench.ko"
	for v in kprobe kprobe-int3 ftrace direct; do
		ctl variant $v || fail "switch to $v"
		ctl trace $f; ctl trace $r
		ctl trace $s
		# One direct call per function: the other two in turn.
		[ $v = direct ] || { ctl trace $s:exit; ctl trace $s:cpu; }
		hb_run "delay 200 20000"
		expect_dur "$v $f" $f.$v 200 20000
		hb_run "recurse 10 5"
		expect_eq "$v recurse: every nested call" "$(summ $r.$v count)" 50
		ctl untrace $f; ctl untrace $r
		# Both return registers come back (ret16 checks what it gets:
		# EIO otherwise), and a 7th argument on the stack is the
		# function's own business: the kernel's return path (fprobe,
		# kretprobe) calls no body on its behalf.
		ctl trace func:clkstat_tt_ret16
		hb_run "ret16 100"
		expect_eq "$v ret16 count" "$(summ func:clkstat_tt_ret16.$v count)" 100
		ctl untrace func:clkstat_tt_ret16
		ctl trace func:clkstat_tt_args7
		hb_run "args7 100"
		expect_eq "$v args7 count" "$(summ func:clkstat_tt_args7.$v count)" 100
		ctl untrace func:clkstat_tt_args7
		ctl reset
		hb_run "sec 20 2000"
		expect_dur "$v $s" $s.$v 20 2000000
		expect_eq "$v $s: unmatched" "$(mcounter $s.$v unmatched)" 0
		[ $v = direct ] || expect_dur "$v $s:exit" $s:exit.$v 20 2000000
		# A sleep may end on another CPU: :cpu is exact only where
		# begin and end share one (seccpu, preemption off).
		[ $v = direct ] || ctl reset $s:cpu
		hb_run "seccpu 300"
		expect_eq "$v $s: 20 + 300" "$(summ $s.$v count)" 320
		if [ $v = direct ]; then
			ctl untrace $s; ctl trace $s:exit
			hb_run "sec 20 2000"
			expect_dur "$v $s:exit" $s:exit.$v 20 2000000
			ctl untrace $s:exit; ctl trace $s:cpu
			hb_run "seccpu 300"
			expect_eq "$v $s:cpu count" "$(summ $s:cpu.$v count)" 300
			ctl untrace $s:cpu
			continue
		fi
		expect_eq "$v $s:cpu count" "$(summ $s:cpu.$v count)" 300
		expect_eq "$v $s:cpu unmatched" "$(mcounter $s:cpu.$v unmatched)" 0
		ctl untrace $s; ctl untrace $s:exit; ctl untrace $s:cpu
	done
	expect_eq "traces left" "$(cat $D/traces)" ""
	ctl variant tracepoint
	ctl trace tp:clkstat_tt_a_tp-clkstat_tt_b_tp
	hb_run "tp 30 500"
	expect_dur "tp" tp:clkstat_tt_a_tp-clkstat_tt_b_tp.tracepoint 30 500000
	# The hookbench is held while its tracepoints are hooked.
	rmmod clkstat_hookbench 2>/dev/null && fail "hookbench unloaded under a trace"
	ctl untrace tp:clkstat_tt_a_tp-clkstat_tt_b_tp
	rmmod clkstat_hookbench || fail "hookbench held after untrace"
	rmmod clkstat
}

# A traced function that sleeps (do_nanosleep under `sleep 600`) holds
# nothing of clkstat: its return goes through the kernel's return path
# (fprobe, kretprobe), so untrace and rmmod finish at once, in every
# variant that hooks returns, with the sleeper still asleep in it; when it
# wakes later it returns through the kernel with nothing to call.  The
# sleep is far longer than the test, and only the test ends it.
t_trace_sleeper() {
	local v end t0
	trap 'kill "${SLEEPER:-}" 2>/dev/null || true' EXIT
	for v in direct ftrace kprobe kprobe-int3; do
		insmod "$KO" probes= variant=$v
		ctl trace func:do_nanosleep
		sleep 600 & SLEEPER=$!
		# Asleep in clock_nanosleep (a slow kernel takes its time to
		# exec sleep): /proc/PID/syscall names it while it blocks.
		end=$((SECONDS + 120))
		until awk '{ exit !($1 == 230 || $1 == 35) }' /proc/$SLEEPER/syscall 2>/dev/null ||
		      [ $SECONDS -ge $end ]; do
			sleep 0.1
		done
		awk '{ exit !($1 == 230 || $1 == 35) }' /proc/$SLEEPER/syscall ||
			fail "$v: sleep never blocked in nanosleep: $(cat /proc/$SLEEPER/syscall)"
		t0=$SECONDS
		ctl untrace func:do_nanosleep || fail "$v: untrace"
		rmmod clkstat || fail "$v: rmmod with a sleeper inside do_nanosleep"
		[ $((SECONDS - t0)) -le 5 ] || fail "$v: untrace and rmmod took $((SECONDS - t0)) s"
		kill -0 $SLEEPER 2>/dev/null || fail "$v: the sleeper ended before the test ended it"
		# It wakes and returns through the kernel's trampoline.
		kill $SLEEPER
		wait $SLEEPER 2>/dev/null || true
		SLEEPER=""
	done
}

# Hooks on clkstat's own clock: read_hpet() (or acpi_pm_read()) while
# the kernel keeps time with it, so that every stamp of clkstat
# (ktime_get_mono_fast_ns()) reads it from inside the handlers.  Each
# such entry is a counted miss ("reentered" in the control file, the
# trace's missed counter), never a recursion: func: and sec: in every
# variant that reaches a function, and csread, which hooks the same
# reads.  The kernel lives, the calls from outside clkstat record.
t_trace_own_clock() {
	local cs fn v old n r
	old=$(cat $CS)
	trap "echo $old > $CS" EXIT
	for cs in hpet acpi_pm; do
		grep -qw $cs /sys/devices/system/clocksource/clocksource0/available_clocksource ||
			{ note "no $cs here"; continue; }
		case $cs in hpet) fn=read_hpet ;; acpi_pm) fn=acpi_pm_read ;; esac
		echo $cs > $CS
		for v in direct ftrace kprobe kprobe-int3; do
			insmod "$KO" probes=ttwu,csread variant=$v clock=mono ||
				fail "$cs $v: load"
			ctl trace func:$fn
			ctl trace sec:$fn-$fn
			sleep 0.3
			n=$(mcount func:$fn.$v)
			[ "${n:-0}" -gt 0 ] || fail "$cs $v: func:$fn recorded nothing"
			n=$(mcount sec:$fn-$fn.$v)
			[ "${n:-0}" -gt 0 ] || fail "$cs $v: sec:$fn-$fn recorded nothing"
			# Who counts an entry from inside: clkstat's own check
			# (reentered), or the mechanism's before it (kprobes'
			# and fprobe's nmissed, in the traces' missed).
			r=$(awk '$1 == "reentered" { print $2 }' $D/control)
			expect_eq "$cs $v: info's reentered (netlink) against debugfs's" \
				"$("$top/tools/clkstat-report" info | awk '$1 == "reentered" { print ($2 >= '"$r"') }')" 1
			r=$((r + $(mcounter func:$fn.$v missed) + $(mcounter sec:$fn-$fn.$v missed)))
			[ "$r" -gt 0 ] || fail "$cs $v: no entry from inside clkstat counted"
			ctl untrace func:$fn
			ctl untrace sec:$fn-$fn
			rmmod clkstat || fail "$cs $v: rmmod"
		done
	done
	echo $old > $CS
}

# The module of a traced function is held while it is traced: rmmod
# says it is in use, and after untrace it goes; a module going away
# cannot be traced.
t_trace_module_held() {
	local v
	trap 'hb_unload 2>/dev/null || true' EXIT
	for v in direct ftrace kprobe; do
		insmod "$KO" probes= variant=$v
		insmod "$KMOD/clkstat_hookbench.ko"
		ctl trace func:clkstat_tt_delay
		ctl trace sec:clkstat_tt_sec_begin-clkstat_tt_sec_end
		rmmod clkstat_hookbench 2>/dev/null && fail "$v: hookbench unloaded while traced"
		ctl untrace func:clkstat_tt_delay
		rmmod clkstat_hookbench 2>/dev/null && fail "$v: hookbench unloaded under a section"
		ctl untrace sec:clkstat_tt_sec_begin-clkstat_tt_sec_end
		rmmod clkstat_hookbench || fail "$v: hookbench held after untrace"
		rmmod clkstat
	done
}

# trace and untrace under load, CLKSTAT_TRACE_CHURN times (1000) over
# every kind and every variant that reaches a function, while the
# hookbench's targets run: nothing left (traces, metric files, the
# hookbench free to go), the module unloads; on the debug kernel
# kmemleak, KASAN and lockdep watch (debug.sh's input part).
t_trace_churn() {
	local n=${CLKSTAT_TRACE_CHURN:-1000} i v spec load
	local specs="func:clkstat_tt_delay sec:clkstat_tt_sec_begin-clkstat_tt_sec_end
		sec:clkstat_tt_sec_begin-clkstat_tt_sec_end:exit:cpu func:clkstat_tt_recurse"
	insmod "$KO" probes=ttwu variant=kprobe events=64
	insmod "$KMOD/clkstat_hookbench.ko"
	( while :; do
		echo "delay 50 1000" > $TT; echo "sec 5 50" > $TT
		echo "recurse 5 3" > $TT; echo "seccpu 20" > $TT
	done ) 2>/dev/null & load=$!
	set -- $specs
	for i in $(seq 0 $((n - 1))); do
		if [ $((i % (n / 4 > 0 ? n / 4 : 1))) = 0 ]; then
			case $((i / (n / 4 > 0 ? n / 4 : 1))) in
			0) v=kprobe ;; 1) v=ftrace ;; 2) v=direct ;; *) v=kprobe-int3 ;;
			esac
			ctl variant $v || { kill $load; fail "switch to $v"; }
		fi
		spec=$(eval echo "\${$((i % 4 + 1))}")
		ctl trace "$spec" || { kill $load; fail "$i: trace $spec ($v)"; }
		ctl untrace "$spec" || { kill $load; fail "$i: untrace $spec ($v)"; }
	done
	kill $load; wait $load 2>/dev/null
	expect_eq "traces left" "$(cat $D/traces)" ""
	expect_eq "trace metric files left" "$(ls $D | grep -c :)" 0
	note "$n trace/untrace pairs under load, variants kprobe ftrace direct kprobe-int3"
	rmmod clkstat_hookbench || fail "the hookbench held"
	rmmod clkstat || fail "rmmod"
}

# clkstat-report trace add|del|list over netlink: lists as debugfs's
# traces and info, counts, the module's reasons on one line each with the
# tool's exit status (2: refused before sending, 1: by the module), all or
# nothing, the limit, no leak under valgrind.
# A function the compiler left only as a clone (finish_task_switch is
# finish_task_switch.isra.0 on Debian's 6.12): its bare name traces the
# clone, the log says which, and the section records a context switch's
# tail; a missing function is named by its place in the section.
t_trace_clone() {
	local R=$top/tools/clkstat-report f="" c n rc
	# finish_task_switch if it is a clone here, else any traceable
	# function that is only one .isra.0 clone.
	if ! grep -q ' finish_task_switch$' /proc/kallsyms &&
	   grep -qx 'finish_task_switch\.isra\.0' "$T/available_filter_functions"; then
		f=finish_task_switch
	else
		for c in $(grep -o '^[a-z_][a-z_0-9]*\.isra\.0$' "$T/available_filter_functions" | head -200); do
			n=${c%.isra.0}
			grep -q " $n\$" /proc/kallsyms && continue
			[ "$(grep -c " $n\.\(isra\|constprop\|part\)\.[0-9]*\$" /proc/kallsyms)" = 1 ] || continue
			f=$n
			break
		done
	fi
	[ -n "$f" ] || { note "skip: no function here is only one .isra.0 clone"; return 0; }
	insmod "$KO" probes=ttwu variant=kprobe
	mark
	"$R" trace add "sec:schedule-$f" 2> /tmp/tr.err || fail "trace add sec:schedule-$f: $(cat /tmp/tr.err)"
	since_mark | grep -q "clkstat: trace sec:schedule-$f: $f is $f.isra.0, a compiler clone of it" ||
		fail "no note of the clone: $(since_mark | grep clkstat | tail -2)"
	expect_eq "trace list" "$("$R" trace list)" "1 sec:schedule-$f"
	if [ $f = finish_task_switch ]; then
		"$PINGPONG" -n 200 > /dev/null
		[ "$(V=kprobe field "sec:schedule-$f" count)" -gt 0 ] || fail "sec:schedule-$f recorded nothing"
		note "sec:schedule-$f: $(V=kprobe field "sec:schedule-$f" count) samples"
	fi
	# Which end is missing.
	rc=0; "$R" trace add sec:schedule-no_such_fn_xyz 2> /tmp/tr.err || rc=$?
	expect_eq "missing end: exit status" "$rc" 1
	expect_eq "missing end" "$(cat /tmp/tr.err)" \
		"clkstat-report: trace add sec:schedule-no_such_fn_xyz: no such function at the end of the section (or inlined everywhere)"
	rc=0; "$R" trace add sec:no_such_fn_xyz-schedule 2> /tmp/tr.err || rc=$?
	expect_eq "missing start" "$(cat /tmp/tr.err)" \
		"clkstat-report: trace add sec:no_such_fn_xyz-schedule: no such function at the start of the section (or inlined everywhere)"
	"$R" trace del "sec:schedule-$f" || fail "trace del"
	rmmod clkstat
}

t_trace_cli() {
	local R=$top/tools/clkstat-report rc i s SB=clkstat_tt_sec_begin SE=clkstat_tt_sec_end
	local specs=() fns=(clkstat_tt_delay $SB $SE clkstat_tt_recurse clkstat_tt_args7)
	trap 'hb_unload 2>/dev/null || true' EXIT
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
	# (info's paths: t_netlink's valgrind)
	for c in "trace list" "trace list --format json" "trace del func:$SE sec:$SB-$SE"; do
		# shellcheck disable=SC2086
		valgrind -q --error-exitcode=99 --leak-check=full "$R" $c > /dev/null 2> /tmp/vg || rc=$?
		[ "$rc" = 0 ] || fail "valgrind, $c: $rc $(cat /tmp/vg)"
	done
	"$R" trace del func:clkstat_tt_delay
	expect_eq "traces at the end" "$(cat $D/traces)" ""
	hb_unload
	rmmod clkstat
}

# record --probes with a user-defined probe: traced for the runs only,
# every run's count exact and its durations at least the delay; one the
# module already had is kept; refusals up front leave nothing (the study
# there unchanged); Ctrl-C removes what record added, and the runs done
# are in the study.
t_trace_record() {
	local R=$top/tools/clkstat-report out=/tmp/trrec.db rc i v n min pid
	local SB=clkstat_tt_sec_begin SE=clkstat_tt_sec_end
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu
	insmod "$KMOD/clkstat_hookbench.ko"
	rm -f $out /tmp/int.db
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
	rm -f $out
	"$R" record -q -o $out --runs 1 --variants kprobe \
		--probes func:clkstat_tt_delay,sec:$SB-$SE -- \
		sh -c "echo 'sec 3 100' > $HB/targets" || fail "record with a trace there"
	expect_eq "traces kept" "$(awk '{ print $2 }' $D/traces)" func:clkstat_tt_delay
	expect_eq "sec count" "$("$R" -i $out --csv | awk -F, '$1 == "sec:'$SB-$SE'" && $3 == "all" { print $4 }')" 3
	# Refused up front, with the module's reason: nothing left, nothing
	# written (into the study there, --append: the same command, so
	# that no field of the metadata differs to warn of).
	cp $out /tmp/trrec.before
	rc=0; "$R" record -q --append -o $out --runs 2 --variants kprobe \
		--probes sec:$SB-$SE,func:no_such_function_xyz -- \
		sh -c "echo 'sec 3 100' > $HB/targets" 2> /tmp/err || rc=$?
	expect_eq "exit status, refused probe" "$rc" 1
	expect_eq "message" "$(cat /tmp/err)" \
		"clkstat-report: record: --probes func:no_such_function_xyz: no such function (or inlined everywhere)"
	expect_eq "traces after a refusal" "$(awk '{ print $2 }' $D/traces)" func:clkstat_tt_delay
	cmp -s $out /tmp/trrec.before || fail "a refused record changed the study"
	[ "$(ls /tmp | grep -c '^trrec\.db.')" = 0 ] || fail "SQLite's files left: $(ls /tmp | grep '^trrec\.db')"
	rc=0; "$R" record -q --append -o $out --variants kprobe --probes func:a-b -- true 2> /tmp/err || rc=$?
	expect_eq "exit status, bad spec" "$rc" 2
	cmp -s $out /tmp/trrec.before || fail "a bad spec changed the study"
	# Ctrl-C: record ends after the current run and removes its trace;
	# the runs done are in the study, each committed as it ended.
	"$R" record -q -o /tmp/int.db --runs 1000 --variants kprobe \
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
	n=$("$R" info -i /tmp/int.db | awk '$1 == "runs" { print $2 }')
	note "interrupted: $(cat /tmp/err); $n runs"
	expect_eq "after Ctrl-C" "$(cat /tmp/err)" \
		"clkstat-report: record: interrupted; the $n runs done are in /tmp/int.db"
	[ "$n" -ge 1 ] && [ "$n" -lt 1000 ] || fail "runs in the interrupted study: $n"
	expect_eq "the runs' sections" "$("$R" -i /tmp/int.db --csv |
		awk -F, '$1 == "sec:'$SB-$SE'" && $2 == "kprobe" && $3 == "all" { print $4 }')" "0"
	ctl untrace func:clkstat_tt_delay || fail "untrace"
	hb_unload
	rmmod clkstat
}

# Adds and removes from netlink and debugfs at once, while the target
# runs: nothing left, the module unloads cleanly.
t_trace_cli_race() {
	local R=$top/tools/clkstat-report N=${CLKSTAT_TRACE_RACE_N:-200} a b c i
	local S1=func:clkstat_tt_delay S2=sec:clkstat_tt_sec_begin-clkstat_tt_sec_end
	trap 'hb_unload 2>/dev/null || true' EXIT
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
	hb_unload
	rmmod clkstat || fail "rmmod after the race"
	! loaded || fail "still loaded"
}

USERTRACE_TESTS="t_trace_load t_trace_counts t_trace_refusals t_trace_partial t_trace_tp
	t_trace_targets t_trace_events t_trace_sleeper t_trace_own_clock t_trace_module_held
	t_trace_cli t_trace_record t_trace_clone"
# The long ones (13 minutes under TCG, 1000 pairs and 200 rounds):
# run-all's stage trace-churn runs them shortened in a guest of their
# own, beside the whole suite's; run alone, the suite runs them in full.
USERTRACE_LONG_TESTS="t_trace_churn t_trace_cli_race"
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$USERTRACE_TESTS $USERTRACE_LONG_TESTS}
