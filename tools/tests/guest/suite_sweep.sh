#!/bin/bash
# suite_sweep.sh - nothing root can trace crashes or pins the kernel
# (Documentation/clkstat-traces.rst, "Safety"): every function in the call graph of clkstat's calls out on
# this kernel, a seeded sample of available_filter_functions and of
# tracepoint pairs, each traced in every variant that reaches it (func:
# with its return, sec:F-F with its entry; tp:X-Y), under a wakeup and
# clock-read load, with the clocksource switched between those the
# guest offers (tsc, hpet, acpi_pm) as it goes.  Each is refused with a
# reason or attaches, records what comes and detaches with the kernel
# alive; after the last, rmmod works within 5 s; the suite's
# t_dmesg_clean finds no BUG, WARNING or Oops.  Prints what was tried,
# refused (by reason) and recorded, per variant.
#
# usage: suite_sweep.sh [TEST...]; last line "N passed, N failed".
# Knobs (run-guest.sh passes CLKSTAT_SWEEP_* on): CLKSTAT_SWEEP_N, the
# sample of available_filter_functions (2000; make check: fewer);
# CLKSTAT_SWEEP_GRAPH, at most this many call-graph functions (0: all);
# CLKSTAT_SWEEP_TP, tracepoint pairs (50); CLKSTAT_SWEEP_SEED, the
# sample's seed (printed, for a rerun).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SW_N=${CLKSTAT_SWEEP_N:-2000}
SW_GRAPH=${CLKSTAT_SWEEP_GRAPH:-0}
SW_TP=${CLKSTAT_SWEEP_TP:-50}
SW_SEED=${CLKSTAT_SWEEP_SEED:-$RANDOM}
# A knob that is no count stops the suite before any work, naming it.
for kv in "CLKSTAT_SWEEP_N=$SW_N" "CLKSTAT_SWEEP_GRAPH=$SW_GRAPH" \
	  "CLKSTAT_SWEEP_TP=$SW_TP" "CLKSTAT_SWEEP_SEED=$SW_SEED"; do
	case ${kv#*=} in
	''|*[!0-9]*) echo "suite_sweep: ${kv%%=*}='${kv#*=}': a count (0 or more)" >&2; exit 2 ;;
	esac
done
SW=/tmp/sweep
R=$top/tools/clkstat-report

# sw_random FILE [SALT]: bytes from the seed (and SALT), for shuf's
# --random-source (a file: the guest has no /dev/fd for <(...)).
sw_random() {
	head -c 4M /dev/zero |
		openssl enc -aes-256-ctr -pass pass:"$SW_SEED${2:-}" -nosalt -pbkdf2 > "$1" 2> /dev/null
}

# The functions clkstat's code reaches on this kernel: every kernel
# function clkstat.ko calls (its undefined symbols, from the module's
# ELF: handlers, control paths and all), and what the function graph
# tracer sees clkstat's calls out reach (from each call out's function,
# and from the printk and warning paths a handler's error would take),
# while clkstat stamps with the mono clock on each clocksource in turn
# and logs events.  What an interrupt or the scheduler runs on the way is
# not clkstat's: those subtrees are left out (set_graph_notrace).  Only
# what ftrace can hook (available_filter_functions) counts.
sw_graph() {
	local r cs
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo > $T/set_graph_function
	echo > $T/set_graph_notrace
	nm -u "$KO" | awk '{ print $2 }' | sort -u | grep -Fxf $SW/avail > $SW/calls || true
	for r in ktime_get_mono_fast_ns read_hpet acpi_pm_read read_tsc irq_work_queue \
		 sized_strscpy strscpy _printk vprintk_emit __warn warn_slowpath_fmt \
		 rcu_read_unlock_special; do
		grep -qx "$r" $SW/avail && echo "$r" >> $T/set_graph_function
	done
	for r in 'irq_enter*' 'irq_exit*' '__sysvec_*' 'sysvec_*' 'asm_sysvec_*' \
		 'handle_softirqs' '__do_softirq' '__schedule' 'schedule*' \
		 'preempt_schedule*'; do
		echo "$r" >> $T/set_graph_notrace 2>/dev/null || true
	done
	echo > $T/trace
	echo function_graph > $T/current_tracer
	insmod "$KO" probes=ttwu,tkread,marker clock=mono events=64
	echo 1 > $T/tracing_on
	for cs in $SW_CLOCKSOURCES; do
		echo "$cs" > $CS
		"$PINGPONG" -n 200 --reads 2 > /dev/null
		echo "sweep $cs" > $D/marker
		# A refused command: clkstat's warning, through printk.
		echo "sweep-no-such-command" 2> /dev/null > $D/control || true
	done
	echo 0 > $T/tracing_on
	rmmod clkstat
	# Read before the tracer changes: that empties the buffer.
	{ grep -oE '[A-Za-z_][A-Za-z0-9_.]*\(\)' $T/trace | tr -d '()'
	  cat $T/set_graph_function $SW/calls; } | sort -u |
		grep -Fxf $SW/avail > $SW/graph || true
	echo nop > $T/current_tracer
	echo > $T/set_graph_function
	echo > $T/set_graph_notrace
}

