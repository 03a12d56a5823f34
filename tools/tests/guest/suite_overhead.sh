#!/bin/bash
# suite_overhead.sh - clkstat-report overhead and clkstat_hookbench.ko
# (Documentation/clkstat-overhead.rst): every row of a short run, the
# hookbench's control files, the exit statuses; the BTF reader of
# kmod/btf_func.c on the running kernel, through the hookbench.
# usage: suite_overhead.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# clkstat-report overhead with small N: every row there, every handler ran
# once per call, the limit and the ratios to it as defined (not their
# sign, which a stalled round can flip); the hookbench's control files
# refuse bad input with EINVAL and change nothing; exit 4 unprivileged, 3
# (and the message) without the hookbench; nothing left behind.
HB=/sys/kernel/debug/clkstat_hookbench
hb_refuses() {	# hb_refuses FILE TEXT: the write fails with EINVAL
	local rc=0
	echo "$2" 2>/tmp/hb_err > "$HB/$1" || rc=$?
	[ "$rc" != 0 ] || fail "'$2' > $1 accepted"
	grep -q "Invalid argument" /tmp/hb_err || fail "'$2' > $1: $(cat /tmp/hb_err)"
}
t_overhead() {
	local R=$top/tools/clkstat-report rc w
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu,tkread,marker events=64
	insmod "$KMOD/clkstat_hookbench.ko"
	expect_eq "file modes" "$(stat -c %a "$HB/attach" "$HB/run" | tr '\n' ' ')" "600 600 "
	expect_eq "initial result" "$(cat $HB/run)" "mode none"
	echo kprobe > $HB/attach
	for w in bogus "" "kprobe x" KPROBE none2 "direct ftrace"; do
		hb_refuses attach "$w"
	done
	expect_eq "attached after bad writes" "$(cat $HB/attach)" kprobe
	echo "hot 1000" > $HB/run
	local good; good=$(cat $HB/run)
	case "$good" in
	"mode hot calls 1000 ns "*" hits 1000 cpu "*" attached kprobe") ;;
	*) fail "hot 1000 with kprobe: '$good'" ;;
	esac
	for w in "hot 0" "hot" "warm 5" "hot 5 x" "hot -1" "cold 0" "record 0" \
		"hot 100000001" "cold 1000001" "hot abc"; do
		hb_refuses run "$w"
	done
	expect_eq "result after bad writes" "$(cat $HB/run)" "$good"
	echo none > $HB/attach
	expect_eq "attached" "$(cat $HB/attach)" none

	# The baselines' run modes: no handler runs in them.
	for w in loop inc; do
		echo "$w 1000" > $HB/run || fail "$w 1000 refused"
		case "$(cat $HB/run)" in
		"mode $w calls 1000 ns "*" hits 0 cpu "*" attached none") ;;
		*) fail "$w 1000: '$(cat $HB/run)'" ;;
		esac
	done
	for w in "loop 0" "inc 100000001" "loop" "inc x"; do
		hb_refuses run "$w"
	done

	# (its variant switches are counted: that count is left out)
	sed 's/ switches [0-9]*//' "$D/control" > /tmp/ovh_ctl0
	"$R" overhead --json --calls 5000 --cold-calls 10 --rounds 3 \
		--hs-calls 200 --handler-rounds 200 --storm-rounds 3 \
		--storm-loops 10 > /tmp/ovh.json \
		2>/tmp/ovh_err || fail "overhead failed: $(tail -3 /tmp/ovh_err)"
	# The handlers section put the module back as it found it, turned
	# the BPF statistics off and left no program behind (the metrics of
	# the variants the storm ran in are new lines, not changes).
	sed 's/ switches [0-9]*//' "$D/control" > /tmp/ovh_ctl1
	grep -vxFf /tmp/ovh_ctl1 /tmp/ovh_ctl0 > /tmp/ovh_ctl_diff &&
		fail "control after overhead, changed: $(tr '\n' ' ' < /tmp/ovh_ctl_diff)"
	expect_eq "BPF statistics after overhead" "$(sysctl -n kernel.bpf_stats_enabled)" 0
	bpftool prog show | grep -q floor_ && fail "the floor's programs left loaded"
	# The same dispatch rows as instructions (what bench.sh does under
	# QEMU's icount: here the "instructions" are ns, the format is what
	# is checked), then merged beside the ns of another run.
	"$R" overhead --json --only dispatch --icount --calls 2000 --rounds 2 \
		> /tmp/ovh_insn.json 2>/tmp/ovh_err ||
		fail "overhead --icount failed: $(tail -3 /tmp/ovh_err)"
	"$R" overhead --json --only dispatch --calls 2000 --cold-calls 2 \
		--rounds 2 --insn /tmp/ovh_insn.json > /tmp/ovh_merged.json \
		2>/tmp/ovh_err || fail "overhead --insn failed: $(tail -3 /tmp/ovh_err)"
	"$R" overhead --only dispatch --calls 2000 --cold-calls 2 --rounds 2 \
		--insn /tmp/ovh_insn.json > /tmp/ovh_merged.txt 2>/tmp/ovh_err ||
		fail "overhead --insn (text) failed: $(tail -3 /tmp/ovh_err)"
	/usr/bin/python3 - /tmp/ovh.json /tmp/ovh_insn.json /tmp/ovh_merged.json \
		/tmp/ovh_merged.txt <<'PY' || fail "overhead's JSON"
