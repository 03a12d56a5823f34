#!/bin/bash
# suite_conditions.sh - record's conditions: --cstates held
# through /dev/cpu_dma_latency, --load's spinners and --governors (on
# clkstat_fakefreq.ko), alternated after the variants, each run tagged;
# the machine's setting restored and no spinner or guard left whatever
# happens to record (a normal end, a failing workload, SIGINT, SIGKILL);
# --compare tag:cstate=... and tag:governor=... on such a recording; the
# cpufreq metadata against sysfs; --governors' refusals.
# record writes a study, each run committed as it ends: an interrupted
# record leaves the runs it finished.
# The workload (cond_workload) writes what it sees during its run: the
# aggregate CPU latency target /dev/cpu_dma_latency reads (the kernel's
# default, 2000000000, without a request) and the number of spinners.
# usage: suite_conditions.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

QOS_FREE=2000000000
CW=/tmp/cond_wl		# one file per run: "QOS SPINNERS"

# The aggregate CPU latency target, in us (opening the file for reading
# adds a request at the default, which changes nothing).
qos_now() { od -An -td4 -N4 /dev/cpu_dma_latency | tr -d ' '; }
# Live spinners (comm clkstat-busy), zombies included.
spinners() { grep -lx clkstat-busy /proc/[0-9]*/comm 2>/dev/null | wc -l; }

# The workload: note QOS and spinners in $CW/run.N (the spinners' CPUs,
# "0,1,", in $CW.cpus/N), sleep $1 s, then wake up and read clocks (exit
# status $2, default 0).  $1 "hold": wait until the test lets it go
# ($CW.go; 600 s at most) instead, so that what the test checks and does
# during a run lands in it however slow the machine; $CW.end says it
# ended.
cond_workload() {
	cat > /tmp/cond_wl.sh <<EOF
#!/bin/sh
trap 'touch $CW.end' EXIT
n=\$(ls $CW | wc -l)
q=\$(od -An -td4 -N4 /dev/cpu_dma_latency | tr -d ' ')
b=\$(grep -lx clkstat-busy /proc/[0-9]*/comm 2>/dev/null | wc -l)
ps -C clkstat-busy -o psr= | sort -n | tr -d ' ' | tr '\n' , > $CW.cpus/\$n
echo "\$q \$b" > $CW/run.\$n.tmp && mv $CW/run.\$n.tmp $CW/run.\$n
if [ "$1" = hold ]; then
	i=0
	while [ ! -e $CW.go ] && [ \$i -lt 6000 ]; do sleep 0.1; i=\$((i + 1)); done
else
	sleep $1
fi
"$PINGPONG" -n 60 --reads 1 > /dev/null || exit 3
exit ${2:-0}
EOF
	chmod +x /tmp/cond_wl.sh
	rm -rf "$CW" "$CW.cpus" "$CW.go" "$CW.end"
	mkdir -p "$CW" "$CW.cpus"
}

# seen N: what run N's workload saw.
seen() { cat "$CW/run.$1" 2>/dev/null; }

# wait_file F: up to 60 s for F to exist.
wait_file() {
	local i
	for i in $(seq 600); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	fail "$1 never appeared"
}

# expect_restored WHAT: the default target and no spinner (SIGKILL's
# spinners die by PR_SET_PDEATHSIG: give them a moment).
expect_restored() {
	local i
	for i in $(seq 50); do
		[ "$(spinners)" = 0 ] && break
		sleep 0.1
	done
	expect_eq "$1: /dev/cpu_dma_latency" "$(qos_now)" $QOS_FREE
	expect_eq "$1: spinners left" "$(spinners)" 0
}