# sw_try VARIANT SPEC: trace and untrace SPEC, and file the outcome:
# "refused REASON" (the module's reason, from netlink's extended ACK:
# the kernel log's lines are rate-limited) or "recorded N" (N samples
# while traced).
sw_try() {
	local v=$1 spec=$2 n why
	if ! echo "trace $spec" 2> /dev/null > $D/control; then
		# Asked again through netlink, whose answer carries the
		# reason (nothing was attached: the same refusal).
		"$R" trace add "$spec" > /dev/null 2> $SW/err &&
			fail "$v: $spec refused on debugfs, accepted on netlink"
		why=$(sed -E "s/^clkstat-report: trace add [^ ]+: //" $SW/err | head -1)
		echo "$v refused ${why:-unknown}" >> $SW/outcomes
		return 0
	fi
	sleep "${SW_DWELL:-0.05}"
	n=$(awk '$1 == "summary" { for (i = 2; i < NF; i += 2) if ($i == "count") print $(i + 1) }' "$D/$spec.$v")
	echo "untrace $spec" > $D/control || fail "$v: untrace $spec"
	echo "$v recorded ${n:-0}" >> $SW/outcomes
}

t_sweep() {
	local v f i=0 load cs a b t0
	mkdir -p $SW
	: > $SW/outcomes
	: > $SW/seconds
	awk '{ print $1 }' $T/available_filter_functions | sort -u > $SW/avail
	SW_CLOCKSOURCES=$(tr ' ' '\n' < /sys/devices/system/clocksource/clocksource0/available_clocksource |
			  grep -xE 'tsc|hpet|acpi_pm' | tr '\n' ' ')
	local old_cs; old_cs=$(cat $CS)
	# set -e holds in the trap too: nothing in it may fail.
	trap '[ -z "${load:-}" ] || kill $load 2>/dev/null || true; echo '"$old_cs"' > $CS || true' EXIT
	sw_graph
	sw_random $SW/rand
	sw_random $SW/rand2 tp
	[ "$SW_GRAPH" = 0 ] || shuf -n "$SW_GRAPH" --random-source=$SW/rand $SW/graph -o $SW/graph
	shuf -n "$SW_N" --random-source=$SW/rand $SW/avail > $SW/sample
	# Clones (foo.isra.0) cannot be named in a spec.
	sort -u $SW/graph $SW/sample | grep -v '\.' > $SW/functions
	note "seed $SW_SEED: $(wc -l < $SW/graph) call-graph functions, $(wc -l < $SW/sample) sampled, clocksources $SW_CLOCKSOURCES"
	insmod "$KO" probes=ttwu,tkread,csread variant=direct events=64
	( while :; do "$PINGPONG" -n 100 --reads 2 --migrate > /dev/null 2>&1; done ) & load=$!
	for v in direct ftrace kprobe kprobe-int3; do
		echo "variant $v" > $D/control || fail "switch to $v"
		t0=$SECONDS
		while read -r f; do
			i=$((i + 1))
			# The clocksource moves every 25 functions.
			if [ $((i % 25)) = 0 ]; then
				set -- $SW_CLOCKSOURCES
				shift $(( (i / 25) % $# ))
				echo "$1" > $CS 2>/dev/null || true
			fi
			sw_try $v "func:$f"
			sw_try $v "sec:$f-$f"
		done < $SW/functions
		echo "$v $((SECONDS - t0))" >> $SW/seconds
	done
	# Tracepoints: the tracepoint variant, with a probe it can run.
	rmmod clkstat || fail "rmmod before the tracepoints"
	insmod "$KO" probes=ttwu variant=tracepoint events=64
	# Trace events that are tracepoints of their own (not the syscall
	# events over sys_enter/sys_exit, nor ftrace's).
	find $T/events -mindepth 2 -maxdepth 2 -type d ! -path '*/syscalls/*' \
		! -path '*/ftrace/*' -printf '%f\n' | sort -u > $SW/tps
	shuf -n "$SW_TP" --random-source=$SW/rand $SW/tps > $SW/tp_a
	shuf -n "$SW_TP" --random-source=$SW/rand2 $SW/tps > $SW/tp_b
	paste -d' ' $SW/tp_a $SW/tp_b > $SW/tp_pairs
	t0=$SECONDS
	while read -r a b; do
		sw_try tracepoint "tp:$a-$b"
	done < $SW/tp_pairs
	echo "tracepoint $((SECONDS - t0))" >> $SW/seconds
	kill $load
	wait $load 2>/dev/null || true
	load=""
	echo "$old_cs" > $CS
	expect_eq "traces left" "$(cat $D/traces)" ""
	t0=$SECONDS
	rmmod clkstat || fail "rmmod after the sweep"
	[ $((SECONDS - t0)) -le 5 ] || fail "rmmod took $((SECONDS - t0)) s"
	# The report: per variant, tried, refused, attached, recorded; and
	# every refusal's reason.
	awk 'FNR == NR { secs[$1] = $2; next }
	     { tried[$1]++; if ($2 == "refused") ref[$1]++; else { att[$1]++; if ($3 > 0) rec[$1]++ } }
	     END { for (v in tried) printf "    # report: sweep %s tried %d refused %d attached %d recorded %d in %d s\n", v, tried[v], ref[v] + 0, att[v] + 0, rec[v] + 0, secs[v] }' $SW/seconds $SW/outcomes | sort
	awk '$2 == "refused" { $1 = ""; $2 = ""; sub(/^  /, ""); n[$0]++ } END { for (r in n) printf "    # refused %d: %s\n", n[r], r }' $SW/outcomes | sort -t: -k1,1
	grep -q ' refused unknown$' $SW/outcomes &&
		fail "a refusal without a reason: $(grep -c ' refused unknown$' $SW/outcomes)"
	[ "$(awk '$2 == "recorded"' $SW/outcomes | wc -l)" -gt 0 ] || fail "nothing attached at all"
}

SWEEP_TESTS="t_sweep"
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$SWEEP_TESTS}
