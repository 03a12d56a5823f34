#!/bin/bash
# clkstat-report as a program on files, no module needed: its
# expositions against promtool and the OpenMetrics parser, the Grafana
# dashboard against a real Prometheus, events read back by Python, the
# browser harness of the HTML report's tests (page_check.py), info
# on made-up snapshots, bad arguments refused before anything is done.
# Needs make's tools (clkstat-report links the BPF twin).  Last line:
# "N passed, N failed".
set -uo pipefail
top=$(realpath "$(dirname "$0")/../..")
cd "$top"
pass=0 fail=0
# OpenMetrics output against promtool and prometheus_client's strict parser
# (its own ok/not ok lines indented, so run-all.sh counts only ours).
if tools/tests/openmetrics_check.sh 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - OpenMetrics output passes promtool and the OpenMetrics parser"
else
	fail=$((fail + 1)); echo "not ok - OpenMetrics output passes promtool and the OpenMetrics parser"
fi
# The Grafana dashboard against the exporter: importable, and every query
# names only series and labels that clkstat-report serve exports (a real
# Prometheus scraping it returns data for each); mutated copies rejected.
if /usr/bin/python3 tools/tests/dashboard_check.py "$top" 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - Grafana dashboard: importable, its queries name what serve exports"
else
	fail=$((fail + 1)); echo "not ok - Grafana dashboard: importable, its queries name what serve exports"
fi
# clkstat-report events on snapshots with known events: CSV and JSON
# Lines read back by Python's csv and json modules, field by field (its
# own ok/not ok lines indented).
if /usr/bin/python3 tools/tests/events_readback.py 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - events: CSV and JSON Lines read back by Python's csv and json equal the truth"
else
	fail=$((fail + 1)); echo "not ok - events: CSV and JSON Lines read back by Python's csv and json equal the truth"
fi
# The browser harness the HTML report's tests use (page_check.py):
# good pages pass, and each kind of bad page fails for its own reason
# (its own ok/not ok lines indented).
if tools/tests/page_check_test.sh 2>&1 | sed 's/^/    /'; then
	pass=$((pass + 1)); echo "ok - page_check.py: headless Chromium passes a good page, fails console errors, exceptions, requests, blank pages, missing figures"
else
	fail=$((fail + 1)); echo "not ok - page_check.py: headless Chromium passes a good page, fails console errors, exceptions, requests, blank pages, missing figures"
fi
# clkstat-report on a snapshot (no module needed): what info says of
# the recording.  A made-up snapshot: a module run and a BPF twin run of
# a record --workload-only, from a guest without a cpuidle driver where
# an older record wrote intel_idle's max_cstate anyway, and a module
# loaded with variant=direct.
snap=$(mktemp --suffix=.json)
cat > "$snap" <<'EOF'
{"format": "clkstat-snapshot", "version": 1,
 "meta": {"tool_version": "0.1", "module_version": "0.1",
  "kernel_release": "6.1.0", "clocksource": "tsc", "probes": "ttwu",
  "variants": "direct,bpf-fentry", "command": "true", "machine": "vm",
  "hypervisor": "KVM", "cpuidle_driver": null, "cpuidle_governor": "menu",
  "max_cstate": "9", "cmdline": "quiet", "frac_bits": 3, "nr_cpus": 2,
  "duration_s": 0, "params": {"variant": "direct", "frac_bits": "3"}},
 "runs": [
  {"index": 0, "variant": "direct", "start_ns": 100, "end_ns": 200,
   "exit_status": 0, "workload_only": false, "metrics": []},
  {"index": 1, "variant": "bpf-fentry", "start_ns": 300, "end_ns": 400,
   "exit_status": 0, "workload_only": true, "metrics": []}]}
EOF
info=$(tools/clkstat-report -i "$snap" info 2>&1)
# The warning comes before record needs the module; without one loaded
# record then ends there, having changed nothing (with one loaded it
# would record: not here).
want="warning: --workload-only without a COMMAND filters nothing: every run sees every task"
warn=$want
rm -f /tmp/cli-wo.db
[ -e /sys/module/clkstat ] ||
	warn=$(tools/clkstat-report record --workload-only \
	       --variants direct,bpf-fentry -o /tmp/cli-wo.db 2>&1 >/dev/null)
