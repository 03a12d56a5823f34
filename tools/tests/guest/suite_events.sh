#!/bin/bash
# suite_events.sh - the event log (events=N, debugfs "events") and probe
# marker: wakeup, enqueue and first read events against the workload's
# truth, markers, a small ring overwriting, clocksource switch and read
# events.  The log through netlink: t_netlink_events, suite_netlink.sh.
# usage: suite_events.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The event log against the workload's truth: one wakeup, one enqueue and
# one first_tkread per wakeup, each pair sharing a correlation id, the
# latencies adding up (enqueue and read times minus the wakeup time), the
# lines in time order, and a marker from a shell with its pid and text.
t_events() {
	local ev=/tmp/events
	insmod "$KO" probes=ttwu,tkread,marker events=4096
	[ -e "$D/events" ] && [ -e "$D/marker" ] || fail "no events or marker file"
	expect_eq "marker mode" "$(stat -c %a $D/marker)" 200
	# Only the workload's window records (and logs) its threads' events.
	echo stop > "$D/control"
	"$PINGPONG" -n 100 --reads 1 --control "$D/control" > /tmp/truth
	echo "phase-1 begins" > "$D/marker"
	# The log also holds other tasks' events from between the load and the
	# stop: keep the workload's threads.
	local a b
	a=$(awk '$1 == "tid_a" { print $2 }' /tmp/truth)
	b=$(awk '$1 == "tid_b" { print $2 }' /tmp/truth)
	awk -v a="$a" -v b="$b" '$1 ~ /^#/ || $4 == a || $4 == b || $2 == "marker"' \
		"$D/events" > $ev
	note "$(head -4 $ev | tr '\n' '|')"
	note "$(tail -1 $ev)"
	expect_eq "wakeup events" "$(grep -c ' wakeup ' $ev)" 200
	expect_eq "enqueue events" "$(grep -c ' enqueue ' $ev)" 200
	expect_eq "first_tkread events" "$(grep -c ' first_tkread ' $ev)" 200
	expect_eq "trailer" "$(tail -1 $ev | awk '{ print $5 }')" 0
	expect_eq "header" "$(head -1 $ev)" "# ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns"
	# migrated: 1 or 0 on enqueue and first_tkread, - on the others.
	awk '$1 ~ /^#/ { next }
	     ($2 == "enqueue" || $2 == "first_tkread") && $8 != "0" && $8 != "1" { bad = 1 }
	     $2 != "enqueue" && $2 != "first_tkread" && $8 != "-" { bad = 1 }
	     NF != 9 { bad = 1 }
	     END { exit bad }' $ev || fail "migrated column: $(head -5 $ev | tr '\n' '|')"
	grep -Eq "^[0-9]+ marker [0-9]+ $BASHPID - phase-1_begins - - -\$" $ev ||
		fail "no marker line for pid $BASHPID: $(grep marker $ev)"
	awk '
		$1 ~ /^#/ { next }
		$1 < last { print "out of order: " $0; bad = 1 }
		{ last = $1 }
		$2 == "wakeup" { w[$5] = $1; wp[$5] = $4 }
		$2 == "enqueue" || $2 == "first_tkread" {
			if (!($5 in w)) { print "no wakeup for " $0; bad = 1; next }
			if ($4 != wp[$5]) { print "pid differs: " $0; bad = 1 }
			if ($1 - w[$5] != $7) { print "latency " $7 " but " $1 - w[$5] ": " $0; bad = 1 }
			n[$2]++
		}
		END { if (n["enqueue"] != 200 || n["first_tkread"] != 200) bad = 1; exit bad }' $ev ||
		fail "inconsistent event log"
	# Bad marker writes: nothing logged, EINVAL.
	printf '\n' > "$D/marker" 2>/dev/null && fail "empty marker accepted"
	head -c 5000 /dev/zero | tr '\0' a |
		dd of="$D/marker" bs=5000 count=1 iflag=fullblock 2>/dev/null &&
		fail "a 5000-byte marker accepted"
	expect_eq "markers" "$(grep -c ' marker ' $D/events)" 1
	rmmod clkstat
	# A small ring: the oldest are overwritten and counted.
	insmod "$KO" probes=ttwu events=64
	"$PINGPONG" -n 200 --control "$D/control" > /tmp/truth
	tail -1 "$D/events" > /tmp/trailer
	note "events=64: $(cat /tmp/trailer)"
	[ "$(awk '{ print $5 }' /tmp/trailer)" -gt 0 ] || fail "nothing overwritten"
	[ "$(awk '{ print $3 }' /tmp/trailer)" -le $((64 * $(nproc))) ] || fail "more events than the rings hold"
	rmmod clkstat
	bad_param "events=1048577: out of range 0..1048576" events=1048577
	bad_param "probe marker writes to the event log: load with events=N (N > 0)" probes=ttwu,marker
}

