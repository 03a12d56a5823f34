#!/bin/bash
# suite_study.sh - record's study file (Documentation/clkstat-study.rst,
# tools/report/record_study.c): each run committed as it ends, so that a
# record killed with SIGKILL leaves its finished runs in a file that
# opens, and a copy of the file alone taken while a run is being written
# holds the runs before it; --append adds runs to a study whose metadata
# pools and refuses one that does not, or a second writer, in one line,
# the file unchanged; events and xcorr on a study say what they say on
# its JSON export, holding one run's events at a time; a study recorded
# into a 9p folder (run-guest.sh --out's, as the README's first study);
# the study document's examples run against a recorded study.
# usage: suite_study.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SR=$top/tools/clkstat-report

# study_wait_file F: up to 600 s for F to exist.
study_wait_file() {
	local i
	for i in $(seq 6000); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	fail "$1 never appeared"
}

# study_runs STUDY: the runs info counts in it.
study_runs() { "$SR" info -i "$1" | awk '$1 == "runs" { print $2 }'; }

# study_count STUDY RUN METRIC VARIANT: the run's count of METRIC.VARIANT,
# all CPUs.
study_count() {
	"$SR" -i "$1" --run "$2" --csv |
		awk -F, -v m="$3" -v v="$4" '$1 == m && $2 == v && $3 == "all" { print $4 }'
}

# study_integrity STUDY: SQLite's own check of the whole file.
study_integrity() {
	expect_eq "$1: PRAGMA integrity_check" "$(sqlite3 "$1" 'PRAGMA integrity_check')" ok
}