# C-states alternated after the variants: run i has variant i % 2 and
# cstate (i / 2) % 2; each run saw its own target and is tagged with it;
# the meta says the conditions; the setting is back after; --compare by
# the tag groups the runs right.
t_cond_cstates() {
	local R=$top/tools/clkstat-report out=/tmp/cs.db i want j
	expect_eq "before" "$(qos_now)" $QOS_FREE
	insmod "$KO" probes=ttwu,tkread
	cond_workload 0
	rm -f $out /tmp/cs3.db
	"$R" record -q -o $out --runs 8 --variants ftrace,kprobe \
		--cstates qos0,free -- /tmp/cond_wl.sh 2> /tmp/err ||
		fail "record failed: $(cat /tmp/err)"
	[ ! -s /tmp/err ] || fail "record said: $(cat /tmp/err)"
	expect_restored "after the recording"
	for i in 0 1 2 3 4 5 6 7; do
		want=0; [ $(((i / 2) % 2)) = 1 ] && want=$QOS_FREE
		expect_eq "run $i saw" "$(seen $i)" "$want 0"
	done
	"$R" info -i $out > /tmp/meta
	expect_eq "conditions" "$(awk '$1 == "conditions" { sub(/^[^ ]* /, ""); print }' /tmp/meta)" \
		"cstates=qos0,free"
	expect_eq "run variants and tags" \
		"$(awk '$1 == "run" { printf "%s %s;", $4, $16 }' /tmp/meta)" \
		"ftrace cstate=qos0;kprobe cstate=qos0;ftrace cstate=free;kprobe cstate=free;ftrace cstate=qos0;kprobe cstate=qos0;ftrace cstate=free;kprobe cstate=free;"
	j=$(as_json $out) || fail "export of $out"
	grep -q '"version": 5' "$j" || fail "not format version 5"
	# --compare by the runs' own tag: 4 runs a side, per variant.
	"$R" -i $out --compare tag:cstate=qos0 --metric ttwu_enqueue \
		--resamples 200 --json > /tmp/cmp.json 2> /tmp/err ||
		fail "--compare tag:cstate=qos0: $(cat /tmp/err)"
	/usr/bin/python3 - /tmp/cmp.json <<'EOF' || fail "compare: $(head -c 600 /tmp/cmp.json)"
import json, sys
d = json.load(open(sys.argv[1]))
ms = {m["metric"]: m for m in d["metrics"]}
assert set(ms) == {"ttwu_enqueue.ftrace", "ttwu_enqueue.kprobe"}, ms.keys()
for m in ms.values():
    assert [s["runs"] for s in m["strata"]] == [2, 2], m["strata"]
EOF
	# Unbalanced: 3 runs of 2 variants x 2 conditions.
	"$R" record -q -o /tmp/cs3.db --runs 3 --variants ftrace,kprobe \
		--cstates qos0,free -- /tmp/cond_wl.sh 2> /tmp/err || fail "record 3 failed"
	grep -q 'warning: unbalanced: --runs 3 is not a multiple of 4' /tmp/err ||
		fail "no unbalanced warning: $(cat /tmp/err)"
	expect_restored "after the unbalanced recording"
}