import json, math, sys
d = json.load(open(sys.argv[1]))
ins = json.load(open(sys.argv[2]))
mer = json.load(open(sys.argv[3]))
txt = open(sys.argv[4]).read()
hooks = ["direct", "ftrace", "kprobe", "kprobe-int3", "kretprobe",
         "tracepoint", "bpf-kprobe", "bpf-kretprobe", "bpf-fentry",
         "bpf-fexit", "bpf-tp"]
want = ["loop", "inc", "none", "record"] + hooks + \
       ["pair0", "pair", "triple0", "triple"]
base = {"loop": None, "inc": "loop", "none": "loop", "record": "loop",
        "pair0": "loop", "pair": "pair0", "triple0": "loop",
        "triple": "triple0"}
cs = open("/sys/devices/system/clocksource/clocksource0/current_clocksource").read().strip()
def rows(j, calls, rounds, cold):
    assert j["dispatch_clocksource"] == cs, j["dispatch_clocksource"]
    rs = {r["variant"]: r for r in j["dispatch"]}
    assert list(rs) == want, list(rs)
    for v, r in rs.items():
        assert r["base"] == base.get(v, "none"), (v, r)
        if "note" in r:
            # Only the handlers' rows may be missing (an older hookbench).
            assert v in ("pair0", "pair", "triple0", "triple"), (v, r)
            assert r["hot_ns"] is None and r["rounds"] == 0, (v, r)
            continue
        assert r["rounds"] == rounds and r["hot_calls"] == calls, (v, r)
        assert r["hot_ns"] > 0 and r["hot_q1"] <= r["hot_ns"] <= r["hot_q3"], (v, r)
        if v != "loop":
            assert r["added_q1"] <= r["added_ns"] <= r["added_q3"], (v, r)
        hooked = v in hooks or v in ("pair", "triple")
        if v not in ("pair0", "triple0"):
            assert r["hot_hits"] == (calls if hooked else 0), (v, r)
        if v in hooks or v == "none":
            assert r["cold_calls"] == cold, (v, r)
            assert r["cold_hits"] == (cold if hooked else 0), (v, r)
            if cold:
                assert 0 < r["cold_p10"] <= r["cold_ns"] <= r["cold_p90"], (v, r)
                assert close(r["x_limit"], x_limit(j, r)), (v, r, j["limit"])
        else:
            assert r["cold_calls"] == 0 and r["cold_ns"] is None, (v, r)
    # direct adds a dozen instructions: a few rounds of emulated ns may
    # put its median under the bare call's, and no ratio to it exists.
    dx = rs["direct"]["added_x_direct"]
    assert dx == 1 if rs["direct"]["added_ns"] > 0 else dx is None, rs["direct"]
    # The limit's definition, not its sign: with a few rounds of a loaded
    # machine one stalled round can take inc's added time below zero.
    lim = j["limit"]
    assert isinstance(lim, (int, float)) and math.isfinite(lim), lim
    assert close(lim, rs["none"]["hot_ns"] + rs["inc"]["added_ns"]), (lim, rs["none"], rs["inc"])
    return rs