[ ! -e /tmp/cli-wo.db ] || warn="record wrote /tmp/cli-wo.db"
if grep -q '^run 0 variant direct .* workload_only no$' <<< "$info" &&
   grep -qx 'max_cstate n/a (no cpuidle driver)' <<< "$info" &&
   grep -q '^module_params as loaded' <<< "$info" &&
   grep -qx 'param variant direct  (at load; not the runs'"'"' variant)' <<< "$info" &&
   grep -q '^run 1 variant bpf-fentry .* workload_only yes$' <<< "$info" &&
   grep -qF "$want" <<< "$warn"; then
	pass=$((pass + 1)); echo "ok - info on a snapshot: each run's workload_only, no max_cstate without intel_idle, the module's load parameters labelled; record warns that --workload-only without a COMMAND filters nothing"
else
	fail=$((fail + 1)); echo "not ok - info on a snapshot: each run's workload_only, no max_cstate without intel_idle, the module's load parameters labelled; record warns that --workload-only without a COMMAND filters nothing"
	printf '%s\n%s\n' "$info" "$warn" | sed 's/^/    /'
fi
# info with two inputs: each file's own metadata and runs, under an
# "input N PATH" line; a run's own tags (record --cstates, --load) at the
# end of its line, the conditions in the metadata.
snap2=$(mktemp --suffix=.json)
sed -e 's/"version": 1/"version": 2/' -e 's/"kernel_release": "6.1.0"/"kernel_release": "6.12.0"/' \
    -e 's/"cmdline": "quiet"/"cmdline": "quiet", "conditions": "cstates=qos0,free"/' \
    -e 's/"start_ns": 100/"start_ns": 1100/' -e 's/"start_ns": 300/"start_ns": 1300/' \
    -e 's/"exit_status": 0, "workload_only": false/&, "tags": {"cstate": "qos0"}/' "$snap" > "$snap2"
info2=$(tools/clkstat-report -i "$snap" -i "$snap2" info 2>/dev/null)
# Bad --cstates and --load: one line, status 2, before anything is done.
bad=""
for a in "--cstates qos-1" "--cstates free,free" "--load busy:0" "--load idle,,busy" "--cstates maxN"; do
	# shellcheck disable=SC2086
	out=$(tools/clkstat-report record $a -o /dev/null -- true 2>&1); rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] || bad="$bad [$a: $rc $out]"
done
out=$(tools/clkstat-report record --cstates free --tag cstate=x -o /dev/null -- true 2>&1) &&
	bad="$bad [--tag cstate with --cstates accepted]"
if [ "$(grep -c '^input ' <<< "$info2")" = 2 ] &&
   grep -qx "input 1 $snap2" <<< "$info2" &&
   [ "$(grep -c '^kernel_release ' <<< "$info2")" = 2 ] &&
   grep -qx 'kernel_release 6.12.0' <<< "$info2" &&
   grep -qx 'conditions cstates=qos0,free' <<< "$info2" &&
   grep -q '^run 2 variant direct .* workload_only no tags cstate=qos0$' <<< "$info2" &&
   [ "$(grep -c '^runs 2$' <<< "$info2")" = 2 ] && [ -z "$bad" ]; then
	pass=$((pass + 1)); echo "ok - info with two inputs prints each file's metadata and runs (run tags, conditions); bad --cstates/--load refused"
else
	fail=$((fail + 1)); echo "not ok - info with two inputs prints each file's metadata and runs (run tags, conditions); bad --cstates/--load refused"
	printf '%s\n%s\n' "$info2" "$bad" | sed 's/^/    /'