# A bare "reset" empties the log: markers from before it are gone, and
# "overwritten" counts only what a full ring lost since.  Markers from one
# CPU (python3 pins itself to CPU 0) into a ring of 64: 100 of them lose
# 36; after the reset, 70 lose 6.
t_events_reset() {
	local marks='import os, sys
os.sched_setaffinity(0, {0})
for i in range(int(sys.argv[2])):
    with open("/sys/kernel/debug/clkstat/marker", "w") as f:
        f.write("%s%d" % (sys.argv[1], i))'
	insmod "$KO" probes=ttwu,marker events=64
	# Wakeups logged between the load (recording) and the stop: gone.
	echo stop > "$D/control"
	tail -1 "$D/events" > /tmp/trailer
	note "before the first reset: $(cat /tmp/trailer)"
	echo reset > "$D/control"
	expect_eq "after the first reset" "$(tail -1 "$D/events")" "# events 0 overwritten 0"
	python3 -c "$marks" a 100 || fail "markers"
	expect_eq "before the reset" "$(tail -1 "$D/events")" "# events 64 overwritten 36"
	echo reset > "$D/control"
	expect_eq "after the reset" "$(cat "$D/events")" \
		"$(printf '%s\n%s' "# ts_ns type cpu pid corr name latency_ns migrated rq_clock_ns" "# events 0 overwritten 0")"
	python3 -c "$marks" b 70 || fail "markers"
	tail -1 "$D/events" > /tmp/trailer
	expect_eq "since the reset" "$(cat /tmp/trailer)" "# events 64 overwritten 6"
	expect_eq "oldest kept" "$(awk '$2 == "marker" { print $6; exit }' "$D/events")" b6
	grep -q ' a[0-9]* ' "$D/events" && fail "a marker from before the reset"
	# A reset of one metric leaves the log alone.
	echo "reset ttwu_enqueue" > "$D/control"
	expect_eq "after a metric's reset" "$(tail -1 "$D/events")" "# events 64 overwritten 6"
	rmmod clkstat
}