def close(a, b):
    return (a is None and b is None) or abs(a - b) <= 1e-9 * max(1, abs(b))
# A row's whole call over the limit, as the tool defines it: by
# instructions where the run has them, else in its own unit; none where
# the limit is not above 0.
def x_limit(j, r):
    li = j.get("limit_insn")
    if r.get("insn") is not None and li is not None and li > 0:
        return r["insn"] / li
    return r["hot_ns"] / j["limit"] if j["limit"] > 0 else None
rs = rows(d, 5000, 3, 10)
ri = rows(ins, 2000, 2, 0)
assert ins["unit"] == "insn" and d["unit"] == "ns"
rm = rows(mer, 2000, 2, 2)
for v in want:
    if "note" not in ri[v]:
        assert close(rm[v]["insn"], ri[v]["hot_ns"]), (v, rm[v], ri[v])
        assert close(rm[v]["added_insn"], ri[v]["added_ns"]), (v, rm[v], ri[v])
assert close(mer["limit_insn"], ins["limit"])
assert "limit (a bare call plus one per-CPU add" in txt, txt
assert ("clocksource " + cs) in txt, txt
for v in want:
    assert any(l.split()[:1] == [v] for l in txt.splitlines()), (v, txt)
hs = {h["point"]: h for h in d["handshake"]}
assert len(hs) == 5, list(hs)
for p, h in hs.items():
    assert h["ns"] is not None and h["ns"] > 0 and h["events"] == 200, (p, h)
assert d["storm"]["clocksource"] == cs
assert d["storm"]["timed"] == "wall", d["storm"].get("timed")
st = {s["variant"]: s for s in d["storm"]["variants"]}
for v in ("none", "direct", "ftrace", "kprobe", "kprobe-int3"):
    assert st[v]["rounds"] == 3 and st[v]["throughput_ratio"] > 0, (v, st[v])
    assert st[v]["ratio_q1"] <= st[v]["throughput_ratio"] <= st[v]["ratio_q3"], (v, st[v])
for v in ("tracepoint", "bpf-kprobe", "bpf-fentry", "bpf-tp"):
    assert v in st, v
# handlers: every run of the twin measured, 200 rounds of two wakeups
# each (a SCHED_BATCH ping-pong: two, but in the first round, whose first
# write comes before B first blocks, and where the tick preempted the
# waker before it blocked; 398 seen), a body = per run - floor (not its
# sign: in emulated ns one slow run of the floor can outweigh a body),
# the pair from the ttwu runs, the triple from the ttwu,tkread runs; the
# module's pair and triple from the hookbench, loaded here.
hd = d["handlers"]
assert hd["clocksource"] == cs, hd
assert hd["module_pair"] > 0 and hd["module_triple"] > 0, hd
runs = [(r["variant"], r["probes"]) for r in hd["runs"]]
assert runs == [("bpf-fentry", "ttwu"), ("bpf-fentry", "ttwu,tkread"),
                ("bpf-kprobe", "ttwu"), ("bpf-kprobe", "ttwu,tkread"),
                ("bpf-tp", "ttwu")], runs
for r in hd["runs"]:
    assert "note" not in r and r["floor"] > 0 and r["floor_runs"] >= 360, r
    ps = {p["role"]: p for p in r["programs"] if p["role"] != "read"}
    assert set(ps) == {"wakeup", "enqueue"}, r
    for p in r["programs"]:
        assert p["runs"] > 0 and close(p["body"], p["per_run"] - r["floor"]), (r, p)
    for p in ps.values():
        assert p["runs"] >= 360, (r, p)
    pair = ps["wakeup"]["body"] + ps["enqueue"]["body"]
    if r["probes"] == "ttwu":
        assert close(r["pair"], pair) and r["triple"] is None, r
    else:
        # The first read: the dearest read program that ran at every
        # (other) wakeup; which function that is depends on the kernel.
        first = [p for p in r["programs"] if p["program"] == r["first_read"]]
        assert len(first) == 1 and first[0]["role"] == "read", r
        assert 2 * first[0]["runs"] >= ps["wakeup"]["runs"], r
        assert all(p["body"] <= first[0]["body"] for p in r["programs"]
                   if p["role"] == "read" and 2 * p["runs"] >= ps["wakeup"]["runs"]), r
        assert close(r["triple"], pair + first[0]["body"]) and r["pair"] is None, r