# SIGKILL in the middle of run 4 of 6 (its ping-pong in its rounds, the
# module's window open): record can neither end the run nor put the
# module back.  Its study holds runs 1 to 3 whole, committed as each
# ended: it opens, each run's counts are its workload's truth (the
# pinned ping-pong opens its own window: exact), the metadata is there,
# SQLite finds the file sound, and another record can add runs to it
# (the lock went with the process).  The module is left as the killed
# run had it (its variant, recording, the workload's tgid filter): that
# is checked, then put right by hand, and it records exactly and
# unloads.
t_study_kill9() {
	local db=/tmp/k9.db W=/tmp/k9.w pid rc i w v pp
	insmod "$KO" probes=ttwu,tkread
	rm -rf $db $db-* $W $W.held
	mkdir -p $W
	# Run N (from 0) notes itself in $W; run 3 holds its ping-pong,
	# long, in the background, its pid in $W.held.
	cat > /tmp/k9.sh <<EOF
#!/bin/sh
n=\$(ls $W | wc -l)
touch $W/\$n
if [ \$n = 3 ]; then
	"$PINGPONG" -n 10000000 --reads 1 --control "$D/control" > /dev/null &
	echo \$! > $W.held.tmp && mv $W.held.tmp $W.held
	wait
	exit 3
fi
exec "$PINGPONG" -n 2000 --reads 1 --control "$D/control"
EOF
	chmod +x /tmp/k9.sh
	"$SR" record -o $db --runs 6 --variants ftrace,kprobe -- /tmp/k9.sh \
		> /tmp/k9.truths 2> /tmp/k9.err &
	pid=$!
	# A test that fails leaves neither record nor the held workload.
	# shellcheck disable=SC2064
	trap "kill -KILL $pid \$(cat $W.held 2> /dev/null) 2> /dev/null || true" EXIT
	study_wait_file $W.held
	pp=$(cat $W.held)
	# Its rounds have begun: the window is open, filtered to it.
	for i in $(seq 600); do
		[ "$(awk '$1 == "tgid" { print $2 }' "$D/control")" = "$pp" ] && break
		sleep 0.1
	done
	expect_eq "the held run's tgid filter" "$(awk '$1 == "tgid" { print $2 }' "$D/control")" "$pp"
	sleep 0.5
	expect_eq "progress before the kill" "$(grep -c '^record: run [0-9]*/6' /tmp/k9.err)" 3
	kill -KILL $pid
	rc=0; wait $pid 2> /dev/null || rc=$?
	expect_eq "record's status after SIGKILL" "$rc" 137
	# What the killed record left in the module: run 4's variant, its
	# window open, the dead workload's tgid (after its ping-pong is
	# killed too: the window's "stop" never comes).
	note "left by the killed record: $(head -1 "$D/control"); tgid $(awk '$1 == "tgid" { print $2 }' "$D/control"); $(grep -c 'recording on' "$D/control") metrics recording"
	kill -KILL "$pp"
	expect_eq "variant left" "$(head -1 "$D/control" | awk '{ print $1, $2 }')" "variant kprobe"
	grep -q '^metric ttwu_enqueue variant kprobe recording on$' "$D/control" ||
		fail "the killed run's window: $(cat "$D/control")"
	note "files left: $(cd /tmp && ls -d k9.db* | tr '\n' ' ')"
	# The study: opens, runs 1 to 3, each exact.
	"$SR" info -i $db > /tmp/k9.meta 2> /tmp/err ||
		fail "the study of a killed record does not open: $(cat /tmp/err)"
	meta() { awk -v k="$1" '$1 == k { sub(/^[^ ]* /, ""); print; exit }' /tmp/k9.meta; }
	expect_eq "runs" "$(meta runs)" 3
	expect_eq "variants of the runs" "$(awk '$1 == "run" { printf "%s ", $4 }' /tmp/k9.meta)" \
		"ftrace kprobe ftrace "
	expect_eq "exit statuses" "$(awk '$1 == "run" { printf "%s ", $10 }' /tmp/k9.meta)" "0 0 0 "
	expect_eq "metadata: variants" "$(meta variants)" ftrace,kprobe
	expect_eq "metadata: kernel" "$(meta kernel_release)" "$(uname -r)"
	expect_eq "metadata: command" "$(meta command)" /tmp/k9.sh
	expect_eq "metadata: probes param" \
		"$(awk '$1 == "param" && $2 == "probes" { print $3 }' /tmp/k9.meta)" ttwu,tkread
	expect_eq "truths of the runs done" "$(grep -c '^wakeups' /tmp/k9.truths)" 3
	for i in 0 1 2; do
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/k9.truths)
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/k9.meta)
		expect_eq "run $i ttwu_enqueue.$v count" "$(study_count $db $i ttwu_enqueue "$v")" "$w"
		expect_eq "run $i ttwu_tkread.$v count" "$(study_count $db $i ttwu_tkread "$v")" "$w"
	done
	note "runs 1 to 3: $(awk '$1 == "wakeups" { printf "%s ", $2 }' /tmp/k9.truths)wakeups, each counted exactly"
	study_integrity $db
	expect_eq "runs (SQL)" "$(sqlite3 $db 'SELECT count(*) FROM runs')" 3
	expect_eq "runs with metrics (SQL)" \
		"$(sqlite3 $db 'SELECT count(DISTINCT run) FROM metrics')" 3
	# The lock went with the process: another record adds to it.
	"$SR" record -q --append -o $db --runs 1 --variants ftrace -- \
		"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null 2> /tmp/err ||
		fail "record --append to the killed record's study: $(cat /tmp/err)"
	expect_eq "runs after --append" "$(study_runs $db)" 4
	# The module, put right by hand: usable, exact, unloads.
	echo "tgid 0" > "$D/control"
	echo "variant direct" > "$D/control" || fail "variant direct refused"
	"$PINGPONG" -n 100 --control "$D/control" > /tmp/truth || fail "workload after the kill"
	expect_eq "after the kill: ttwu_enqueue count" "$(field ttwu_enqueue count)" \
		"$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)"
	rmmod clkstat || fail "rmmod after the killed record"
}

# study_lock PID INODE BYTE: does PID hold a POSIX lock on byte BYTE of
# the file INODE (/proc/locks)?  SQLite's WAL locks are bytes of the
# -shm file from 120: 120 the writer's (held from BEGIN to COMMIT), 121
# the checkpointer's.
study_lock() {
	awk -v p="$1" -v i="$2" -v b="$3" '
		$2 == "POSIX" && $5 == p && $6 ~ (":" i "$") && $7 <= b && ($8 == "EOF" || $8 >= b) { f = 1 }
		END { exit !f }' /proc/locks
}