fi
rm -f "$snap" "$snap2"
# The dispatch: each command's --help lists its own options and no
# other command's; clkstat-report --help lists every command; an option of
# another command is refused before anything is done (exit status 2),
# with a line naming whose it is; the options of where from and which
# format may come before the command.
R=tools/clkstat-report
bad=""
# command: an option it has, one it must not list (another command's).
for c in "report:--compare:--listen" "info:--input:--per-cpu" "raw:--metric:--compare" \
	 "events:--type:--bin" "xcorr:--max-lag:--type" "ctrl::--input" \
	 "trace:--format:--input" "record:--workload-only:--input" \
	 "overhead:--handler-rounds:--metric" "serve:--replay-interval:--compare" \
	 "import:--output:--input" "export:--format:--listen" \
	 "plot:--max-lag:--listen"; do
	IFS=: read -r cmd has hasnt <<< "$c"
	h=$($R "$cmd" --help 2>&1); rc=$?
	[ "$rc" = 0 ] || bad="$bad [$cmd --help: status $rc]"
	head -1 <<< "$h" | grep -q "^usage: clkstat-report \(\[\)\?$cmd" || bad="$bad [$cmd --help: usage line '$(head -1 <<< "$h")']"
	[ -z "$has" ] || grep -q -- "$has" <<< "$h" || bad="$bad [$cmd --help lacks $has]"
	! grep -q -- "$hasnt" <<< "$h" || bad="$bad [$cmd --help lists $hasnt]"
	[ "$(wc -l <<< "$h")" -lt 40 ] || bad="$bad [$cmd --help: $(wc -l <<< "$h") lines]"
done
top=$($R --help)
for cmd in report info raw events xcorr ctrl trace record import export overhead serve plot; do
	grep -q "^  $cmd " <<< "$top" || bad="$bad [--help lacks $cmd]"
done
out=$($R record --type marker -o /dev/null -- true 2>&1); rc=$?
{ [ "$rc" = 2 ] && grep -q -- '--type is not an option of record (an option of events, plot;' <<< "$out"; } ||
	bad="$bad [record --type: $rc $out]"
out=$($R xcorr --compare x -i /dev/null a b 2>&1); rc=$?
{ [ "$rc" = 2 ] && grep -q -- '--compare is not an option of xcorr (an option of report, plot;' <<< "$out"; } ||
	bad="$bad [xcorr --compare: $rc $out]"
out=$($R --per-cpu info 2>&1); rc=$?
{ [ "$rc" = 2 ] && grep -q "unexpected argument 'info'" <<< "$out"; } ||
	bad="$bad [--per-cpu info: $rc $out]"
out=$($R -i /nonexistent --run 0 raw 2>&1); rc=$?
{ [ "$rc" != 2 ] && grep -q '/nonexistent' <<< "$out"; } ||
	bad="$bad [-i F --run 0 raw: $rc $out]"
if [ -z "$bad" ]; then
	pass=$((pass + 1)); echo "ok - each command's --help is its own; options of another command refused, naming whose they are"
else
	fail=$((fail + 1)); echo "not ok - each command's --help is its own; options of another command refused, naming whose they are"
	echo "    $bad"
fi
# A typo is an error, before anything is printed, naming the nearest
# known word: a command, a metric of the recording (report, raw, any
# format, -i or --run).  Exit status 2, one line on stderr, nothing on
# stdout.
bad=""
snap=$(mktemp --suffix=.json)
/usr/bin/python3 - "$snap" <<'PY'
import sys
sys.path.insert(0, "tools/tests/stats")
from simstudy import simulate
import json
simulate([("kprobe", 40000), ("bpf-kprobe", 42000)], runs=2, samples=50,
         metric="ttwu_tkread").write_snapshot(sys.argv[1])
with open(sys.argv[1]) as f:
    doc = json.load(f)
for i, r in enumerate(doc["runs"]):	# a factor: run tags as --cstates
    r["tags"] = {"cstate": "qos0" if i % 2 else "free"}
with open(sys.argv[1], "w") as f:
    json.dump(doc, f)
PY
typo() {	# typo WANT_LINE COMMAND...
	local want=$1 out err rc; shift
	out=$("$@" 2> /tmp/cli-typo.err); rc=$?
	err=$(cat /tmp/cli-typo.err)
	{ [ "$rc" = 2 ] && [ -z "$out" ] && [ "$err" = "$want" ]; } ||
		bad="$bad [$*: status $rc, stdout '${out:0:80}', stderr '$err']"
}
typo "clkstat-report: unknown command 'reocrd' (did you mean record?); clkstat-report --help lists the commands" \
	$R reocrd
