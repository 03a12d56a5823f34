#!/bin/bash
# suite_exporter.sh - clkstat-report serve against the live module: what
# /metrics says against debugfs and the workload's own count, _created and
# resets across a reset, 503 while the module is away and back when it
# returns, the privileges it needs (CAP_PERFMON, nothing else), and the
# textfile mode following the module.  (tools/tests/exporter/serve_test.py
# tests the server itself on the host, tools/tests/prometheus.sh a real
# Prometheus scraping this guest.)
# usage: suite_exporter.sh [TEST...]; last line "N passed, N failed".
# module_tests.sh sources it to run every suite in one guest boot.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVE_PORT=9736
OM_ACCEPT='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'

# The guest's loopback interface, down until someone brings it up; and
# no exporter left over from a test that failed.
lo_up() {
	ip link set lo up
	pkill -f "clkstat-report serve" && sleep 1
	return 0
}

# serve_wait: until serve answers on SERVE_PORT (60 s at most).
serve_wait() {
	local i
	for i in $(seq 120); do
		curl -s -m 5 -o /dev/null "http://127.0.0.1:$SERVE_PORT/" && return 0
		kill -0 $SERVE_PID 2> /dev/null || fail "serve exited: $(cat /tmp/serve.err)"
		sleep 0.5
	done
	fail "serve did not answer: $(cat /tmp/serve.err)"
}

# serve_start [ARG...]: clkstat-report serve on SERVE_PORT (each scrape a
# fresh read), stderr into /tmp/serve.err.
serve_start() {
	lo_up
	"$top/tools/clkstat-report" serve --listen 127.0.0.1:$SERVE_PORT \
		--cache-ms 0 "$@" 2> /tmp/serve.err &
	SERVE_PID=$!
	serve_wait
}

serve_stop() {
	kill $SERVE_PID
	wait $SERVE_PID || fail "serve's exit status after SIGTERM: $?"
}

# serve_get FILE [ACCEPT]: GET /metrics into FILE, print the status.
serve_get() {
	curl -s -o "$1" -w '%{http_code}' -H "Accept: ${2:-$OM_ACCEPT}" \
		"http://127.0.0.1:$SERVE_PORT/metrics"
}

# om_value FILE SAMPLE REGEX: the value of the first SAMPLE{...} line
# matching REGEX.
om_value() {
	awk -v s="$2" -v re="$3" 'index($0, s "{") == 1 && $0 ~ re { print $NF; exit }' "$1"
}

# The exposition's buckets of ttwu_enqueue against debugfs: at every bound
# b, the samples of the slots whose lower bound is at most b (a slot is
# all below b or all above it: the grid's bounds are slot bounds).
buckets_vs_debugfs() {
	local n=0 le got want b
	awk '$1 == "slot" && $4 == "all" { print $6, $8 }' "$D/ttwu_enqueue.$V" > /tmp/slots
	[ -s /tmp/slots ] || fail "no samples in debugfs"
	# Not a process substitution: the guest has no /dev/fd.
	awk '/^clkstat_latency_seconds_bucket\{metric="ttwu_enqueue",/ && !/le="\+Inf"/ {
		le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le); print le, $NF }' "$1" > /tmp/buckets
	while read -r le got; do
		b=$(awk -v le="$le" 'BEGIN { printf "%.0f", le * 1e9 }')
		want=$(awk -v b="$b" '$1 <= b { s += $2 } END { print s + 0 }' /tmp/slots)
		[ "$got" = "$want" ] || fail "bucket le=$le: $got, debugfs $want"
		n=$((n + 1))
	done < /tmp/buckets
	[ "$n" -gt 100 ] || fail "only $n buckets of ttwu_enqueue: $(grep -m3 ttwu_enqueue "$1")"
	note "$n buckets of ttwu_enqueue equal debugfs's slots"
}

