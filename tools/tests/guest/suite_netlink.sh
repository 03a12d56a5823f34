#!/bin/bash
# suite_netlink.sh - the generic netlink family through clkstat-report:
# GET_HIST and GET_INFO against debugfs, CTRL, a fuzzer's malformed
# requests, GET_EVENTS against debugfs, and clkstat-report record end to
# end.
# usage: suite_netlink.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The generic netlink family through clkstat-report: with recording
# stopped, the GET_HIST dump equals debugfs slot for slot (count per slot
# and CPU, the all-CPU min, max and counters); GET_INFO; CTRL; the exit
# statuses for no module and for an unprivileged user.
t_netlink() {
	local R=$top/tools/clkstat-report rc f id end
	rc=0; "$R" info > /dev/null 2>&1 || rc=$?
	expect_eq "exit status without the module" "$rc" 3
	insmod "$KO" probes=ttwu,tkread,csread frac_bits=5
	"$PINGPONG" -n 300 --migrate --reads 1 --control "$D/control" > /dev/null
	# Every task, until ttwu_enqueue's histogram is wide enough to span
	# messages (more than 128 slots, below), up to 300 s: how long that
	# takes depends on the machine.
	echo start > "$D/control"
	storm_start
	end=$((SECONDS + 300))
	while [ "$(awk '$1 == "slot" && $4 == "all"' "$D/ttwu_enqueue.direct" | wc -l)" -le 128 ] &&
	      [ $SECONDS -lt $end ]; do
		sleep 0.5
	done
	storm_stop
	echo stop > "$D/control"
	"$R" info > /tmp/info
	expect_eq "info" "$(awk '$1 != "version" && $1 != "clocksource" && $1 != "nr_cpus" && $1 != "reentered"' /tmp/info | tr '\n' ' ')" \
		"abi 2 frac_bits 5 probes ttwu,tkread,csread variant direct recording 0 switches 0 tgid 0 events 0 clock mono trace_limit 16 "
	# csread's hooks on the clocksource clkstat's own (mono) clock reads:
	# each stamp's read enters them again, a counted miss; netlink's count
	# is debugfs's as of a moment before.
	local r1 r2
	r1=$(awk '$1 == "reentered" { print $2 }' /tmp/info)
	r2=$(awk '$1 == "reentered" { print $2 }' "$D/control")
	[ "${r1:-0}" -gt 0 ] && [ "$r1" -le "${r2:-0}" ] ||
		fail "reentered: netlink ${r1:-none}, debugfs after it ${r2:-none}"
	expect_eq "clocksource" "$(awk '$1 == "clocksource" { print $2 }' /tmp/info)" "$(cat $CS)"
	"$R" raw > /tmp/raw
	# The module puts at most 128 slots in a message: a histogram with more
	# that arrives whole (equal to debugfs, below) crossed messages.
	local nall
	nall=$(awk '$1 == "metric" { on = ($2 == "ttwu_enqueue.direct" && $4 == "all") }
		on && $1 == "slot"' /tmp/raw | wc -l)
	note "raw dump: $(wc -l < /tmp/raw) lines; ttwu_enqueue.direct has $nall slots"
	[ "$nall" -gt 128 ] ||
		fail "ttwu_enqueue's slots fit one message: the continuation went untested"
	for f in "$D"/*.direct; do
		id=$(basename "$f")
		awk '$1 == "slot" { print $2, $4, $8 }' "$f" | sort > /tmp/from-debugfs
		awk -v id="$id" '$1 == "metric" { on = ($2 == id); cpu = $4 }
			on && $1 == "slot" { print $2, cpu, $4 }' /tmp/raw | sort > /tmp/from-netlink
		case $id in	# metrics that must have samples here
		ttwu_*|enqueue_tkread.direct|csread_hpet.direct)
			[ -s /tmp/from-debugfs ] || fail "$id: no slots in debugfs" ;;
		esac
		cmp -s /tmp/from-debugfs /tmp/from-netlink ||
			fail "$id: slots differ: $(diff /tmp/from-debugfs /tmp/from-netlink | head -5)"
		awk -v id="$id" '$1 == "metric" { on = ($2 == id && $4 == "all") }
			on && $1 == "counter" { print $2, $3 }' /tmp/raw > /tmp/c-netlink
		awk '$1 == "counter" { print $2, $3 }' "$f" > /tmp/c-debugfs
		cmp -s /tmp/c-debugfs /tmp/c-netlink || fail "$id: counters differ"
		if [ "$(field "${id%.direct}" count)" -gt 0 ]; then
			expect_eq "$id min max" \
				"$(awk -v id="$id" '$1 == "metric" { on = ($2 == id && $4 == "all") }
					on && $1 == "min" { print $2, $4; exit }' /tmp/raw)" \
				"$(field "${id%.direct}" min) $(field "${id%.direct}" max)"
		fi
	done
	"$R" ctrl variant kprobe
	expect_eq "after ctrl variant" "$(head -1 $D/control)" "variant kprobe switches 1"
	"$R" ctrl start
	grep -q '^metric ttwu_enqueue variant kprobe recording on$' "$D/control" || fail "ctrl start"
	"$R" ctrl tgid 7
	grep -q '^tgid 7$' "$D/control" || fail "ctrl tgid"
	rc=0; "$R" ctrl variant nosuch 2> /dev/null || rc=$?
	expect_eq "exit status of a refused switch" "$rc" 1
	expect_eq "variant after it" "$(head -1 $D/control)" "variant kprobe switches 1"
	for c in info raw "ctrl stop"; do
		rc=0
		setpriv --reuid=65534 --regid=65534 --clear-groups $R $c > /dev/null 2>&1 || rc=$?
		expect_eq "unprivileged $c" "$rc" 4
	done
	grep -q '^metric ttwu_enqueue variant kprobe recording on$' "$D/control" || fail "an unprivileged stop took effect"
	# The tool itself: no leak, no invalid access, on each path.
	for c in info raw "ctrl start" "ctrl variant nosuch"; do
		rc=0
		valgrind -q --error-exitcode=99 --leak-check=full $R $c > /dev/null 2>/tmp/vg || rc=$?
		[ "$rc" != 99 ] || fail "valgrind, clkstat-report $c: $(cat /tmp/vg)"
	done
	rmmod clkstat
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full $R info > /dev/null 2>/tmp/vg || rc=$?
	expect_eq "valgrind, no module" "$rc" 3
}

# 10^5 malformed requests (random commands, flags, attribute types,
# lengths past the end, payloads, and the hostile kinds of nl_fuzz.c):
# each gets the answer the policy predicts (or none, for a truncated
# netlink header), the family still works, and t_dmesg_clean sees no Oops
# or WARNING.  The seed is printed.
t_netlink_fuzz() {
	local seed=$RANDOM out
	insmod "$KO"
	out=$("$top/tools/tests/nl_fuzz" 100000 "$seed") || fail "nl_fuzz failed (seed $seed)"
	note "seed $seed: $out"
	set -- $out
	expect_eq "answered or dropped as predicted" "$(($4 + $6 + $8))" "$2"
	expect_eq "mismatches" "${10}" 0
	[ "$(($4 + $8))" -gt 90000 ] || fail "only $(($4 + $8)) of 100000 malformed requests were refused"
	"$top/tools/clkstat-report" info > /dev/null || fail "the family stopped answering"
}

# A GET_HIST dump held paused between two reads (nl_dump_pause) while
# the trace whose metric it has yet to send is untraced, which frees the
# metric: the rest of the dump still holds that metric, as of the dump's
# start, and ends in NLMSG_DONE (the dump copies what it prints, never
# the metric's pointer).  On the debug kernel KASAN watches the reads.
t_trace_dump_pause() {
	local out=/tmp/dump_pause.out pid spec=func:do_nanosleep end
	insmod "$KO" probes=ttwu,tkread variant=kprobe
	echo "trace $spec" > $D/control
	sleep 0.2
	rm -f /tmp/dump_pause.in
	mkfifo /tmp/dump_pause.in
	"$top/tools/tests/nl_dump_pause" $spec < /tmp/dump_pause.in > $out 2>&1 &
	pid=$!
	exec 7> /tmp/dump_pause.in
	end=$((SECONDS + 60))
	until grep -q paused $out || [ $SECONDS -ge $end ] || ! kill -0 $pid 2>/dev/null; do
		sleep 0.1
	done
	grep -q paused $out || fail "the dump never paused: $(cat $out)"
	echo "untrace $spec" > $D/control || fail "untrace under a paused dump"
	[ ! -e "$D/$spec.kprobe" ] || fail "the metric stayed after untrace"
	echo go >&7
	exec 7>&-
	wait $pid || fail "nl_dump_pause: $(cat $out)"
	grep -qE "^$spec seen after the pause: [1-9][0-9]* messages; end: done" $out ||
		fail "the rest of the dump: $(cat $out)"
	rmmod clkstat || fail "rmmod after the dump"
}

# debugfs "events" lines from clkstat-report events --format csv (its
# columns: timestamp_ns realtime_ns type clocksource cpu pid corr
# latency_ns migrated rq_clock_ns text run variant; migrated true/false
# as debugfs's 1/0), and the count and lost of its text trailer as
# debugfs's "# events N overwritten L".
ev_as_debugfs() {
	local R=$top/tools/clkstat-report
	"$@" "$R" events --format csv > /tmp/ev-csv || return 1
	"$R" events | tail -1 > /tmp/ev-trailer || return 1
	echo "# ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns"
	awk -F, 'NR > 1 { sub(/\r$/, "")
		name = $4 != "" ? $4 : ($11 != "" ? $11 : "-")
		mig = $9 == "true" ? 1 : ($9 == "false" ? 0 : "-")
		print $1, $3, $5, $6, ($7 == "" ? "-" : $7), name, ($8 == "" ? "-" : $8), mig, ($10 == "" ? "-" : $10) }' /tmp/ev-csv
	awk '{ print "# events", $6, "overwritten", $8 }' /tmp/ev-trailer
}

# GET_EVENTS through clkstat-report events: with recording stopped (the
# log then changes only by markers; two debugfs reads around the dump
# check that), the dump's CSV, as debugfs lines, equals debugfs "events"
# byte for byte; a marker's realtime_ns lies between CLOCK_REALTIME read
# just before and just after writing it (1 ms slack): events
# spanning many messages, with and without latency and correlation id,
# markers with text, and a ring that overwrote events.  Unprivileged: exit
# status 4.  Without an event log: exit status 1 and one line.  valgrind on
# both paths; a reader that quits halfway does not pin the module; the
# fuzzer against a family with a log to dump.
t_netlink_events() {
	local R=$top/tools/clkstat-report rc seed=$RANDOM out
	insmod "$KO" probes=ttwu,tkread,marker events=4096
	echo stop > "$D/control"
	"$PINGPONG" -n 200 --migrate --reads 1 --control "$D/control" > /dev/null
	echo "phase-1" > "$D/marker"
	local rt0 rt1 rt
	rt0=$(date +%s%N)
	echo "phase 2 begins!" > "$D/marker"
	rt1=$(date +%s%N)
	cat "$D/events" > /tmp/ev-debugfs
	ev_as_debugfs > /tmp/ev-netlink || fail "events --format csv failed"
	rt=$("$R" events --type marker --format csv | awk -F, '$11 == "phase_2_begins_" { print $2 }')
	note "marker realtime_ns $rt, CLOCK_REALTIME around it $rt0 .. $rt1"
	[ -n "$rt" ] && [ "$rt" -ge $((rt0 - 1000000)) ] && [ "$rt" -le $((rt1 + 1000000)) ] ||
		fail "marker realtime_ns '$rt' outside [$rt0, $rt1] +- 1 ms"
	# (cmp on the debugfs file itself would trust its size: 0)
	cat "$D/events" > /tmp/ev-debugfs2
	cmp -s /tmp/ev-debugfs /tmp/ev-debugfs2 ||
		fail "the log changed while stopped: $(diff /tmp/ev-debugfs /tmp/ev-debugfs2 | head -5)"
	note "$(tail -1 /tmp/ev-netlink), $(wc -c < /tmp/ev-netlink) bytes"
	cmp -s /tmp/ev-debugfs /tmp/ev-netlink ||
		fail "dump and debugfs differ: $(diff /tmp/ev-debugfs /tmp/ev-netlink | head -5)"
	# What the comparison covered: every field's forms, and 1200+ events,
	# about 100 KB of attributes: many messages (a dump's skb is <= 32 KB).
	[ "$(grep -c ' first_tkread ' /tmp/ev-netlink)" -ge 400 ] ||
		fail "too few events: $(tail -1 /tmp/ev-netlink)"
	grep -Eq '^[0-9]+ wakeup [0-9]+ [0-9]+ [0-9]+ - - - ([0-9]+|-)$' /tmp/ev-netlink || fail "no wakeup line"
	grep -Eq '^[0-9]+ enqueue [0-9]+ [0-9]+ [0-9]+ - [0-9]+ 1 ([0-9]+|-)$' /tmp/ev-netlink || fail "no migrated enqueue line"
	grep -Eq '^[0-9]+ enqueue [0-9]+ [0-9]+ [0-9]+ - [0-9]+ 0 ([0-9]+|-)$' /tmp/ev-netlink || fail "no local enqueue line"
	grep -Eq '^[0-9]+ first_tkread [0-9]+ [0-9]+ [0-9]+ - [0-9]+ 1 ([0-9]+|-)$' /tmp/ev-netlink || fail "no migrated first_tkread line"
	grep -Eq "^[0-9]+ marker [0-9]+ $BASHPID - phase_2_begins_ - - -\$" /tmp/ev-netlink ||
		fail "no marker line: $(grep marker /tmp/ev-netlink)"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$R" events > /dev/null 2>&1 || rc=$?
	expect_eq "unprivileged events" "$rc" 4
	rc=0
	ev_as_debugfs valgrind -q --error-exitcode=99 --leak-check=full > /tmp/ev-vg.out 2> /tmp/vg || rc=$?
	[ "$rc" = 0 ] || fail "valgrind, events: status $rc: $(cat /tmp/vg)"
	cmp -s /tmp/ev-debugfs /tmp/ev-vg.out || fail "the dump under valgrind differs"
	# The reader gone halfway: the socket's release ends the dump.
	"$R" events | head -1 > /dev/null
	out=$("$top/tools/tests/nl_fuzz" 20000 "$seed") || fail "nl_fuzz failed (seed $seed)"
	note "nl_fuzz with an event log, seed $seed: $out"
	rmmod clkstat || fail "rmmod after the dumps"
	# A small ring: the trailer counts what was overwritten.
	insmod "$KO" probes=ttwu events=64
	"$PINGPONG" -n 200 --control "$D/control" > /dev/null
	cat "$D/events" > /tmp/ev-debugfs
	ev_as_debugfs > /tmp/ev-netlink 2> /tmp/ev-lost || fail "events --format csv failed"
	grep -Eq '^clkstat-report: live log \([a-z0-9-]+\): [1-9][0-9]* events lost, [0-9]+ kept$' /tmp/ev-lost ||
		fail "CSV: lost events not on stderr: $(cat /tmp/ev-lost)"
	note "events=64: $(tail -1 /tmp/ev-netlink)"
	[ "$(tail -1 /tmp/ev-netlink | awk '{ print $5 }')" -gt 0 ] || fail "nothing overwritten"
	cmp -s /tmp/ev-debugfs /tmp/ev-netlink ||
		fail "events=64: dump and debugfs differ: $(diff /tmp/ev-debugfs /tmp/ev-netlink | head -5)"
	rmmod clkstat
	# No event log: status 1, one line, nothing on stdout.
	insmod "$KO" probes=ttwu
	rc=0; "$R" events > /tmp/ev-out 2> /tmp/ev-err || rc=$?
	expect_eq "exit status without an event log" "$rc" 1
	expect_eq "stderr lines without an event log" "$(wc -l < /tmp/ev-err)" 1
	expect_eq "stdout without an event log" "$(wc -c < /tmp/ev-out)" 0
	note "$(cat /tmp/ev-err)"
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full "$R" events > /dev/null 2> /tmp/vg || rc=$?
	[ "$rc" = 1 ] || fail "valgrind, no event log: status $rc: $(cat /tmp/vg)"
}

# clkstat-report events -i and xcorr on a real recording (record --events,
# 2 runs, kprobe and ftrace, the ping-pong with --migrate): the JSON Lines
# and CSV rows of the study, read back by Python's json and csv, are the
# rows of its JSON snapshot (export) one for one (every column; realtime through the run's first clock
# pair; run and variant), the text format has a row per event and a
# trailer per run; xcorr wakeup enqueue counts each run's events in its
# run_start..run_end window as the snapshot has them, and finds a peak.
t_events_export() {
	local R=$top/tools/clkstat-report out=/tmp/exp.db py=/tmp/exp.py res rc j
	cat > $py <<'PY'
import csv, io, json, sys
snap, jl, cs, xc = sys.argv[1:5]
s = json.load(open(snap))
want = []
for run in s["runs"]:
    ev = run["events"]
    c0 = ev["clock"][0]
    for r in ev["rows"]:
        d = dict(zip(ev["columns"], r))
        cs_types = ("clocksource_switch_entry", "clocksource_switch_exit", "clocksource_read")
        want.append({"timestamp_ns": d["ts_ns"],
                     "realtime_ns": c0["realtime_ns"] + d["ts_ns"] - c0["mono_ns"],
                     "type": d["type"],
                     "clocksource": d["text"] if d["type"] in cs_types else None,
                     "cpu": d["cpu"], "pid": d["pid"], "corr": d["corr"] or None,
                     "latency_ns": d["latency_ns"], "migrated": d["migrated"],
                     "rq_clock_ns": d["rq_clock_ns"],
                     "text": d["text"] if d["type"] == "marker" else None,
                     "run": run["index"], "variant": run["variant"]})
got = [json.loads(l) for l in open(jl)]
assert got == want, ("jsonl", len(got), len(want), [(g, w) for g, w in zip(got, want) if g != w][:2])
rows = list(csv.reader(open(cs, newline="")))
def val(c, v):
    if v == "":
        return None
    if c in ("type", "clocksource", "text", "variant"):
        return v
    if c == "migrated":
        return v == "true"
    return int(v)
got = [{c: val(c, v) for c, v in zip(rows[0], r)} for r in rows[1:]]
assert got == want, ("csv", len(got), len(want))
x = json.load(open(xc))
assert len(x["runs"]) == len(s["runs"]), x["runs"]
for xr, run in zip(x["runs"], s["runs"]):
    rs = run["events"]["rows"]
    t0 = [r[0] for r in rs if r[1] == "marker" and r[8] == "run_start"][0]
    t1 = [r[0] for r in rs if r[1] == "marker" and r[8] == "run_end"][-1]
    assert (xr["t0_ns"], xr["t1_ns"], xr["window"]) == (t0, t1, "markers"), xr
    n = lambda t: sum(1 for r in rs if r[1] == t and t0 <= r[0] < t0 + xr["bins"] * x["bin_ns"])
    assert (xr["a_events"], xr["b_events"]) == (n("wakeup"), n("enqueue")), (xr, n("wakeup"), n("enqueue"))
assert x["peak"] is not None and len(x["lags"]) == 2 * x["max_lag_bins"] + 1, x["peak"]
print("%d rows equal in JSON Lines and CSV; xcorr wakeup enqueue: peak lag %+d bins, r %.3f [%.3f, %.3f]"
      % (len(want), x["peak"]["lag_bins"], x["peak"]["r"], x["peak"]["r_lo"], x["peak"]["r_hi"]))
PY
	insmod "$KO" probes=ttwu,tkread,marker events=65536
	rm -f $out
	"$R" record -q -o $out --runs 2 --variants kprobe,ftrace --events 100000 -- \
		"$PINGPONG" -n 100 --migrate --reads 1 > /dev/null 2> /tmp/exp.err ||
		fail "record failed: $(cat /tmp/exp.err)"
	j=$(as_json $out) || fail "export of $out"
	"$R" -i $out events --format jsonl > /tmp/exp.jsonl 2> /tmp/exp.err1 || fail "events jsonl: $(cat /tmp/exp.err1)"
	"$R" -i $out events --format csv > /tmp/exp.csv 2> /tmp/exp.err2 || fail "events csv: $(cat /tmp/exp.err2)"
	"$R" -i $out xcorr wakeup enqueue --bin 100us --max-lag 2ms -B 200 --json > /tmp/exp.xc ||
		fail "xcorr failed"
	"$R" -i $out xcorr wakeup enqueue --bin 100us --max-lag 2ms -B 200 | sed 's/^/    # /'
	res=$(python3 $py "$j" /tmp/exp.jsonl /tmp/exp.csv /tmp/exp.xc 2>&1) ||
		fail "events or xcorr differ from the snapshot: $(tail -3 <<< "$res")"
	note "$res"
	"$R" -i $out events > /tmp/exp.txt || fail "events text"
	expect_eq "text: trailers" "$(grep -c '^# run [01] variant \(kprobe\|ftrace\): events [0-9]* lost 0$' /tmp/exp.txt)" 2
	# Before each run's trailer, the clock it was stamped with.
	expect_eq "text: clocks" "$(grep -c '^# run [01] clock \(tsc\|mono\)$' /tmp/exp.txt)" 2
	expect_eq "text: rows" "$(($(wc -l < /tmp/exp.txt) - 5))" "$(wc -l < /tmp/exp.jsonl)"
	rc=0
	read_valgrind $out xcorr wakeup enqueue:migrated -B 100 > /dev/null 2> /tmp/vg || rc=$?
	[ "$rc" = 0 ] || fail "xcorr (valgrind): status $rc: $(cat /tmp/vg)"
	rmmod clkstat
}

# record end to end: 4 runs alternating two variants, each run's workload
# the pinned ping-pong (which sets the tgid filter and opens its own window
# inside the run, so each run's counts are exactly its wakeups).  The
# snapshot holds 4 runs with the right variants and metadata, each run's
# counts equal that run's truth, the pooled report adds them up, and the
# module is left in the variant it was found in.  Then the failures: a
# failing workload, a missing one, and a refused variant, which must leave
# an existing study untouched (--append: the runs go nowhere else), and a
# new one made for the refused run gone.
t_record() {
	local R=$top/tools/clkstat-report out=/tmp/rec.db rc i w v want
	insmod "$KO" probes=ttwu,tkread
	rm -f $out /tmp/prog.db /tmp/false.db /tmp/dur.db /tmp/bad.db /tmp/vg.db /tmp/tp.db
	"$R" record -q -o $out --runs 4 --variants ftrace,kprobe -- \
		"$PINGPONG" -n 150 --reads 1 --control "$D/control" > /tmp/truths ||
		fail "record failed"
	"$R" info -i $out > /tmp/meta
	sed 's/^/    # /' /tmp/meta | grep -v '^    # param' | head -30
	meta() { awk -v k="$1" '$1 == k { sub(/^[^ ]* /, ""); print; exit }' /tmp/meta; }
	expect_eq "runs" "$(meta runs)" 4
	expect_eq "variants of the runs" "$(awk '$1 == "run" { printf "%s ", $4 }' /tmp/meta)" \
		"ftrace kprobe ftrace kprobe "
	expect_eq "exit statuses" "$(awk '$1 == "run" { printf "%s ", $10 }' /tmp/meta)" "0 0 0 0 "
	awk '$1 == "run" && !($6 > 0 && $8 > $6) { exit 1 }' /tmp/meta || fail "run times"
	expect_eq "kernel" "$(meta kernel_release)" "$(uname -r)"
	expect_eq "clocksource" "$(meta clocksource)" "$(cat $CS)"
	expect_eq "cmdline" "$(meta cmdline)" "$(cat /proc/cmdline)"
	expect_eq "machine" "$(meta machine)" vm
	case $(meta hypervisor) in *TCG*) ;; *) fail "hypervisor: $(meta hypervisor)" ;; esac
	expect_eq "probes param" "$(awk '$1 == "param" && $2 == "probes" { print $3 }' /tmp/meta)" ttwu,tkread
	expect_eq "variants" "$(meta variants)" ftrace,kprobe
	expect_eq "frac_bits" "$(meta frac_bits)" 3
	case $(meta command) in *clkstat-pingpong\ -n\ 150*) ;; *) fail "command: $(meta command)" ;; esac
	expect_eq "cpuidle driver" "$(meta cpuidle_driver)" \
		"$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo -)"
	expect_eq "truths" "$(grep -c '^wakeups' /tmp/truths)" 4
	for i in 0 1 2 3; do
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/truths)
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/meta)
		"$R" -i $out --run $i --csv > /tmp/run.csv
		# A miss: the run's counters, the snapshot kept for a look.
		awk -F, -v v=$v '$1 == "ttwu_enqueue" && $2 == v && $3 == "all" { print $4 }' /tmp/run.csv |
			grep -qx "$w" || {
			python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["runs"][int(sys.argv[2])]["metrics"]:
    if m["name"] in ("ttwu_enqueue", "ttwu_tkread"):
        print("    # run", sys.argv[2], m["name"], m["variant"], m["counters"])' "$(as_json $out)" $i
			note "control: $(head -3 "$D/control" | tr '\n' ' ')"
			[ -z "${CLKSTAT_GUEST_OUT:-}" ] || cp $out "$CLKSTAT_GUEST_OUT/t_record-miss.db"
		}
		expect_eq "run $i ttwu_enqueue.$v count" \
			"$(awk -F, -v id="ttwu_enqueue" -v v=$v '$1 == id && $2 == v && $3 == "all" { print $4 }' /tmp/run.csv)" "$w"
		expect_eq "run $i ttwu_tkread.$v count" \
			"$(awk -F, -v v=$v '$1 == "ttwu_tkread" && $2 == v && $3 == "all" { print $4 }' /tmp/run.csv)" "$w"
		[ "$(awk -F, -v v=$v 'NR > 1 && $2 != v' /tmp/run.csv | wc -l)" = 0 ] ||
			fail "run $i holds metrics of another variant"
	done
	want=$(awk '$1 == "wakeups" { s[n++ % 2] += $2 } END { print s[0], s[1] }' /tmp/truths)
	"$R" -i $out --csv > /tmp/pooled.csv
	expect_eq "pooled counts" \
		"$(awk -F, '$1 == "ttwu_enqueue" && $3 == "all" { c[$2] = $4 } END { print c["ftrace"], c["kprobe"] }' /tmp/pooled.csv)" "$want"
	expect_eq "variant restored" "$(head -1 $D/control | awk '{ print $1, $2 }')" "variant direct"
	# Progress: a line per run on stderr, after it, with the headline
	# metric's samples (the same whatever the variant) and the time left;
	# --workload-output takes the workload's own lines apart.
	rm -f /tmp/wl.out
	"$R" record -o /tmp/prog.db --runs 2 --variants ftrace,kprobe --workload-output /tmp/wl.out -- \
		"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /tmp/prog.stdout 2> /tmp/prog.err || fail "record with progress failed"
	[ ! -s /tmp/prog.stdout ] || fail "the workload's output reached stdout: $(head -3 /tmp/prog.stdout)"
	expect_eq "the workload's output, in its file" "$(awk '$1 == "wakeups" { print $2 }' /tmp/wl.out | tr '\n' ' ')" "100 100 "
	grep -qE '^record: run 1/2, variant ftrace: ttwu_tkread 100 samples, [0-9.]+ s; about [0-9]+ s left$' /tmp/prog.err ||
		fail "progress of run 1: $(cat /tmp/prog.err)"
	grep -qE '^record: run 2/2, variant kprobe: ttwu_tkread 100 samples, [0-9.]+ s$' /tmp/prog.err ||
		fail "progress of run 2: $(cat /tmp/prog.err)"
	expect_eq "the last line" "$(tail -1 /tmp/prog.err)" "record: 2 runs written to /tmp/prog.db"
	# The workload fails: the runs are kept, the status says so.
	rc=0; "$R" record -q -o /tmp/false.db --runs 2 -- false || rc=$?
	expect_eq "exit status, workload failed" "$rc" 9
	expect_eq "its runs' exit statuses" \
		"$("$R" info -i /tmp/false.db | awk '$1 == "run" { printf "%s ", $10 }')" "1 1 "
	# No workload at all, a variant no one knows, one the module refuses:
	# refused before run 1 where the tool can tell, else by the module
	# with its reason; the study already there (--append) stays whole,
	# and none of SQLite's files is left beside it.
	cp $out /tmp/rec.before
	rc=0; "$R" record -q --append -o $out -- /nonexistent/cmd 2> /tmp/err || rc=$?
	expect_eq "exit status, no workload" "$rc" 2
	expect_eq "no workload" "$(cat /tmp/err)" "clkstat-report: record: /nonexistent/cmd: not an executable file (nothing recorded)"
	rc=0; "$R" record -q --append -o $out --runs 2 --duration 0.2 --variants direct,nosuch 2> /tmp/err || rc=$?
	expect_eq "exit status, unknown variant" "$rc" 2
	grep -q "record: --variants: no variant 'nosuch'; the variants: direct," /tmp/err ||
		fail "message: $(cat /tmp/err)"
	# The tracepoint variant cannot run tkread (loaded here): the module
	# refuses, and its reply says why.  First: no run added to the study
	# there; in a new study, the runs before the refused one stay.
	rc=0; "$R" record -q --append -o $out --runs 2 --duration 0.2 --variants tracepoint,direct 2> /tmp/err || rc=$?
	expect_eq "exit status, refused variant" "$rc" 1
	grep -q "ctrl variant tracepoint: the variant cannot run an enabled probe (the kernel log names it)" /tmp/err ||
		fail "message: $(cat /tmp/err)"
	cmp -s $out /tmp/rec.before || fail "a failed record changed the study"
	[ "$(ls /tmp | grep -c '^rec\.db.')" = 0 ] || fail "SQLite's files left: $(ls /tmp | grep '^rec\.db')"
	rc=0; "$R" record -o /tmp/tp.db --runs 2 --duration 0.2 --variants direct,tracepoint 2> /tmp/err || rc=$?
	expect_eq "exit status, refused variant in run 2" "$rc" 1
	grep -qx "record: the 1 runs before stay in /tmp/tp.db" /tmp/err || fail "message: $(cat /tmp/err)"
	expect_eq "the run before the refusal" \
		"$("$R" info -i /tmp/tp.db | awk '$1 == "run" { printf "%s ", $4 }')" "direct "
	# Runs without a workload last --duration.
	"$R" record -q -o /tmp/dur.db --runs 2 --duration 0.5
	"$R" info -i /tmp/dur.db | awk '$1 == "run" && ($8 - $6) < 5e8 { exit 1 }' ||
		fail "a run shorter than --duration"
	# Bad arguments change nothing.
	for a in "--runs 0" "--runs x" "--duration -1" "--variants ," "--duration 1 -- true"; do
		rc=0; "$R" record -q -o /tmp/bad.db $a 2> /dev/null || rc=$?
		expect_eq "record $a" "$rc" 2
	done
	[ ! -e /tmp/bad.db ] || fail "a refused record wrote a file"
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full "$R" record -q -o /tmp/vg.db \
		--runs 2 --variants direct,ftrace --duration 0.2 2> /tmp/vg || rc=$?
	[ "$rc" = 0 ] || fail "valgrind, record: $rc $(cat /tmp/vg)"
	expect_eq "the study valgrind's record wrote" \
		"$("$R" info -i /tmp/vg.db | awk '$1 == "run" { printf "%s ", $4 }')" "direct ftrace "
	for c in "" "raw" "info" "--json" "--format openmetrics"; do
		rc=0
		# shellcheck disable=SC2086
		read_valgrind $out $c > /dev/null 2> /tmp/vg || rc=$?
		[ "$rc" = 0 ] || fail "clkstat-report -i $c (valgrind): $rc $(cat /tmp/vg)"
	done
}

# The suite, in the order module_tests.sh runs it.
NETLINK_TESTS="t_netlink t_netlink_fuzz t_trace_dump_pause t_netlink_events t_events_export t_record"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$NETLINK_TESTS}