typo "clkstat-report: unknown command 'frobnicate'; clkstat-report --help lists the commands" \
	$R -i "$snap" frobnicate
for f in text json csv openmetrics; do
	typo "clkstat-report: --metric ttwu_tkred: no such metric in $snap (did you mean ttwu_tkread?); there: ttwu_tkread" \
		$R -i "$snap" --format $f report --metric ttwu_tkred
done
typo "clkstat-report: --metric ttwu_tkred: no such metric in $snap (did you mean ttwu_tkread?); there: ttwu_tkread" \
	$R -i "$snap" --run 1 raw --metric ttwu_tkred
typo "clkstat-report: --metric hackbench: no such metric in $snap; there: ttwu_tkread" \
	$R -i "$snap" report --metric hackbench
typo "clkstat-report: --compare bpf-kprob: no run of variant bpf-kprob in the input (did you mean bpf-kprobe?) (variants: kprobe, bpf-kprobe)" \
	$R -i "$snap" --compare bpf-kprob
# A factor's kind, tag key, meta field and value (--compare, --base).
for a in "tga:cstate=free" "tag:cstat=free" "meta:machin=vm"; do
	$R -i "$snap" --compare "$a" 2> /tmp/cli-typo.err >/dev/null; rc=$?
	case $a in tga:*) near=tag;; tag:*) near=cstate;; *) near=machine;; esac
	{ [ "$rc" = 2 ] && [ "$(wc -l < /tmp/cli-typo.err)" = 1 ] &&
	  grep -q "^clkstat-report: --compare $a: no .* (did you mean $near?) (factors: variant: kprobe, bpf-kprobe; tag:cstate=" /tmp/cli-typo.err; } ||
		bad="$bad [--compare $a: status $rc, '$(cat /tmp/cli-typo.err)']"
done
typo "clkstat-report: --compare tag:cstate=fre: no run with tag cstate=fre (did you mean free?) (values: free, qos0)" \
	$R -i "$snap" --compare tag:cstate=fre
typo "clkstat-report: --base tag:cstate=qos: no run with tag cstate=qos (did you mean qos0?) (values: free, qos0)" \
	$R -i "$snap" --compare tag:cstate=free --base tag:cstate=qos
rm -f /tmp/cli-rec.db
typo "clkstat-report: record: --probes tkred: no probe (did you mean tkread?); a function of that name: func:tkred" \
	$R record --probes ttwu,tkred -o /tmp/cli-rec.db -- true
# The right name still renders, by name or name.variant.
$R -i "$snap" report --metric ttwu_tkread | grep -q "ttwu_tkread" || bad="$bad [--metric ttwu_tkread renders nothing]"
$R -i "$snap" --run 0 report --metric ttwu_tkread.kprobe | grep -q "ttwu_tkread" || bad="$bad [--metric ttwu_tkread.kprobe renders nothing]"
# record: before run 1, before it needs the module (none is loaded
# here): a variant no one knows, a workload not found, an output it cannot
# write; nothing written.
typo "clkstat-report: record: --variants: no variant 'bpf-kprob' (did you mean bpf-kprobe?); the variants: direct, ftrace, kprobe, kprobe-int3, tracepoint, off, bpf-kprobe, bpf-fentry, bpf-tp" \
	$R record --variants kprobe,bpf-kprob -o /tmp/cli-rec.db -- true
typo "clkstat-report: record: no-such-workload: no such program in PATH (nothing recorded)" \
	$R record --variants kprobe -o /tmp/cli-rec.db -- no-such-workload
[ ! -e /tmp/cli-rec.db ] || bad="$bad [record wrote /tmp/cli-rec.db]"
ro=$(mktemp -d) rdir=$PWD
chmod 555 "$ro"
out=$(cd "$ro" && setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$rdir/$R" record --variants kprobe -- true 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$out" = "clkstat-report: record: -o clkstat.db: cannot write there: Permission denied (nothing recorded)" ] ||
	bad="$bad [record in a folder it cannot write: status $rc, '$out']"