# /metrics against the module: 503 before it is loaded, then every bucket
# and counter against debugfs and the workload's own wakeup count, the
# labels, _created and resets across a reset, 503 after rmmod and 200
# again after insmod, each change said once on stderr; a reload between
# two scrapes not even a 503.
t_serve_live() {
	local code t0 t1 cr1 cr2 lab host
	serve_start
	code=$(serve_get /tmp/m0)
	expect_eq "status without the module" "$code" 503
	grep -q "not loaded" /tmp/m0 || fail "503 body: $(cat /tmp/m0)"
	t0=$(date +%s)
	insmod "$KO" probes=ttwu
	"$PINGPONG" -n 300 --migrate --control "$D/control" > /tmp/truth ||
		fail "workload failed"
	t1=$(date +%s)
	code=$(serve_get /tmp/m1)
	expect_eq "status" "$code" 200
	tail -1 /tmp/m1 | grep -qx '# EOF' || fail "no # EOF"
	buckets_vs_debugfs /tmp/m1
	lab='metric="ttwu_enqueue",variant="'$V'"'
	expect_eq "count" "$(om_value /tmp/m1 clkstat_latency_seconds_count "$lab")" \
		"$(field ttwu_enqueue count)"
	expect_eq "wakeups counter, the workload's own count" \
		"$(om_value /tmp/m1 clkstat_events_total "$lab.*counter=\"wakeups\"")" \
		"$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)"
	# The guest has no host name ("(none)"): no host label then.
	host=$(uname -n)
	[ "$host" != "(none)" ] || host=
	expect_eq "labels" "$(grep -o 'variant="[^"]*",[^{]*clocksource="[^"]*"' /tmp/m1 | sort -u)" \
		"variant=\"$V\",${host:+host=\"$host\",}kernel=\"$(uname -r)\",clocksource=\"$(cat "$CS")\""
	# The workload's --control resets before it starts.
	expect_eq "resets" "$(om_value /tmp/m1 clkstat_resets_total "$lab")" 1
	# The module's own series: info's count, with no metric label.
	expect_eq "reentered" "$(om_value /tmp/m1 clkstat_reentered_total 'kernel=')" \
		"$("$top/tools/clkstat-report" info | awk '$1 == "reentered" { print $2 }')"
	[ -n "$(om_value /tmp/m1 clkstat_reentered_total 'kernel=')" ] ||
		fail "no clkstat_reentered_total: $(grep reentered /tmp/m1)"
	cr1=$(om_value /tmp/m1 clkstat_latency_seconds_created "$lab")
	awk -v c="$cr1" -v a="$t0" -v b="$t1" 'BEGIN { exit !(c >= a - 1 && c <= b + 1) }' ||
		fail "_created $cr1 not within the load's [$t0, $t1]"
	# The text format for anything else; HELP, TYPE, no _created.
	code=$(serve_get /tmp/t1 "text/plain")
	expect_eq "text format status" "$code" 200
	grep -q '^# TYPE clkstat_events_total counter$' /tmp/t1 || fail "text format: counters"
	! grep -q _created /tmp/t1 || fail "text format has _created"

	sleep 1.1
	echo reset > "$D/control"
	code=$(serve_get /tmp/m2)
	expect_eq "status after reset" "$code" 200
	expect_eq "count after reset" "$(om_value /tmp/m2 clkstat_latency_seconds_count "$lab")" 0
	expect_eq "resets after reset" "$(om_value /tmp/m2 clkstat_resets_total "$lab")" 2
	cr2=$(om_value /tmp/m2 clkstat_latency_seconds_created "$lab")
	awk -v a="$cr1" -v b="$cr2" 'BEGIN { exit !(b >= a + 1) }' ||
		fail "_created after reset $cr2, before $cr1"

	rmmod clkstat
	code=$(serve_get /tmp/m3)
	expect_eq "status after rmmod" "$code" 503
	insmod "$KO" probes=ttwu
	code=$(serve_get /tmp/m4)
	expect_eq "status after insmod" "$code" 200
	expect_eq "resets after reload" "$(om_value /tmp/m4 clkstat_resets_total "$lab")" 0
	# Unloaded and loaded again between two scrapes: no 503 at all.
	rmmod clkstat
	insmod "$KO" probes=ttwu
	code=$(serve_get /tmp/m5)
	expect_eq "status after a reload between scrapes" "$code" 200
	serve_stop
	note "serve said: $(tr '\n' '|' < /tmp/serve.err)"
	expect_eq "503 said" "$(grep -c 'no metrics until it is back' /tmp/serve.err)" 2
	expect_eq "back said" "$(grep -c 'reading the clkstat module' /tmp/serve.err)" 2
}

# Reading needs CAP_PERFMON and nothing else: as nobody, 503 saying so;
# as nobody with CAP_PERFMON alone, 200.
t_serve_perfmon() {
	local code
	lo_up
	insmod "$KO" probes=ttwu
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$top/tools/clkstat-report" serve --listen 127.0.0.1:$SERVE_PORT \
		--cache-ms 0 2> /tmp/serve.err &
	SERVE_PID=$!
	serve_wait
	code=$(serve_get /tmp/p0)
	expect_eq "as nobody" "$code" 503
	grep -q "CAP_PERFMON" /tmp/p0 || fail "503 body: $(cat /tmp/p0)"
	serve_stop
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=+perfmon --ambient-caps=+perfmon \
		"$top/tools/clkstat-report" serve --listen 127.0.0.1:$SERVE_PORT \
		--cache-ms 0 2> /tmp/serve.err &
	SERVE_PID=$!
	serve_wait
	code=$(serve_get /tmp/p1)
	expect_eq "as nobody with CAP_PERFMON" "$code" 200
	serve_stop
}

# The textfile follows the module: written while it is loaded (buckets
# as debugfs has them), removed after rmmod, back after insmod.
t_serve_textfile() {
	local f=/tmp/tf/clkstat.prom i
	lo_up
	mkdir -p /tmp/tf
	rm -f "$f"
	insmod "$KO" probes=ttwu
	"$PINGPONG" -n 100 --control "$D/control" > /dev/null || fail "workload failed"
	"$top/tools/clkstat-report" serve --textfile "$f" --interval 0.2 2> /tmp/serve.err &
	SERVE_PID=$!
	for i in $(seq 300); do [ -s "$f" ] && break; sleep 0.1; done
	[ -s "$f" ] || fail "no textfile: $(cat /tmp/serve.err)"
	buckets_vs_debugfs "$f"
	rmmod clkstat
	for i in $(seq 300); do [ -e "$f" ] || break; sleep 0.1; done
	[ ! -e "$f" ] || fail "the textfile outlived the module"
	insmod "$KO" probes=ttwu
	for i in $(seq 300); do [ -s "$f" ] && break; sleep 0.1; done
	[ -s "$f" ] || fail "no textfile after insmod"
	serve_stop
	[ -z "$(ls /tmp/tf | grep -v '^clkstat.prom$')" ] || fail "left behind: $(ls /tmp/tf)"
}

# The suite, in the order module_tests.sh runs it.
EXPORTER_TESTS="t_serve_live t_serve_perfmon t_serve_textfile"
# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || suite_main ${*:-$EXPORTER_TESTS}
