#!/bin/bash
# hardening_security.sh - what clkstat shows and to whom
# (Documentation/clkstat-hardening.rst, "Security"): no
# kernel pointer in any output, files and commands gated as documented
# (Documentation/clkstat.rst: debugfs files root-only, netlink reads need
# CAP_PERFMON or CAP_SYS_ADMIN, control CAP_SYS_ADMIN), and EPERM for an
# unprivileged user wherever the module decides.
set -u
. "$(dirname "$0")/lib.sh"
R=$top/tools/clkstat-report
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# A user with CAP_PERFMON only (and not CAP_SYS_ADMIN).
PERFMON=(setpriv --reuid=65534 --regid=65534 --clear-groups
	 --inh-caps=+perfmon --ambient-caps=+perfmon)
# CAP_PERFMON and CAP_NET_ADMIN: reads, and what generic netlink's
# GENL_ADMIN_PERM would have let control; and CAP_SYS_ADMIN only, which
# is what control needs.
NETADMIN=(setpriv --reuid=65534 --regid=65534 --clear-groups
	  --inh-caps=+perfmon,+net_admin --ambient-caps=+perfmon,+net_admin)
SYSADMIN=(setpriv --reuid=65534 --regid=65534 --clear-groups
	  --inh-caps=+sys_admin --ambient-caps=+sys_admin)

# A kernel address as %px or %lx would print it: 0xffff... or a bare
# 16-digit ffff... (x86_64's kernel half; hashed %p values are 8 digits).
kptr_re='(0x)?ffff[0-9a-f]{12}'

