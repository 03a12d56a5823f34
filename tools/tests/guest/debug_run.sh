#!/bin/bash
# debug_run.sh - inside the debug kernel's guest (tools/tests/debug.sh):
# run the guest suites, then have kmemleak scan and save what it found
# and the whole kernel log to the results folder RESULTS.
#
# usage: debug_run.sh RESULTS                 the suites in DEBUG_SUITES,
#                                             each SCRIPT (all its tests)
#                                             or SCRIPT:TEST,TEST
#        debug_run.sh RESULTS SCRIPT [TEST...] one suite
# Every suite prints its own "N passed, N failed" line.
set -u
here=$(dirname "$0")
res=$1; shift
K=/sys/kernel/debug/kmemleak

# fit_to_speed: make check's sizes (CLKSTAT_DEBUG_FIT=1, debug.sh),
# fitted to this machine.  The debug kernel's guests ran 2.3 to 3.5
# times slower on some machines than on others (Debian's kernel did
# not), so its parts must shrink there to keep make check in its budget.
# The speed: two loads and unloads of clkstat.ko timed here, against
# REF_MS, what they took on the machine the sizes were chosen on (in a
# guest beside another, as make check runs them: 3.9 s; 17.7 s before
# the guest cached what it reads of the host's root, run-guest.sh).  On
# a machine F times
# slower, every sample is F times smaller, down to a floor; each line
# "    # sampled: ..." says what make check leaves out here that
# make check-debug runs (run-all.sh gathers them).
REF_MS=${CLKSTAT_DEBUG_REF_MS:-4500}
fit_to_speed() {
	local t0 ms f
	t0=$(date +%s%N)
	for _ in 1 2; do
		insmod "$CLKSTAT_KMOD/clkstat.ko" probes=ttwu && rmmod clkstat
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	# The factor in hundredths, at least 1: a faster machine runs the
	# sizes as chosen.
	f=$((ms * 100 / REF_MS))
	[ "$f" -ge 100 ] || f=100
	# (A line of its own: the console may start this one with the
	# firmware's escape codes, and debug.sh keeps only indented lines.)
	echo
	echo "    # machine: 2 loads and unloads of clkstat.ko took $ms ms (${REF_MS} ms on the reference machine): sizes divided by $((f / 100)).$(printf %02d $((f % 100)))"
	shrink() {	# shrink N FLOOR: N / factor, at least FLOOR
		local n=$((($1 * 100 + f - 1) / f))
		[ "$n" -ge "$2" ] || n=$2
		echo "$n"
	}
	export CLKSTAT_FAULT_STEP=$((($CLKSTAT_FAULT_STEP * f + 99) / 100))
	export CLKSTAT_SOAK_CYCLES=$(shrink "$CLKSTAT_SOAK_CYCLES" 3)
	export CLKSTAT_SOAK_SWITCHES=$(shrink "$CLKSTAT_SOAK_SWITCHES" 3)
	export CLKSTAT_TRACE_CHURN=$(shrink "$CLKSTAT_TRACE_CHURN" 20)
	export CLKSTAT_FUZZ_INPUTS=$(shrink "$CLKSTAT_FUZZ_INPUTS" 20000)
	# A point sweep every STEP-th point from a seeded offset: another
	# residue each run, every point within STEP runs.
	export CLKSTAT_FAULT_OFFSET=$((${CLKSTAT_DEBUG_SEED:-$(date +%s)} % CLKSTAT_FAULT_STEP))
	# What this guest's suites run of each (DEBUG_SUITES).
	sampled() {	# sampled PATTERN TEXT: TEXT if a suite PATTERN runs
		case " ${DEBUG_SUITES:-} " in *"$1"*) echo "    # sampled: $2" ;; esac
	}
	sampled hardening_faults.sh "fault sweeps: one allocation point in every $CLKSTAT_FAULT_STEP, from offset $CLKSTAT_FAULT_OFFSET (seed ${CLKSTAT_DEBUG_SEED:-clock}), not every one"
	sampled hardening_soak.sh "soak: $CLKSTAT_SOAK_CYCLES load/unload cycles and $CLKSTAT_SOAK_SWITCHES switches, not 1000 and 1000"
	sampled t_trace_churn "trace churn: $CLKSTAT_TRACE_CHURN trace/untrace pairs, not 1000"
	sampled hardening_input.sh "hostile input: $CLKSTAT_FUZZ_INPUTS inputs per interface, not 100000"
}

# What the kernel allocated while booting is not ours to judge.
echo clear > $K
[ "${CLKSTAT_DEBUG_FIT:-0}" != 1 ] || fit_to_speed
if [ $# -gt 0 ]; then
	# A suite of tools/tests/guest/ by its name, as debug.sh documents.
	s=$1; shift
	[ -f "$s" ] || s=$here/$s
	bash "$s" "$@"
else
	for s in ${DEBUG_SUITES:-}; do
		# shellcheck disable=SC2046
		bash "$here/${s%%:*}" $([ "${s#*:}" = "$s" ] || echo "${s#*:}" | tr , ' ')
	done
fi
rmmod clkstat_hookbench clkstat_bench clkstat 2>/dev/null
# kmemleak reports an object once a scan finds no reference to it and it
# is older than 5 s; two scans apart let the last frees settle.
sleep 6
echo scan > $K
sleep 1
echo scan > $K
cat $K > "$res/kmemleak.txt"
dmesg > "$res/dmesg.txt"