rmdir "$ro"
# A device or a folder is not replaced by a study (as root, -o
# /dev/null would have put a regular file in the device's place).
for o in /dev/null /tmp; do
	out=$($R record --variants kprobe -o $o -- true 2>&1); rc=$?
	[ "$rc" = 1 ] && [ "$out" = "clkstat-report: record: -o $o: not a regular file (nothing recorded)" ] ||
		bad="$bad [record -o $o: status $rc, '$out']"
done
[ -c /dev/null ] || bad="$bad [/dev/null is no longer a device]"
# record writes a study: a JSON name (any case) or standard output is
# refused for its name, pointing to export; a file there is refused
# unless --append names a study; nothing written or changed.
for o in /tmp/cli-rec.json /tmp/cli-rec.JSON -; do
	typo "clkstat-report: record: -o $o: record writes a study file (SQLite), run by run: -o NAME.db; clkstat-report export -i NAME.db --format json writes the JSON snapshot (nothing recorded)" \
		$R record --variants kprobe -o $o -- true
	[ "$o" = - ] || [ ! -e $o ] || bad="$bad [record wrote $o]"
done
cp "$snap" /tmp/cli-there.db
typo "clkstat-report: record: -o /tmp/cli-there.db exists: --append adds the runs to that study, or name another file (nothing recorded)" \
	$R record --variants kprobe -o /tmp/cli-there.db -- true
typo "clkstat-report: record: --append -o /tmp/cli-there.db: not a study file (a JSON snapshot becomes one with clkstat-report import) (nothing recorded)" \
	$R record --append --variants kprobe -o /tmp/cli-there.db -- true
cmp -s "$snap" /tmp/cli-there.db || bad="$bad [a refused record changed the file there]"
# --append to a study, no module loaded: refused when record needs it,
# the study's bytes unchanged and no file of SQLite's left beside it.
rm -f /tmp/cli-there.db /tmp/cli-study.db
if [ ! -e /sys/module/clkstat ]; then
	$R import "$snap" -o /tmp/cli-study.db > /dev/null 2>&1 || bad="$bad [import $snap failed]"
	cp /tmp/cli-study.db /tmp/cli-study.before
	out=$($R record --append --variants kprobe -o /tmp/cli-study.db -- true 2>&1); rc=$?
	{ [ "$rc" != 0 ] && [ "$(wc -l <<< "$out")" = 1 ] &&
	  cmp -s /tmp/cli-study.db /tmp/cli-study.before &&
	  [ -z "$(ls /tmp/cli-study.db-* 2>/dev/null)" ]; } ||
		bad="$bad [record --append without the module: status $rc, '$out', $(ls /tmp/cli-study.db*)]"
	rm -f /tmp/cli-study.db /tmp/cli-study.before
fi
rm -f "$snap" /tmp/cli-typo.err
if [ -z "$bad" ]; then
	pass=$((pass + 1)); echo "ok - a mistyped command, metric, variant or factor, a missing workload, an unwritable output or one not a file, record -o a JSON name or a file there without --append to a study: one line before any work, naming the nearest"
else
	fail=$((fail + 1)); echo "not ok - a mistyped command, metric, variant or factor, a missing workload, an unwritable output or one not a file, record -o a JSON name or a file there without --append to a study: one line before any work, naming the nearest"
	echo "    $bad"
fi
# The other programs a user types: --help answers (exit status 0, on
# stdout) with every option each takes; an unknown option is refused
# (exit status 2), pointing to --help.
bad=""
h=$(tools/workload/clkstat-pingpong --help); rc=$?
[ "$rc" = 0 ] || bad="$bad [clkstat-pingpong --help: status $rc]"
for o in --rounds --cpus --migrate --reads --control --tracing --marker --help; do
	grep -q -- "$o" <<< "$h" || bad="$bad [clkstat-pingpong --help lacks $o]"
