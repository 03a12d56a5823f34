# lib.sh - helpers for clkstat's guest tests (bash, run inside the QEMU
# guest as root, in the host's userspace).  Each test is a function; run()
# calls it in a subshell and prints "ok N - name" or "not ok N - name".
top=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../../..")
# The modules under test: kmod/ (built for Debian's kernel), or those
# tools/tests/debug.sh built for the debug kernel.
KMOD=${CLKSTAT_KMOD:-$top/kmod}
KO=$KMOD/clkstat.ko
D=/sys/kernel/debug/clkstat
V=direct	# the variant the tests load (the default), part of every file name
T=/sys/kernel/tracing
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource
PINGPONG=$top/tools/workload/clkstat-pingpong
npass=0 nfail=0 ntest=0

# What differs between the kernel lines, as kmod/compat.h says it:
# - ENQ: the function probe ttwu closes a wakeup at.  Kernels with EEVDF's
#   delayed dequeue (6.12 on, DELAY_DEQUEUE among the scheduler features,
#   NO_ or not) re-enqueue some woken tasks without ttwu_do_activate().
# - FENTRY: where a function's fentry call sits, 0x0 or 0x4 past an
#   ENDBR64 (IBT kernels, functions whose address is taken); kprobes on a
#   function's name sit there, kprobe-int3's right after (0x5 or 0x9).
if grep -qE '(^| )(NO_)?DELAY_DEQUEUE( |$)' /sys/kernel/debug/sched/features 2>/dev/null; then
	ENQ=enqueue_task
	DELAY_DEQUEUE=1
else
	ENQ=ttwu_do_activate
	DELAY_DEQUEUE=0
fi
FENTRY='0x[04]' INT3='0x[59]'
HOOKED_RE="^(try_to_wake_up|$ENQ)( |\$)"

fail() { echo "    FAIL: $*" >&2; exit 1; }
note() { echo "    # $*"; }
# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }
# valgrind OPTION... COMMAND...: COMMAND under valgrind; with
# CLKSTAT_VALGRIND=0 (make check's 6.1 and 7.3 parts) COMMAND alone, its
# output and exit status checked all the same.  The tool is the same
# program on every line and runs under valgrind in 6.12's whole suite;
# under TCG each valgrind costs 7 to 8 s more than the command.
valgrind() {
	if [ "${CLKSTAT_VALGRIND:-1}" = 0 ]; then
		while [ "${1#-}" != "$1" ]; do shift; done
		"$@"
	else
		command valgrind "$@"
	fi
}

