#!/bin/bash
# suite_twin.sh - the BPF twin (tools/bpf, clkstat-report record
# --variants bpf-*): agreement with the module on the same wakeups, the
# direct call it shares with the module, the loader's errors, record with
# module and twin variants alternated, its csswitch, and its event log
# (record --events N), its csread (against the module's on the same reads)
# and clockoff.
# usage: suite_twin.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

R=$top/tools/clkstat-report

# Programs and links of ours the kernel holds (the twin's programs are
# named kp_*, fe_*, tp_* as in twin.bpf.c; bpftool prints names up to 15
# characters).
twin_left() {
	bpftool prog show 2>/dev/null | grep -E ' name (kp|fe|tp)_(ttwu|activate|tk_|csw|csr|waking|wakeup|marker)' || true
	bpftool link show 2>/dev/null | grep -E 'prog_name|name (kp|fe|tp)_' | grep -E '(kp|fe|tp)_(ttwu|activate|tk_|csw|csr|waking|wakeup|marker)' || true
}
expect_no_twin() { local l; l=$(twin_left); [ -z "$l" ] || fail "$1: twin programs left: $l"; }

# snap_csv FILE RUN METRIC VARIANT COLUMN: a column of a run's CSV row
# (4 count, 6 p50, 10 max).
snap_csv() {
	"$R" -i "$1" --run "$2" --csv | awk -F, -v m="$3" -v v="$4" -v c="$5" \
		'$1 == m && $2 == v && $3 == "all" { print $c }'
}
# snap_counter FILE RUN METRIC.VARIANT NAME
snap_counter() {
	"$R" -i "$1" --run "$2" raw | awk -v id="$3" -v k="$4" '
		$1 == "metric" { cur = ($2 == id && $4 == "all") }
		cur && $1 == "counter" && $2 == k { print $3 }'
}

