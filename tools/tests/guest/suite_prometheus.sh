#!/bin/bash
# suite_prometheus.sh - the guest's half of tools/tests/exporter/
# prometheus_test.py: clkstat-report serve on the guest's network
# interface (QEMU's user network, forwarded to the host, where a real
# Prometheus scrapes it), then two recorded runs of a workload with a
# reset between them (each record resets first), each run's study
# written to the results folder for the host to pool.  Every state is
# held until the host says Prometheus has stored it: zeros first, the
# first run's final values, the zeros of a reset before the second run,
# the second's at the end.
# usage: suite_prometheus.sh [TEST...]; last line "N passed, N failed".
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Say PHASE in the results folder, then hold it until the host writes
# ack-PHASE there (once Prometheus has stored what this guest serves
# now): polled, not slept on, so that a slow host or guest only makes it
# later.  The host acks within its own 300 s, stored or not.
stored() {
	local out=${CLKSTAT_GUEST_OUT:?} end=$((SECONDS + 900))

	echo "$1" > "$out/phase"
	until [ -e "$out/ack-$1" ]; do
		[ $SECONDS -lt $end ] || fail "no ack-$1 from the host in 900 s"
		sleep 0.2
	done
}

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
	stored serving
	"$R" record -q -o "$out/s1.db" --runs 1 --variants direct -- \
		"$PINGPONG" -n 3000 --migrate > /dev/null || fail "record 1"
	stored run1
	# The reset seen as one: record 2 resets too, but may have counted
	# past the first run's values by the next scrape.
	echo reset > "$D/control"
	stored reset
	"$R" record -q -o "$out/s2.db" --runs 1 --variants direct -- \
		"$PINGPONG" -n 3000 > /dev/null || fail "record 2"
	stored run2
	kill $pid
	wait $pid || fail "serve: exit status $? after SIGTERM: $(cat /tmp/serve.err)"
	note "serve said: $(tr '\n' '|' < /tmp/serve.err)"
	echo done > "$out/phase"
}

# Run alone (not sourced): these tests, or those named.
# shellcheck disable=SC2048,SC2086
[ "${BASH_SOURCE[0]}" != "$0" ] || run_suite ${*:-t_prom_guest}