print("    # dispatch hot ns: " + " ".join(
    "%s=%.0f" % (v, r["hot_ns"]) for v, r in rs.items() if r["hot_ns"]))
PY
	# The storm under --icount is timed by its tasks' CPU time (there,
	# their instructions): said in the JSON and the text, every module
	# row measured.
	"$R" overhead --json --only storm --icount --storm-rounds 1 \
		--storm-loops 10 > /tmp/ovh_cpu.json || fail "overhead --icount storm failed"
	/usr/bin/python3 - /tmp/ovh_cpu.json <<'PY' || fail "the --icount storm's JSON"
import json, sys
s = json.load(open(sys.argv[1]))["storm"]
assert s["timed"] == "cpu", s.get("timed")
st = {v["variant"]: v for v in s["variants"]}
for v in ("none", "direct", "ftrace", "kprobe"):
    assert st[v]["median_s"] > 0 and st[v]["throughput_ratio"] > 0, (v, st[v])
PY
	"$R" overhead --only storm --icount --storm-rounds 1 --storm-loops 10 \
		> /tmp/ovh_cpu.txt || fail "overhead --icount storm (text) failed"
	grep -q "median cpu" /tmp/ovh_cpu.txt && grep -q "CPU time of the storm's tasks" /tmp/ovh_cpu.txt ||
		fail "the --icount storm's text: $(cat /tmp/ovh_cpu.txt)"
	# The handlers section as text: a row per program, the pair and
	# triple beside the module's; a bad round count refused.
	"$R" overhead --only handlers --icount --handler-rounds 50 --calls 2000 \
		> /tmp/ovh_hd.txt 2>/tmp/ovh_err || fail "overhead --only handlers failed: $(tail -3 /tmp/ovh_err)"
	for w in "^bpf-fentry  ttwu  *fe_ttwu  *try_to_wake_up  *[0-9][0-9]*  *[0-9.]*  *[0-9.]*\$" \
		"^bpf-tp  *ttwu  *(floor)  *[0-9][0-9]*  *[0-9.]*  *-\$" "^clkstat.ko  *[0-9.]*  *[0-9.]*  -\$" \
		"^bpf-kprobe  *-\?[0-9.]*  *-\?[0-9.]*  kp_tk_[a-z0-9_]*\$" \
		"^bpf-tp  *-\?[0-9.]*  *-  -\$"; do
		grep -q "$w" /tmp/ovh_hd.txt || fail "handlers text: no '$w' in $(cat /tmp/ovh_hd.txt)"
	done
	rc=0
	"$R" overhead --only handlers --handler-rounds 0 > /dev/null 2>&1 || rc=$?
	expect_eq "--handler-rounds 0" "$rc" 2
	# A bad --insn file: one line, the exit status, nothing run.
	rc=0
	echo '{"unit": "ns"}' > /tmp/ovh_bad.json
	"$R" overhead --only dispatch --insn /tmp/ovh_bad.json > /dev/null \
		2>/tmp/ovh_err || rc=$?
	expect_eq "--insn of a run in ns" "$rc" 7
	expect_eq "--insn message" "$(wc -l < /tmp/ovh_err)" 1
	expect_eq "attached after the run" "$(cat $HB/attach)" none
	bpftool prog show | grep -q ovh_ && fail "BPF programs left loaded"

	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$R" overhead \
		> /dev/null 2>&1 || rc=$?
	expect_eq "unprivileged exit status" "$rc" 4
	hb_unload || fail "hb_unload"
	rc=0
	"$R" overhead --only dispatch > /dev/null 2>/tmp/ovh_err || rc=$?
	expect_eq "exit status without the hookbench" "$rc" 3
	grep -q "clkstat_hookbench.ko is not loaded: insmod" /tmp/ovh_err ||
		fail "message: $(cat /tmp/ovh_err)"
	rmmod clkstat || fail "rmmod clkstat"
	bpftool prog show | grep -q ovh_ && fail "BPF programs left loaded"
	true
}

