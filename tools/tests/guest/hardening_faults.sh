#!/bin/bash
# hardening_faults.sh - clkstat.ko under failure
# (Documentation/clkstat-hardening.rst, "Faults"):
#  - t_fault_load: every allocation of a load failed in turn, the
#    systematic way syzkaller does it (/proc/thread-self/fail-nth, with
#    failslab and fail_page_alloc counting every allocation): each failed
#    load returns a clean errno and leaves nothing registered; a load that
#    survived its fault works and unloads cleanly.
#  - t_fault_switch: the same for variant switches (a write to the control
#    file), which must fail cleanly and leave a working variant attached.
#  - t_missing_target: a probe target that is missing or not hookable
#    fails the load, in every variant, with a message naming it, and
#    nothing left registered.  Needs the test-only fault_hook parameter of
#    a module built with CLKSTAT_FAULT_HOOKS=1 (tools/tests/debug.sh).
# Fault injection needs a kernel with FAULT_INJECTION, FAILSLAB and
# FAIL_PAGE_ALLOC (the debug kernel, tools/vm/debug.config).  Where the
# kernel or the module lacks what a test needs, the test says
# "# skip: ..." and passes (Documentation/clkstat-hardening.rst).
# Prints TAP-like lines and ends with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

FL=$top/tools/tests/fault_load
R=$top/tools/clkstat-report
KP=/sys/kernel/debug/kprobes/list
FS=/sys/kernel/debug/failslab
FP=/sys/kernel/debug/fail_page_alloc
# The loads under injection use a copy without debug information: the
# kernel reads the whole file into vmalloc'ed pages, one injection point
# per page, and the debug kernel's DWARF makes that thousands of points
# in the file read before clkstat's own code runs.  Same code, same data.
FKO=/tmp/clkstat-fault.ko
# Safety stop for the switches: none may need more points than this.
FAULT_MAX=${CLKSTAT_FAULT_MAX:-20000}
# The first point the load sweeps fail (1: every point, the kernel's own
# module loading included).
FAULT_FROM=${CLKSTAT_FAULT_FROM:-1}
# Every STEP-th point only (1: every point, as `make check-debug`
# runs it; `make check` samples, see tools/tests/debug.sh), from OFFSET
# (0 to STEP - 1) past the first: the loads from FAULT_FROM + OFFSET,
# the switches from 1 + OFFSET.
FAULT_STEP=${CLKSTAT_FAULT_STEP:-1}
FAULT_OFFSET=$((${CLKSTAT_FAULT_OFFSET:-0} % FAULT_STEP))
# Errors a load or a switch may fail with when an allocation fails:
# ENOMEM from wherever it failed; ELOOP from the kernel's check of the
# module's BTF ("BPF: Max chain length or cycle detected"), which is how
# it fails when one of its allocations did (seen at point 80 of a load,
# before any of clkstat's code runs).  Anything else is a finding.
FAULT_ERRNOS=${CLKSTAT_FAULT_ERRNOS:-ENOMEM ELOOP}

# The kernel's lists of hooked functions and kprobes, as one text: a load
# that failed, or an unload, must leave them as they were before.
hooks_now() { cat "$T/enabled_functions"; echo "--- kprobes"; cat "$KP" 2>/dev/null || true; }

# Reports of crashes and of the checkers: fatal even inside a fault window.
HARD='BUG: |Oops|general protection|kernel BUG|UBSAN:|KASAN|list_(add|del) corruption|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|Kernel panic|stack-protector'
log_hard() { since_mark | grep -E "$HARD" || true; }
# A WARNING raised in clkstat's own code (its stack line names [clkstat]).
log_our_warn() { since_mark | grep -E 'WARNING: .*\[clkstat\]' || true; }

# nothing_left WHAT: no trace of clkstat: module, sysfs, debugfs, generic
# netlink family (clkstat-report exits 3, "not loaded", without it), ftrace
# hooks, kprobes.  Tracepoint probes have no list: one left behind would
# call into the freed module at the next wakeup, which every check here
# causes, and the log check after each configuration would see the crash.
nothing_left() {
	local rc=0
	! loaded || fail "$1: clkstat still in /proc/modules"
	[ ! -e /sys/module/clkstat ] || fail "$1: /sys/module/clkstat left"
	[ ! -e "$D" ] || fail "$1: $D left"
	"$R" info > /dev/null 2>&1 || rc=$?
	expect_eq "$1: clkstat-report info exit status (3: not loaded)" "$rc" 3
	hooks_now > /tmp/hooks-now
	[ "$(cat /tmp/hooks-now)" = "$HOOKS0" ] ||
		fail "$1: hooks left: $(echo "$HOOKS0" | diff - /tmp/hooks-now | grep '^[<>]' | head -5)"
}

