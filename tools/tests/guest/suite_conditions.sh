#!/bin/bash
# suite_conditions.sh - record's conditions: --cstates held
# through /dev/cpu_dma_latency and --load's spinners, alternated after the
# variants, each run tagged; the machine's setting restored and no spinner
# left whatever happens to record (a normal end, a failing workload,
# SIGINT, SIGKILL); --compare tag:cstate=... on such a recording.
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
	grep -q '"version": 4' "$j" || fail "not format version 4"
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

# The suite, in the order module_tests.sh runs it.
CONDITIONS_TESTS="t_cond_cstates t_cond_restore t_cond_load"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$CONDITIONS_TESTS}