# clkstat_btf_func_proto() on the running kernel, through the hookbench's
# btf_proto file: the BTF of /sys/kernel/btf/vmlinux for the kernel's
# functions, the hookbench's own split BTF for its target (Makefile's
# module-btf gives it BTF).  Known prototypes, the same on 6.1 and 6.12:
#   ktime_get(void) -> ktime_t; try_to_wake_up(p, state, wake_flags) -> int;
#   allocate_resource(8 args) -> int: two on the stack;
#   _printk(fmt, ...) -> int; clkstat_bench_target(3 longs) -> void.
t_btf_proto() {
	local f=$HB/btf_proto rc
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO"
	insmod "$KMOD/clkstat_hookbench.ko"
	[ -f /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
	[ -f /sys/kernel/btf/clkstat_hookbench ] ||
		fail "the hookbench has no BTF (/sys/kernel/btf/clkstat_hookbench)"
	expect_eq "file mode" "$(stat -c %a "$f")" 600
	expect_eq "initial answer" "$(cat "$f")" "name none"
	btf_is() {	# btf_is FUNC ANSWER-AFTER-THE-NAME
		echo "$1" 2>/tmp/hb_err > "$f" ||
			fail "'$1' > btf_proto refused: $(cat /tmp/hb_err); $(cat "$f")"
		expect_eq "$1" "$(cat "$f")" "name $1 $2"
	}
	btf_is ktime_get "arg_regs 0 ret_regs 1 stack 0 varargs 0 nfuncs 1 wrappable 1"
	btf_is try_to_wake_up "arg_regs 3 ret_regs 1 stack 0 varargs 0 nfuncs 1 wrappable 1"
	btf_is allocate_resource "arg_regs 6 ret_regs 1 stack 1 varargs 0 nfuncs 1 wrappable 0"
	btf_is _printk "arg_regs 1 ret_regs 1 stack 0 varargs 1 nfuncs 1 wrappable 0"
	btf_is clkstat_bench_target "arg_regs 3 ret_regs 0 stack 0 varargs 0 nfuncs 1 wrappable 1"
	# A function that does not exist: the write fails, the answer says so.
	rc=0
	echo clkstat_no_such_fn 2>/tmp/hb_err > "$f" || rc=$?
	[ "$rc" != 0 ] || fail "a function that does not exist accepted"
	grep -q "No such file or directory" /tmp/hb_err || fail "no such function: $(cat /tmp/hb_err)"
	expect_eq "no such function" "$(cat "$f")" "name clkstat_no_such_fn error -2"
	hb_refuses btf_proto ""
	hb_refuses btf_proto "ktime_get x"
	hb_unload || fail "hb_unload"
	rmmod clkstat || fail "rmmod clkstat"
	true
}

# hb_count METRIC [COUNTER]: METRIC.$V's count (its summary line), or
# its COUNTER, into HB_CNT.
hb_count() {
	local metric=$1 want=${2:-} w k v rest
	local -a kv
	HB_CNT=
	while read -r w rest; do
		if [ "$w" = counter ] && [ -n "$want" ]; then
			read -r k v <<< "$rest"
			[ "$k" != "$want" ] || HB_CNT=$v
		elif [ "$w" = summary ] && [ -z "$want" ]; then
			read -r -a kv <<< "$rest"
			[ "${kv[0]}" != count ] || HB_CNT=${kv[1]}
		fi
	done < "$D/$metric.$V"
	[ -n "$HB_CNT" ] || fail "no ${want:-count} in $metric.$V"
}

# hb_handlers MODE N ENQ TK: run MODE N, and its result says hits N (0 for
# a baseline), samples ENQ of ttwu_enqueue and TK of ttwu_tkread.
hb_handlers() {
	local r hits=$2
	case "$1" in *0) hits=0 ;; esac
	echo "$1 $2" > $HB/run || fail "$1 $2 refused"
	read -r r < $HB/run
	case "$r" in
	"mode $1 calls $2 ns "*" hits $hits cpu "*" migrated 0 attached none enqueue $3 tkread $4") ;;
	*) fail "$1 $2: '$r'" ;;
	esac
	note "$r"
}