# kprobes_fire WHAT: a fresh load on the kprobe variant records every
# wakeup of a ping-pong.  A failed disarm that the kernel counted twice
# leaves kprobes' ftrace_ops unregistered while probes are armed: every
# ftrace-based kprobe then stays silent until reboot, whoever placed it.
kprobes_fire() {
	insmod "$KO" variant=kprobe probes=ttwu || fail "$1: insmod variant=kprobe"
	"$PINGPONG" -n 20 --control "$D/control" > /tmp/truth || fail "$1: workload"
	local n
	n=$(V=kprobe field ttwu_enqueue count)
	rmmod clkstat || fail "$1: rmmod"
	[ "$n" -ge 40 ] || fail "$1: kprobes no longer fire: the kprobe variant recorded $n of 40 wakeups"
}

fault_knobs() {	# fault_knobs: print the settings fault_setup changes
	local f
	for f in $FS/ignore-gfp-wait $FS/probability $FS/interval $FS/times \
		 $FS/verbose $FS/space $FS/task-filter \
		 $FP/ignore-gfp-wait $FP/ignore-gfp-highmem $FP/min-order \
		 $FP/probability $FP/interval $FP/times $FP/verbose $FP/space \
		 $FP/task-filter; do
		echo "$f $(cat "$f")"
	done
}

# Only fail-nth triggers a fault: probability 0 for the random kind; every
# allocation counts (sleeping ones, highmem pages as vmalloc takes them,
# order 0); a notice per injected fault, not a stack dump.
fault_setup() {
	local d
	KNOBS0=$(fault_knobs)
	for d in $FS $FP; do
		echo 0 > $d/probability
		echo 1 > $d/interval
		echo -1 > $d/times
		echo 0 > $d/space
		echo 1 > $d/verbose
		echo N > $d/task-filter
		echo N > $d/ignore-gfp-wait
	done
	echo N > $FP/ignore-gfp-highmem
	echo 0 > $FP/min-order
}

fault_restore() {
	[ -n "${KNOBS0:-}" ] || return 0
	echo "$KNOBS0" | while read -r f v; do echo "$v" > "$f"; done
}

# fault_skip: why fault injection cannot run here, or nothing.
fault_skip() {
	[ -e /proc/thread-self/fail-nth ] || { echo "no /proc/thread-self/fail-nth: this kernel has no FAULT_INJECTION (the debug kernel has: tools/tests/debug.sh)"; return; }
	[ -d $FS ] && [ -d $FP ] || { echo "no $FS or $FP: this kernel lacks FAILSLAB, FAIL_PAGE_ALLOC or FAULT_INJECTION_DEBUG_FS"; return; }
	[ -x "$FL" ] || echo "no $FL: run make"
}

window_begin() { echo "clkstat-fault-window begin" > /dev/kmsg; }
window_end() { echo "clkstat-fault-window end" > /dev/kmsg; }

# fault_begin: note the hooks there are (HOOKS0), set fail-nth up, mark
# the log and open the fault window; fault_end undoes it, and so does the
# test's exit.
fault_begin() {
	HOOKS0=$(hooks_now)
	fault_setup
	trap 'fault_restore; window_end' EXIT
	mark
	window_begin
}

fault_end() {
	window_end
	fault_restore
	trap - EXIT
}

# fault_config VARIANT PARAM...: load with the N-th injection point
# failing, N = FAULT_FROM, ... until a load passes all its points, in one
# process (fault_load --sweep; a process per load cost the debug kernel a
# second before the load began).  Between loads it checks what
# nothing_left checks (the generic netlink family asked directly), the
# errno, and that a load that survived its fault works and unloads with a
# reference count of 0.  Adds to LOADS, INJECTED, SURVIVED.
fault_config() {
	local want=$1; shift
	local out rc=0 t0=$SECONDS loads inj surv points errs last
	out=$(FAULT_ERRNOS=$(echo $FAULT_ERRNOS | tr ' ' ,) FAULT_STEP=$FAULT_STEP \
		"$FL" --sweep clkstat "$((FAULT_FROM + FAULT_OFFSET))" "$FKO" "$@") || rc=$?
	echo "$out" | grep -v '^sweep ' | sed 's/^ *#* */    # /' | head -20
	[ "$rc" = 0 ] || fail "variant=$want $*: fault_load --sweep: $(echo "$out" | grep -E '^FAIL|^fault_load' | head -3)"
	read -r _ _ loads _ inj _ surv _ points _ errs <<< "$(echo "$out" | grep '^sweep ')"
	[ -n "$points" ] || fail "variant=$want $*: no summary from fault_load: $out"
	LOADS=$((LOADS + loads)) INJECTED=$((INJECTED + inj)) SURVIVED=$((SURVIVED + surv))
	note "variant=$want $*: points $((FAULT_FROM + FAULT_OFFSET)) to $((points - 1)) failed in turn (every $FAULT_STEP), then a load passed all $points; $surv loads survived their fault; errors $errs; $((SECONDS - t0)) s"
	[ "$inj" -gt 0 ] || fail "variant=$want: no fault injected"
	# Once more, with the tools of the other tests.
	nothing_left "variant=$want after the sweep"
	last=$(log_hard; log_our_warn)
	[ -z "$last" ] || fail "variant=$want: kernel log: $last"
}