# cp of the study file alone (not its -wal) while a run is being written:
# record caught (SIGSTOP) holding the WAL's write lock and not the
# checkpointer's, in run 2 or later of runs with --events (big: their
# rows take a while); the copy opens with exactly the runs committed
# (those whose progress line record printed), each run as in the
# finished study, events too, and SQLite finds it sound.
t_study_copy_midrun() {
	local db=/tmp/cpm.db cp=/tmp/copy.db pid ino k=-1 i tries=0 wal=0
	insmod "$KO" probes=ttwu,tkread,marker events=65536
	rm -f $db $db-* $cp $cp-*
	"$SR" record -o $db --runs 4 --variants kprobe,ftrace --events 200000 -- \
		"$PINGPONG" -n 3000 --reads 1 > /dev/null 2> /tmp/cpm.err &
	pid=$!
	# Whatever ends the test, record is not left stopped.
	# shellcheck disable=SC2064
	trap "kill -CONT $pid 2> /dev/null || true" EXIT
	while kill -0 $pid 2> /dev/null && ! grep -q '^record: run 1/4' /tmp/cpm.err; do
		sleep 0.1
	done
	ino=$(stat -c %i $db-shm) || fail "no $db-shm during the recording"
	while kill -0 $pid 2> /dev/null; do
		if study_lock $pid "$ino" 120 && ! study_lock $pid "$ino" 121; then
			tries=$((tries + 1))
			kill -STOP $pid
			if study_lock $pid "$ino" 120 && ! study_lock $pid "$ino" 121; then
				k=$(grep -c '^record: run [0-9]*/4' /tmp/cpm.err || true)
				wal=$(stat -c %s $db-wal 2> /dev/null || echo none)
				cp $db $cp || true
				kill -CONT $pid
				break
			fi
			kill -CONT $pid
		fi
		sleep 0.02
	done
	wait $pid || fail "record: $(cat /tmp/cpm.err)"
	[ "$k" -ge 1 ] || fail "never caught a run being written ($tries tries)"
	note "copied in run $((k + 1)) of 4 (caught on try $tries), its pages in the WAL so far: $wal bytes; the copy $(stat -c %s $cp) bytes"
	[ ! -e $cp-wal ] || fail "a -wal beside the copy"
	expect_eq "runs in the copy" "$(study_runs $cp)" "$k"
	expect_eq "runs in the study" "$(study_runs $db)" 4
	for i in $(seq 0 $((k - 1))); do
		"$SR" -i $cp --run "$i" raw > /tmp/cpm.a || fail "raw of the copy's run $i"
		"$SR" -i $db --run "$i" raw > /tmp/cpm.b || fail "raw of the study's run $i"
		cmp -s /tmp/cpm.a /tmp/cpm.b || fail "run $i: the copy's and the study's differ"
		"$SR" -i $cp --run "$i" events --format csv > /tmp/cpm.a || fail "events of the copy's run $i"
		"$SR" -i $db --run "$i" events --format csv > /tmp/cpm.b || fail "events of the study's run $i"
		cmp -s /tmp/cpm.a /tmp/cpm.b || fail "run $i: the copy's and the study's events differ"
	done
	note "the copy's $k runs: $(($(wc -l < /tmp/cpm.b) - 1)) events in the last, as in the study"
	study_integrity $cp
	study_integrity $db
}