# Module and twin on the same wakeups at once (record --keep-module
# --workload-only): the module keeps its variant, the twin follows the
# module's window (its clkstat_control trace event), which the workload
# opens and closes itself (--control: tgid, reset, start right before its
# rounds, stop right after).  So both see exactly the rounds' wakeups, and
# the twin must count what the module counts, exactly, metric by metric
# (the total, its migrated and local parts, with tkread the first reads
# and enqueue to first read), wakeups included; the module counts the
# truth (lib.sh's pingpong_exact; +2 allowed here, as a pingpong thread
# was once woken inside the window by something other than its peer,
# 601 of 600 in CI, which the twin then sees too).  Both measure the same
# intervals of the same wakeups with the same clock and buckets at the
# same time, but not at the same instants: at each end the two hooks run
# one after the other, and the later one's stamp carries the earlier
# one's cost, so every twin sample is the module's plus a near-constant
# offset, the difference of what the module's handlers cost at the two
# ends (1 to 2 us either way under TCG: 3 slots at a 5 us interval,
# nothing at 40 us), plus now and then much more, where a tick or the
# host came between the two hooks of one end.  Both keep an event log
# (the module's events=, record --events), and the k-th wakeup of each
# thread in one is the k-th in the other: the median of the paired
# differences is the offset, one for the migrated wakeups and one for the
# local ones (their hooks run in other contexts: the two offsets were up
# to 1.5 us apart).  Each module sample shifted by its
# path's offset, the module's p50, p90 and p99 of each total
# (ttwu_enqueue, ttwu_tkread, enqueue_tkread: 3000 samples) must fall in
# the twin's slot or the next (slots of the
# module's frac_bits), or else fall among the module's shifted samples
# of rank within 2 points of it (p50, p90) or half a point (p99), or in
# the module's quantile plus the 10th to 90th percentile of the paired
# differences (a slot either side).  The differences spread (their 10th
# to 90th percentile over 1 to 4 us, bpf-kprobe's the widest, up to 14 us
# under CI's load), and where a quantile sits in a thin stretch of the
# distribution (the p99 30 samples from the top, wakeups the host
# delayed by up to milliseconds; a p50 or p90 between pingpong's two
# modes with --migrate) that spread moves it by slots: seen 2 to 4 slots
# with two guests running, each time inside one of those bands.  A twin
# measuring something else (another end, another task) is off by far
# more, and its counts would not match.
# The parts hold the same samples split (their counts are checked): a
# part of 700 samples has its p99 at its 7th largest.
# agree_check MODULE_EVENTS_JSONL TWIN_EVENTS_JSON TRUTH K METRIC TP50
# TP90 TP99 [METRIC ...]: pair the two logs' wakeups (thread by thread,
# in order), print each total's offsets (the median of the paired
# differences, migrated and local) and fail when a quantile of the
# module's shifted samples is more than one slot from the twin's
# histogram's TPnn, outside the rank band (the bucket math of
# kmod/uapi/clkstat_buckets.h, as simstudy.py ports and checks it).
agree_check() {
	python3 - "$top/tools/tests/stats" "$@" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from simstudy import value_to_slot
# clkstat-report events names the stamp timestamp_ns, the snapshot ts_ns.
mod_rows = [dict(json.loads(l), ts_ns=json.loads(l)["timestamp_ns"])
            for l in open(sys.argv[2]) if l.strip()]
tw = json.load(open(sys.argv[3]))
cols = tw["columns"]
tw_rows = [dict(zip(cols, r)) for r in tw["rows"]]
t = dict(l.split()[:2] for l in open(sys.argv[4]) if len(l.split()) >= 2)
tids = {int(t["tid_a"]), int(t["tid_b"])}
k = int(sys.argv[5])
def lat(rows):
    """Per thread, in wakeup order: (wakeup ts, to enqueue, to first read,
    enqueue to first read, migrated)."""
    by = {}
    for r in rows:
        if r["pid"] in tids and r["type"] in ("wakeup", "enqueue", "first_tkread"):
            by.setdefault(r["corr"], {})[r["type"]] = r
    out = {}
    for c, e in by.items():
        w = e.get("wakeup")
        if w is None or "enqueue" not in e:
            continue
        f = e.get("first_tkread")
        out.setdefault(w["pid"], []).append((w["ts_ns"], e["enqueue"]["latency_ns"],
            f["latency_ns"] if f else None, f["ts_ns"] - e["enqueue"]["ts_ns"] if f else None,
            bool(e["enqueue"]["migrated"])))
    return {p: sorted(v) for p, v in out.items()}
m, w = lat(mod_rows), lat(tw_rows)
def fail(msg):
    print("FAIL: " + msg); sys.exit(1)
for p in tids:
    if len(m.get(p, [])) != len(w.get(p, [])):
        fail("thread %d: %d wakeups in the module's log, %d in the twin's" % (
            p, len(m.get(p, [])), len(w.get(p, []))))
col = {"ttwu_enqueue": 1, "ttwu_tkread": 2, "enqueue_tkread": 3}
args, notes = sys.argv[6:], []
for i in range(0, len(args), 4):
    name, q = args[i], [int(float(x)) for x in args[i + 1:i + 4]]
    c = col[name]
    pairs = [(a, b) for p in tids for a, b in zip(m[p], w[p])
             if a[c] is not None and b[c] is not None]
    if not pairs:
        fail("%s: no pairs" % name)
    # The offset of each path, migrated or local (their hooks run in
    # other contexts: an enqueue from the wakelist's interrupt, say).
    off = {}
    for mig in (False, True):
        dd = sorted(b[c] - a[c] for a, b in pairs if a[4] == mig)
        if dd:
            off[mig] = dd[len(dd) // 2]
    d = sorted(b[c] - a[c] for a, b in pairs)
    # The module's samples shifted, each by its path's offset: their
    # quantiles against the twin's histogram's (a histogram quantile
    # lies in the slot of the sample of its rank).
    ms = sorted(a[c] + off[a[4]] for a, b in pairs)
    def at(pc):	# the sample of nearest rank ceil(n * pc / 1000)
        return ms[min(max(-(-len(ms) * pc // 1000) - 1, 0), len(ms) - 1)]
    mq = [at(pc) for pc in (500, 900, 990)]
    sl = [abs(value_to_slot(max(mq[j], 0), k) - value_to_slot(q[j], k)) for j in range(3)]
    # Where the samples are sparse, or the paired differences spread wide
    # (bpf-kprobe's), the twin's quantile may instead fall among the
    # module's shifted samples of rank within 2 points (p50, p90) or half
    # a point (p99) of it, or in the module's unshifted quantile plus the
    # 10th to 90th percentile of the differences, their slots and one
    # more included.
    m0 = sorted(a[c] for a, b in pairs)
    d10, d90 = d[len(d) // 10], d[len(d) * 9 // 10]
    banded = []
    for j, (pc, dl) in enumerate(((500, 20), (900, 20), (990, 5))):
        if sl[j] <= 1:
            continue
        lo, hi = at(pc - dl), at(pc + dl)
        v0 = m0[min(max(-(-len(m0) * pc // 1000) - 1, 0), len(m0) - 1)]
        st = value_to_slot(q[j], k)
        if value_to_slot(max(lo, 0), k) <= st <= value_to_slot(hi, k):
            banded.append("p%g %d in the module's p%g %d to p%g %d" % (
                pc / 10, q[j], (pc - dl) / 10, lo, (pc + dl) / 10, hi))
            sl[j] = 1
        elif value_to_slot(max(v0 + d10, 0), k) - 1 <= st <= value_to_slot(max(v0 + d90, 0), k) + 1:
            banded.append("p%g %d in the module's %d plus %d to %d" % (
                pc / 10, q[j], v0, d10, d90))
            sl[j] = 1
        else:
            # The bound every pairing obeys: with all but 1% of the pairs
            # apart by d1 to d99 (their 1st and 99th percentiles), the
            # twin's quantile lies between the module's one point below
            # plus d1 and one point above plus d99 (a tail of migrated
            # wakeups whose pairs spread widest is where it is needed).
            d1, d99 = d[len(d) // 100], d[min(len(d) * 99 // 100, len(d) - 1)]
            lo1 = m0[min(max(-(-len(m0) * (pc - 10) // 1000) - 1, 0), len(m0) - 1)] + d1
            hi1 = m0[min(max(-(-len(m0) * (pc + 10) // 1000) - 1, 0), len(m0) - 1)] + d99
            if value_to_slot(max(lo1, 0), k) - 1 <= st <= value_to_slot(max(hi1, 0), k) + 1:
                banded.append("p%g %d in the module's p%g plus d1 %d to p%g plus d99 %d: %d to %d" % (
                    pc / 10, q[j], (pc - 10) / 10, d1, (pc + 10) / 10, d99, lo1, hi1))
                sl[j] = 1
    notes.append("%s offset %s (all: p10 %d, p90 %d of %d pairs), slots apart %s%s" % (
        name, "/".join("%s %d" % ("migrated" if g else "local", o) for g, o in sorted(off.items())),
        d10, d90, len(d), sl,
        " (%s)" % ", ".join(banded) if banded else ""))
    if max(sl) > 1:
        fail("%s: p50, p90, p99 of the module's shifted samples %s against twin %s: %s slots apart; %s" % (
            name, mq, q, sl, "; ".join(notes)))
print("; ".join(notes))
PY
}
# twin_metrics PROBES: the metrics module and twin both have.
twin_metrics() {
	echo ttwu_enqueue ttwu_enqueue_migrated ttwu_enqueue_local
	[ "$1" = ttwu ] || echo ttwu_tkread ttwu_tkread_migrated ttwu_tkread_local enqueue_tkread
}
# snap_stat FILE RUN METRIC VARIANT STAT: count, p50, p90, p99 or mean.
snap_stat() {
	local c; case $5 in count) c=4 ;; p50) c=6 ;; p90) c=7 ;; p99) c=8 ;; mean) c=11 ;; esac
	snap_csv "$1" "$2" "$3" "$4" $c
}
# module_count_ok WHAT GOT TRUTH: truth to truth + 2 (above).
module_count_ok() {
	[ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le $(( $3 + 2 )) ] ||
		fail "$1: got $2, truth $3 (+2 allowed)"
}
# Without the module there is no window to follow: the twin records from
# the workload's exec to its exit (t_bpf_record's bpf-only runs), and sees
# besides the rounds' wakeups whatever made the workload's threads sleep
# outside them (exec and page faults over 9p, thread start and join: 6 to
# 74 in 200- and 300-round runs).  At least the truth, and at most
# TWIN_EXTRA_PCT percent more: a twin that counts other tasks or counts
# twice is off by more.
TWIN_EXTRA_PCT=60
twin_count_ok() {	# twin_count_ok WHAT GOT TRUTH PCT_ALLOWED
	[ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le $(( $3 + $3 * $4 / 100 + 2 )) ] ||
		fail "$1: twin $2, truth $3 (+$4% +2 allowed)"
}
# The workload's files come over 9p: warm them once, so that a first
# read does not sleep inside the rounds.
warm_workload() { "$PINGPONG" -n 2 > /dev/null || fail "workload (warm-up)"; }

twin_agree() {	# twin_agree MODULE_VARIANT TWIN_VARIANT PROBES [PINGPONG ARGS]
	local mv=$1 tv=$2 probes=$3; shift 3
	local out=/tmp/agree.db w mod tw metric st qs k c r
	warm_workload
	insmod "$KO" probes="$probes" variant="$mv" events=32768
	rm -f $out
	"$R" record -q -o $out --keep-module --workload-only --variants "$tv" \
		--events 32768 --probes "$probes" -- "$PINGPONG" -n 1500 --control "$D/control" \
		$( [ "$probes" = ttwu ] || echo --reads 1 ) "$@" > /tmp/truth ||
		fail "record $tv beside $mv failed"
	w=$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)
	module_count_ok "module ($mv) ttwu_enqueue" "$(V=$mv field ttwu_enqueue count)" "$w"
	[ "$probes" = ttwu ] ||
		module_count_ok "module ($mv) ttwu_tkread" "$(V=$mv field ttwu_tkread count)" "$w"
	qs=""
	for metric in $(twin_metrics "$probes"); do
		mod=$(V=$mv field $metric count || echo 0)
		tw=$(snap_stat $out 0 $metric "$tv" count)
		expect_eq "$mv+$tv $* $metric count, twin against module" "${tw:-0}" "$mod"
		case $metric in *_migrated|*_local) continue ;; esac
		qs="$qs $metric"
		for st in p50 p90 p99; do qs="$qs $(snap_stat $out 0 $metric "$tv" $st)"; done
	done
	expect_eq "$mv+$tv $* wakeups counter, twin against module" \
		"$(snap_counter $out 0 ttwu_enqueue.$tv wakeups)" "$(V=$mv field ttwu_enqueue wakeups)"
	"$R" events --format jsonl > /tmp/agree-mod.jsonl || fail "the module's events"
	run_events $out 0 > /tmp/agree-twin.json || fail "the twin's events"
	k=$(cat /sys/module/clkstat/parameters/frac_bits)
	r=$(agree_check /tmp/agree-mod.jsonl /tmp/agree-twin.json /tmp/truth "$k" $qs 2>&1) ||
		fail "$mv+$tv $*: $(echo "$r" | tail -4 | tr '\n' ' ')"
	note "$mv+$tv $*: truth $w, module = twin: $(for metric in $(twin_metrics "$probes"); do
		printf '%s %s, ' "$metric" "$(V=$mv field $metric count || echo 0)"; done)"
	note "  $r"
	for c in evicted switch_lost; do
		expect_eq "twin $c" "$(snap_counter $out 0 ttwu_enqueue.$tv $c)" 0
	done
	rmmod clkstat
	expect_no_twin "after $tv"
}

t_bpf_twin_agree() {
	twin_agree ftrace bpf-fentry ttwu,tkread
	twin_agree ftrace bpf-fentry ttwu,tkread --migrate
	twin_agree direct bpf-kprobe ttwu,tkread
	twin_agree direct bpf-kprobe ttwu,tkread --migrate
	twin_agree tracepoint bpf-tp ttwu
	twin_agree tracepoint bpf-tp ttwu --migrate
}

# The module's direct call on try_to_wake_up: bpf-fentry cannot attach,
# says why in one line, exits 1 and leaves nothing; beside ftrace it works.
t_bpf_conflict() {
	local rc=0
	insmod "$KO" variant=direct
	rm -f /tmp/c.db
	"$R" record -q -o /tmp/c.db --keep-module --variants bpf-fentry \
		--probes ttwu --duration 0.2 2> /tmp/err || rc=$?
	expect_eq "exit status" "$rc" 1
	note "$(cat /tmp/err)"
	grep -qx "clkstat-report: bpf-fentry: try_to_wake_up already has a direct call (clkstat.ko's direct variant?): use bpf-kprobe or bpf-tp, or switch the module to another variant" /tmp/err ||
		fail "message: $(cat /tmp/err)"
	expect_eq "lines on stderr" "$(wc -l < /tmp/err)" 1
	[ ! -e /tmp/c.db ] || fail "a study was left"
	expect_no_twin "after the conflict"
	grep -A1 '^try_to_wake_up' "$T/enabled_functions" | grep -q 'direct-->clkstat_direct_tramp' ||
		fail "the module's direct call is gone"
	echo "variant ftrace" > "$D/control"
	"$R" record -q -o /tmp/c.db --keep-module --workload-only --variants bpf-fentry \
		--probes ttwu -- "$PINGPONG" -n 50 > /dev/null || fail "bpf-fentry beside ftrace"
	[ "$(snap_csv /tmp/c.db 0 ttwu_enqueue bpf-fentry 4)" -ge 100 ] || fail "bpf-fentry beside ftrace: no samples"
	rmmod clkstat
	expect_no_twin "after the run"
}

# Loader failures: one line naming the cause, nothing left attached.
t_bpf_loader_errors() {
	local rc hidden
	# No kernel BTF: an empty file over it is what libbpf reads, and over
	# each image libbpf falls back to (6.12's headers ship a vmlinux).
	local f r; r=$(uname -r) hidden=""
	touch /tmp/empty-btf
	rm -f /tmp/e.db /tmp/e2.db /tmp/e3.db /tmp/e4.db
	for f in /sys/kernel/btf/vmlinux /boot/vmlinux-$r /lib/modules/$r/vmlinux-$r \
		 /lib/modules/$r/build/vmlinux /usr/lib/modules/$r/kernel/vmlinux \
		 /usr/lib/debug/boot/vmlinux-$r /usr/lib/debug/boot/vmlinux-$r.debug \
		 /usr/lib/debug/lib/modules/$r/vmlinux; do
		[ -e "$f" ] || continue
		mount --bind /tmp/empty-btf "$f" && hidden="$hidden $f"
	done
	rc=0; "$R" record -q -o /tmp/e.db --variants bpf-fentry --probes ttwu \
		--duration 0.2 2> /tmp/err || rc=$?
	for f in $hidden; do umount "$f"; done
	note "$(cat /tmp/err)"
	expect_eq "no BTF: exit status" "$rc" 1
	grep -q "no kernel BTF" /tmp/err || fail "no BTF: $(cat /tmp/err)"
	expect_eq "no BTF: lines" "$(wc -l < /tmp/err)" 1
	expect_no_twin "no BTF"
	# Not root.
	rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$R" record -q -o /tmp/e2.db --variants bpf-kprobe --probes ttwu \
		--duration 0.2 2> /tmp/err || rc=$?
	note "$(cat /tmp/err)"
	expect_eq "unprivileged: exit status" "$rc" 4
	grep -q "permission denied" /tmp/err || fail "unprivileged: $(cat /tmp/err)"
	expect_no_twin "unprivileged"
	# A target function that does not exist, in each attach type.
	for v in bpf-fentry bpf-kprobe; do
		rc=0; CLKSTAT_BPF_TARGET_OVERRIDE=$ENQ=no_such_function \
			"$R" record -q -o /tmp/e3.db --variants $v --probes ttwu \
			--duration 0.2 2> /tmp/err || rc=$?
		note "$(cat /tmp/err)"
		expect_eq "$v missing target: exit status" "$rc" 1
		grep -q "no_such_function" /tmp/err || fail "$v missing target: $(cat /tmp/err)"
		expect_eq "$v missing target: lines" "$(wc -l < /tmp/err)" 1
		expect_no_twin "$v missing target"
	done
	# bpf-tp refuses the probes it cannot run.
	rc=0; "$R" record -q -o /tmp/e4.db --variants bpf-tp --probes ttwu,tkread \
		--duration 0.2 2> /tmp/err || rc=$?
	expect_eq "bpf-tp tkread: exit status" "$rc" 2
	grep -q "bpf-tp: probe tkread cannot run there" /tmp/err || fail "bpf-tp: $(cat /tmp/err)"
	[ ! -e /tmp/e.db ] && [ ! -e /tmp/e2.db ] && [ ! -e /tmp/e3.db ] && [ ! -e /tmp/e4.db ] ||
		fail "a failed record left a study"
}

# record with module and twin variants alternated, and with the twin alone.
t_bpf_record() {
	local out=/tmp/brec.db i v w got
	warm_workload
	insmod "$KO" probes=ttwu,tkread variant=direct
	rm -f $out /tmp/bonly.db
	"$R" record -q -o $out --runs 4 --workload-only --variants ftrace,bpf-fentry -- \
		"$PINGPONG" -n 150 --reads 1 --control "$D/control" > /tmp/truths ||
		fail "record failed"
	"$R" info -i $out > /tmp/meta
	expect_eq "variants of the runs" "$(awk '$1 == "run" { printf "%s ", $4 }' /tmp/meta)" \
		"ftrace bpf-fentry ftrace bpf-fentry "
	expect_eq "module restored" "$(head -1 $D/control | awk '{ print $1, $2 }')" "variant direct"
	for i in 0 1 2 3; do
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/truths)
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/meta)
		got=$(snap_csv $out $i ttwu_enqueue $v 4)
		note "run $i $v: truth $w, ttwu_enqueue $got, ttwu_tkread $(snap_csv $out $i ttwu_tkread $v 4)"
		# The twin's run follows the module's window, which the
		# workload narrows to its rounds: exact, as the module.
		expect_eq "run $i $v ttwu_enqueue count" "$got" "$w"
		expect_eq "run $i $v ttwu_tkread count" "$(snap_csv $out $i ttwu_tkread $v 4)" "$w"
		if [ $v != ftrace ]; then
			expect_eq "run $i metrics" "$("$R" -i $out --run $i --csv | awk -F, 'NR > 1 { print $1 }' | sort | tr '\n' ' ')" \
				"enqueue_tkread tkread ttwu_enqueue ttwu_enqueue_local ttwu_enqueue_migrated ttwu_tkread ttwu_tkread_local ttwu_tkread_migrated "
		fi
	done
	"$R" -i $out --compare bpf-fentry > /tmp/cmp || fail "--compare bpf-fentry failed"
	grep -q "bpf-fentry" /tmp/cmp || fail "compare: $(head -5 /tmp/cmp)"
	head -12 /tmp/cmp | sed 's/^/    # /'
	# During a twin run the module was switched off: its ftrace metrics
	# hold only the ftrace runs, and no bpf run touched direct.
	rmmod clkstat
	# The module absent, bpf-only.
	"$R" record -q -o /tmp/bonly.db --runs 2 --workload-only --variants bpf-kprobe,bpf-tp \
		--probes ttwu -- "$PINGPONG" -n 100 > /tmp/truths || fail "bpf-only record failed"
	"$R" info -i /tmp/bonly.db > /tmp/meta
	sed 's/^/    # /' /tmp/meta | head -8
	expect_eq "bpf-only probes" "$(awk '$1 == "probes" { print $2 }' /tmp/meta)" ttwu
	expect_eq "bpf-only module_version" "$(awk '$1 == "module_version" { print $2 }' /tmp/meta)" -
	for i in 0 1; do
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/meta)
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/truths)
		got=$(snap_csv /tmp/bonly.db $i ttwu_enqueue $v 4)
		note "bpf-only run $i $v: truth $w, count $got"
		twin_count_ok "bpf-only run $i $v ttwu_enqueue" "$got" "$w" $TWIN_EXTRA_PCT
	done
	expect_no_twin "after record"
	# valgrind over twin runs: t_bpf_events_misc's, with the event log
	# (one run under valgrind takes 100 s of TCG).
}

# record --workload-only beside another workload: a module variant's run
# (the module's tgid filter) and the twin's (its own) both count the
# workload's wakeups, at least the truth and at most TWIN_EXTRA_PCT more
# (its exec, thread start and join), not the other workload's; the same
# module run without it counts those too (the noise was there); the
# module's filter is put back after each run.
t_record_workload_only() {
	local out=/tmp/wo.db i v w got bg
	warm_workload
	insmod "$KO" probes=ttwu variant=direct
	rm -f $out /tmp/wo-all.db
	# Two other pingpongs, killed after: more wakeups than the workload's.
	"$PINGPONG" -n 10000000 > /dev/null &
	bg=$!
	"$PINGPONG" -n 10000000 > /dev/null &
	bg="$bg $!"
	"$R" record -q -o $out --runs 2 --workload-only --variants ftrace,bpf-fentry -- \
		"$PINGPONG" -n 300 > /tmp/wo-truths || fail "record --workload-only failed"
	"$R" record -q -o /tmp/wo-all.db --runs 1 --variants ftrace -- \
		"$PINGPONG" -n 300 > /tmp/wo-truth-all || fail "record without --workload-only failed"
	# shellcheck disable=SC2086
	kill $bg; wait $bg 2> /dev/null
	"$R" info -i $out > /tmp/wo-meta
	for i in 0 1; do
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/wo-meta)
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/wo-truths)
		got=$(snap_csv $out $i ttwu_enqueue $v 4)
		note "run $i $v --workload-only beside another pingpong: truth $w, ttwu_enqueue $got"
		twin_count_ok "run $i $v ttwu_enqueue" "$got" "$w" $TWIN_EXTRA_PCT
		awk -v i=$i '$1 == "run" && $2 == i' /tmp/wo-meta | grep -q 'workload_only yes$' ||
			fail "run $i: $(awk -v i=$i '$1 == "run" && $2 == i' /tmp/wo-meta)"
	done
	w=$(awk '$1 == "wakeups" { print $2 }' /tmp/wo-truth-all)
	got=$(snap_csv /tmp/wo-all.db 0 ttwu_enqueue ftrace 4)
	note "ftrace without --workload-only: truth $w, ttwu_enqueue $got"
	[ "$got" -gt $(( w + w * TWIN_EXTRA_PCT / 100 + 2 )) ] ||
		fail "without --workload-only the other pingpong's wakeups were not counted: $got, truth $w"
	expect_eq "the module's tgid filter after record" "$(awk '$1 == "tgid" { print $2 }' "$D/control")" 0
	rmmod clkstat
	expect_no_twin "after record"
}

# The twin's csswitch, without the module: ten clocksource switches are ten
# samples and ten switches, none failed, in both attach types that have it.
t_bpf_csswitch() {
	local v f=/tmp/csw.db
	expect_eq "clocksource" "$(cat $CS)" hpet
	for v in bpf-fentry bpf-kprobe; do
		rm -f $f
		"$R" record -q -o $f --variants $v --probes csswitch -- sh -c \
			"for i in 1 2 3 4 5; do echo acpi_pm > $CS; echo hpet > $CS; done" ||
			fail "$v: record failed"
		expect_eq "$v csswitch count" "$(snap_csv $f 0 csswitch $v 4)" 10
		expect_eq "$v switches" "$(snap_counter $f 0 csswitch.$v switches)" 10
		expect_eq "$v failed" "$(snap_counter $f 0 csswitch.$v failed)" 0
		note "$v: csswitch p50 $(snap_csv $f 0 csswitch $v 6) ns"
	done
	expect_eq "clocksource after" "$(cat $CS)" hpet
	expect_no_twin "after csswitch"
}

# The twin's event log (record --events).  run_events STUDY RUN: the events
# section of a run, as JSON (columns as in Documentation/clkstat-snapshot.rst),
# from the study's JSON snapshot (export).
# rec_ev N ARGS: record --events N ARGS.
rec_ev() {
	local n=$1; shift
	"$R" record --events "$n" "$@"
}
# trace_marker refuses writes (EBADF) while tracing is off, though the
# twin's probe sees them: markers_on and markers_off around the runs.
markers_on() { TRACING_WAS=$(cat "$T/tracing_on"); echo 1 > "$T/tracing_on"; }
markers_off() { echo "$TRACING_WAS" > "$T/tracing_on"; }
run_events() {
	local j
	j=$(as_json "$1") || return 1
	python3 -c 'import json, sys
print(json.dumps(json.load(open(sys.argv[1]))["runs"][int(sys.argv[2])]["events"]))' "$j" "$2"
}

# ev_check EVENTS_JSON TRUTH PROBES [migrate]: the pingpong's window is
# marked by its --marker writes to trace_marker (record's CLKSTAT_MARKER:
# "pp_begin" and "pp_end" from tid_a); inside it, the workload's threads have exactly
# 2 * rounds wakeup and enqueue events (first_tkread too with tkread),
# paired by corr one to one, each latency the two timestamps' difference,
# migrated/local on every enqueue and first_tkread (all the migrations of
# the truth with --migrate; none without), rq_clock on each, and
# non-decreasing per thread (pinned: one runqueue each) without --migrate
# and per CPU for first_tkread (this CPU's runqueue).  Every run: ts
# non-decreasing, lost 0.  Prints a summary line.
ev_check() {
	python3 - "$@" <<'EOF'
import json, sys
ev, truth, probes = json.loads(open(sys.argv[1]).read()), sys.argv[2], sys.argv[3]
mig = len(sys.argv) > 4 and sys.argv[4] == "migrate"
dd = len(sys.argv) > 5 and sys.argv[5] == "1"
t = dict(l.split()[:2] for l in open(truth) if len(l.split()) >= 2)
tids = {int(t["tid_a"]), int(t["tid_b"])}
w, m = int(t["wakeups"]), int(t["migrated"])
cols = ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated", "rq_clock_ns", "text"]
if "columns" in ev:
    assert ev["columns"] == cols, ev["columns"]
rows = [dict(zip(cols, r)) for r in ev["rows"]]
def fail(msg):
    print("FAIL: " + msg); sys.exit(1)
if ev["lost"] != 0:
    fail("lost %d" % ev["lost"])
for a, b in zip(rows, rows[1:]):
    if b["ts_ns"] < a["ts_ns"]:
        fail("ts goes back: %s then %s" % (a, b))
mk = [r for r in rows if r["type"] == "marker" and r["pid"] == int(t["tid_a"])]
start = [r["ts_ns"] for r in mk if r["text"] == "pp_begin"]
stop = [r["ts_ns"] for r in mk if r["text"] == "pp_end"]
if len(start) != 1 or len(stop) != 1:
    fail("markers of tid_a: %s" % [r["text"] for r in mk])
# The window's wakeups, and what closes each of them wherever it lands: a
# wakeup's enqueue (and first read) can follow the pp_end marker, when the
# enqueue goes through the target CPU's wakelist and runs there later.
win = [r for r in rows if start[0] < r["ts_ns"] < stop[0] and r["pid"] in tids]
wcorr = {r["corr"] for r in win if r["type"] == "wakeup"}
by = {"wakeup": [r for r in win if r["type"] == "wakeup"]}
for r in rows:
    if r["type"] in ("enqueue", "first_tkread") and r["pid"] in tids and r["corr"] in wcorr:
        by.setdefault(r["type"], []).append(r)
win = [r for ty in by for r in by[ty]]
types = ["wakeup", "enqueue"] + (["first_tkread"] if "tkread" in probes else [])
# Every wakeup has its enqueue (and first read), with --migrate too (the
# twin once missed half of them on 7.3: clkstat-bpf.rst, "Delayed dequeue
# and the twin").
for ty in types:
    if len(by.get(ty, [])) != w:
        got = {r["corr"] for r in by.get(ty, [])}
        miss = [r for r in by.get("wakeup", []) if r["corr"] not in got]
        fail("%s events in the window: %d, truth %d (wakeups without one: %d of tid_a, %d of tid_b)" % (
            ty, len(by.get(ty, [])), w, sum(r["pid"] == int(t["tid_a"]) for r in miss),
            sum(r["pid"] == int(t["tid_b"]) for r in miss)))
wk = {r["corr"]: r for r in by["wakeup"]}
if len(wk) != w or 0 in wk:
    fail("wakeup corr ids not unique and non-zero")
for ty in types[1:]:
    seen = set()
    nmig = 0
    for r in by[ty]:
        o = wk.get(r["corr"])
        if o is None or r["corr"] in seen:
            fail("%s corr %d: no wakeup, or twice" % (ty, r["corr"]))
        seen.add(r["corr"])
        if o["pid"] != r["pid"]:
            fail("%s corr %d: pid %d, wakeup's %d" % (ty, r["corr"], r["pid"], o["pid"]))
        if r["latency_ns"] != r["ts_ns"] - o["ts_ns"]:
            fail("%s corr %d: latency %s, ts difference %d" % (ty, r["corr"], r["latency_ns"], r["ts_ns"] - o["ts_ns"]))
        if r["migrated"] is None:
            fail("%s corr %d: migrated unknown" % (ty, r["corr"]))
        nmig += r["migrated"]
    want = m if mig else 0
    if (not dd and nmig != want) or (dd and not 0 < nmig <= want if mig else nmig != 0):
        fail("%s migrated: %d, truth %d" % (ty, nmig, want))
for r in win:
    if r["type"] in types and r["rq_clock_ns"] is None:
        fail("%s without rq_clock" % r["type"])
def mono(key, ty):
    last = {}
    for r in by.get(ty, []):
        k = r[key]
        if r["rq_clock_ns"] < last.get(k, 0):
            fail("%s rq_clock goes back on %s %d" % (ty, key, k))
        last[k] = r["rq_clock_ns"]
if not mig:
    mono("pid", "wakeup")
    mono("pid", "enqueue")
mono("cpu", "first_tkread")
lat = sorted(r["latency_ns"] for r in by["enqueue"])
print("%d events, window %s: %s; enqueue latency p50 %d ns, migrated %d" % (
    len(rows), {k: len(v) for k, v in by.items()}, "ok", lat[len(lat) // 2],
    sum(r["migrated"] for r in by["enqueue"])))
EOF
}

t_bpf_events() {
	local v p out=/tmp/ev.db r
	warm_workload
	markers_on
	for vp in bpf-kprobe:ttwu,tkread bpf-fentry:ttwu,tkread bpf-tp:ttwu \
		  bpf-kprobe:ttwu,tkread:--migrate bpf-fentry:ttwu,tkread:--migrate \
		  bpf-tp:ttwu:--migrate; do
		v=${vp%%:*} p=${vp#*:} p=${p%%:*}
		set -- ; [ "${vp##*:}" != --migrate ] || set -- --migrate
		rm -f $out
		rec_ev 100000 -q -o $out --workload-only --variants $v \
			--probes $p -- "$PINGPONG" -n 100 --reads 1 \
			--marker "$@" > /tmp/truth ||
			fail "$v $*: record --events failed"
		run_events $out 0 > /tmp/ev-run0.json || fail "$v: no events section"
		r=$(ev_check /tmp/ev-run0.json /tmp/truth $p "${1:+migrate}" $DELAY_DEQUEUE) ||
			fail "$v $p $*: $r"
		note "$v $p $*: $r"
	done
	markers_off
	expect_no_twin "after the events"
}

# A marker from a plain write to trace_marker: its first 15 bytes, up to a
# newline, others than letters, digits and ._:-=+/ made '_'; a clocksource
# switch's entry and exit events (the new clocksource's name, one corr,
# the exit's latency the ts difference); and a ring buffer too small for a
# busy run: records lost, and counted.
t_bpf_events_misc() {
	local out=/tmp/evm.db r
	markers_on
	rm -f $out
	rec_ev 1000 -q -o $out --variants bpf-kprobe --probes csswitch -- \
		sh -c "echo 'foo bar!x' > $T/trace_marker; printf 'a.b:c-d=e+f/g_hijklmnop' > $T/trace_marker;
		       echo acpi_pm > $CS; echo hpet > $CS" || fail "record (markers, csswitch) failed"
	r=$(run_events $out 0 | python3 -c '
import json, sys
ev = json.load(sys.stdin)
rows = ev["rows"]
mk = [r[8] for r in rows if r[1] == "marker" and r[8] not in ("run_start", "run_end")]
assert mk == ["foo_bar_x", "a.b:c-d=e+f/g_h"], mk
cs = [r for r in rows if r[1].startswith("clocksource_switch")]
assert [(r[1][19:], r[8]) for r in cs] == [("entry", "acpi_pm"), ("exit", "acpi_pm"),
    ("entry", "hpet"), ("exit", "hpet")], cs
for a, b in (cs[0:2], cs[2:4]):
    assert a[4] and a[4] == b[4], (a, b)
    assert b[5] == b[0] - a[0] and a[5] is None, (a, b)
assert cs[0][4] != cs[2][4]
assert ev["lost"] == 0
print("markers %s, switches ok" % mk)
' 2>&1) || fail "markers, csswitch: $r"
	note "$r"
	markers_off
	expect_eq "clocksource after" "$(cat $CS)" hpet
	# 16 records (a 4 KiB ring buffer: 64, read every 50 ms) against 4000
	# wakeups' 12000 events.
	rm -f $out
	rec_ev 16 -q -o $out --workload-only --variants bpf-fentry \
		--probes ttwu,tkread -- "$PINGPONG" -n 2000 --reads 1 > /tmp/truth 2> /tmp/everr ||
		fail "record --events 16 failed"
	# record keeps the first 16 and counts the rest as lost too: the
	# ring buffer's own losses are the warning's.
	grep -q "events lost (the BPF twin's ring buffer full)" /tmp/everr ||
		fail "--events 16: no ring buffer loss reported: $(cat /tmp/everr)"
	r=$(run_events $out 0 | python3 -c '
import json, sys
ev = json.load(sys.stdin)
print(len(ev["rows"]), ev["lost"])')
	note "--events 16: events kept, lost: $r"
	[ "${r#* }" -gt 0 ] || fail "--events 16: nothing lost ($r)"
	[ $(( ${r% *} + ${r#* } )) -ge 12000 ] ||
		fail "--events 16: kept + lost ($r) below the run's 12000 events"
	# valgrind over twin runs (it does not know bpf(2)'s memory effects
	# in detail, but handles the syscall) of both attach types, with an
	# exit hook (csswitch) and the event log (its reader thread, the ring
	# buffer's mapping, the events handed to the run): any complaint
	# fails.  The one twin record under valgrind of the suite: 100 s.
	local rc=0
	rm -f /tmp/vg.db
	valgrind -q --error-exitcode=99 --leak-check=full \
		--suppressions="$top/tools/tests/libbpf.supp" "$R" record -q -o /tmp/vg.db \
		--events 1000 --runs 2 --variants bpf-fentry,bpf-kprobe \
		--probes ttwu,tkread,csswitch --duration 0.3 2> /tmp/vg || rc=$?
	[ "$rc" = 0 ] || fail "valgrind, twin record --events: $rc $(head -30 /tmp/vg)"
	expect_eq "the study valgrind's record wrote" \
		"$("$R" info -i /tmp/vg.db | awk '$1 == "run" { printf "%s ", $4 }')" "bpf-fentry bpf-kprobe "
	expect_no_twin "after the events"
}

# Without --events the logging code is dead (with_events is read-only
# data, 0) and the verifier removes it: the programs' translated size is
# smaller than with --events, and the marker program is not loaded.
# xlated_of N: "name=bytes" of fe_ttwu, fe_tk___x64_sys (bpftool's 15
# characters of fe_tk___x64_sys_clock_gettime) and fe_marker during a
# bpf-fentry run with --events N (0: without).  libbpf loads them one
# after the other: the run is looked at until all it needs are there
# (fe_marker too with --events), up to 600 s, then interrupted (record
# ends the run and writes it): a fixed duration could end before a slow
# machine had loaded them all and been looked at.  (Its study: removed
# before each record.)
xlated_of() {
	local pid p all sz="" ev="" need="fe_ttwu fe_tk___x64_sys" end=$((SECONDS + 600))
	[ "$1" = 0 ] || ev="--events $1" need="$need fe_marker"
	rm -f /tmp/x.db
	# shellcheck disable=SC2086
	"$R" record -q -o /tmp/x.db $ev --variants bpf-fentry --probes ttwu,tkread \
		--duration 600 2> /dev/null &
	pid=$!
	while kill -0 $pid 2>/dev/null && [ $SECONDS -lt $end ]; do
		bpftool -j prog show > /tmp/progs.json 2> /tmp/progs.err
		sz=$(python3 -c '
import json, sys
for p in json.load(open("/tmp/progs.json")):
    n = p.get("name", "")
    for want in ("fe_ttwu", "fe_tk___x64_sys", "fe_marker"):
        if n == want or n.startswith(want + "_"):
            print("%s=%d" % (want, p["bytes_xlated"]), end=" ")' 2>&1)
		all=1
		for p in $need; do
			case " $sz" in *" $p="*) ;; *) all=0 ;; esac
		done
		[ $all = 0 ] || break
		sleep 0.1
	done
	kill -INT $pid 2>/dev/null
	wait $pid
	echo "$sz"
}

t_bpf_events_pruned() {
	local off on a b p
	off=$(xlated_of 0) on=$(xlated_of 1000)
	note "translated bytes without --events: $off; with: $on"
	[ -n "$off$on" ] || note "bpftool: $(head -c 600 /tmp/progs.json) $(head -3 /tmp/progs.err)"
	case "$off" in *fe_marker*) fail "marker program loaded without --events" ;; esac
	case "$on" in *fe_marker=*) ;; *) fail "no marker program with --events: $on" ;; esac
	for p in fe_ttwu fe_tk___x64_sys; do
		a=$(echo "$off" | tr ' ' '\n' | sed -n "s/^$p=//p")
		b=$(echo "$on" | tr ' ' '\n' | sed -n "s/^$p=//p")
		[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] ||
			fail "$p translated: $a bytes without --events, $b with"
	done
	expect_no_twin "after the pruning check"
}

# The twin's csread beside the module's, on the same reads of the guest's
# hpet: the module (probes=csread) records the workload's window
# (pingpong --control: its rounds), the twin (record --keep-module) from
# the workload's exec to its exit; each counts every read of read_hpet on
# any CPU, whichever task or interrupt made it.  The workload makes
# TWIN_CSR_READS clock_gettime syscalls in its rounds (hpet has no vDSO),
# each one read: both count at least that many.  The twin counts the reads
# of the wider window too (the workload's exec and exit, the control
# writes; the timer ticks meanwhile): at most TWIN_CSR_PCT percent +
# TWIN_CSR_EXTRA more than the module, and never fewer than the module
# minus the same (reads at the window's edges).  Durations: the module
# times with the TSC, the twin with local_clock() through a perf event
# (a helper call at each end, inside the interval), and each has its own
# return path inside it (the module's fprobe or kretprobe, the twin's
# fexit trampoline or kretprobe), so neither median bounds the other: the
# larger must lie within TWIN_CSR_FACTOR times the smaller plus
# TWIN_CSR_ADD_NS; a side that timed the wrong function or in other units
# falls far outside.
TWIN_CSR_ROUNDS=1000
TWIN_CSR_READS=$(( TWIN_CSR_ROUNDS * 2 * 4 ))
TWIN_CSR_PCT=10
TWIN_CSR_EXTRA=400
TWIN_CSR_FACTOR=4
TWIN_CSR_ADD_NS=20000
twin_csread() {	# twin_csread MODULE_VARIANT TWIN_VARIANT
	local mv=$1 tv=$2 out=/tmp/csr.db mod tw lo hi mp tp
	warm_workload
	insmod "$KO" probes=csread variant="$mv"
	rm -f $out
	"$R" record -q -o $out --keep-module --variants "$tv" --probes csread \
		-- "$PINGPONG" -n $TWIN_CSR_ROUNDS --reads 4 --control "$D/control" \
		> /dev/null || fail "record $tv beside $mv failed"
	mod=$(V=$mv field csread_hpet count)
	tw=$(snap_csv $out 0 csread_hpet "$tv" 4)
	mp=$(V=$mv field csread_hpet p50) tp=$(snap_csv $out 0 csread_hpet "$tv" 6)
	note "$mv+$tv csread_hpet: reads made $TWIN_CSR_READS, module $mod (p50 $mp ns), twin $tw (p50 $tp ns)"
	[ -n "$tw" ] && [ "$mod" -ge $TWIN_CSR_READS ] && [ "$tw" -ge $TWIN_CSR_READS ] ||
		fail "$tv: fewer reads than the workload made: module $mod, twin $tw, truth $TWIN_CSR_READS"
	lo=$(( mod - mod * TWIN_CSR_PCT / 100 - TWIN_CSR_EXTRA ))
	hi=$(( mod + mod * TWIN_CSR_PCT / 100 + TWIN_CSR_EXTRA ))
	[ "$tw" -ge "$lo" ] && [ "$tw" -le "$hi" ] ||
		fail "$tv csread_hpet count $tw, module $mod (allowed $lo..$hi)"
	[ -n "$tp" ] && [ "$tp" -gt 0 ] && [ "$mp" -gt 0 ] &&
		[ "$tp" -le $(( mp * TWIN_CSR_FACTOR + TWIN_CSR_ADD_NS )) ] &&
		[ "$mp" -le $(( tp * TWIN_CSR_FACTOR + TWIN_CSR_ADD_NS )) ] ||
		fail "$tv csread_hpet p50 $tp ns, module $mp ns"
	expect_eq "$tv csread_acpi_pm (not the clocksource)" \
		"$(snap_csv $out 0 csread_acpi_pm "$tv" 4)" 0
	rmmod clkstat
	expect_no_twin "after $tv csread"
}

# csread in both attach types that can hook a function's exit, beside the
# module's; with csswitch, ten switches give ten first reads and reads of
# acpi_pm; bpf-tp refuses csread.  Event log: every clocksource_read
# event is a read recorded.
t_bpf_csread() {
	local v f=/tmp/csr2.db rc n
	expect_eq "clocksource" "$(cat $CS)" hpet
	twin_csread ftrace bpf-fentry
	twin_csread kprobe bpf-kprobe
	for v in bpf-fentry bpf-kprobe; do
		rm -f $f
		"$R" record -q -o $f --variants $v --probes csread,csswitch -- sh -c \
			"for i in 1 2 3 4 5; do echo acpi_pm > $CS; echo hpet > $CS; done" ||
			fail "$v: record failed"
		expect_eq "$v csswitch count" "$(snap_csv $f 0 csswitch $v 4)" 10
		expect_eq "$v csswitch_first_read count" \
			"$(snap_csv $f 0 csswitch_first_read $v 4)" 10
		n=$(snap_csv $f 0 csread_acpi_pm $v 4)
		[ "${n:-0}" -ge 5 ] || fail "$v: csread_acpi_pm count ${n:-none} after 5 switches to it"
		note "$v: csswitch_first_read p50 $(snap_csv $f 0 csswitch_first_read $v 6) ns," \
			"csread_acpi_pm $n p50 $(snap_csv $f 0 csread_acpi_pm $v 6) ns"
	done
	expect_eq "clocksource after" "$(cat $CS)" hpet
	rm -f $f
	rec_ev 100000 -q -o $f --variants bpf-fentry --probes csread -- \
		"$PINGPONG" -n 100 --reads 2 > /dev/null || fail "record --events failed"
	n=$(run_events $f 0 | python3 -c 'import json, sys
ev = json.load(sys.stdin)
cols = ev.get("columns") or ["ts_ns", "type", "cpu", "pid", "corr", "latency_ns", "migrated", "rq_clock_ns", "text"]
rd = [dict(zip(cols, r)) for r in ev["rows"] if r[cols.index("type")] == "clocksource_read"]
bad = [e for e in rd if e["text"] != "hpet" or e["latency_ns"] is None]
print(len(rd) if not bad and ev["lost"] == 0 else "bad %d lost %d" % (len(bad), ev["lost"]))')
	expect_eq "clocksource_read events" "$n" "$(snap_csv $f 0 csread_hpet bpf-fentry 4)"
	rm -f /tmp/e5.db
	rc=0; "$R" record -q -o /tmp/e5.db --variants bpf-tp --probes ttwu,csread \
		--duration 0.2 2> /tmp/err || rc=$?
	expect_eq "bpf-tp csread: exit status" "$rc" 2
	grep -qx "clkstat-report: bpf-tp: probe csread cannot run there: the kernel has no tracepoint for it (use bpf-fentry or bpf-kprobe, or --probes ttwu)" /tmp/err ||
		fail "bpf-tp csread: $(cat /tmp/err)"
	[ ! -e /tmp/e5.db ] || fail "a refused record wrote a study"
	expect_no_twin "after csread"
}

# The twin's clockoff: one sample (of either sign) at every event the
# sampling probes see: each wakeup ttwu counts, each read tkread counts;
# in every attach type (bpf-tp: at ttwu's wakeups).  The offset is the
# module's: the same sign, and the medians within one bucket (a factor
# 1.25 at frac_bits 3) of each other; the twin reads local_clock() a
# helper call later (a few us in the TCG guest, where the offset is tens
# of ms).  Alone, it refuses.
t_bpf_clockoff() {
	local v f=/tmp/co.db pos neg w rc mname mp tp
	insmod "$KO" probes=ttwu,clockoff
	"$PINGPONG" -n 200 --control "$D/control" > /dev/null
	if [ "$(field clockoff count)" -ge "$(field clockoff_neg count)" ]; then
		mname=clockoff
	else
		mname=clockoff_neg
	fi
	mp=$(field $mname p50)
	rmmod clkstat
	for v in bpf-fentry bpf-kprobe bpf-tp; do
		rm -f $f
		"$R" record -q -o $f --workload-only --variants $v --probes ttwu,clockoff \
			-- "$PINGPONG" -n 200 > /dev/null || fail "$v: record failed"
		pos=$(snap_csv $f 0 clockoff $v 4) neg=$(snap_csv $f 0 clockoff_neg $v 4)
		w=$(snap_counter $f 0 ttwu_enqueue.$v wakeups)
		note "$v: wakeups $w, clockoff $pos (p50 $(snap_csv $f 0 clockoff $v 6) ns), clockoff_neg $neg (p50 $(snap_csv $f 0 clockoff_neg $v 6) ns)"
		[ "${w:-0}" -ge 400 ] || fail "$v: wakeups ${w:-none}, truth 400 at least"
		expect_eq "$v offset samples (ttwu)" "$(( ${pos:-0} + ${neg:-0} ))" "$w"
		tp=$(snap_csv $f 0 $mname $v 6)
		note "$v: $mname p50 twin $tp ns, module $mp ns"
		[ -n "$tp" ] && [ "$tp" -ge $(( mp * 100 / 125 )) ] &&
			[ "$tp" -le $(( mp * 125 / 100 )) ] ||
			fail "$v: $mname p50 twin ${tp:-none} ns, module $mp ns"
	done
	for v in bpf-fentry bpf-kprobe; do
		rm -f $f
		"$R" record -q -o $f --workload-only --variants $v --probes tkread,clockoff \
			-- "$PINGPONG" -n 100 --reads 2 > /dev/null || fail "$v: record failed"
		pos=$(snap_csv $f 0 clockoff $v 4) neg=$(snap_csv $f 0 clockoff_neg $v 4)
		w=$("$R" -i $f --run 0 raw | awk -v id="tkread.$v" '
			$1 == "metric" { cur = ($2 == id && $4 == "all") }
			cur && $1 == "counter" { n += $3 } END { print n + 0 }')
		note "$v: tkread reads $w, clockoff samples $(( ${pos:-0} + ${neg:-0} ))"
		[ "$w" -ge 400 ] || fail "$v: tkread reads $w, truth 400 at least"
		expect_eq "$v offset samples (tkread)" "$(( ${pos:-0} + ${neg:-0} ))" "$w"
	done
	rm -f /tmp/e6.db
	rc=0; "$R" record -q -o /tmp/e6.db --variants bpf-fentry --probes clockoff \
		--duration 0.2 2> /tmp/err || rc=$?
	expect_eq "clockoff alone: exit status" "$rc" 2
	grep -qx "clkstat-report: bpf-fentry: probe clockoff samples at the events of ttwu, tkread or csswitch: add one of them" /tmp/err ||
		fail "clockoff alone: $(cat /tmp/err)"
	expect_eq "clockoff alone: lines" "$(wc -l < /tmp/err)" 1
	[ ! -e /tmp/e6.db ] || fail "a refused record wrote a study"
	expect_no_twin "after clockoff"
}

# The suite, in the order module_tests.sh runs it.
# The window the twin follows: each start, stop, reset and tgid the
# module carries out is a clkstat:clkstat_control trace event, in order,
# from debugfs and netlink alike (record's own start and stop), with the
# metric a command names; a refused command and the other commands are
# none.  And a twin following a module reset mid-window keeps only what
# came after (t_bpf_record's runs check the counts; here the events).
t_control_event() {
	local ev=$T/events/clkstat/clkstat_control got
	insmod "$KO" probes=ttwu
	[ -d "$ev" ] || fail "no $ev"
	grep -q 'field:char metric\[' "$ev/format" || fail "format: $(cat "$ev/format")"
	echo 0 > "$T/tracing_on"; echo > "$T/trace"
	echo 1 > "$ev/enable"; echo 1 > "$T/tracing_on"
	echo stop > "$D/control"
	echo "tgid 42" > "$D/control"
	echo reset > "$D/control"
	echo "start ttwu_enqueue" > "$D/control"
	echo "start nosuch" > "$D/control" 2> /dev/null && fail "start nosuch accepted"
	echo "variant ftrace" > "$D/control"
	echo "tgid 0" > "$D/control"
	rm -f /tmp/ce.db
	"$R" record -q -o /tmp/ce.db --runs 1 --duration 0.1 || fail "record"
	echo 0 > "$T/tracing_on"; echo 0 > "$ev/enable"
	got=$(grep -o 'clkstat_control: .*' "$T/trace" | sed 's/^clkstat_control: //' | tr '\n' '|')
	note "$got"
	# record: stop, reset and start around its run (netlink), stop after,
	# and the module was recording: start again.
	expect_eq "events" "$got" "op=stop tgid=0 metric=|op=tgid tgid=42 metric=|op=reset tgid=0 metric=|op=start tgid=0 metric=ttwu_enqueue|op=tgid tgid=0 metric=|op=stop tgid=0 metric=|op=reset tgid=0 metric=|op=start tgid=0 metric=|op=stop tgid=0 metric=|op=start tgid=0 metric=|"
	rmmod clkstat
}

TWIN_TESTS="t_control_event t_bpf_twin_agree t_bpf_conflict t_bpf_loader_errors t_record_workload_only
	t_bpf_record t_bpf_csswitch t_bpf_events t_bpf_events_misc
	t_bpf_events_pruned t_bpf_csread t_bpf_clockoff"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$TWIN_TESTS}