t_fault_load() {
	local why all="probes=ttwu,tkread,csread,csswitch,clockoff,marker events=64"
	why=$(fault_skip)
	if [ -n "$why" ]; then
		note "skip: $why"
		return 0
	fi
	objcopy --strip-debug "$KO" "$FKO"
	LOADS=0 INJECTED=0 SURVIVED=0 ERRS=""
	fault_begin
	local t0=$SECONDS
	fault_config direct $all
	fault_config kprobe $all variant=kprobe
	fault_config tracepoint probes=ttwu variant=tracepoint
	fault_end
	kprobes_fire "after the load sweeps"
	note "$LOADS loads, $INJECTED faults injected, $SURVIVED loads survived theirs, $((SECONDS - t0)) s"
	echo "    # report: fault_loads $LOADS"
	echo "    # report: faults_injected $INJECTED"
	[ "$INJECTED" -gt 0 ] || fail "no fault was injected"
	rm -f "$FKO"
}

# One load with variant FROM, then a switch to TO with the N-th injection
# point of the control write failing, N = 1, 2, ... until a switch passes
# them all.  After each: the switch succeeded (and is switched back, with
# no fault), or it failed with a clean errno and FROM is attached again,
# or attaching FROM again failed too, the control file says "off", and a
# switch back to FROM works.  At the end FROM records a workload's
# wakeups, and the module unloads leaving nothing.  EXPECT is the
# switch's result with no fault: ok, or the errno name of a switch that
# fails anyway (its target missing).
# fault_switch FROM TO EXPECT PARAM...
fault_switch() {
	local from=$1 to=$2 expect=$3; shift 3
	local start=$((1 + FAULT_OFFSET)) hit=0
	local n=$((start - FAULT_STEP)) rc out inj err name what v res off=0 t0=$SECONDS got missed
	insmod "$KO" variant="$from" "$@" || fail "switch $from -> $to: insmod"
	while :; do
		n=$((n + FAULT_STEP))
		[ "$n" -le "$FAULT_MAX" ] || fail "$from -> $to: still failing at point $FAULT_MAX"
		what="switch $from -> $to point $n"
		rc=0
		out=$("$FL" "$n" --write "$D/control" "variant $to") || rc=$?
		[ "$rc" -le 1 ] || fail "$what: fault_load: $out"
		read -r _ _ _ inj _ _ _ _ _ err name <<< "$out"
		SWITCHES=$((SWITCHES + 1))
		INJECTED=$((INJECTED + inj))
		res=ok
		[ "$rc" = 0 ] || res=$name
		read -r _ v _ < "$D/control"
		if [ "$inj" = 0 ]; then
			expect_eq "$what: result with no fault reached" "$res" "$expect"
		elif [ "$res" != ok ]; then
			case " $FAULT_ERRNOS $expect " in
			*" $res "*) ;;
			*) fail "$what: failed with $res (errno $err): $(since_mark | grep clkstat | tail -3)" ;;
			esac
			ERRS="$ERRS $res"
		fi
		if [ "$res" = ok ]; then
			expect_eq "$what: variant after the switch" "$v" "$to"
			echo "variant $from" > "$D/control" || fail "$what: switch back to $from"
		elif [ "$v" = off ]; then
			[ "$inj" = 1 ] || fail "$what: variant off with no fault injected"
			off=$((off + 1))
			echo "variant $from" > "$D/control" || fail "$what: switch back to $from from off"
		else
			expect_eq "$what: variant after the failed switch" "$v" "$from"
		fi
		read -r _ v _ < "$D/control"
		expect_eq "$what: variant before the next" "$v" "$from"
		hit=$((hit + inj))
		# A switch with fewer points than the sampled offset would
		# have none failed: start nearer the first point until one is.
		if [ "$inj" = 0 ] && [ $hit = 0 ] && [ $start -gt 1 ]; then
			start=$((1 + (start - 1) / 2)) n=$((start - FAULT_STEP))
			continue
		fi
		[ "$inj" = 1 ] || break
	done
	# The variant attached through all that records.
	echo reset > "$D/control"
	"$PINGPONG" -n 20 --control "$D/control" > /tmp/truth || fail "$from -> $to: workload"
	# Every wakeup recorded, or missed by the variant and counted so: a
	# kprobe hit while another kprobe runs (an IPI's enqueue inside
	# tkread's handler) is dropped by the kernel, and the control file's
	# "probe ttwu missed N" says how many since the switch back.
	got=$(V=$from field ttwu_enqueue count)
	missed=$(awk '$1 == "probe" && $2 == "ttwu" { print $4 }' "$D/control")
	[ -n "$missed" ] || fail "$from -> $to: no 'probe ttwu missed' line: $(cat "$D/control")"
	[ $((got + missed)) -ge 40 ] && [ "$got" -le 42 ] ||
		fail "$from -> $to: $from recorded $got of 40 wakeups, $missed counted missed"
	[ "$missed" = 0 ] || note "$from -> $to: $from recorded $got of 40 wakeups, $missed counted missed"
	expect_eq "$from -> $to: refcnt" "$(cat /sys/module/clkstat/refcnt)" 0
	rmmod clkstat || fail "$from -> $to: rmmod"
	nothing_left "$from -> $to"
	note "switch $from -> $to ($*): points $start to $((n - 1)) failed in turn (every $FAULT_STEP), then a switch passed them all; $off left nothing attached (variant off); $((SECONDS - t0)) s"
	# Where the switch fails anyway, a fault in attaching FROM again (its
	# own allocations) must have been among them (if every point was).
	[ "$expect" = ok ] || [ "$off" -gt 0 ] || [ "$FAULT_STEP" != 1 ] ||
		fail "$from -> $to: never reached attaching $from again"
	OFF=$((OFF + off))
}