# --append: 2 runs, then 2 more, numbered on, each counted exactly; a
# field that may differ (variants, command, duration) a warning each,
# the study keeping its own; a field that must match (the module's
# frac_bits; the twin's --frac-bits) refused in one line, the file's
# bytes unchanged; a second writer while the first runs refused in one
# line, while a reader reads the runs committed.
t_study_append() {
	local db=/tmp/app.db tw=/tmp/appt.db rc pid i w v
	insmod "$KO" probes=ttwu,tkread
	rm -f $db $db-* $tw $tw-* /tmp/app.go /tmp/app.in
	"$SR" record -q -o $db --runs 2 --variants ftrace,kprobe -- \
		"$PINGPONG" -n 100 --reads 1 --control "$D/control" > /tmp/app.truths 2> /tmp/err ||
		fail "record: $(cat /tmp/err)"
	"$SR" record --append -o $db --runs 2 --variants ftrace,kprobe -- \
		"$PINGPONG" -n 100 --reads 1 --control "$D/control" >> /tmp/app.truths 2> /tmp/err ||
		fail "record --append: $(cat /tmp/err)"
	! grep -q warning /tmp/err || fail "the same setup warned: $(cat /tmp/err)"
	expect_eq "record --append's last line" "$(tail -1 /tmp/err)" \
		"record: 2 runs added to $db (4 in all)"
	"$SR" info -i $db > /tmp/meta
	expect_eq "runs" "$(awk '$1 == "runs" { print $2 }' /tmp/meta)" 4
	expect_eq "runs numbered on" "$(awk '$1 == "run" { printf "%s %s ", $2, $4 }' /tmp/meta)" \
		"0 ftrace 1 kprobe 2 ftrace 3 kprobe "
	for i in 0 1 2 3; do
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/app.truths)
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/meta)
		expect_eq "run $i ttwu_tkread.$v count" "$(study_count $db $i ttwu_tkread "$v")" "$w"
	done
	# May differ: a warning each, the study's own kept.
	rc=0; "$SR" record -q --append -o $db --runs 1 --variants direct --duration 0.2 2> /tmp/err || rc=$?
	expect_eq "exit status, appended with warnings" "$rc" 0
	note "$(tr '\n' '|' < /tmp/err)"
	grep -qx "clkstat-report: warning: $db: variants is 'ftrace,kprobe' in the study, 'direct' in the runs added; the study keeps its own" /tmp/err ||
		fail "no variants warning: $(cat /tmp/err)"
	grep -qx "clkstat-report: warning: $db: duration_s is '0' in the study, '0.2' in the runs added; the study keeps its own" /tmp/err ||
		fail "no duration_s warning: $(cat /tmp/err)"
	expect_eq "warnings" "$(grep -c 'warning' /tmp/err)" 3
	"$SR" info -i $db > /tmp/meta
	expect_eq "runs" "$(awk '$1 == "runs" { print $2 }' /tmp/meta)" 5
	expect_eq "the study's variants kept" "$(awk '$1 == "variants" { print $2 }' /tmp/meta)" ftrace,kprobe
	# Must match: the module reloaded with another frac_bits.  One line,
	# though variants, command and duration differ too; nothing changed.
	rmmod clkstat
	insmod "$KO" probes=ttwu,tkread frac_bits=4
	cp $db /tmp/app.before
	rc=0; "$SR" record -q --append -o $db --runs 1 --duration 0.2 2> /tmp/err || rc=$?
	expect_eq "exit status, frac_bits 4" "$rc" 2
	expect_eq "refused" "$(cat /tmp/err)" \
		"clkstat-report: $db: cannot add these runs: frac_bits is '3' in the study, '4' in the runs to add (a study holds the runs of one setup; -o another file)"
	cmp -s $db /tmp/app.before || fail "a refused --append changed the study"
	[ -z "$(ls $db-* 2> /dev/null)" ] || fail "SQLite's files left: $(ls $db-*)"
	expect_eq "the module untouched" "$(head -1 "$D/control" | awk '{ print $1, $2 }')" "variant direct"
	rmmod clkstat
	insmod "$KO" probes=ttwu,tkread
	# The twin's own frac_bits (--frac-bits): its runs of one variant
	# must pool too; the module's frac_bits is the same.
	"$SR" record -q -o $tw --runs 1 --workload-only --variants bpf-kprobe --probes ttwu \
		-- "$PINGPONG" -n 50 > /dev/null 2> /tmp/err || fail "twin record: $(cat /tmp/err)"
	cp $tw /tmp/app.before
	rc=0; "$SR" record -q --append -o $tw --runs 1 --workload-only --variants bpf-kprobe \
		--probes ttwu --frac-bits 4 -- "$PINGPONG" -n 50 > /dev/null 2> /tmp/err || rc=$?
	note "twin at --frac-bits 4: $(cat /tmp/err)"
	expect_eq "exit status, twin at --frac-bits 4" "$rc" 2
	expect_eq "lines" "$(wc -l < /tmp/err)" 1
	grep -q "frac_bits" /tmp/err || fail "the refusal does not name frac_bits: $(cat /tmp/err)"
	cmp -s $tw /tmp/app.before || fail "a refused twin --append changed the study"
	"$SR" -i $tw > /dev/null || fail "the twin's study no longer reads"
	# A second writer while the first runs: refused; a reader reads.
	# (A test that fails lets the held run go.)
	trap 'touch /tmp/app.go' EXIT
	"$SR" record -q --append -o $db --runs 1 --variants ftrace -- \
		sh -c "touch /tmp/app.in; while [ ! -e /tmp/app.go ]; do sleep 0.1; done" 2> /tmp/err1 &
	pid=$!
	study_wait_file /tmp/app.in
	expect_eq "runs, read during a run" "$(study_runs $db)" 5
	cp $db /tmp/app.before
	rc=0; "$SR" record -q --append -o $db --runs 1 --duration 0.2 2> /tmp/err || rc=$?
	expect_eq "exit status, a second writer" "$rc" 2
	expect_eq "a second writer" "$(cat /tmp/err)" \
		"clkstat-report: $db: another clkstat-report is writing this study (it holds the lock): one writer at a time"
	cmp -s $db /tmp/app.before || fail "the refused writer changed the study"
	touch /tmp/app.go
	rc=0; wait $pid || rc=$?
	expect_eq "the first writer's status" "$rc" 0
	! grep -v '^clkstat-report: warning: ' /tmp/err1 | grep -q . ||
		fail "the first writer said: $(cat /tmp/err1)"
	expect_eq "runs after both" "$(study_runs $db)" 6
	expect_eq "the last run" "$("$SR" info -i $db | awk '$1 == "run" && $2 == 5 { print $4 }')" ftrace
	study_integrity $db
}

