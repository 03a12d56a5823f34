#!/bin/bash
# hardening_race.sh - readers racing with resets, stops, starts and
# recording (Documentation/clkstat-hardening.rst, "Readers, resets and
# recording"): debugfs reads and netlink dumps in loops while a
# wakeup storm records and other loops reset and stop/start the metrics.
# What a reader sees must never be negative, never more than was recorded,
# and never a mix of two resets.  Runs on any kernel; tools/tests/debug.sh
# runs it on the debug kernel.  The exact bound per reset is KUnit's
# hist_reset_race (kunit/hist_kunit.c), which needs two CPUs: it runs in
# the debug kernel's guest too (hardening_kunit.sh).
set -u
. "$(dirname "$0")/lib.sh"
R=$top/tools/clkstat-report

# One debugfs read of METRIC: "resets count slotsum wakeups" or a reason
# to fail.  Every number must be below 2^62 (a negative difference of u64
# would be near 2^64), the slots must add up to the summary's count, and
# the summary must be in order.
dfs_read() {
	awk '
		function big(x) { return length(x) > 18 }
		NR == 1 { for (i = 1; i < NF; i++) if ($i == "resets") r = $(i + 1) }
		$1 == "slot" && $4 == "all" { n += $8; if (big($8)) bad = "slot count " $8 }
		$1 == "summary" { for (i = 2; i < NF; i += 2) s[$i] = $(i + 1) }
		$1 == "counter" && $2 == "wakeups" { w = $3 }
		$1 == "counter" && big($3) { bad = "counter " $2 " " $3 }
		END {
			if (r == "") bad = "no resets in the header"
			if (n != s["count"]) bad = "slots add up to " n ", summary says " s["count"]
			if (n > 0 && !(s["min"] <= s["p50"] && s["p50"] <= s["p99.9"] && s["p99.9"] <= s["max"]))
				bad = "summary out of order"
			if (bad != "") { print "bad: " bad; exit }
			print r, n + 0, w + 0
		}' "$1"
}

# One netlink dump (clkstat-report raw): "resets count" of METRIC.VARIANT's
# all-CPU block, the same checks.
nl_read() {
	"$R" raw | awk -v id="$1" '
		function big(x) { return length(x) > 18 }
		$1 == "metric" { cur = ($2 == id && $4 == "all") }
		cur && $1 == "resets" { r = $2 }
		cur && $1 == "slot" { n += $4; if (big($4) || big($6)) bad = "slot " $0 }
		cur && $1 == "counter" && big($3) { bad = "counter " $0 }
		END {
			if (r == "") bad = "no resets line for " id
			if (bad != "") { print "bad: " bad; exit }
			print r, n + 0
		}'
}