done
out=$(tools/workload/clkstat-pingpong --bogus 2>&1); rc=$?
{ [ "$rc" = 2 ] && grep -q "clkstat-pingpong --help" <<< "$out"; } || bad="$bad [clkstat-pingpong --bogus: $rc $out]"
h=$(tools/vm/run-guest.sh --help); rc=$?
[ "$rc" = 0 ] || bad="$bad [run-guest.sh --help: status $rc]"
for o in $(sed -n 's/^\t\(--[a-z0-9-]*\)) .*/\1/p' tools/vm/run-guest.sh); do
	grep -q -- "$o" <<< "$h" || bad="$bad [run-guest.sh --help lacks $o]"
done
grep -q "^usage: run-guest.sh" <<< "$h" || bad="$bad [run-guest.sh --help: no usage line]"
out=$(tools/vm/run-guest.sh --bogus 2>&1); rc=$?
{ [ "$rc" = 2 ] && [ "$out" = "run-guest: unknown option --bogus (run-guest.sh --help lists them)" ]; } ||
	bad="$bad [run-guest.sh --bogus: $rc $out]"
if [ -z "$bad" ]; then
	pass=$((pass + 1)); echo "ok - clkstat-pingpong --help and run-guest.sh --help list every option; unknown options refused"
else
	fail=$((fail + 1)); echo "not ok - clkstat-pingpong --help and run-guest.sh --help list every option; unknown options refused"
	echo "    $bad"
fi
# A study (Documentation/clkstat-study.rst): a snapshot with events
# imported, then every reading command gives the same bytes on the study
# as on the snapshot, and export's json is the JSON writer's document;
# imported twice, into a file that is no study, exported over a study,
# a mistyped format: refused, one line, status 2, nothing changed.
bad=""
sdir=$(mktemp -d)
/usr/bin/python3 - "$sdir/s.json" <<'PY'
import json, random, sys
random.seed(7)
cols = ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated",
        "rq_clock_ns", "text"]
meta = {"tool_version": "0.1", "module_version": "0.1",
        "kernel_release": "6.12.0", "clocksource": "tsc", "clock": "tsc",
        "probes": "ttwu,tkread", "variants": "kprobe,bpf-kprobe",
        "command": "true", "machine": "vm", "hypervisor": None,
        "cpuidle_driver": None, "cpuidle_governor": "menu",
        "max_cstate": None, "cmdline": "quiet", "frac_bits": 3,
        "nr_cpus": 2, "duration_s": 0.0, "params": {"frac_bits": "3"},
        "events": 1000, "tags": {"rig": "a"}}
def hist(vals):
    slots = {}
    for v in vals:	# frac_bits 3, values below 2^33: sums exact
        m = v.bit_length() - 1
        s = v if v < 8 else (m - 2) * 8 + ((v >> (m - 3)) & 7)
        c, t = slots.get(s, (0, 0))
        slots[s] = (c + 1, t + v)
    return [[s, c, t] for s, (c, t) in sorted(slots.items())]