# read_valgrind FILE ARGS...: clkstat-report -i FILE ARGS, a command that
# reads a snapshot and nothing of the kernel, checked under valgrind.
# With CLKSTAT_VALGRIND_QUEUE (guest.sh's folder for it) the command runs
# here alone and goes into the queue with a copy of FILE: guest.sh runs
# the queue under valgrind on the host after the guest, the same program
# on the same file in a second each instead of 20 s of TCG.  Else as
# valgrind() (above) runs it.
read_valgrind() {
	local f=$1 q=${CLKSTAT_VALGRIND_QUEUE:-} h
	shift
	if [ -z "$q" ] || [ "${CLKSTAT_VALGRIND:-1}" = 0 ]; then
		valgrind -q --error-exitcode=99 --leak-check=full \
			"$top/tools/clkstat-report" -i "$f" "$@"
		return
	fi
	# Named by its content, with its own suffix (a study or a snapshot:
	# the tool reads either by what the file holds).
	h=$(sha1sum < "$f" | cut -c1-16)
	case ${f##*/} in *.*) h=$h.${f##*.} ;; esac
	[ -e "$q/$h" ] || cp "$f" "$q/$h" || return 125
	echo "$h $*" >> "$q/list"
	"$top/tools/clkstat-report" -i "$f" "$@"
}

# as_json STUDY: the study record wrote, as the JSON snapshot record wrote
# before it wrote studies (export --format json: the same document), at
# STUDY's name with .db made .json; that path on stdout.  For the tests
# that read a recording's JSON (python3's json, grep).
as_json() {
	local j=${1%.db}.json
	"$top/tools/clkstat-report" export -i "$1" --format json -o "$j" || return 1
	echo "$j"
}

# hb_unload: untrace every trace (a traced function holds its module),
# then unload the hookbench.
hb_unload() {
	local spec
	# Read whole first: the file changes with every untrace.
	if [ -r "$D/traces" ]; then
		for spec in $(awk '{ print $2 }' "$D/traces"); do
			echo "untrace $spec" > "$D/control"
		done
	fi
	rmmod clkstat_hookbench
}

run() {
	local name=$1 t0=$SECONDS
	ntest=$((ntest + 1))
	if ( set -e; "$name" ); then
		npass=$((npass + 1)); echo "ok $ntest - $name # $((SECONDS - t0)) s"
	else
		nfail=$((nfail + 1)); echo "not ok $ntest - $name # $((SECONDS - t0)) s"
	fi
	# What a failed test left: its traces hold the hookbench, which
	# holds clkstat.
	if grep -q '^clkstat_hookbench ' /proc/modules; then
		hb_unload 2>/dev/null || true
	fi
	rmmod clkstat 2>/dev/null || true
	# The governor tests' cpufreq driver (suite_conditions.sh).
	rmmod clkstat_fakefreq 2>/dev/null || true
}

# run_suite TEST...: each test, then t_dmesg_clean, then the suite's
# closing line "N passed, N failed"; the status says whether all passed.
run_suite() {
	local t
	for t in "$@"; do
		run "$t"
	done
	run t_dmesg_clean
	echo "$npass passed, $nfail failed"
	[ "$nfail" = 0 ]
}

# suite_main TEST...: how the suites of clkstat.ko (module_tests.sh and
# the area suites suite_*.sh it sources) run their tests: on hpet, then
# run_suite.  The tests read and switch clocksources as on 6.1's guest,
# which runs on hpet (TCG's TSC fails the clocksource watchdog there);
# 6.12's and 7.x's guests start on tsc.  Every line runs the suite on
# hpet.
suite_main() {
	if [ "$(cat "$CS")" != hpet ]; then
		echo "    # clocksource: $(cat "$CS") -> hpet for the suite"
		echo hpet > "$CS"
	fi
	run_suite "$@"
}

loaded() { grep -q '^clkstat ' /proc/modules; }

# field METRIC KEY: a summary value or counter of METRIC.$V
field() {
	awk -v k="$2" '
		$1 == "summary" { for (i = 2; i < NF; i += 2) if ($i == k) v = $(i + 1) }
		$1 == "counter" && $2 == k { v = $3 }
		END { if (v == "") exit 1; print v }' "$D/$1.$V"
}

# The number of sched_waking events in the trace buffer.
trace_count() { grep -c ' sched_waking: ' "$T/trace" || true; }

# trace_migrated: wakeups whose task sched_wakeup found on another CPU than
# sched_waking did (both print task_cpu(p) as target_cpu): the kernel's
# own count of what clkstat calls migrated.  The k-th sched_waking of a
# task is paired with its k-th sched_wakeup: the two are logged on
# different CPUs for a remote wakeup, and the trace's per-CPU clocks
# (trace_clock local) can merge them out of order (seen on the debug
# kernel: 5 of 300 pairs).  The workloads measured this way have exactly
# one enqueue per wakeup.
trace_migrated() {
	sed -n 's/.* \(sched_waking\|sched_wakeup\): .* pid=\([0-9]*\) .* target_cpu=\([0-9]*\).*/\1 \2 \3/p' "$T/trace" |
		awk '$1 == "sched_waking" { w[$2, nw[$2]++] = $3 + 0; next }
		     { u[$2, nu[$2]++] = $3 + 0 }
		     END {
			for (k in w) {
				split(k, a, SUBSEP)
				if ((a[1], a[2]) in u)
					n += (w[k] != u[a[1], a[2]])
			}
			print n + 0
		     }'
}

# expect_migrated TRUTH: set MIGRATED to the migrated wakeups to expect of
# the traced run: the workload's TRUTH, which ftrace's count must equal;
# with delayed dequeue ftrace's count, since --migrate's affinity change
# moves a delayed (still queued) task at once and its wakeup is local.
expect_migrated() {
	local traced; traced=$(trace_migrated)
	if [ "$DELAY_DEQUEUE" = 1 ]; then
		note "migrated: $traced of the workload's $1 (delayed dequeue)"
		MIGRATED=$traced
	else
		expect_eq "migrated wakeups (ftrace)" "$traced" "$1"
		MIGRATED=$1
	fi
}

trace_setup() {	# trace_setup FILTER: sched_waking and sched_wakeup, buffer off for now
	local e
	echo 0 > "$T/tracing_on"
	echo > "$T/trace"
	echo 4096 > "$T/buffer_size_kb"
	for e in sched_waking sched_wakeup; do
		echo "$1" > "$T/events/sched/$e/filter"
		echo 1 > "$T/events/sched/$e/enable"
	done
}

trace_off() {
	local e
	for e in sched_waking sched_wakeup; do
		echo 0 > "$T/events/sched/$e/enable"
		echo 0 > "$T/events/sched/$e/filter"
	done
	echo 0 > "$T/tracing_on"
	echo > "$T/trace"
}

# A background wakeup storm: hackbench in a loop until killed.
storm_start() {
	( while :; do hackbench -g 2 -f 5 -l 200 -P >/dev/null 2>&1 || sleep 0.1; done ) &
	STORM=$!
}

storm_stop() {
	kill "$STORM" 2>/dev/null || true
	wait "$STORM" 2>/dev/null || true
	pkill hackbench 2>/dev/null || true
}

# The wakeup storm the hardening suites run beside their own steps: one
# hackbench loop per CPU, each in a process group of its own (setsid) so
# that stopping it stops its hackbench too.  One loop alone leaves a CPU
# idle while it starts its next round.  At nice 19 it takes all the CPU
# time the test's own steps leave them, without starving those (at nice 0,
# 40 hackbench processes leave the shell that loads and unloads a
# fortieth of a CPU on a kernel without autogroups).
storm_niced_start() {
	local i
	STORMS=""
	for i in $(seq "$(nproc)"); do
		setsid nice -n 19 bash -c 'while :; do hackbench -g 2 -f 5 -l 200 -P >/dev/null 2>&1 || sleep 0.1; done' &
		STORMS="$STORMS $!"
	done
}

storm_niced_stop() {
	local p
	for p in ${STORMS:-}; do
		kill -- "-$p" 2>/dev/null || true
	done
	for p in ${STORMS:-}; do
		wait "$p" 2>/dev/null || true
	done
	STORMS=""
}

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# Kernel log since the last mark(): tests never clear the log, so that the
# final check sees everything.
mark() { MARK="clkstat-test-mark-$RANDOM$RANDOM"; echo "$MARK" > /dev/kmsg; }
since_mark() { dmesg | sed -n "/$MARK/,\$p"; }

# insmod must fail with EINVAL, log a line naming the value, leave nothing.
bad_param() {
	local want=$1; shift
	mark
	if insmod "$KO" "$@" 2>/tmp/err; then
		fail "insmod $* succeeded"
	fi
	grep -q 'Invalid argument\|Invalid parameters' /tmp/err || fail "insmod $*: $(cat /tmp/err)"
	since_mark | grep -qF "$want" || fail "insmod $*: no '$want' in the log: $(since_mark | tail -3)"
	! loaded || fail "module loaded after insmod $*"
	[ ! -e "$D" ] || fail "$D exists after insmod $*"
	! grep -qs '^try_to_wake_up' "$T/enabled_functions" || fail "hook left after insmod $*"
}

# The same, and that line is the only one of clkstat's (a bad parameter
# gets one clear message, not a cascade); the kernel's one-time notes that
# an out-of-tree module taints it do not count.
bad_param_one() {
	bad_param "$@"
	local n
	n=$(since_mark | grep -v "$MARK" | grep 'clkstat' | grep -vc 'taint' || true)
	[ "$n" = 1 ] || fail "insmod ${*:2}: $n lines in the log: $(since_mark | tail -4)"
}

# The workload opens and closes the window itself while both of its threads
# are asleep, and the tgid filter keeps every other task out, so the counts
# must be exact: no tolerance.  ftrace counts sched_waking for the same two
# threads over the same window, as an independent count.
pingpong_exact() {
	local rounds=$1; shift
	insmod "$KO" variant="$V"
	trace_setup 'comm ~ "clkpp-*"'
	timeout 300 "$PINGPONG" -n "$rounds" --control "$D/control" --tracing "$T" "$@" > /tmp/truth ||
		fail "workload failed or hung"
	local traced; traced=$(trace_count)
	cat /tmp/truth | sed 's/^/    # truth: /'
	note "module: $(grep ^summary $D/ttwu_enqueue.$V)"
	local wakeups migrated local_
	wakeups=$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)
	expect_migrated "$(awk '$1 == "migrated" { print $2 }' /tmp/truth)"
	trace_off
	migrated=$MIGRATED local_=$((wakeups - MIGRATED))
	expect_eq "sched_waking events (ftrace)" "$traced" "$wakeups"
	expect_eq "wakeups counter" "$(field ttwu_enqueue wakeups)" "$wakeups"
	expect_eq "ttwu_enqueue count" "$(field ttwu_enqueue count)" "$wakeups"
	expect_eq "migrated counter" "$(field ttwu_enqueue migrated)" "$migrated"
	expect_eq "ttwu_enqueue_migrated count" "$(field ttwu_enqueue_migrated count)" "$migrated"
	expect_eq "ttwu_enqueue_local count" "$(field ttwu_enqueue_local count)" "$local_"
	for c in unmatched replaced evicted busy; do
		expect_eq "$c" "$(field ttwu_enqueue $c)" 0
	done
	check_consistent ttwu_enqueue
}

