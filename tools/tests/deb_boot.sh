#!/bin/bash
# What tools/tests/deb.sh runs in a guest that booted the bookworm chroot
# with the packages installed, its own systemd as init (run-guest.sh
# --init): a oneshot unit ordered after clkstat-exporter.service runs it
# as root.  It checks what the installed unit did at boot with the user's
# /etc/modprobe.d/clkstat.conf and /etc/default/clkstat-exporter:
#   - the module loaded by the unit's ExecStartPre, with the conffile's
#     parameters;
#   - the exporter: a dynamic user with CAP_PERFMON alone, listening on
#     the configured address only, GET /metrics answered with OpenMetrics
#     for Prometheus's Accept header, the host label of its options, and
#     ttwu_enqueue's buckets grown by a workload's wakeups;
#   - systemctl stop, rmmod, systemctl start: loaded again and serving;
#   - no warning or error in the unit's journal;
#   - a module modprobe cannot load: the unit runs, 503, then 200 once
#     the module is loaded.
# usage: deb_boot.sh ADDR:PORT HOST PROBES EVENTS
# Writes "unit-ok - ..." / "unit-not-ok - ..." lines, the unit's journal
# and the scrapes to $out (the results folder), then $out/rc: 0 if every
# check passed.  The unit that runs it reboots the guest afterwards.
set -uo pipefail
listen=$1 host=$2 probes=$3 events=$4
addr=${listen%:*} port=${listen##*:}
out=/run/clkstat-out
unit=clkstat-exporter.service
fails=0
exec > >(tee "$out/boot.txt") 2>&1
ok() { echo "unit-ok - $*"; }
not_ok() { fails=$((fails + 1)); echo "unit-not-ok - $*"; }
check() {
	local what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# The module, loaded by the unit: its ExecStartPre ran and succeeded, and
# nothing else loads clkstat at boot.
params() {
	local p e
	p=$(cat /sys/module/clkstat/parameters/probes 2>&1)
	e=$(cat /sys/module/clkstat/parameters/events 2>&1)
	echo "probes=$p events=$e"
	[ "$p" = "$probes" ] && [ "$e" = "$events" ]
}
pre=$(systemctl show -P ExecStartPre "$unit")
echo "# ExecStartPre: $pre"
check "the unit's ExecStartPre (modprobe clkstat) ran and succeeded" \
	grep -q 'path=/sbin/modprobe .*status=0[/ ;]' <<< "$pre"
got=$(params)
check "the module's parameters are the conffile's: $got" eval 'params > /dev/null'

# scrape ACCEPT FILE: GET /metrics with that Accept header (none if
# empty), the response (headers, a blank line, the body) into FILE.
# Bash's /dev/tcp: the chroot has no HTTP client.
scrape() {
	local rc
	exec 3<> "/dev/tcp/$addr/$port" || return 1
	printf 'GET /metrics HTTP/1.0\r\nHost: %s\r\n%s\r\n' "$listen" \
		"${1:+Accept: $1$'\r\n'}" >&3
	timeout 20 cat <&3 | tr -d '\r' > "$2"
	rc=${PIPESTATUS[0]}
	exec 3>&-
	return "$rc"
}
status() { head -1 "$1" | cut -d' ' -f2; }
body() { sed '1,/^$/d' "$1"; }
# serving: wait (30 s at most) for a 200 to Prometheus's Accept header.
om='application/openmetrics-text; version=1.0.0'
serving() {
	local _
	for _ in $(seq 60); do
		if scrape "$om" "$1" 2> /dev/null && [ "$(status "$1")" = 200 ]; then
			return 0
		fi
		sleep 0.5
	done
	return 1
}

pid=$(systemctl show -P MainPID "$unit")
echo "# MainPID $pid, $(systemctl show -P ActiveState "$unit")"
check "the exporter answers GET /metrics on $listen with 200" serving "$out/scrape1.txt"
if [ "${pid:-0}" -gt 0 ] && [ -r "/proc/$pid/status" ]; then
	grep -E '^(Name|Uid|Gid|Cap[A-Za-z]+):' "/proc/$pid/status" | sed 's/^/# /'
	read -r _ ruid euid suid fsuid < <(grep '^Uid:' "/proc/$pid/status")
	# systemd's range of dynamic users: 61184-65519
	check "the exporter runs as a dynamic user (uid $euid)" \
		test "$ruid" = "$euid" -a "$suid" = "$euid" -a "$fsuid" = "$euid" \
		-a "$euid" -ge 61184 -a "$euid" -le 65519
	# CAP_PERFMON is capability 38
	caps=$(grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' "/proc/$pid/status" | awk '{ printf "%s%s ", $1, $2 }')
	check "the exporter has CAP_PERFMON alone: $caps" test "$caps" = \
		"CapInh:0000004000000000 CapPrm:0000004000000000 CapEff:0000004000000000 CapBnd:0000004000000000 CapAmb:0000004000000000 "
else
	not_ok "no exporter process (MainPID '$pid')"
fi

# listening PID: the TCP sockets PID listens on and the UDP ones it has
# bound, as ADDR:PORT (IPv6 addresses in /proc/net's hex).
listening() {
	local f inodes a p
	inodes=$(for f in /proc/"$1"/fd/*; do readlink "$f"; done |
		sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p' | xargs)
	[ -n "$inodes" ] || return 0
	# (mawk: no strtonum; bash converts)
	awk -v inodes=" $inodes " '
		FNR == 1 { next }
		index(inodes, " " $10 " ") && ($4 == "0A" || FILENAME ~ /udp/) { print $2 }
	' /proc/net/tcp /proc/net/tcp6 /proc/net/udp /proc/net/udp6 |
	while IFS=: read -r a p; do
		if [ ${#a} = 8 ]; then
			a=$((16#${a:6:2})).$((16#${a:4:2})).$((16#${a:2:2})).$((16#${a:0:2}))
		fi
		echo "$a:$((16#$p))"
	done
}
l=$(listening "$pid" | sort | xargs)
check "the exporter listens on $listen alone ('$l')" test "$l" = "$listen"

# The first scrape: OpenMetrics, the host label of CLKSTAT_SERVE_OPTS.
f=$out/scrape1.txt
ct=$(sed -n 's/^[Cc]ontent-[Tt]ype: //p' "$f")
check "Content-Type for Prometheus's Accept: $ct" \
	grep -q '^application/openmetrics-text; version=1\.0\.0' <<< "$ct"
check "the exposition ends with # EOF" test "$(body "$f" | tail -n 1)" = "# EOF"
n=$(body "$f" | grep -c '^clkstat_')
nh=$(body "$f" | grep -c "^clkstat_[a-z_]*{.*host=\"$host\"")
check "every one of the $n samples has host=\"$host\" ($nh have)" test "$n" -gt 0 -a "$n" = "$nh"

# ttwu_enqueue's buckets (le, value) in an exposition.
buckets() {
	body "$1" | sed -n 's/^clkstat_latency_seconds_bucket{metric="ttwu_enqueue",.*le="\([^"]*\)"} \([0-9]*\).*/\1 \2/p'
}
# A workload: 200 sleeps, each ended by a wakeup the module counts.
for _ in $(seq 200); do sleep 0.005; done
sleep 1.5	# past serve's cache (1 s)
scrape "$om" "$out/scrape2.txt"
before=$(buckets "$out/scrape1.txt") after=$(buckets "$out/scrape2.txt")
inf1=$(awk '$1 == "+Inf" { print $2 }' <<< "$before")
inf2=$(awk '$1 == "+Inf" { print $2 }' <<< "$after")
grown=$(join <(sort <<< "$before") <(sort <<< "$after") | awk '$3 > $2' | grep -c .)
check "ttwu_enqueue's buckets grew under 200 sleeps: +Inf ${inf1:-none} -> ${inf2:-none}, $grown buckets grew" \
	test "${inf1:-x}" != x -a "${inf2:-0}" -ge $((${inf1:-0} + 200)) -a "$grown" -ge 2

# stop, rmmod, start: the unit loads the module again and serves.
restart() {
	systemctl stop "$unit" || return 1
	[ "$(systemctl show -P ActiveState "$unit")" = inactive ] || return 1
	rmmod clkstat || return 1
	[ ! -e /sys/module/clkstat ] || return 1
	systemctl start "$unit" || return 1
	[ -e /sys/module/clkstat ] && params > /dev/null && serving "$out/scrape3.txt"
}
if restart; then
	ok "systemctl stop, rmmod clkstat, systemctl start: loaded again ($(params)), 200"
else
	not_ok "systemctl stop, rmmod clkstat, systemctl start: $(systemctl show -P ActiveState "$unit"), $(params 2>&1 | xargs)"
fi
check "the unit did not restart on its own (NRestarts $(systemctl show -P NRestarts "$unit"))" \
	test "$(systemctl show -P NRestarts "$unit")" = 0

journalctl -b -u "$unit" --no-pager -o short-monotonic > "$out/journal.txt" 2>&1
sed 's/^/# /' "$out/journal.txt"
bad=$(journalctl -b -u "$unit" --no-pager -q -p warning 2>&1)
check "the unit's journal has no warning or error${bad:+: $bad}" test -z "$bad"

# A module modprobe cannot load (here refused by an install rule, as a
# kernel without a DKMS build would be): the unit still starts and the
# exporter answers 503 with the reason, not a refused connection, and
# picks the module up once it is loaded by hand.  The rule goes in
# /run/modprobe.d, which modprobe reads too: this guest's /etc is
# read-only.
unavailable() {
	local i rule=/run/modprobe.d/zz-clkstat-test.conf
	systemctl stop "$unit" && rmmod clkstat || return 1
	mkdir -p /run/modprobe.d && echo 'install clkstat /bin/false' > "$rule" || return 1
	systemctl start "$unit"
	i=$?
	rm -f "$rule"
	[ "$i" = 0 ] || return 1
	[ "$(systemctl show -P ActiveState "$unit")" = active ] || return 1
	[ ! -e /sys/module/clkstat ] || return 1
	for i in $(seq 40); do
		scrape "$om" "$out/scrape4.txt" 2> /dev/null &&
			[ "$(status "$out/scrape4.txt")" = 503 ] && break
		sleep 0.5
	done
	[ "$(status "$out/scrape4.txt")" = 503 ] && grep -qi 'module' "$out/scrape4.txt" || return 1
	modprobe clkstat && serving "$out/scrape5.txt"
}
if unavailable; then
	ok "modprobe failing at start: the unit active, 503 ($(body "$out/scrape4.txt" | head -1)), then 200 once loaded"
else
	not_ok "modprobe failing at start: $(systemctl show -P ActiveState "$unit"), module $([ -e /sys/module/clkstat ] && echo loaded || echo absent), $(head -1 "$out/scrape4.txt" 2>&1)"
fi
echo "$fails" > "$out/rc"