# The setting comes back whatever happens: a failing workload, SIGINT and
# SIGKILL to record in the middle of a run (C-states and load together).
# The run's workload is held until the checks and the signal are done.
t_cond_restore() {
	local R=$top/tools/clkstat-report rc pid
	# A test that fails lets a held workload go (run()'s subshell ends).
	trap 'touch $CW.go' EXIT
	insmod "$KO" probes=ttwu,tkread
	rm -f /tmp/f.db /tmp/int.db /tmp/kill.db*
	# A workload that fails: its runs kept, record's status 9.
	cond_workload 0 1
	rc=0; "$R" record -q -o /tmp/f.db --runs 2 --cstates qos5 \
		--load busy:2 -- /tmp/cond_wl.sh 2> /tmp/err || rc=$?
	expect_eq "exit status, workload failed" "$rc" 9
	expect_eq "the runs kept, their exit statuses" \
		"$("$R" info -i /tmp/f.db | awk '$1 == "run" { printf "%s ", $10 }')" "1 1 "
	expect_eq "run 0 saw" "$(seen 0)" "5 2"
	expect_eq "run 1 saw" "$(seen 1)" "5 2"
	expect_restored "after a failing workload"
	# SIGINT in the middle of the first run: it ends, is committed, no
	# other run begins, and the setting is back.
	cond_workload hold
	"$R" record -q -o /tmp/int.db --runs 4 --cstates qos0 \
		--load busy -- /tmp/cond_wl.sh 2> /tmp/err &
	pid=$!
	wait_file $CW/run.0
	expect_eq "during the run" "$(qos_now) $(spinners)" "0 $(nproc)"
	kill -INT $pid
	# The signal is pending once kill returns: record sees it before it
	# could begin another run.  The run ends with its workload.
	touch $CW.go
	rc=0; wait $pid || rc=$?
	expect_eq "exit status after SIGINT" "$rc" 0
	expect_eq "after SIGINT" "$(cat /tmp/err)" \
		"clkstat-report: record: interrupted; the 1 runs done are in /tmp/int.db"
	expect_eq "the study after SIGINT: runs, their tags" \
		"$("$R" info -i /tmp/int.db | awk '$1 == "runs" { print $2 } $1 == "run" { print $16 }' | tr '\n' ' ')" \
		"1 cstate=qos0,load=busy "
	expect_eq "seen by run 0" "$(seen 0)" "0 $(nproc)"
	expect_restored "after SIGINT"
	# SIGKILL: the kernel closes the file (the request goes), the
	# spinners get their PR_SET_PDEATHSIG.  The study record made before
	# run 1 stays (no handler runs to remove it), with no run: it opens.
	cond_workload hold
	"$R" record -q -o /tmp/kill.db --runs 4 --cstates qos0 \
		--load busy:2 -- /tmp/cond_wl.sh 2> /tmp/err &
	pid=$!
	wait_file $CW/run.0
	expect_eq "during the run" "$(qos_now) $(spinners)" "0 2"
	kill -KILL $pid
	wait $pid 2>/dev/null || true
	expect_restored "after SIGKILL"
	"$R" info -i /tmp/kill.db > /tmp/meta 2> /tmp/err ||
		fail "the study a killed record left does not open: $(cat /tmp/err)"
	expect_eq "runs in the study of a record killed in run 1" \
		"$(awk '$1 == "runs" { print $2 }' /tmp/meta)" 0
	expect_eq "its conditions" "$(awk '$1 == "conditions" { sub(/^[^ ]* /, ""); print }' /tmp/meta)" \
		"cstates=qos0 load=busy:2"
	# The orphaned workload, let go, ends before rmmod.
	touch $CW.go
	wait_file $CW.end
}

# Load alternated: idle runs see no spinner, busy:2 runs two, each pinned
# to its own CPU; runs tagged load; none left after.
t_cond_load() {
	local R=$top/tools/clkstat-report out=/tmp/ld.db
	insmod "$KO" probes=ttwu,tkread
	cond_workload 0
	rm -f $out
	"$R" record -q -o $out --runs 4 --variants direct --load idle,busy:2 \
		--cstates free -- /tmp/cond_wl.sh 2> /tmp/err ||
		fail "record failed: $(cat /tmp/err)"
	expect_eq "runs saw" "$(seen 0);$(seen 1);$(seen 2);$(seen 3)" \
		"$QOS_FREE 0;$QOS_FREE 2;$QOS_FREE 0;$QOS_FREE 2"
	[ "$(nproc)" -lt 2 ] || expect_eq "busy:2 spinners' CPUs" "$(cat $CW.cpus/1)" "0,1,"
	expect_restored "after the recording"
	"$R" info -i $out > /tmp/meta
	expect_eq "tags" "$(awk '$1 == "run" { printf "%s;", $16 }' /tmp/meta)" \
		"cstate=free,load=idle;cstate=free,load=busy:2;cstate=free,load=idle;cstate=free,load=busy:2;"
	expect_eq "conditions" "$(awk '$1 == "conditions" { sub(/^[^ ]* /, ""); print }' /tmp/meta)" \
		"cstates=free load=idle,busy:2"
	ps -eo stat=,comm= | grep -q '^Z.*clkstat' && fail "a zombie: $(ps -eo stat=,pid=,comm= | grep '^Z')"
	true
}

# ---- cpufreq governors (record --governors), on clkstat_fakefreq.ko ----