# variants_exact VARIANT...: pingpong_exact through each, local and
# migrating, each on a fresh load.
variants_exact() {
	local v
	for v in "$@"; do
		note "variant $v"
		( V=$v
		  pingpong_exact 300; rmmod clkstat
		  pingpong_exact 300 --migrate; rmmod clkstat ) || fail "variant $v"
	done
}

# The slot lines add up to the summary, the p column ends at 1, and the
# summary is ordered: min <= p50 <= p90 <= p99 <= p99.9 <= max.
check_consistent() {
	awk -v m="$1" '
		$1 == "slot" && $4 == "all" { n += $8; p = $12 }
		$1 == "summary" {
			for (i = 2; i < NF; i += 2) s[$i] = $(i + 1)
		}
		END {
			if (n != s["count"]) { print m ": slots add up to " n ", summary says " s["count"]; exit 1 }
			if (n > 0 && p != "1.000000") { print m ": last p is " p; exit 1 }
			if (n > 0 && !(s["min"] <= s["p50"] && s["p50"] <= s["p90"] && s["p90"] <= s["p99"] &&
			      s["p99"] <= s["p99.9"] && s["p99.9"] <= s["max"] && s["min"] <= s["mean"] &&
			      s["mean"] <= s["max"] && s["min"] > 0)) { print m ": summary out of order: " $0; exit 1 }
		}' "$D/$1.$V" || fail "inconsistent $1.$V"
}

# The whole log of the run (no test clears it): no complaint of the kernel.
t_dmesg_clean() {
	if dmesg | grep -E 'Oops|BUG:|WARNING:|Call Trace|general protection|stack-protector'; then
		fail "kernel complained"
	fi
	true
}