# study_peak_kb OUT CMD...: CMD's stdout into OUT; its peak RSS in KB on
# stdout (/usr/bin/time's, else VmHWM polled).
study_peak_kb() {
	local out=$1 p h hwm=0
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o /tmp/peak.kb "$@" > "$out" || return 1
		tail -1 /tmp/peak.kb
		return
	fi
	"$@" > "$out" &
	p=$!
	while kill -0 $p 2> /dev/null; do
		h=$(awk '$1 == "VmHWM:" { print $2 }' /proc/$p/status 2> /dev/null)
		[ -z "$h" ] || hwm=$h
		sleep 0.05
	done
	wait $p || return 1
	echo "$hwm"
}

# record --events 100000 over 4 runs: events (CSV, JSON Lines, text) and
# xcorr (all runs, one run) print the same on the study as on its JSON
# export, the CSV a row per event of the study's events table; events on
# the study peaks below its peak on the JSON (one run's events held at a
# time, against the JSON document whole).
t_study_events_bounded() {
	local db=/tmp/evb.db j=/tmp/evb.json f n ms mj
	insmod "$KO" probes=ttwu,tkread,marker events=65536
	rm -f $db $db-* $j
	"$SR" record -q -o $db --runs 4 --variants kprobe,ftrace --events 100000 -- \
		"$PINGPONG" -n 4000 --reads 1 > /dev/null 2> /tmp/err ||
		fail "record: $(cat /tmp/err)"
	[ ! -s /tmp/err ] || fail "record said: $(cat /tmp/err)"
	"$SR" export -i $db --format json -o $j || fail "export"
	for f in csv jsonl text; do
		"$SR" -i $db events --format $f > /tmp/evb.a 2> /tmp/err || fail "events $f, study: $(cat /tmp/err)"
		"$SR" -i $j events --format $f > /tmp/evb.b 2> /tmp/err || fail "events $f, JSON: $(cat /tmp/err)"
		cmp -s /tmp/evb.a /tmp/evb.b || fail "events $f: the study's and the JSON's differ: $(diff /tmp/evb.a /tmp/evb.b | head -4)"
	done
	"$SR" -i $db events --format csv > /tmp/evb.a
	n=$(sqlite3 $db 'SELECT count(*) FROM events')
	expect_eq "CSV rows, the study's events" "$(($(wc -l < /tmp/evb.a) - 1))" "$n"
	[ "$n" -ge 80000 ] || fail "only $n events in 4 runs"
	for f in "" "--run 1"; do
		# shellcheck disable=SC2086
		"$SR" -i $db $f xcorr wakeup enqueue --bin 100us --max-lag 2ms -B 200 --json > /tmp/evb.a ||
			fail "xcorr $f, study"
		# shellcheck disable=SC2086
		"$SR" -i $j $f xcorr wakeup enqueue --bin 100us --max-lag 2ms -B 200 --json > /tmp/evb.b ||
			fail "xcorr $f, JSON"
		cmp -s /tmp/evb.a /tmp/evb.b || fail "xcorr $f: the study's and the JSON's differ: $(diff /tmp/evb.a /tmp/evb.b | head -4)"
	done
	ms=$(study_peak_kb /tmp/evb.a "$SR" -i $db events --format csv) || fail "events on the study"
	mj=$(study_peak_kb /tmp/evb.b "$SR" -i $j events --format csv) || fail "events on the JSON"
	cmp -s /tmp/evb.a /tmp/evb.b || fail "events csv differ"
	note "events --format csv, $n events in 4 runs: peak RSS $ms KB on the study ($(stat -c %s $db) bytes), $mj KB on its JSON ($(stat -c %s $j) bytes)"
	[ "$ms" -lt "$mj" ] || fail "peak RSS on the study $ms KB, not below the JSON's $mj KB"
}