# record --events: each run's log in the study, exported as the JSON
# snapshot (export --format json) and read back with python3 against the
# workload's truth.  Between the pingpong's pp_begin and pp_end
# markers (written through $CLKSTAT_MARKER, which record sets), exactly
# 2 x 100 wakeups, enqueues and first reads of its two threads, each
# enqueue and read paired by corr with its wakeup, latency = ts difference,
# migrated as the pingpong says (--migrate: A's wakeups migrate, B's stay,
# but with delayed dequeue some of A's stay too; without it every wakeup
# stays), an enqueue and its first read agreeing; rows in time order, record's run_start
# and run_end markers around them; a shell marker's realtime (through the
# run's clock pair) between the CLOCK_REALTIME read right before and right
# after it.  Then a too-small --events and a too-small ring each warn and
# count lost; without an event log record fails and writes nothing.
t_record_events() {
	local R=$top/tools/clkstat-report out=/tmp/recev.db py=/tmp/recev.py fmt j
	fmt=$("$R" -V | sed -n 's/.*snapshot format \([0-9]*\).*/\1/p')
	cat > $py <<'PY'
import json, sys
path, truths, migrate, nruns = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
delayed = sys.argv[5] == "1"
s = json.load(open(path))
# The format version the tool writes (clkstat-report -V).
assert s["version"] == int(sys.argv[6]), (s["version"], sys.argv[6])
assert s["meta"]["events"] == 100000, s["meta"].get("events")
lat_tol = 0 if s["meta"]["clock"].startswith("mono") else 3
tr, rt = [], []
for line in open(truths):
    k, _, v = line.strip().partition(" ")
    if k == "rounds":
        tr.append({})
    if k in ("rounds", "migrated", "local", "tid_a", "tid_b"):
        tr[-1][k] = int(v)
    if k in ("rt_before", "rt_after"):
        rt.append(int(v))
assert len(s["runs"]) == nruns == len(tr), (len(s["runs"]), len(tr))
cols = ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated", "rq_clock_ns", "text"]
for i, run in enumerate(s["runs"]):
    t, ev = tr[i], run["events"]
    assert ev["columns"] == cols, ev["columns"]
    assert ev["lost"] == 0, ("lost", ev["lost"])
    rows = [dict(zip(cols, r)) for r in ev["rows"]]
    ts = [r["ts_ns"] for r in rows]
    assert ts == sorted(ts), "rows not in time order"
    mk = {r["text"]: r for r in rows if r["type"] == "marker"}
    for m in ("run_start", "run_end", "pp_begin", "pp_end", "shellmark"):
        assert [r["text"] for r in rows].count(m) == 1, (i, m)
    assert mk["run_start"]["ts_ns"] < mk["pp_begin"]["ts_ns"] < mk["pp_end"]["ts_ns"] < mk["shellmark"]["ts_ns"] < mk["run_end"]["ts_ns"], i
    tids = (t["tid_a"], t["tid_b"])
    lo, hi = mk["pp_begin"]["ts_ns"], mk["pp_end"]["ts_ns"]
    # The window's wakeups, and what closes each of them wherever it
    # lands: an enqueue through the target CPU's wakelist runs there
    # later, and can follow pp_end (so can its first read).
    w = [r for r in rows if r["pid"] in tids and lo < r["ts_ns"] < hi and r["type"] == "wakeup"]
    wc = {r["corr"] for r in w}
    w += [r for r in rows if r["pid"] in tids and r["type"] in ("enqueue", "first_tkread") and r["corr"] in wc]
    n = {k: sum(r["type"] == k for r in w) for k in ("wakeup", "enqueue", "first_tkread")}
    # On a failure, the run's counters too: a miss the probes counted
    # (replaced, busy, ...) reads differently from an event lost.
    assert n == {"wakeup": 200, "enqueue": 200, "first_tkread": 200}, \
        (i, n, {m["name"]: m["counters"] for m in run["metrics"]
                if m["name"] in ("ttwu_enqueue", "ttwu_tkread")})
    wk = {r["corr"]: r for r in w if r["type"] == "wakeup"}
    assert len(wk) == 200, (i, "wakeup corr ids", len(wk))
    mig = {True: 0, False: 0}
    enq = {}
    for r in w:
        if r["type"] == "wakeup":
            assert r["migrated"] is None and r["latency_ns"] is None, r
            continue
        o = wk.get(r["corr"])
        assert o and o["pid"] == r["pid"], ("unpaired", r)
        # On the tsc clock the latency is the interval of two stamps
        # converted at once, each timestamp converted on its own from the
        # timekeeper's readout: a ns of rounding each, and one of the
        # timekeeper's across an update in between (no NTP here).
        assert abs(r["latency_ns"] - (r["ts_ns"] - o["ts_ns"])) <= lat_tol, ("latency", r, o, lat_tol)
        assert r["migrated"] in (True, False), r
        # Only A is moved (--migrate): B's wakeups always stay.
        assert not r["migrated"] or (migrate and r["pid"] == t["tid_a"]), ("migrated", migrate, r)
        if r["type"] == "enqueue":
            mig[r["migrated"]] += 1
            enq[r["corr"]] = r["migrated"]
    for r in w:
        if r["type"] == "first_tkread":
            assert enq[r["corr"]] == r["migrated"], ("enqueue and read disagree", r)
    if delayed and migrate:
        # Delayed dequeue: the affinity change moves a still-queued A at
        # once, and its wakeup is local (lib.sh's expect_migrated).
        assert 0 < mig[True] <= t["migrated"] and mig[True] + mig[False] == 200, (i, mig, t)
    else:
        assert mig[True] == t["migrated"] and mig[False] == t["local"], (i, mig, t)
    c0, c1 = ev["clock"]
    drift = abs((c1["realtime_ns"] - c1["mono_ns"]) - (c0["realtime_ns"] - c0["mono_ns"]))
    real = c0["realtime_ns"] + (mk["shellmark"]["ts_ns"] - c0["mono_ns"])
    before, after = rt[2 * i], rt[2 * i + 1]
    tol = drift + 200000
    assert before - tol <= real <= after + tol, ("realtime", before, real, after, tol)
    print("run %d (%s): %d rows, 3 x 200 events of tids %s, migrated %d local %d, marker realtime %d ns after the read before it, %d before the one after (drift %d)"
          % (i, run["variant"], len(rows), tids, mig[True], mig[False], real - before, after - real, drift))
PY
	local wl='"$1" -n 100 --reads 1 --marker $2 && echo "rt_before $(date +%s%N)" && echo shellmark > "$CLKSTAT_MARKER" && echo "rt_after $(date +%s%N)"'
	insmod "$KO" probes=ttwu,tkread,marker events=65536
	rm -f $out
	"$R" record -q -o $out --runs 2 --variants kprobe,ftrace --events 100000 -- \
		sh -c "$wl" sh "$PINGPONG" "" > /tmp/truths 2> /tmp/rec.err ||
		fail "record failed: $(cat /tmp/rec.err)"
	[ -s /tmp/rec.err ] && fail "record warned: $(cat /tmp/rec.err)"
	j=$(as_json $out) || fail "export of $out"
	python3 $py "$j" /tmp/truths 0 2 $DELAY_DEQUEUE "$fmt" || fail "events of the runs (no --migrate)"
	rm -f $out
	"$R" record -q -o $out --runs 1 --variants kprobe --events 100000 -- \
		sh -c "$wl" sh "$PINGPONG" --migrate > /tmp/truths 2> /tmp/rec.err ||
		fail "record --migrate failed: $(cat /tmp/rec.err)"
	j=$(as_json $out) || fail "export of $out"
	python3 $py "$j" /tmp/truths 1 1 $DELAY_DEQUEUE "$fmt" || fail "events of the run (--migrate)"
	# --events 50: the first 50 kept (and the two markers), the rest lost.
	rm -f $out
	"$R" record -q -o $out --events 50 -- "$PINGPONG" -n 100 > /dev/null 2> /tmp/rec.err ||
		fail "record --events 50 failed"
	note "$(cat /tmp/rec.err)"
	grep -q "^clkstat-report: record: warning: run 1: [0-9]* events lost (beyond --events 50)" /tmp/rec.err ||
		fail "no warning: $(cat /tmp/rec.err)"
	j=$(as_json $out) || fail "export of $out"
	python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["runs"][0]["events"]; sys.exit(not (len(e["rows"]) == 52 and e["lost"] > 0))' "$j" ||
		fail "--events 50: not 52 rows with some lost"
	rmmod clkstat
	# A ring of 64 per CPU: overwritten, warned about, counted as lost.
	insmod "$KO" probes=ttwu events=64
	rm -f $out
	"$R" record -q -o $out --events 100000 -- "$PINGPONG" -n 200 > /dev/null 2> /tmp/rec.err ||
		fail "record with events=64 failed"
	note "$(cat /tmp/rec.err)"
	grep -q "^clkstat-report: record: warning: run 1: [0-9]* events lost (ring of events=64 per CPU full): load with a larger events=N or shorten the run$" /tmp/rec.err ||
		fail "no warning: $(cat /tmp/rec.err)"
	j=$(as_json $out) || fail "export of $out"
	python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["runs"][0]["events"]; sys.exit(not e["lost"] > 0)' "$j" ||
		fail "events=64: nothing lost"
	rmmod clkstat
	# No event log: refused before any run, no file.
	rm -f $out
	insmod "$KO" probes=ttwu
	"$R" record -q -o $out --events 10 -- true 2> /tmp/rec.err && fail "record --events without a log succeeded"
	grep -q "load clkstat.ko with events=N" /tmp/rec.err || fail "message: $(cat /tmp/rec.err)"
	[ -e $out ] && fail "a file was written"
	# bpf runs need no module event log: record's markers and clock pairs
	# (and the twin's events); the workload's markers go to trace_marker,
	# which refuses writes while tracing is off: then no CLKSTAT_MARKER,
	# and one warning.
	local on
	on=$(cat $T/tracing_on)
	echo 0 > $T/tracing_on
	rm -f $out
	"$R" record -q -o $out --variants bpf-kprobe --runs 2 --events 100 -- \
		sh -c 'echo "marker $CLKSTAT_MARKER"' > /tmp/bpf.out 2> /tmp/rec.err ||
		fail "record bpf-kprobe --events, tracing off, failed: $(cat /tmp/rec.err)"
	expect_eq "CLKSTAT_MARKER of a bpf run, tracing off" "$(sort -u /tmp/bpf.out)" "marker "
	expect_eq "tracing off warnings" "$(grep -c 'warning: tracing is off' /tmp/rec.err)" 1
	echo 1 > $T/tracing_on
	rm -f $out
	"$R" record -q -o $out --variants bpf-kprobe --events 100 -- \
		sh -c 'echo "marker $CLKSTAT_MARKER"' > /tmp/bpf.out 2> /tmp/rec.err ||
		fail "record bpf-kprobe --events failed: $(cat /tmp/rec.err)"
	echo "$on" > $T/tracing_on
	expect_eq "CLKSTAT_MARKER of a bpf run" "$(cat /tmp/bpf.out)" "marker $T/trace_marker"
	grep -q 'tracing is off' /tmp/rec.err && fail "warned with tracing on: $(cat /tmp/rec.err)"
	j=$(as_json $out) || fail "export of $out"
	python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))["runs"][0]["events"]