runs = []
for i in range(4):
    variant = ["kprobe", "bpf-kprobe"][i % 2]
    per_cpu = {c: [random.randint(500, 90000) for _ in range(50)] for c in (0, 1)}
    allv = per_cpu[0] + per_cpu[1]
    cpus = [{"cpu": c, "min": min(v), "max": max(v), "slots": hist(v)}
            for c, v in per_cpu.items()]
    metric = {"name": "ttwu_tkread", "variant": variant, "frac_bits": 3,
              "recording": False, "counters": {"missed": i},
              "total": {"min": min(allv), "max": max(allv), "slots": hist(allv)},
              "cpus": cpus}
    ts, rows = 10**9 * (i + 1), []
    for k in range(300):
        ts += random.randint(1, 3000)
        t = ["wakeup", "enqueue", "first_tkread", "marker"][k % 4]
        lat = random.randint(100, 9000) if t in ("enqueue", "first_tkread") else None
        rows.append([ts, t, k % 2, 100 + k % 5, k // 4 + 1, lat,
                     (k % 8 < 4) if lat is not None else None,
                     ts - 5 if t == "enqueue" else None,
                     "m,%d" % k if t == "marker" else None])
    runs.append({"index": i, "variant": variant, "start_ns": 1700000000 * 10**9 + i,
                 "end_ns": 1700000001 * 10**9 + i, "exit_status": 0,
                 "workload_only": True, "tags": {"cstate": ["qos0", "free"][i // 2]},
                 "metrics": [metric],
                 "events": {"lost": i, "clock": [{"mono_ns": 10**9 * (i + 1),
                                                  "realtime_ns": 1700000000 * 10**9 + i}],
                            "columns": cols, "rows": rows}})
json.dump({"format": "clkstat-snapshot", "version": 4, "meta": meta,
           "runs": runs}, open(sys.argv[1], "w"))
PY
out=$($R import "$sdir/s.json" -o "$sdir/s.db" 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$sdir/s.db: 4 runs (1200 events) from $sdir/s.json; the study holds 4 runs" ] ||
	bad="$bad [import: $rc '$out']"
for c in "export" "export --format csv" "export --format jsonl" "info" "events" \
	 "events --format csv" "events --format jsonl --type marker" "--run 2 events" \
	 "xcorr wakeup enqueue --bin 100us" "--compare bpf-kprobe --base kprobe --summary" \
	 "--csv" "--format openmetrics"; do
	# shellcheck disable=SC2086
	a=$($R -i "$sdir/s.db" $c 2>&1 | md5sum) b=$($R -i "$sdir/s.json" $c 2>&1 | md5sum)
	[ "$a" = "$b" ] || bad="$bad [$c: the study's output differs from the snapshot's]"
done
# export's json is what the JSON writer writes: record's own form, read
# and written again by export from the snapshot alike.
$R export -i "$sdir/s.db" -o "$sdir/e.json" && $R export -i "$sdir/e.json" | cmp -s - "$sdir/e.json" ||
	bad="$bad [export -o: not the JSON writer's document]"
rows=$($R export -i "$sdir/s.db" --format csv | tail -n +2 | wc -l)
want=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(h["slots"]) for r in d["runs"] for m in r["metrics"] for h in [m["total"]] + m["cpus"]))' "$sdir/s.json")
[ "$rows" = "$want" ] || bad="$bad [export csv: $rows rows, want $want]"
$R export -i "$sdir/s.db" --format jsonl | /usr/bin/python3 -c 'import json,sys; r=[json.loads(l) for l in sys.stdin]; assert all(x["count"] > 0 and x["lower_ns"] <= x["upper_ns"] for x in r); print(len(r))' > "$sdir/n" 2>&1 &&
	[ "$(cat "$sdir/n")" = "$want" ] || bad="$bad [export jsonl: $(cat "$sdir/n")]"
before=$(md5sum < "$sdir/s.db")
out=$($R import "$sdir/s.json" -o "$sdir/s.db" 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] && grep -q "run 0 is run 0 of $sdir/s.db already" <<< "$out" &&
	[ "$(md5sum < "$sdir/s.db")" = "$before" ] || bad="$bad [import twice: $rc '$out']"
out=$($R import "$sdir/s.json" -o "$sdir/e.json" 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$out" = "clkstat-report: $sdir/e.json: exists and is not a study: import writes a new study or adds to one, and never replaces another file" ] ||
	bad="$bad [import over a snapshot: $rc '$out']"
out=$($R export -i "$sdir/s.json" -o "$sdir/s.db" 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(md5sum < "$sdir/s.db")" = "$before" ] || bad="$bad [export -o a study: $rc '$out']"
typo "clkstat-report: export: --format 'jsn': json, jsonl or csv (did you mean json?)" \
	$R export -i "$sdir/s.db" --format jsn
typo "clkstat-report: import: -o STUDY is needed (the study to write)" \
	$R import "$sdir/s.json"
# merge: the snapshot's halves, one a study and one a snapshot, merged
# into a new study read as the whole; the twin's runs at another
# frac_bits, or a run already there, refused with the files before merged.
/usr/bin/python3 - "$sdir" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/s.json"))
def half(runs):	# a file's runs are numbered by position
    return [dict(r, index=i) for i, r in enumerate(runs)]
for name, runs in (("a", d["runs"][:2]), ("b", d["runs"][2:])):
    json.dump(dict(d, runs=half(runs)), open("%s/%s.json" % (sys.argv[1], name), "w"))
def fb2(slots):	# frac_bits 3's slots (all of values >= 8) at frac_bits 2
    out = {}
    for s, c, t in slots:
        k = (s // 8 + 1) * 4 + (s % 8) // 2
        out[k] = (out.get(k, (0, 0))[0] + c, out.get(k, (0, 0))[1] + t)
    return [[k, c, t] for k, (c, t) in sorted(out.items())]
for r in d["runs"]:
    for m in r["metrics"]:
        if m["variant"] == "bpf-kprobe":
            m["frac_bits"] = 2
            for h in [m["total"]] + m["cpus"]:
                h["slots"] = fb2(h["slots"])
json.dump(dict(d, runs=half(d["runs"][2:])), open(sys.argv[1] + "/f.json", "w"))
mixed = json.load(open(sys.argv[1] + "/a.json"))["runs"] + d["runs"][2:]
json.dump(dict(d, runs=half(mixed)), open(sys.argv[1] + "/x.json", "w"))
PY
$R import "$sdir/a.json" -o "$sdir/a.db" > /dev/null || bad="$bad [merge: import a]"
out=$($R merge "$sdir/a.db" "$sdir/b.json" -o "$sdir/m.db" 2>&1); rc=$?
[ "$rc" = 0 ] && [ "$(tail -1 <<< "$out")" = "$sdir/m.db: 2 runs (600 events) from $sdir/b.json; the study holds 4 runs" ] ||
	bad="$bad [merge: $rc '$out']"
for c in "events --format csv" "--compare bpf-kprobe --base kprobe --summary" "--csv" "export"; do
	# shellcheck disable=SC2086
	a=$($R -i "$sdir/m.db" $c 2>&1 | md5sum) b=$($R -i "$sdir/s.db" $c 2>&1 | md5sum)
	[ "$a" = "$b" ] || bad="$bad [merge: $c differs from the whole's]"
done
$R import "$sdir/a.json" -o "$sdir/f.db" > /dev/null || bad="$bad [merge: import a]"
before=$(md5sum < "$sdir/f.db")
out=$($R merge "$sdir/f.json" -o "$sdir/f.db" 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] && grep -q "run 1: cannot add these runs: the study's metrics of variant bpf-kprobe have frac_bits 3, these 2" <<< "$out" &&
	[ "$(md5sum < "$sdir/f.db")" = "$before" ] || bad="$bad [merge at another frac_bits: $rc '$out']"
out=$($R import "$sdir/x.json" -o "$sdir/x.db" 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$out" = "clkstat-report: $sdir/x.json: metrics of variant bpf-kprobe have frac_bits 3 in run 1 and 2 in run 3: their histograms could not be pooled; nothing imported" ] &&
	[ ! -e "$sdir/x.db" ] || bad="$bad [import of a file at two frac_bits: $rc '$out']"
out=$($R merge "$sdir/f.json" -o "$sdir/g.db" 2>&1); rc=$?
[ "$rc" = 0 ] || bad="$bad [f.json alone: $rc '$out']"
out=$($R merge "$sdir/a.json" "$sdir/b.json" "$sdir/a.db" -o "$sdir/h.db" 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <<< "$out")" = 4 ] && grep -q "merge: 2 of the 3 files merged into $sdir/h.db before $sdir/a.db" <<< "$out" &&
	[ "$($R -i "$sdir/h.db" export | md5sum)" = "$($R -i "$sdir/s.db" export | md5sum)" ] ||
	bad="$bad [merge a file refused after another: $rc '$out']"
rm -rf "$sdir" /tmp/cli-typo.err
if [ -z "$bad" ]; then
	pass=$((pass + 1)); echo "ok - a study: import, then every command reads it as the snapshot; export json is the JSON writer's, csv and jsonl a row per slot; import twice or over a file, export over a study, a mistyped format refused; merge of a study and a snapshot reads as the whole; another frac_bits refused"
else
	fail=$((fail + 1)); echo "not ok - a study: import, then every command reads it as the snapshot; export json is the JSON writer's, csv and jsonl a row per slot; import twice or over a file, export over a study, a mistyped format refused; merge of a study and a snapshot reads as the whole; another frac_bits refused"
	echo "    $bad"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