t_fault_switch() {
	local why
	why=$(fault_skip)
	if [ -n "$why" ]; then
		note "skip: $why"
		return 0
	fi
	SWITCHES=0 INJECTED=0 OFF=0 ERRS=""
	fault_begin
	fault_switch direct kprobe ok probes=ttwu,tkread,csread,csswitch
	fault_switch kprobe ftrace ok probes=ttwu,tkread,csread,csswitch
	fault_switch ftrace tracepoint ok probes=ttwu
	fault_switch tracepoint direct ok probes=ttwu
	if modinfo -F parm "$KO" | grep -q '^fault_hook:'; then
		# The switch fails anyway (direct cannot hook the renamed
		# target), so a fault can land in attaching the old variant
		# again: the one path that leaves nothing attached.
		fault_switch tracepoint direct ENOENT probes=ttwu fault_hook=try_to_wake_up=clkstat_no_such_fn
		# mark_tsc_unstable: notrace (kprobes take it, ftrace cannot),
		# and tkread's handlers do not read the hooked arguments.
		# Faults here land in disarming kprobes too, which once left
		# every ftrace-based kprobe of the kernel dead
		# (Documentation/clkstat-hardening.rst, "What the faults found").
		fault_switch kprobe ftrace ENODEV probes=ttwu,tkread fault_hook=ktime_get_ts64=mark_tsc_unstable
	else
		note "skip: the switches that fail anyway: $KO has no fault_hook parameter (built without CLKSTAT_FAULT_HOOKS=1)"
	fi
	fault_end
	kprobes_fire "after the switch sweeps"
	local last
	last=$(log_hard; log_our_warn)
	[ -z "$last" ] || fail "kernel log: $last"
	note "$SWITCHES switches tried, $INJECTED faults injected, $OFF left nothing attached"
	note "errors: $(echo $ERRS | tr ' ' '\n' | sort | uniq -c | awk '{ printf "%s %s  ", $2, $1 }')"
	echo "    # report: fault_switches $SWITCHES"
	echo "    # report: faults_injected $INJECTED"
	[ "$INJECTED" -gt 0 ] || fail "no fault was injected"
}

# missing VARIANT PROBES OLD=NEW MESSAGE: the load fails, naming NEW and
# saying why, and leaves nothing.
missing() {
	local v=$1 probes=$2 hook=$3 msg=$4 rc=0
	mark
	insmod "$KO" variant="$v" probes="$probes" fault_hook="$hook" 2>/tmp/err || rc=$?
	[ "$rc" != 0 ] || fail "$v, $hook: the load succeeded"
	since_mark | grep -qF "$msg" ||
		fail "$v, $hook: no '$msg' in the log: $(since_mark | grep clkstat | tail -3)"
	note "$v, $hook: $(since_mark | grep -F "$msg" | sed 's/^\[[^]]*\] //' | head -1); insmod: $(sed 's/.*: //' /tmp/err)"
	nothing_left "$v, $hook"
	[ -z "$(log_hard; log_our_warn)" ] || fail "$v, $hook: kernel log: $(log_hard; log_our_warn)"
	MISSING=$((MISSING + 1))
}