# Readers race with resets of ttwu_enqueue_local and with stops and
# starts of ttwu_enqueue_migrated, under a wakeup storm: each resets,
# stops or starts the family, ttwu_enqueue with its two parts
# (Documentation/clkstat-probes.rst, "The ttwu probe"), which all show the same
# "resets".  ttwu_enqueue is the sum of its parts: read after
# ttwu_enqueue_local within the same reset, it bounds it; a reader that
# saw more in ttwu_enqueue_local than ttwu_enqueue holds afterwards saw
# samples from before a reset.  Each read is one reset's whole (a
# snapshot is taken under the reset lock); the slack of one sample per
# CPU is kept from when the total was recorded apart.  Within one reset
# (the same "resets"), successive reads never go down.  The reads go on
# past CLKSTAT_RACE_READS until the race has run (10 resets seen, and a
# read that saw something recorded), up to 600 s: how many resets fit in
# a number of reads depends on the machine.
t_race_readers() {
	local n=${CLKSTAT_RACE_READS:-100} i=0 line prev_r=-1 prev_n=0 r c w tot
	local end=$((SECONDS + 600))
	local slack; slack=$(nproc)
	local nl_prev_r=-1 nl_prev_n=0 resets1 seen=0
	insmod "$KO" probes=ttwu
	storm_niced_start
	( while :; do echo "reset ttwu_enqueue_local.$V" > "$D/control"; sleep 0.02; done ) &
	local resetter=$!
	( while :; do echo "stop ttwu_enqueue_migrated.$V" > "$D/control"; sleep 0.05
		      echo "start ttwu_enqueue_migrated.$V" > "$D/control"; sleep 0.05; done ) &
	local toggler=$!
	# A second debugfs reader, reading while the first one checks.
	( while :; do cat "$D/ttwu_enqueue_local.$V" "$D/ttwu_enqueue_migrated.$V" > /dev/null; done ) &
	local reader2=$!
	local rc=0 why=""
	while [ "$i" -lt "$n" ] ||
	      { { [ "$prev_r" -lt 10 ] || [ "$seen" = 0 ]; } && [ $SECONDS -lt $end ]; }; do
		i=$((i + 1))
		line=$(dfs_read "$D/ttwu_enqueue_local.$V")
		tot=$(dfs_read "$D/ttwu_enqueue.$V")
		case "$line $tot" in *bad:*) why="debugfs read $i: $line / $tot"; rc=1; break ;; esac
		read -r r c w <<< "$line"
		if [ "$r" = "$(echo "$tot" | cut -d' ' -f1)" ] &&
		   [ "$c" -gt $(( $(echo "$tot" | cut -d' ' -f2) + slack )) ]; then
			why="read $i: ttwu_enqueue_local $c after reset $r, more than ttwu_enqueue's $tot read after it"
			rc=1; break
		fi
		if [ "$r" = "$prev_r" ] && [ "$c" -lt "$prev_n" ]; then
			why="read $i: count went down from $prev_n to $c within reset $r"; rc=1; break
		fi
		[ "$r" -ge "$prev_r" ] || { why="read $i: resets went back from $prev_r to $r"; rc=1; break; }
		prev_r=$r prev_n=$c
		[ "$c" -le "$seen" ] || seen=$c
		# Every fifth read: a netlink dump too.
		if [ $((i % 5)) = 0 ]; then
			line=$(nl_read "ttwu_enqueue_local.$V") || { why="dump $i failed"; rc=1; break; }
			tot=$(dfs_read "$D/ttwu_enqueue.$V")
			case "$line" in bad:*) why="netlink dump $i: $line"; rc=1; break ;; esac
			read -r r c <<< "$line"
			if [ "$r" = "$(echo "$tot" | cut -d' ' -f1)" ] &&
			   [ "$c" -gt $(( $(echo "$tot" | cut -d' ' -f2) + slack )) ]; then
				why="dump $i: ttwu_enqueue_local $c, more than ttwu_enqueue's $tot read after it"; rc=1; break
			fi
			if [ "$r" = "$nl_prev_r" ] && [ "$c" -lt "$nl_prev_n" ]; then
				why="dump $i: count went down from $nl_prev_n to $c within reset $r"; rc=1; break
			fi
			nl_prev_r=$r nl_prev_n=$c
		fi
	done
	kill "$resetter" "$toggler" "$reader2" 2>/dev/null
	wait "$resetter" "$toggler" "$reader2" 2>/dev/null
	storm_niced_stop
	[ "$rc" = 0 ] || fail "$why"
	resets1=$(head -1 "$D/ttwu_enqueue_local.$V" | awk '{ print $NF }')
	note "$i debugfs reads, $((i / 5)) netlink dumps, $resets1 resets of ttwu_enqueue_local"
	echo "    # report: reader_passes $((i + i / 5))"
	echo "    # report: resets $resets1"
	[ "$resets1" -ge 10 ] || fail "only $resets1 resets happened: the race did not run"
	# What was recorded is judged during the race: once the loops are
	# killed, the family may be left stopped (the toggler killed between
	# its stop and its start) and reset after that, and then it rightly
	# holds nothing.
	[ "$seen" -gt 0 ] || fail "no read saw anything recorded during the race"
	# Stopped and reset, everything reads an exact zero, by both paths.
	echo stop > "$D/control"
	echo reset > "$D/control"
	for m in ttwu_enqueue ttwu_enqueue_local ttwu_enqueue_migrated; do
		expect_eq "$m after stop and reset" "$(dfs_read "$D/$m.$V" | cut -d' ' -f2-)" "0 0"
		expect_eq "$m dump after stop and reset" "$(nl_read "$m.$V" | cut -d' ' -f2)" 0
	done
	rmmod clkstat
}

# A reader holding a metric file open across RESET and across a variant
# switch sees its one copy, whole; rmmod waits for nobody: the open file
# pins the module (EBUSY/in use) until closed.
t_race_open_file() {
	insmod "$KO" probes=ttwu
	"$PINGPONG" -n 50 > /dev/null
	exec 7< "$D/ttwu_enqueue.$V"
	echo reset > "$D/control"
	echo "variant ftrace" > "$D/control"
	local rc=0
	rmmod clkstat 2>/dev/null || rc=$?
	[ "$rc" != 0 ] || fail "rmmod succeeded with a metric file open"
	local got
	# Read through the descriptor opened before (a new open of the
	# path, /dev/fd/7 included, would take a new copy).
	got=$(dfs_read - <&7 | cut -d' ' -f1,2)
	exec 7<&-
	case "$got" in "0 "[1-9]*) ;; *) fail "the open copy: '$got', want resets 0 and the count before" ;; esac
	expect_eq "resets after the reset" "$(dfs_read "$D/ttwu_enqueue.direct" | cut -d' ' -f1)" 1
	rmmod clkstat
}

tests=${*:-t_race_readers t_race_open_file}
for t in $tests; do
	run "$t"
done
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