# The handler bench (kmod/bench_handlers.c, the hookbench's run modes
# pair, triple, pair0, triple0): the probes' real handlers, N times on
# this shell.  A pair gives exactly one ttwu_enqueue sample and one
# wakeup, a triple one ttwu_tkread sample more: hits == calls, in the
# default variant (the bench narrows the task filter to itself while it
# runs, whatever the user's, and sets that back: other tasks' events stay
# out of the counts the run reports).  With variant=off nothing else feeds
# the metrics, so their files must show exactly what the runs did:
# ttwu_enqueue and its local part (the task stays on its CPU) 2N, 2N
# wakeups, ttwu_tkread, its local part and enqueue_tkread N, nothing
# replaced: a pair is the default probes' (ttwu_tkread stopped while it
# runs, then started again, which the test checks), so it opens no tkread
# part for the triple's wakeups to replace.  The baselines record nothing.  Refused: a count of 0, bad words, and a pair
# without probe ttwu (ENOENT).
t_handler_bench() {
	local N=3000 m rc=0
	trap 'hb_unload 2>/dev/null || true' EXIT
	insmod "$KO" probes=ttwu,tkread
	insmod "$KMOD/clkstat_hookbench.ko"
	echo "tgid $BASHPID" > "$D/control"
	hb_handlers pair $N $N 0
	hb_handlers triple $N $N $N
	hb_handlers pair0 $N 0 0
	hb_handlers triple0 $N 0 0
	for m in "pair 0" "triple" "pair0 -1" "triple 5 x" "pairs 5"; do
		hb_refuses run "$m"
	done
	# The bench narrows the filter to itself while it runs, then sets
	# back the user's: another task group's, and none.
	echo "tgid 1" > "$D/control"
	hb_handlers pair 100 100 0
	grep -qx "tgid 1" "$D/control" || fail "filter not restored: $(grep tgid "$D/control")"
	echo "tgid 0" > "$D/control"
	hb_handlers pair 100 100 0
	grep -qx "tgid 0" "$D/control" || fail "filter not restored: $(grep tgid "$D/control")"
	hb_unload
	rmmod clkstat

	insmod "$KO" probes=ttwu,tkread variant=off
	insmod "$KMOD/clkstat_hookbench.ko"
	( V=off
	  hb_handlers pair $N $N 0
	  grep -q "^metric ttwu_tkread variant off recording on\$" "$D/control" ||
		fail "ttwu_tkread not recording again after a pair: $(grep ttwu_tkread "$D/control")"
	  hb_handlers triple $N $N $N
	  hb_count ttwu_enqueue; expect_eq "ttwu_enqueue count" "$HB_CNT" $((2 * N))
	  hb_count ttwu_enqueue_local
	  expect_eq "ttwu_enqueue_local count" "$HB_CNT" $((2 * N))
	  hb_count ttwu_enqueue wakeups; expect_eq "wakeups" "$HB_CNT" $((2 * N))
	  for m in unmatched replaced evicted busy; do
		hb_count ttwu_enqueue $m; expect_eq "ttwu_enqueue $m" "$HB_CNT" 0
	  done
	  hb_count ttwu_tkread; expect_eq "ttwu_tkread count" "$HB_CNT" $N
	  hb_count ttwu_tkread_local; expect_eq "ttwu_tkread_local count" "$HB_CNT" $N
	  hb_count enqueue_tkread; expect_eq "enqueue_tkread count" "$HB_CNT" $N
	  for m in replaced stale evicted busy no_enqueue; do
		hb_count ttwu_tkread $m; expect_eq "ttwu_tkread $m" "$HB_CNT" 0
	  done ) || fail "variant off"
	hb_unload
	rmmod clkstat

	insmod "$KO" probes=tkread
	insmod "$KMOD/clkstat_hookbench.ko"
	echo "pair 5" 2>/tmp/hb_err > $HB/run || rc=$?
	[ "$rc" != 0 ] && grep -q "No such file or directory" /tmp/hb_err ||
		fail "pair without probe ttwu: rc $rc, $(cat /tmp/hb_err)"
	hb_unload
	rmmod clkstat || fail "rmmod clkstat"
	true
}

# The suite, in the order module_tests.sh runs it.
OVERHEAD_TESTS="t_overhead t_btf_proto t_handler_bench"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$OVERHEAD_TESTS}