CPUFREQ=/sys/devices/system/cpu/cpufreq
FF_INDEX=/sys/kernel/debug/clkstat_fakefreq/index
GW=/tmp/gov_wl		# one file per run: "GOV0 GOV1 ... INDEX0,INDEX1,..."

# ff_load: the test driver, one policy per CPU, and the governors Debian
# builds as modules (performance and schedutil are built in).
ff_load() {
	insmod "$KMOD/clkstat_fakefreq.ko" || fail "insmod clkstat_fakefreq.ko"
	modprobe -a cpufreq_powersave cpufreq_userspace ||
		fail "modprobe cpufreq_powersave cpufreq_userspace"
	[ "$(cat $CPUFREQ/policy0/scaling_driver)" = clkstat_fake ] ||
		fail "policy0's driver: $(cat $CPUFREQ/policy0/scaling_driver 2>&1)"
}
# Every policy's governor, in CPU order ("schedutil userspace").
govs() {
	local c
	for c in $(seq 0 $(($(nproc) - 1))); do
		cat "$CPUFREQ/policy$c/scaling_governor"
	done | xargs
}
# set_govs G...: policy N gets the N-th (the last one the rest).
set_govs() {
	local c g
	for c in $(seq 0 $(($(nproc) - 1))); do
		g=$1
		[ $# -gt 1 ] && shift
		echo "$g" > "$CPUFREQ/policy$c/scaling_governor"
	done
}
# every G: what govs says when every policy has G.
every() { for _ in $(seq "$(nproc)"); do printf '%s ' "$1"; done | xargs; }
guards() { grep -lx clkstat-guard /proc/[0-9]*/comm 2>/dev/null | wc -l; }
# expect_govs WHAT GOVS: the governors GOVS and no guard left, giving the
# guard of a killed record up to 10 s.
expect_govs() {
	local i
	for i in $(seq 100); do
		[ "$(govs)" = "$2" ] && [ "$(guards)" = 0 ] && break
		sleep 0.1
	done
	expect_eq "$1: governors" "$(govs)" "$2"
	expect_eq "$1: guard processes left" "$(guards)" 0
}

# The workload: what it sees during its run into $GW/run.N (every
# policy's governor and the index the fake driver was last asked for on
# each CPU); $1 and $2 as cond_workload's.
gov_workload() {
	cat > /tmp/gov_wl.sh <<EOF
#!/bin/sh
trap 'touch $GW.end' EXIT
n=\$(ls $GW | wc -l)
g=\$(for p in \$(ls -d $CPUFREQ/policy* | sort -V); do cat \$p/scaling_governor; done | xargs)
i=\$(awk '{ printf "%s,", \$2 }' $FF_INDEX)
echo "\$g \$i" > $GW/run.\$n.tmp && mv $GW/run.\$n.tmp $GW/run.\$n
if [ "$1" = hold ]; then
	k=0
	while [ ! -e $GW.go ] && [ \$k -lt 6000 ]; do sleep 0.1; k=\$((k + 1)); done
else
	sleep $1
fi
"$PINGPONG" -n 60 --reads 1 > /dev/null || exit 3
exit ${2:-0}
EOF
	chmod +x /tmp/gov_wl.sh
	rm -rf "$GW" "$GW.go" "$GW.end"
	mkdir -p "$GW"
}
gseen() { cat "$GW/run.$1" 2>/dev/null; }
# What a run of governor G saw: G on every CPU, and the fake driver
# asked for the highest frequency (index 2: boost is off) or the lowest.
gwant() {
	local idx=0
	[ "$1" = performance ] && idx=2
	echo "$(every "$1") $(for _ in $(seq "$(nproc)"); do printf '%s,' $idx; done)"
}
meta_of() { awk -v k="$1" '$1 == k { sub(/^[^ ]* /, ""); print }' /tmp/meta; }

# The metadata says what sysfs says: no cpufreq at all in the TCG guest
# (recorded as none), then the fake driver's, its governors one word or
# per CPU, its boost as the boost file says.
t_cond_gov_meta() {
	local R=$top/tools/clkstat-report j want
	[ ! -e $CPUFREQ/policy0 ] || fail "a cpufreq driver before the test: $(cat $CPUFREQ/policy0/scaling_driver)"
	[ "$(nproc)" -ge 2 ] || fail "the test needs 2 CPUs"
	insmod "$KO" probes=ttwu,tkread
	rm -f /tmp/gm*.db
	"$R" record -q -o /tmp/gm0.db -- true || fail "record without cpufreq"
	"$R" info -i /tmp/gm0.db > /tmp/meta
	expect_eq "no cpufreq: driver, governor, boost" \
		"$(meta_of cpufreq_driver);$(meta_of cpufreq_governor);$(meta_of cpufreq_boost)" \
		"none (no cpufreq);none (no cpufreq);none (no cpufreq)"
	j=$(as_json /tmp/gm0.db) || fail "export"
	/usr/bin/python3 - "$j" <<'PY' || fail "JSON without cpufreq: $(head -c 800 "$j")"
import json, sys
m = json.load(open(sys.argv[1]))["meta"]
assert [m[k] for k in ("cpufreq_driver", "cpufreq_governor", "cpufreq_boost")] == [None] * 3, m
PY
	ff_load
	# The governor every policy has, one word.
	want=$(govs | tr ' ' '\n' | sort -u)
	[ "$(echo "$want" | wc -l)" = 1 ] || fail "policies differ at load: $(govs)"
	"$R" record -q -o /tmp/gm1.db -- true || fail "record with the fake driver"
	"$R" info -i /tmp/gm1.db > /tmp/meta
	expect_eq "driver, governor, boost" \
		"$(meta_of cpufreq_driver);$(meta_of cpufreq_governor);$(meta_of cpufreq_boost)" \
		"$(cat $CPUFREQ/policy0/scaling_driver);$want;$(cat $CPUFREQ/boost)"
	# Governors that differ (per CPU, GOV:CPUS), boost on.
	set_govs performance powersave
	echo 1 > $CPUFREQ/boost || fail "boost does not take 1"
	expect_eq "boost file" "$(cat $CPUFREQ/boost)" 1
	"$R" record -q -o /tmp/gm2.db -- true || fail "record, governors that differ"
	"$R" info -i /tmp/gm2.db > /tmp/meta
	want="performance:0 powersave:1"
	[ "$(nproc)" = 2 ] || want="performance:0 powersave:1-$(($(nproc) - 1))"
	expect_eq "per-CPU governors, boost" \
		"$(meta_of cpufreq_governor);$(meta_of cpufreq_boost)" "$want;1"
	j=$(as_json /tmp/gm2.db) || fail "export"
	grep -q "\"cpufreq_governor\": \"$want\"" "$j" || fail "JSON: $(grep cpufreq "$j")"
	grep -q '"version": 5' "$j" || fail "not format version 5"
	echo 0 > $CPUFREQ/boost
	rmmod clkstat_fakefreq || fail "rmmod clkstat_fakefreq"
	[ ! -e $CPUFREQ/policy0 ] || fail "policy0 left after rmmod"
}

# Governors alternated after the variants: run i has variant i % 2 and
# governor (i / 2) % 2, set on every CPU (the workload sees it and what
# it asked of the driver), each run tagged; the machine's own governors,
# one per CPU, back after; --compare by tag and by meta groups the runs.
t_cond_governors() {
	local R=$top/tools/clkstat-report out=/tmp/gv.db i g own
	insmod "$KO" probes=ttwu,tkread
	ff_load
	set_govs schedutil userspace
	own=$(govs)
	gov_workload 0
	rm -f $out
	"$R" record -q -o $out --runs 8 --variants ftrace,kprobe \
		--governors performance,powersave -- /tmp/gov_wl.sh 2> /tmp/err ||
		fail "record failed: $(cat /tmp/err)"
	[ ! -s /tmp/err ] || fail "record said: $(cat /tmp/err)"
	expect_govs "after the recording" "$own"
	for i in 0 1 2 3 4 5 6 7; do
		g=performance
		[ $(((i / 2) % 2)) = 1 ] && g=powersave
		expect_eq "run $i saw" "$(gseen $i)" "$(gwant $g)"
	done
	"$R" info -i $out > /tmp/meta
	expect_eq "conditions" "$(meta_of conditions)" "governors=performance,powersave"
	g="schedutil:0 userspace:1"
	[ "$(nproc)" = 2 ] || g="schedutil:0 userspace:1-$(($(nproc) - 1))"
	expect_eq "the machine's governors in the meta" "$(meta_of cpufreq_governor)" "$g"
	expect_eq "run variants and tags" \
		"$(awk '$1 == "run" { printf "%s %s;", $4, $16 }' /tmp/meta)" \
		"ftrace governor=performance;kprobe governor=performance;ftrace governor=powersave;kprobe governor=powersave;ftrace governor=performance;kprobe governor=performance;ftrace governor=powersave;kprobe governor=powersave;"
	# --compare by the runs' tag, and by meta:cpufreq_governor (the
	# run's tag first): 4 runs a side, 2 per variant, the same numbers.
	"$R" -i $out --compare tag:governor=performance --base tag:governor=powersave \
		--metric ttwu_enqueue --resamples 200 --json > /tmp/cmp.json 2> /tmp/err ||
		fail "--compare tag:governor: $(cat /tmp/err)"
	"$R" -i $out --compare meta:cpufreq_governor=performance \
		--base meta:cpufreq_governor=powersave \
		--metric ttwu_enqueue --resamples 200 --json > /tmp/cmp2.json 2> /tmp/err ||
		fail "--compare meta:cpufreq_governor: $(cat /tmp/err)"
	/usr/bin/python3 - /tmp/cmp.json /tmp/cmp2.json <<'PY' || fail "compare: $(head -c 600 /tmp/cmp.json)"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in a, b:
    ms = {m["metric"]: m for m in d["metrics"]}
    assert set(ms) == {"ttwu_enqueue.ftrace", "ttwu_enqueue.kprobe"}, ms.keys()
    for m in ms.values():
        assert [s["runs"] for s in m["strata"]] == [2, 2], m["strata"]
for x, y in zip(a["metrics"], b["metrics"]):
    assert x["diff"] == y["diff"], (x["diff"], y["diff"])
PY
}

# The governors come back whatever happens: a failing workload, SIGINT
# (to record and to its guard) and SIGKILL to record in the middle of a
# run, when the guard gives them back after record is gone.
t_cond_gov_restore() {
	local R=$top/tools/clkstat-report rc pid
	# A test that fails lets a held workload go.
	trap 'touch $GW.go' EXIT
	insmod "$KO" probes=ttwu,tkread
	ff_load
	set_govs schedutil
	rm -f /tmp/gf.db /tmp/gi.db /tmp/gk.db*
	# A workload that fails: its runs kept, record's status 9.
	gov_workload 0 1
	rc=0; "$R" record -q -o /tmp/gf.db --runs 2 --governors powersave \
		-- /tmp/gov_wl.sh 2> /tmp/err || rc=$?
	expect_eq "exit status, workload failed" "$rc" 9
	expect_eq "run 0 saw" "$(gseen 0)" "$(gwant powersave)"
	expect_govs "after a failing workload" "$(every schedutil)"
	# SIGINT in the middle of the first run: it ends, is committed, no
	# other run begins, the governors are back.
	gov_workload hold
	"$R" record -q -o /tmp/gi.db --runs 4 --governors performance \
		-- /tmp/gov_wl.sh 2> /tmp/err &
	pid=$!
	wait_file $GW/run.0
	expect_eq "during the run: governors, guards" "$(govs) $(guards)" "$(every performance) 1"
	pkill -INT -x clkstat-guard
	kill -INT $pid
	touch $GW.go
	rc=0; wait $pid || rc=$?
	expect_eq "exit status after SIGINT" "$rc" 0
	expect_eq "after SIGINT" "$(cat /tmp/err)" \
		"clkstat-report: record: interrupted; the 1 runs done are in /tmp/gi.db"
	expect_eq "seen by run 0" "$(gseen 0)" "$(gwant performance)"
	expect_govs "after SIGINT" "$(every schedutil)"
	# SIGKILL: no handler of record's runs; its guard sees the socket
	# close and gives the governors back.
	gov_workload hold
	"$R" record -q -o /tmp/gk.db --runs 4 --governors powersave,performance \
		-- /tmp/gov_wl.sh 2> /tmp/err &
	pid=$!
	wait_file $GW/run.0
	expect_eq "during the run: governors, guards" "$(govs) $(guards)" "$(every powersave) 1"
	kill -KILL $pid
	wait $pid 2>/dev/null || true
	expect_govs "after SIGKILL" "$(every schedutil)"
	"$R" info -i /tmp/gk.db > /tmp/meta 2> /tmp/err ||
		fail "the study a killed record left does not open: $(cat /tmp/err)"
	expect_eq "its conditions" "$(meta_of conditions)" "governors=powersave,performance"
	# The orphaned workload, let go, ends before rmmod.
	touch $GW.go
	wait_file $GW.end
}

# refused WHAT WANT COMMAND...: COMMAND (a record) refused in one line,
# WANT, exit status 2, no /tmp/gr.db, the governors as they were, no
# guard.
refused() {
	local what=$1 want=$2 rc=0 before out
	shift 2
	before=$(govs 2>/dev/null)
	out=$("$@" 2>&1) || rc=$?
	expect_eq "$what: exit status" "$rc" 2
	expect_eq "$what: says" "$out" "$want"
	[ ! -e /tmp/gr.db ] || fail "$what: /tmp/gr.db written"
	expect_eq "$what: governors" "$(govs 2>/dev/null)" "$before"
	expect_eq "$what: guards" "$(guards)" 0
}

# Refused before run 1: no cpufreq, a governor the machine lacks (the
# nearest named; one built as a module and not loaded), not root,
# --tag governor= beside --governors.
t_cond_gov_refusals() {
	local R=$top/tools/clkstat-report avail
	insmod "$KO" probes=ttwu,tkread
	rm -f /tmp/gr.db
	refused "no cpufreq" \
		"clkstat-report: record: --governors: this machine has no cpufreq driver (no $CPUFREQ/policy* with an online CPU): no governor to set (nothing recorded)" \
		"$R" record -q -o /tmp/gr.db --governors performance -- true
	ff_load
	rmmod cpufreq_conservative 2>/dev/null || true
	set_govs schedutil powersave
	avail=$(cat $CPUFREQ/policy0/scaling_available_governors | xargs)
	refused "a mistyped governor" \
		"clkstat-report: record: --governors: no governor 'powersav' on this machine (policy0) (did you mean powersave?); it has $avail (a governor built as a module is listed once loaded: modprobe cpufreq_NAME) (nothing recorded)" \
		"$R" record -q -o /tmp/gr.db --governors performance,powersav -- true
	refused "a governor not loaded" \
		"clkstat-report: record: --governors: no governor 'conservative' on this machine (policy0); it has $avail (a governor built as a module is listed once loaded: modprobe cpufreq_NAME) (nothing recorded)" \
		"$R" record -q -o /tmp/gr.db --governors conservative -- true
	refused "--tag governor=" \
		"clkstat-report: record: --tag governor=... and --governors: each run's own governor tag says its governor" \
		"$R" record -q -o /tmp/gr.db --governors performance --tag governor=x -- true
	# Not root: a copy of the program (the checkout's folder may be
	# root's alone) run as nobody.
	cp "$R" /tmp/cr-nobody
	chmod 755 /tmp/cr-nobody
	refused "not root" \
		"clkstat-report: record: --governors: cannot write $CPUFREQ/policy0/scaling_governor (Permission denied): setting governors needs root (nothing recorded)" \
		setpriv --reuid=65534 --regid=65534 --clear-groups /tmp/cr-nobody \
		record -q -o /tmp/gr.db --governors performance -- true
	rm -f /tmp/cr-nobody
}

# The suite, in the order module_tests.sh runs it.
CONDITIONS_TESTS="t_cond_cstates t_cond_restore t_cond_load t_cond_gov_meta
	t_cond_governors t_cond_gov_restore t_cond_gov_refusals"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$CONDITIONS_TESTS}