t_missing_target() {
	local no=clkstat_no_such_fn notrace=read_tsc bl=notify_die
	if ! modinfo -F parm "$KO" | grep -q '^fault_hook:'; then
		note "skip: $KO has no fault_hook parameter (modinfo): built without CLKSTAT_FAULT_HOOKS=1, as \`make\` builds it; tools/tests/debug.sh builds it with them"
		return 0
	fi
	# The stand-ins are what this kernel says they are.
	! grep -q " $no\$" /proc/kallsyms || fail "$no exists"
	grep -q " $notrace\$" /proc/kallsyms || fail "no $notrace in this kernel"
	! grep -q "^$notrace\$" "$T/available_filter_functions" || fail "$notrace is ftrace-hookable here"
	awk -v f=$bl '$2 == f { found = 1 } END { exit !found }' /sys/kernel/debug/kprobes/blacklist ||
		fail "$bl is not on the kprobe blacklist here"
	HOOKS0=$(hooks_now)
	MISSING=0
	# The first hook, the last of a probe (the ones before unwound), one
	# in the middle of a later probe (a whole probe unwound), exit hooks.
	missing direct ttwu try_to_wake_up=$no "cannot hook $no with a direct call: no such function"
	missing direct ttwu $ENQ=$notrace "cannot hook $notrace with a direct call: not traceable (no fentry call; not in available_filter_functions)"
	missing direct ttwu,csread read_hpet=$no "cannot hook $no with a direct call: no such function"
	missing ftrace ttwu,tkread ktime_get_ts64=$no "cannot hook $no with ftrace: no such function"
	missing ftrace ttwu try_to_wake_up=$notrace "cannot hook $notrace with ftrace: not traceable (no fentry call; not in available_filter_functions)"
	missing ftrace ttwu,csswitch timekeeping_notify=$no "cannot hook $no with ftrace: no such function"
	missing kprobe ttwu $ENQ=$no "cannot place a kprobe on $no+0: no such function (-2)"
	missing kprobe ttwu,tkread ktime_get=$bl "cannot place a kprobe on $bl+0: the kernel refuses kprobes there"
	missing kprobe ttwu,csswitch timekeeping_notify=$no "cannot place a kretprobe on $no: no such function (-2)"
	missing kprobe-int3 ttwu try_to_wake_up=$no "cannot hook $no with a kprobe past its fentry call: no such function"
	missing kprobe-int3 ttwu try_to_wake_up=$notrace "cannot hook $notrace with a kprobe past its fentry call: not traceable (no fentry call; not in available_filter_functions)"
	missing kprobe-int3 ttwu $ENQ=$bl "cannot hook $bl with a kprobe past its fentry call: its address not found through a kprobe: -22"
	missing tracepoint ttwu sched_waking=clkstat_no_such_tp "no tracepoint clkstat_no_such_tp in this kernel"
	missing tracepoint ttwu sched_wakeup=clkstat_no_such_tp "no tracepoint clkstat_no_such_tp in this kernel"

	# A switch to a variant whose target is missing fails the same way,
	# and the old variant stays attached and records.
	local rc=0
	mark
	insmod "$KO" variant=tracepoint probes=ttwu fault_hook=$ENQ=$no
	echo "variant direct" > "$D/control" 2>/dev/null || rc=$?
	[ "$rc" != 0 ] || fail "switch to direct succeeded"
	since_mark | grep -qF "cannot hook $no with a direct call: no such function" ||
		fail "switch: no message: $(since_mark | grep clkstat | tail -3)"
	expect_eq "variant after the failed switch" "$(awk 'NR == 1 { print $2 }' "$D/control")" tracepoint
	"$PINGPONG" -n 20 --control "$D/control" > /tmp/truth || fail "workload"
	V=tracepoint; expect_eq "tracepoint variant still records" "$(field ttwu_enqueue count)" 40
	rmmod clkstat
	nothing_left "after the failed switch"
	MISSING=$((MISSING + 1))
	echo "    # report: missing_targets $MISSING"
}

tests=${*:-t_fault_load t_fault_switch t_missing_target}
for t in $tests; do
	run "$t"
done
echo "$npass passed, $nfail failed"
