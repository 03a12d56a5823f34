#!/bin/bash
# suite_prometheus.sh - the guest's half of tools/tests/exporter/
# prometheus_test.py: clkstat-report serve on the guest's network
# interface (QEMU's user network, forwarded to the host, where a real
# Prometheus scrapes it), then two recorded runs of a workload with a
# reset between them (each record resets first), each run's snapshot
# written to the results folder for the host to pool.  The quiet pauses
# let Prometheus scrape every state: zeros first, the first run's final
# values before the reset, the second's at the end.
# usage: suite_prometheus.sh [TEST...]; last line "N passed, N failed".
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

t_prom_guest() {
	local out=${CLKSTAT_GUEST_OUT:?} R=$top/tools/clkstat-report ifc pid
	ip link set lo up
	modprobe virtio_net || fail "no virtio_net"
	ifc=$(ls /sys/class/net | grep -v '^lo$' | head -1)
	[ -n "$ifc" ] || fail "no network interface (QEMU's -netdev missing?)"
	ip link set "$ifc" up
	ip addr add 10.0.2.15/24 dev "$ifc"
	insmod "$KO" probes=ttwu
	# Nothing recorded before the exporter's first scrape: it starts at 0.
	echo stop > "$D/control"
	echo reset > "$D/control"
	"$R" serve --listen 10.0.2.15:9736 --host guest1 --cache-ms 0 2> /tmp/serve.err &
	pid=$!
	echo serving > "$out/phase"
	sleep 10
	"$R" record -q -o "$out/s1.json" --runs 1 --variants direct -- \
		"$PINGPONG" -n 3000 --migrate > /dev/null || fail "record 1"
	echo run1 > "$out/phase"
	sleep 6
	"$R" record -q -o "$out/s2.json" --runs 1 --variants direct -- \
		"$PINGPONG" -n 3000 > /dev/null || fail "record 2"
	echo run2 > "$out/phase"
	sleep 6
	kill $pid
	wait $pid || fail "serve: exit status $? after SIGTERM: $(cat /tmp/serve.err)"
	note "serve said: $(tr '\n' '|' < /tmp/serve.err)"
	echo done > "$out/phase"
}

# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || run_suite ${*:-t_prom_guest}