t = [r[8] for r in e["rows"] if r[1] == "marker"]
sys.exit(not (len(e["clock"]) == 2 and "run_start" in t and "run_end" in t))' "$j" ||
		fail "bpf run: no markers or clock pairs"
	rmmod clkstat
}

# Clocksource events: each switch an entry and an exit sharing an id, the
# exit's latency its duration, the target named; reads of both.
t_cs_events() {
	local ev=/tmp/events
	insmod "$KO" probes=csread,csswitch events=65536
	echo acpi_pm > $CS
	echo hpet > $CS
	sleep 0.2
	echo stop > "$D/control"
	cat "$D/events" > $ev
	expect_eq "switch entries" "$(grep -c ' clocksource_switch_entry ' $ev)" 2
	expect_eq "switch exits" "$(grep -c ' clocksource_switch_exit ' $ev)" 2
	expect_eq "switch targets" "$(awk '$2 == "clocksource_switch_entry" { printf "%s ", $6 }' $ev)" "acpi_pm hpet "
	awk '$2 == "clocksource_switch_entry" { t[$5] = $1 }
	     $2 == "clocksource_switch_exit" { if (!($5 in t) || $1 - t[$5] != $7) bad = 1; n++ }
	     END { exit bad || n != 2 }' $ev || fail "switch events do not pair: $(grep clocksource_switch $ev)"
	grep -q ' clocksource_read [0-9]* [0-9]* - hpet [0-9]* - [-0-9]*$' $ev || fail "no hpet read event"
	grep -q ' clocksource_read [0-9]* [0-9]* - acpi_pm [0-9]* - [-0-9]*$' $ev || fail "no acpi_pm read event"
}

# The suite, in the order module_tests.sh runs it.
EVENTS_TESTS="t_events t_events_reset t_record_events t_cs_events"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$EVENTS_TESTS}
