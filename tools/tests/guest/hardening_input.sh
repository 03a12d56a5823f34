#!/bin/bash
# hardening_input.sh - hostile input: the debugfs control file
# and the generic netlink family fed 10^5 random inputs each (ctl_fuzz,
# nl_fuzz: each input checked against an oracle of the documented
# grammar or policy) while a workload records, then the module still
# counts a known workload exactly, unloads, and logged nothing but the
# warnings hostile input is expected to cause; and every module parameter
# at its limits (see Documentation/clkstat-hardening.rst, "Hostile
# input").
#
# Seeds are random and printed; CLKSTAT_CTL_SEED and CLKSTAT_NL_SEED
# replay a run.  Each test prints "    # report: KEY N" lines, which
# tools/tests/debug.sh sums.  Last line: "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

CTL_FUZZ=$top/tools/tests/ctl_fuzz
NL_FUZZ=$top/tools/tests/nl_fuzz
R=$top/tools/clkstat-report
# 10^5 each (make check on a machine as fast as ours, make
# check-debug); debug_run.sh fits fewer to a slower machine.
INPUTS=${CLKSTAT_FUZZ_INPUTS:-100000}

report() { echo "    # report: $1 $2"; }

# A small workload that records while a fuzzer runs: a shell waking up
# from a timed read every 20 ms (a timer wakeup, and clock reads of its
# own in the system call: ttwu and tkread both see it), and every 2000 of
# them (40 s) a short migrating ping-pong with a clock read after each
# wakeup.  Cheap on purpose: on the debug kernel a ping-pong run costs a
# second or two of the guest's only CPU time, and the fuzzers need it.
# Without --control: the control file's state is the fuzzers' alone.
workload_start() {
	rm -f /tmp/hi-stop /tmp/hi-fifo
	mkfifo /tmp/hi-fifo
	( exec 9<> /tmp/hi-fifo
	  while [ ! -e /tmp/hi-stop ]; do
		"$PINGPONG" -n 10 --migrate --reads 1 > /dev/null 2>&1 || true
		for _ in $(seq 2000); do
			read -r -t 0.02 -u 9 _ || true
			[ ! -e /tmp/hi-stop ] || break
		done
	  done ) &
	WORKLOAD=$!
}

workload_stop() {
	touch /tmp/hi-stop
	wait "$WORKLOAD" 2>/dev/null || true
}

# After the fuzzing: back to the default variant, every metric started,
# and a known workload counted exactly (as pingpong_exact, lib.sh, in
# suite_ttwu.sh): every wakeup a sample, none lost or unmatched.
still_counts() {
	local wakeups migrated c
	echo "variant $V" > "$D/control"
	echo start > "$D/control"
	trace_setup 'comm ~ "clkpp-*"'
	timeout 300 "$PINGPONG" -n 300 --migrate --control "$D/control" --tracing "$T" > /tmp/hi-truth ||
		fail "the workload failed after the fuzzing"
	wakeups=$(awk '$1 == "wakeups" { print $2 }' /tmp/hi-truth)
	expect_migrated "$(awk '$1 == "migrated" { print $2 }' /tmp/hi-truth)"
	trace_off
	migrated=$MIGRATED
	expect_eq "truth: wakeups" "$wakeups" 600
	expect_eq "wakeups counter" "$(field ttwu_enqueue wakeups)" "$wakeups"
	expect_eq "ttwu_enqueue count" "$(field ttwu_enqueue count)" "$wakeups"
	expect_eq "migrated counter" "$(field ttwu_enqueue migrated)" "$migrated"
	expect_eq "ttwu_enqueue_migrated count" "$(field ttwu_enqueue_migrated count)" "$migrated"
	for c in unmatched replaced evicted busy; do
		expect_eq "$c" "$(field ttwu_enqueue $c)" 0
	done
}

# Every kernel message from kmsg_start() on, taken from /dev/kmsg as it is
# logged: a fuzzer's rate-limited warnings fill the 128 KB log buffer in
# a few minutes on the debug kernel, and dmesg at the end would no longer
# hold the test's start (it did: a check of nothing).
kmsg_start() {
	KMARK="clkstat-hi-begin-$RANDOM$RANDOM"
	cat /dev/kmsg > /tmp/hi-kmsg 2> /tmp/hi-kmsg.err &
	KMSG=$!
	# A test that fails stops its reader and its workload (run()'s
	# subshell ends).
	trap 'kill "$KMSG" 2> /dev/null || true; touch /tmp/hi-stop' EXIT
	echo "$KMARK" > /dev/kmsg
}