# record into the results folder, as the README's first study does into
# run-guest.sh --out's: a 9p mount of the host's folder (no shared
# writable mmap: SQLite's WAL index cannot live in a file there).  The
# runs are recorded and counted exactly, another added with --append, and
# nothing but the study is left there.
t_study_9p() {
	local out=${CLKSTAT_GUEST_OUT:-} db i w v
	if [ -z "$out" ]; then
		note "no results folder (CLKSTAT_GUEST_OUT): nothing to check"
		return 0
	fi
	db=$out/study-9p.db
	note "the results folder: $(awk -v d="$out" '$2 == d { print $3, $4 }' /proc/mounts)"
	insmod "$KO" probes=ttwu,tkread
	rm -f "$db" "$db"-*
	"$SR" record -q -o "$db" --runs 2 --variants ftrace,kprobe -- \
		"$PINGPONG" -n 100 --reads 1 --control "$D/control" > /tmp/9p.truths 2> /tmp/err ||
		fail "record into $out: $(cat /tmp/err)"
	"$SR" record -q --append -o "$db" --runs 1 --variants ftrace,kprobe -- \
		"$PINGPONG" -n 100 --reads 1 --control "$D/control" >> /tmp/9p.truths 2> /tmp/err ||
		fail "record --append into $out: $(cat /tmp/err)"
	"$SR" info -i "$db" > /tmp/meta || fail "info"
	expect_eq "runs" "$(awk '$1 == "run" { printf "%s ", $4 }' /tmp/meta)" "ftrace kprobe ftrace "
	for i in 0 1 2; do
		w=$(awk -v i=$i '$1 == "wakeups" && n++ == i { print $2 }' /tmp/9p.truths)
		v=$(awk -v i=$i '$1 == "run" && $2 == i { print $4 }' /tmp/meta)
		expect_eq "run $i ttwu_tkread.$v count" "$(study_count "$db" $i ttwu_tkread "$v")" "$w"
	done
	[ -z "$(ls "$db"-* 2> /dev/null)" ] || fail "left beside the study: $(ls "$db"-*)"
	rm -f "$db"
}

# Every example Documentation/clkstat-study.rst shows (sqlite3 and pandas)
# run against a study recorded here as its reader would record one: with
# events and markers, two variants under two C-state conditions, so that
# each query has rows of each kind to find (study_docs_check.py: exit 0,
# rows out, nothing on stderr).
t_study_docs() {
	local db=/tmp/docs.db
	insmod "$KO" probes=ttwu,tkread,marker events=65536
	rm -f $db $db-*
	"$SR" record -q -o $db --runs 8 --variants kprobe,ftrace --cstates qos0,free \
		--events 20000 -- "$PINGPONG" -n 300 --reads 1 > /dev/null 2> /tmp/err ||
		fail "record: $(cat /tmp/err)"
	expect_eq "runs by variant and cstate" \
		"$(sqlite3 $db "SELECT r.variant || '/' || t.value FROM runs AS r JOIN run_tags AS t ON t.run = r.run AND t.name = 'cstate' ORDER BY 1" | sort -u | tr '\n' ' ')" \
		"ftrace/free ftrace/qos0 kprobe/free kprobe/qos0 "
	expect_eq "runs with run_start and run_end markers" \
		"$(sqlite3 $db "SELECT count(DISTINCT run) FROM events_v WHERE type = 'marker' AND text IN ('run_start', 'run_end')")" 8
	/usr/bin/python3 "$top/tools/tests/study_docs_check.py" "$top/Documentation/clkstat-study.rst" $db > /tmp/docs.out 2>&1 ||
		fail "the study document's examples: $(grep -A6 '^not ok' /tmp/docs.out | head -20)"
	note "$(tail -1 /tmp/docs.out): $(grep -c '^ok' /tmp/docs.out) examples of clkstat-study.rst on a study of $(sqlite3 $db 'SELECT count(*) FROM events') events"
	rm -f $db
}

# The suite, in the order module_tests.sh runs it.
STUDY_TESTS="t_study_kill9 t_study_copy_midrun t_study_append t_study_events_bounded
	t_study_9p t_study_docs"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$STUDY_TESTS}