# Everything clkstat prints, with every probe and the event log, after a
# workload: every debugfs file, every clkstat-report view of the live
# module and of a recorded study (as its JSON snapshot), the module's
# parameters, and its kernel log lines.
t_no_kernel_pointers() {
	local out=/tmp/sec-out f n=0 j
	insmod "$KO" probes=ttwu,tkread,csread,csswitch,clockoff,marker events=256
	insmod "$KMOD/clkstat_hookbench.ko"
	"$PINGPONG" -n 100 --reads 2 > /dev/null
	echo "security scan" > "$D/marker"
	: > $out
	for f in "$D"/* /sys/kernel/debug/clkstat_hookbench/* /sys/module/clkstat/parameters/*; do
		[ -r "$f" ] || continue
		n=$((n + 1))
		{ echo "== $f"; cat "$f" 2>/dev/null; } >> $out
	done
	for v in info raw events "--json" "--csv" "--format openmetrics" "--per-cpu"; do
		n=$((n + 1))
		{ echo "== clkstat-report $v"; "$R" $v; } >> $out 2>&1 ||
			fail "clkstat-report $v failed: $(tail -1 $out)"
	done
	rm -f /tmp/sec.db
	"$R" record -q -o /tmp/sec.db --runs 1 -- "$PINGPONG" -n 20 > /dev/null 2>&1 ||
		fail "record failed"
	# The study as its JSON snapshot (export): every value it holds, as text.
	j=$(as_json /tmp/sec.db) || fail "export of /tmp/sec.db"
	{ echo "== snapshot"; cat "$j"; } >> $out
	{ echo "== dmesg"; dmesg | grep -i clkstat; } >> $out
	note "$n outputs, $(wc -c < $out) bytes scanned"
	echo "    # report: outputs_scanned $((n + 2))"
	if grep -nEi "$kptr_re" $out | head -5 | grep .; then
		fail "a kernel address in clkstat's output"
	fi
	hb_unload
	rmmod clkstat
}

# File modes as documented, and nobody gets through: the debugfs mount is
# root's, and each file refuses a non-root opener even where the
# directory would let one through.
t_files_gated() {
	insmod "$KO" probes=ttwu,marker events=16
	insmod "$KMOD/clkstat_hookbench.ko"
	local f mode want
	for f in "$D"/* /sys/kernel/debug/clkstat_hookbench/*; do
		case "$(basename "$f")" in
		control|clock|attach|run|targets|btf_proto) want=600 ;;
		marker) want=200 ;;
		*) want=400 ;;
		esac
		mode=$(stat -c %a "$f")
		expect_eq "mode of $f" "$mode" "$want"
		expect_eq "owner of $f" "$(stat -c %u "$f")" 0
	done
	# Through a bind mount of the directory, as if debugfs were open to
	# all: the files' own modes still refuse nobody.
	mkdir -p /tmp/dfs
	mount --bind "$D" /tmp/dfs
	local rc tried=0
	for f in /tmp/dfs/*; do
		tried=$((tried + 1))
		rc=0; "${NOBODY[@]}" cat "$f" > /dev/null 2>&1 || rc=$?
		[ "$rc" != 0 ] || { umount /tmp/dfs; fail "nobody read $(basename "$f")"; }
		rc=0; "${NOBODY[@]}" sh -c "echo stop > $f" 2>/dev/null || rc=$?
		[ "$rc" != 0 ] || { umount /tmp/dfs; fail "nobody wrote $(basename "$f")"; }
	done
	umount /tmp/dfs
	echo "    # report: eperm_checks $((tried * 2))"
	hb_unload
	rmmod clkstat
}

# refused LABEL USER CMD...: clkstat-report CMD, run as the user that the
# array named USER describes, fails with EPERM: exit status 4, and says so.
refused() {
	local label=$1 rc=0
	local -n who=$2
	shift 2
	"${who[@]}" "$R" "$@" > /dev/null 2>/tmp/sec-err || rc=$?
	expect_eq "$label: clkstat-report $* exit status" "$rc" 4
	grep -qi 'not permitted\|EPERM\|permission' /tmp/sec-err ||
		fail "$label: $*: $(cat /tmp/sec-err)"
}

# Netlink: nobody gets EPERM (exit status 4) for every command; a
# CAP_PERFMON user reads but cannot control, nor can one that also has
# CAP_NET_ADMIN (attach a probe, switch, stop); the state is unchanged.
# CAP_SYS_ADMIN alone controls.
t_netlink_gated() {
	insmod "$KO" probes=ttwu events=16
	local before rc cmd n=0
	before=$(cat "$D/control")
	for cmd in info raw events "ctrl stop" "ctrl reset" "ctrl tgid 1" "ctrl variant ftrace"; do
		n=$((n + 1))
		refused nobody NOBODY $cmd
	done
	for cmd in info raw events; do
		rc=0; "${PERFMON[@]}" "$R" $cmd > /dev/null 2>&1 || rc=$?
		expect_eq "CAP_PERFMON: clkstat-report $cmd exit status" "$rc" 0
	done
	for cmd in "ctrl stop" "ctrl variant ftrace"; do
		n=$((n + 1))
		rc=0; "${PERFMON[@]}" "$R" $cmd > /dev/null 2>&1 || rc=$?
		expect_eq "CAP_PERFMON: clkstat-report $cmd exit status" "$rc" 4
	done
	for cmd in "ctrl stop" "ctrl variant ftrace" "trace add func:do_nanosleep"; do
		n=$((n + 1))
		refused CAP_PERFMON+CAP_NET_ADMIN NETADMIN $cmd
	done
	expect_eq "state after refused commands" "$(cat "$D/control")" "$before"
	expect_eq "traces after refused commands" "$(cat "$D/traces")" ""
	# CAP_SYS_ADMIN without CAP_NET_ADMIN: control works (stopped, then
	# started again, the state as before).
	rc=0; "${SYSADMIN[@]}" "$R" ctrl stop > /dev/null 2>/tmp/sec-err || rc=$?
	expect_eq "CAP_SYS_ADMIN: clkstat-report ctrl stop exit status ($(cat /tmp/sec-err))" "$rc" 0
	grep -q 'recording off' "$D/control" && ! grep -q 'recording on' "$D/control" ||
		fail "CAP_SYS_ADMIN: ctrl stop did not stop: $(cat "$D/control")"
	rc=0; "${SYSADMIN[@]}" "$R" ctrl start > /dev/null 2>/tmp/sec-err || rc=$?
	expect_eq "CAP_SYS_ADMIN: clkstat-report ctrl start exit status ($(cat /tmp/sec-err))" "$rc" 0
	expect_eq "state after stop and start" "$(cat "$D/control")" "$before"
	echo "    # report: eperm_checks $n"
	rmmod clkstat
}

# root without CAP_SYS_ADMIN (dropped from the bounding set, which for
# root is what exec grants): the control file's mode lets it in, the
# module refuses every command (EPERM), and nothing changes; reads stay
# open to it, as to CAP_PERFMON on netlink.
t_debugfs_capable() {
	insmod "$KO" probes=ttwu
	local before cmd rc
	before=$(cat "$D/control")
	for cmd in stop reset "variant ftrace" "trace func:do_nanosleep" "tgid 1"; do
		rc=0
		setpriv --bounding-set=-sys_admin bash -c "echo '$cmd' > $D/control" 2>/tmp/sec-err || rc=$?
		[ "$rc" != 0 ] || fail "'$cmd' accepted without CAP_SYS_ADMIN"
		grep -qi 'not permitted' /tmp/sec-err || fail "'$cmd': $(cat /tmp/sec-err)"
	done
	setpriv --bounding-set=-sys_admin cat "$D/control" > /dev/null ||
		fail "a read refused without CAP_SYS_ADMIN"
	expect_eq "state after refused commands" "$(cat "$D/control")" "$before"
	expect_eq "traces after refused commands" "$(cat "$D/traces")" ""
	echo stop > "$D/control" || fail "root with CAP_SYS_ADMIN refused"
	rmmod clkstat
}

# Kernel lockdown at "integrity" (raised at run time, after the load: an
# unsigned module loads only before): debugfs closes its writable files,
# and netlink refuses what hooks a function (trace, variant) with the
# reason; the rest of control and every read still work, and the module
# unloads.  Lockdown cannot be lowered again: this runs last.
t_lockdown() {
	local lf=/sys/kernel/security/lockdown rc
	[ -e $lf ] || mount -t securityfs securityfs /sys/kernel/security
	[ -e $lf ] || fail "no $lf: this kernel has no lockdown LSM"
	insmod "$KO" probes=ttwu
	echo integrity > $lf || fail "cannot raise lockdown: $(cat $lf)"
	grep -q '\[integrity\]' $lf || fail "lockdown: $(cat $lf)"
	rc=0; echo stop 2>/dev/null > "$D/control" || rc=$?
	[ "$rc" != 0 ] || fail "debugfs control written under lockdown"
	for cmd in "trace add func:do_nanosleep" "ctrl variant ftrace"; do
		rc=0; "$R" $cmd > /dev/null 2>/tmp/sec-err || rc=$?
		expect_eq "locked down: clkstat-report $cmd exit status ($(cat /tmp/sec-err))" "$rc" 4
		grep -q 'locked down' /tmp/sec-err || fail "locked down: $cmd: $(cat /tmp/sec-err)"
	done
	"$R" ctrl stop > /dev/null || fail "ctrl stop refused under lockdown"
	"$R" info > /dev/null || fail "info refused under lockdown"
	expect_eq "traces under lockdown" "$("$R" trace list)" ""
	rmmod clkstat || fail "rmmod under lockdown"
}

tests=${*:-t_no_kernel_pointers t_files_gated t_netlink_gated t_debugfs_capable t_lockdown}
for t in $tests; do
	run "$t"
done
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