kmsg_stop() {
	echo "${KMARK/begin/end}" > /dev/kmsg
	# The reader may lag behind a log the fuzzers filled: up to 60 s.
	local end=$((SECONDS + 60))
	while ! grep -q "${KMARK/begin/end}" /tmp/hi-kmsg && [ $SECONDS -lt $end ]; do
		sleep 0.1
	done
	kill "$KMSG" 2>/dev/null || true
	wait "$KMSG" 2>/dev/null || true
}

# Between kmsg_start() and kmsg_stop(): every record there (none lost: the
# sequence numbers follow each other), and nothing but what hostile input
# is expected to make the kernel say: clkstat's rate-limited "clkstat:
# control:" warnings and its trace and untrace refusals (and the rate
# limiter's "callbacks suppressed"), the
# kprobe variants' note of what kind of kprobe they placed (variant
# switches), the unload line, the extra pattern given (an awk regular
# expression), and of the rest of the kernel only the entropy pool's
# one-time note and the notes a vCPU the host held back makes the kernel
# print whatever the input ("hrtimer: interrupt took N ns", perf's
# "interrupt took too long", and the clocksource watchdog's two lines
# when its own back-to-back reads of the watchdog were held apart, so it
# skips that round: the reads run with interrupts off, so only the host
# (or TCG stopping every vCPU to drop code the guest patched) can delay
# them; seen beside another guest on 2 cores).  Its "marking unstable"
# warning stays unexpected.  No
# record holds a raw control character (/dev/kmsg shows one as \xNN,
# 0x00-0x1f or 0x7f): a name from userspace printed unescaped can forge
# log lines.
log_only_expected() {
	local extra=${1:-'^$'} out
	out=$(awk -v b="$KMARK" -v e="${KMARK/begin/end}" -v extra="$extra" '
		{ split($0, h, ";"); split(h[1], f, ","); text = substr($0, length(h[1]) + 2) }
		/^ / { next }		# a record'"'"'s dictionary lines
		text == b { on = 1; last = f[2]; next }
		!on { next }
		f[2] != last + 1 { print "records lost after number " last; exit }
		{ last = f[2] }
		text == e { done = 1; exit }
		text ~ /\\x(0[0-9a-f]|1[0-9a-f]|7f)/ { print "raw control character: " text; next }
		text ~ /^clkstat: control: / || text ~ /^[a-z_]+: [0-9]+ callbacks suppressed$/ ||
		text ~ /^clkstat: (un)?trace / ||
		text ~ /^clkstat: kprobe on [a-z_0-9]+\+0x[0-9a-f]+\/0x[0-9a-f]+ is / || text == "clkstat: unloaded" ||
		text == "random: crng init done" || text ~ extra { n++; next }
		text ~ /^hrtimer: interrupt took [0-9]+ ns$/ ||
		text ~ /^perf: interrupt took too long / ||
		text ~ /^clocksource: timekeeping watchdog on CPU[0-9]+: [a-z_0-9-]+ wd-wd read-back delay of [0-9]+ns$/ ||
		text ~ /^clocksource: wd-[a-z_0-9-]+-wd read-back delay of -?[0-9]+ns, clock-skew test skipped!$/ { next }
		{ print "unexpected: " text }
		END { if (!done) print "no end mark: the capture stopped early"; else if (!n) print "no warning at all" }' /tmp/hi-kmsg)
	[ -z "$out" ] || fail "kernel log: $(echo "$out" | head -5)"
}

t_control_fuzz() {
	local seed=${CLKSTAT_CTL_SEED:-$RANDOM$RANDOM} out rc=0 t0 t1
	insmod "$KO" probes=ttwu,tkread
	kmsg_start
	workload_start
	t0=$(date +%s)
	out=$("$CTL_FUZZ" "$D/control" $INPUTS "$seed" 2>/tmp/hi-ctl.err) || rc=$?
	t1=$(date +%s)
	workload_stop
	note "seed $seed ($((t1 - t0)) s): $out"
	[ "$rc" = 0 ] || fail "ctl_fuzz failed (status $rc, seed $seed): $(head -30 /tmp/hi-ctl.err)"
	set -- $out
	expect_eq "inputs" "$2" $INPUTS
	expect_eq "accepted + rejected" "$(($4 + $6))" $INPUTS
	expect_eq "mismatches" "$8" 0
	# Both verdicts well represented, huge writes and NULs among them (in
	# proportion to the inputs: about 18% accepted, 1% huge, 15% with a
	# NUL, 4.6% resets).
	[ "$4" -gt $((INPUTS / 10)) ] && [ "$6" -gt $((INPUTS / 2)) ] || fail "unbalanced: $out"
	[ "${10}" -gt $((INPUTS / 200)) ] && [ "${12}" -gt $((INPUTS / 20)) ] || fail "too few huge or NUL inputs: $out"
	# reset shows in the metric files' "resets N", checked at the end.
	[ "${16}" -gt $((INPUTS / 100)) ] && [ "${17:-}" = "" ] || fail "resets not checked: $out"
	report control_inputs "$2"
	still_counts
	rmmod clkstat || fail "rmmod after the fuzzing"
	[ ! -e "$D" ] || fail "$D left after rmmod"
	kmsg_stop
	log_only_expected
}

t_netlink_fuzz_hostile() {
	local seed=${CLKSTAT_NL_SEED:-$RANDOM$RANDOM} out rc=0 t0 t1
	insmod "$KO" probes=ttwu,tkread events=64
	kmsg_start
	workload_start
	t0=$(date +%s)
	out=$("$NL_FUZZ" --control "$D/control" $INPUTS "$seed" 2>/tmp/hi-nl.err) || rc=$?
	t1=$(date +%s)
	workload_stop
	note "seed $seed ($((t1 - t0)) s): $out"
	[ "$rc" = 0 ] || fail "nl_fuzz failed (status $rc, seed $seed): $(head -20 /tmp/hi-nl.err)"
	set -- $out
	expect_eq "sent" "$2" $INPUTS
	expect_eq "answered or dropped as predicted" "$(($4 + $6 + $8))" $INPUTS
	expect_eq "mismatches" "${10}" 0
	[ "$(($4 + $8))" -gt $((INPUTS * 9 / 10)) ] || fail "only $(($4 + $8)) of $INPUTS requests were refused"
	[ "$8" -gt 0 ] || fail "no request was dropped: no truncated header was sent"
	report netlink_inputs "$2"
	"$R" info > /tmp/hi-info || fail "the family stopped answering"
	grep -q '^events 64$' /tmp/hi-info || fail "info: $(cat /tmp/hi-info)"
	still_counts
	rmmod clkstat || fail "rmmod after the fuzzing"
	[ ! -e "$D" ] || fail "$D left after rmmod"
	kmsg_stop
	# The netlink core's own rate-limited notes on the malformed requests.
	log_only_expected "^netlink: ('nl_fuzz': attribute type [0-9]+ has an invalid length|[0-9]+ bytes leftover after parsing attributes in process \`nl_fuzz')[.]\$"
}

# Memory in kB: VmallocUsed exactly; MemAvailable, after dropping the
# page cache, as a coarse check (it moves by +-20 MB from run to run).
vmalloc_kb() { meminfo VmallocUsed; }
avail_kb() { sync; echo 3 > /proc/sys/vm/drop_caches; meminfo MemAvailable; }

# load_ok ARGS: insmod with limit parameters; counts the loads.
load_ok() {
	loads=$((loads + 1))
	insmod "$KO" "$@" || fail "insmod $* failed: $(dmesg | tail -3)"
}

refuse() {
	loads=$((loads + 1))
	bad_param_one "$@"
}

# A short exact count, as still_counts, for a fresh load.
counts_exactly() {
	timeout 300 "$PINGPONG" -n 50 --control "$D/control" > /tmp/hi-truth ||
		fail "workload failed with $*"
	expect_eq "ttwu_enqueue count with $*" "$(field ttwu_enqueue count)" 100
	expect_eq "wakeups with $*" "$(field ttwu_enqueue wakeups)" 100
}

# Parameters at their limits.  Also covered elsewhere: frac_bits 0 and 5
# and corr_entries=64 (load and count) and probes= (only the control
# file) in t_params_at_limits; frac_bits=6, corr_entries=32 and 100, a
# probe given twice in a row in t_bad_params (both in suite_load.sh).
t_params_limits() {
	local vm0 vm1 av0 av1 cpus grew f
	loads=0
	cpus=$(nproc --all)

	# events=1048576 per CPU: the rings allocated (56 bytes an event),
	# a marker and the workload's wakeups logged, and all of it given
	# back at rmmod.
	vm0=$(vmalloc_kb) av0=$(avail_kb)
	load_ok probes=ttwu,marker events=1048576
	grew=$(($(meminfo VmallocUsed) - vm0))
	note "events=1048576: VmallocUsed +$grew kB ($cpus CPUs)"
	[ "$grew" -ge $((cpus * 1048576 * 56 / 1024)) ] || fail "rings smaller than 1048576 events per CPU: +$grew kB"
	"$R" info | grep -q '^events 1048576$' || fail "info: $("$R" info)"
	counts_exactly events=1048576
	# After the workload: its window opens with a reset, which empties
	# the log.
	echo "limit-marker" > "$D/marker"
	cat "$D/events" > /tmp/hi-events
	grep -Eq "^[0-9]+ marker [0-9]+ $BASHPID - limit-marker - - -\$" /tmp/hi-events ||
		fail "no marker in the log: $(grep marker /tmp/hi-events)"
	[ "$(grep -c ' wakeup ' /tmp/hi-events)" -ge 100 ] || fail "the workload's wakeups are not in the log"
	rmmod clkstat
	vm1=$(vmalloc_kb) av1=$(avail_kb)
	note "after rmmod: VmallocUsed $((vm1 - vm0)) kB, MemAvailable $((av1 - av0)) kB against before the load"
	[ $((vm1 - vm0)) -lt 4096 ] || fail "VmallocUsed +$((vm1 - vm0)) kB after rmmod"
	[ $((av0 - av1)) -lt 49152 ] || fail "MemAvailable -$((av0 - av1)) kB after rmmod"
	refuse "events=1048577: out of range 0..1048576" events=1048577

	# corr_entries=1048576: a 24 MB wakeup table, counts, given back;
	# with events=0 (the default, said here): no event log, no events
	# file, and netlink says so.
	vm0=$(vmalloc_kb)
	load_ok corr_entries=1048576 events=0
	grew=$(($(meminfo VmallocUsed) - vm0))
	note "corr_entries=1048576: VmallocUsed +$grew kB"
	[ "$grew" -ge $((1048576 * 24 / 1024)) ] || fail "table smaller than 1048576 entries: +$grew kB"
	[ ! -e "$D/events" ] || fail "events file with events=0"
	"$R" info | grep -q '^events 0$' || fail "info with events=0: $("$R" info)"
	counts_exactly corr_entries=1048576 events=0
	rmmod clkstat
	vm1=$(vmalloc_kb)
	[ $((vm1 - vm0)) -lt 4096 ] || fail "VmallocUsed +$((vm1 - vm0)) kB after rmmod"
	refuse "corr_entries=2097152: not a power of two in 64..1048576" corr_entries=2097152

	# Every probe at once (the marker needs the event log).
	load_ok probes=ttwu,tkread,csread,csswitch,clockoff,marker events=4096
	for f in control events marker ttwu_enqueue.$V tkread.$V ttwu_tkread.$V \
		 csswitch.$V clockoff.$V; do
		[ -e "$D/$f" ] || fail "no $f with every probe"
	done
	ls "$D" | grep -q "^csread_.*\.$V\$" || fail "no csread metric with every probe"
	counts_exactly every probe
	rmmod clkstat
	[ ! -e "$D" ] || fail "$D left after rmmod"

	# Every probe, then one of them again (t_bad_params has ttwu,ttwu):
	# refused, naming it.  (Each load costs seconds on the debug kernel.)
	refuse "probes=ttwu,tkread,csread,csswitch,clockoff,marker,tkread: probe 'tkread' given twice" \
		probes=ttwu,tkread,csread,csswitch,clockoff,marker,tkread events=64
	report param_loads "$loads"
}

tests=${*:-t_control_fuzz t_netlink_fuzz_hostile t_params_limits}
for t in $tests; do
	run "$t"
done
echo "$npass passed, $nfail failed"
