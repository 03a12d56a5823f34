#!/bin/bash
# hardening_soak.sh - clkstat.ko soaked (Documentation/clkstat-hardening.rst,
# "Soak"): load/unload
# cycles and variant switches by the thousand while a wakeup storm keeps
# every CPU busy and the clocksource is switched every second.
#  - t_soak_cycles: CLKSTAT_SOAK_CYCLES (default 1000) insmod/rmmod cycles
#    through every variant and several probe sets; the module's reference
#    count is 0 before each rmmod, and above 0 (rmmod refused) while a
#    reader holds one of its debugfs files open; no Oops or WARNING; no
#    leak of clkstat's in kmemleak (where the kernel has it); slab,
#    vmalloc and per-CPU memory do not grow with the cycles.
#  - t_soak_switches: CLKSTAT_SOAK_SWITCHES (default 1000) variant
#    switches through every variant and "off", each one checked in the
#    control file; the metrics still record afterwards.
# Prints TAP-like lines and ends with "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

CYCLES=${CLKSTAT_SOAK_CYCLES:-1000}
SWITCHES=${CLKSTAT_SOAK_SWITCHES:-1000}
# A progress note every tenth of the way (the time per cycle or switch).
STEP=$(( (CYCLES > SWITCHES ? CYCLES : SWITCHES) / 10 ))
# Memory is compared from this cycle on: 5 variants x 5 probe sets.
WARM=25
[ "$STEP" -gt 0 ] || STEP=1
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource
ACS=/sys/devices/system/clocksource/clocksource0/available_clocksource
KML=/sys/kernel/debug/kmemleak
# Everything the kernel says when something went wrong.  No fault is
# injected here, so a Call Trace of any kind is a finding.
BAD='Oops|BUG:|WARNING:|Call Trace|general protection|KASAN|UBSAN:|list_(add|del) corruption|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|rcu: INFO|stack-protector|Kernel panic'
log_bad() { since_mark | grep -E "$BAD" | head -20 || true; }

# /proc/stat's nice, busy and total jiffies of each CPU, one line each.
cpu_times() { awk '$1 ~ /^cpu[0-9]/ { print $1, $3, $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }

# The clocksource switched every second, hpet and acpi_pm in turn; the
# number of switches made is kept in /tmp/soak-cs.  Builtins only (the
# second's wait a read timing out on a FIFO nobody writes): under the
# storm on the debug kernel, forking a sleep and a cat took seconds.
cs_switcher_start() {
	CS0=$(cat $CS)
	echo 0 > /tmp/soak-cs
	CS_SEEN=0 CS_WAITED=0
	rm -f /tmp/soak-fifo
	mkfifo /tmp/soak-fifo
	setsid bash -c '
		cs=$1; n=0; next=hpet
		exec 9<> /tmp/soak-fifo
		while :; do
			if echo $next > $cs 2>/dev/null && read -r cur < $cs && [ "$cur" = $next ]; then
				n=$((n + 1)); echo $n > /tmp/soak-cs
			fi
			[ $next = hpet ] && next=acpi_pm || next=hpet
			read -r -t 1 -u 9 _
		done' cs-switcher "$CS" &
	CSW=$!
}

# cs_kept_up WHERE: the switcher switched since the last call (since its
# start the first time), waited for up to 120 s: switches come between
# every two calls, every tenth of the soak, however slow the machine,
# where a rate of switches would depend on its speed and load.  A passing
# run seldom waits (a tenth of the soak outlasts a switch by far): how
# many calls did is counted in CS_WAITED.  The count is read again while
# the switcher rewrites it (empty).
cs_kept_up() {
	local n waited=0 end=$((SECONDS + 120))
	while :; do
		n=""
		read -r n < /tmp/soak-cs
		[ -z "$n" ] || [ "$n" -le "$CS_SEEN" ] || break
		[ $SECONDS -lt $end ] || fail "$1: no clocksource switch in 120 s ($CS_SEEN in all): the switcher is starved or stuck"
		waited=1
		sleep 0.1
	done
	CS_SEEN=$n CS_WAITED=$((CS_WAITED + waited))
}

soak_stop() {
	storm_niced_stop
	[ -z "${CSW:-}" ] || kill -- "-$CSW" 2>/dev/null || true
	wait 2>/dev/null || true
	CSW=""
	[ -z "${CS0:-}" ] || echo "$CS0" > $CS
}

# Start both, and check that the storm reaches every CPU: each one's nice
# time (the storm's hackbench, at nice 19, is all that runs niced) rose by
# 10 jiffies at least, waited for up to 120 s; and that the switcher made
# its first switch.  How busy each CPU was meanwhile is only printed: it
# depends on the host (in a 2-vCPU TCG guest on a shared host one CPU
# measured 77% while hackbench was running on it all along, and a vCPU
# that the host starves leaves the other waiting for its messages).
soak_start() {
	local end=$((SECONDS + 120))
	grep -qw hpet $ACS && grep -qw acpi_pm $ACS ||
		fail "clocksources hpet and acpi_pm needed, this kernel has: $(cat $ACS)"
	trap soak_stop EXIT
	storm_niced_start
	cs_switcher_start
	cpu_times > /tmp/soak-cpu0
	while :; do
		sleep 0.5
		cpu_times > /tmp/soak-cpu1
		BUSY=$(join /tmp/soak-cpu0 /tmp/soak-cpu1 |
			awk '{ t = $7 - $4; printf "%s +%d nice %d%% busy ", $1, $5 - $2, (t > 0 ? ($6 - $3) * 100 / t : 0)
			       if ($5 - $2 < 10) low = 1 }
			     END { exit low }') && break
		[ $SECONDS -lt $end ] || fail "the storm has not run on every CPU in 120 s: $BUSY"
	done
	cs_kept_up "the soak's start"
	note "storm: $(nproc) hackbench loops, jiffies: $BUSY"
}

# soak_end N WHAT KEY MORE: the switcher still running and switching
# (cs_kept_up: the soak's every tenth, checked as it went, and its last
# stretch overlapped switches); stop the storm and the switcher; print N
# WHAT done since t0 (the caller's) and MORE, report N as KEY; the log
# is clean.
soak_end() {
	local el=$((SECONDS - t0)) cs
	kill -0 "$CSW" 2>/dev/null || fail "the clocksource switcher ended during the soak"
	cs_kept_up "the soak's end"
	soak_stop
	trap - EXIT
	cs=$CS_SEEN
	note "$1 $2 in $el s ($((el * 1000 / $1)) ms each), $4, $cs clocksource switches ($CS_WAITED checks waited for one)"
	echo "    # report: $3 $1"
	echo "    # report: clocksource_switches $cs"
	[ -z "$(log_bad)" ] || fail "kernel log: $(log_bad)"
}

# kmemleak: from here on, only what is new counts.  Returns 1 without it.
kmemleak_begin() {
	[ -w $KML ] || return 1
	echo scan > $KML
	echo clear > $KML
}

# kmemleak_check: scan twice (an object is reported once it is 5 s old
# and unreferenced in a scan), then no clkstat object may be reported.
# The module is unloaded by then, so its allocation sites may print as
# bare addresses (0x...): those count as clkstat's too.
kmemleak_check() {
	local ours
	sleep 6
	echo scan > $KML
	sleep 2
	echo scan > $KML
	cat $KML > /tmp/soak-kmemleak
	ours=$(awk '/^unreferenced object/ { if (o) print e; e = $0; o = 0; next }
		    { e = e "\n" $0 } /clkstat|\[<[0-9a-f]+>\] 0x/ { o = 1 }
		    END { if (o) print e }' /tmp/soak-kmemleak)
	[ -s /tmp/soak-kmemleak ] &&
		note "kmemleak reports $(grep -c '^unreferenced object' /tmp/soak-kmemleak) object(s) since the start, $([ -n "$ours" ] && echo "some" || echo "none") of clkstat's"
	[ -z "$ours" ] || fail "kmemleak: clkstat objects leaked: $(echo "$ours" | head -30)"
}

# Memory accounting for kernels without kmemleak (Debian's): what the
# kernel holds in unreclaimable slab, vmalloc (module text and data) and
# per-CPU memory (the histograms), in kB, one "NAME kB" line each.
# Vmalloc without the kernel stacks (VMAP_STACK): the storm's 40-odd
# processes come and go with 16 kB each, which moved VmallocUsed by 600
# kB between two readings.
mem_now() {
	awk '$1 ~ /^(SUnreclaim|Percpu):$/ { sub(":", "", $1); print $1, $2 }' /proc/meminfo
	awk '/ vmalloc/ && !/ (alloc_thread_stack_node|dup_task_struct|copy_process|kernel_clone)\+/ { s += $2 }
	     END { print "VmallocNoStacks", int(s / 1024) }' /proc/vmallocinfo
}

# mem_check BEFORE AFTER CYCLES: how much each grew between two points
# of the soak, both with the storm running, per cycle; fails above the
# allowance.  The allowance is for the noise: the storm's sockets come and
# go in slab, and vmalloc and per-CPU memory grow by whole pages and
# chunks.  A leak of one object per cycle is below it: kmemleak (the
# debug kernel) catches those; this catches what grows with the cycles.
mem_check() {
	local name b a d grew=""
	while read -r name b; do
		a=$(awk -v n="$name" '$1 == n { print $2 }' "$2")
		d=$((a - b))
		note "memory: $name $b kB -> $a kB over $3 cycles ($((d * 1024 / $3)) bytes per cycle)"
		case $name in
		SUnreclaim) [ "$d" -le 4096 ] || grew="$grew $name +$d kB" ;;
		*) [ "$d" -le 512 ] || grew="$grew $name +$d kB" ;;
		esac
	done < "$1"
	[ -z "$grew" ] || fail "memory grew with the cycles:$grew"
}

# The probe sets the cycles go through, and the ones the tracepoint
# variant can run (it has no tracepoint for tkread, csread, csswitch).
SETS=("probes=ttwu" "probes=ttwu,tkread" "probes=csread,csswitch"
      "probes=ttwu,tkread,csread,csswitch,clockoff,marker events=64"
      "probes=tkread,clockoff corr_entries=64 frac_bits=5")
TP_SETS=("probes=ttwu" "probes=ttwu,clockoff,marker events=64")
VARIANTS=(direct ftrace kprobe kprobe-int3 tracepoint)

# pinned I: with a debugfs file of the module open, the module is pinned
# (debugfs takes a reference on the file's owner while it is open):
# refcnt above 0, kmod's rmmod refuses, and so does delete_module(2)
# itself (EWOULDBLOCK; 6.1 no longer waits for the count to drop).
pinned() {
	local f=$D/control rc=0 err refs
	[ $(($1 % 100)) = 60 ] && f=$(ls "$D"/*.* | head -1)
	exec 3< "$f"
	read -r refs < /sys/module/clkstat/refcnt
	[ "$refs" -gt 0 ] || { exec 3<&-; fail "cycle $1: refcnt $refs with $f open"; }
	rmmod clkstat 2>/dev/null || rc=$?
	[ "$rc" != 0 ] && loaded || { exec 3<&-; fail "cycle $1: rmmod succeeded with $f open"; }
	err=$(perl -e 'my $m = "clkstat"; syscall(176, $m, 04000) < 0 and print $! + 0')
	exec 3<&-
	expect_eq "cycle $1: delete_module(2) errno with $f open (EWOULDBLOCK)" "$err" 11
	loaded || fail "cycle $1: unloaded with $f open"
	PINNED=$((PINNED + 1))
}

t_soak_cycles() {
	local i v p line refs t0 leak=1 sets=${#SETS[@]}
	mark
	kmemleak_begin || { leak=0; note "skip kmemleak: this kernel has none ($KML)"; }
	soak_start
	PINNED=0
	t0=$SECONDS
	for i in $(seq "$CYCLES"); do
		v=${VARIANTS[i % 5]}
		if [ "$v" = tracepoint ]; then
			p=${TP_SETS[(i / 5) % ${#TP_SETS[@]}]}
		else
			p=${SETS[(i / 5) % sets]}
		fi
		# shellcheck disable=SC2086
		insmod "$KO" variant="$v" $p || fail "cycle $i: insmod variant=$v $p"
		read -r line < "$D/control" || fail "cycle $i: no control file"
		[ "${line#variant "$v" }" != "$line" ] || fail "cycle $i: control says '$line', want variant $v"
		[ $((i % 50)) != 10 ] || pinned "$i"
		read -r refs < /sys/module/clkstat/refcnt
		expect_eq "cycle $i: refcnt before rmmod" "$refs" 0
		rmmod clkstat || fail "cycle $i: rmmod variant=$v $p"
		[ ! -e /sys/module/clkstat ] || fail "cycle $i: still loaded after rmmod"
		[ $((i % 100)) != 0 ] || [ -z "$(log_bad)" ] || fail "cycle $i: kernel log: $(log_bad)"
		if [ $((i % STEP)) = 0 ]; then
			note "$i cycles, $((SECONDS - t0)) s"
			cs_kept_up "cycle $i"
		fi
		# After a round of every variant and probe set (allocations
		# made once, caches filled), and at the end: storm on at both.
		[ "$i" != "$WARM" ] || mem_now > /tmp/soak-mem0
	done
	mem_now > /tmp/soak-mem1
	soak_end "$CYCLES" cycles load_unload_cycles "$PINNED times pinned by an open file"
	[ "$CYCLES" -le "$WARM" ] || mem_check /tmp/soak-mem0 /tmp/soak-mem1 $((CYCLES - WARM))
	[ "$leak" = 0 ] || kmemleak_check
}

# switch_to I V: one switch, checked in the control file's first line
# ("variant V switches N", N one more than before).
switch_to() {
	local line want
	echo "variant $2" > "$D/control" || fail "switch $1: to $2 failed"
	NSW=$((NSW + 1))
	read -r line < "$D/control"
	want="variant $2 switches $NSW"
	expect_eq "switch $1: control" "$line" "$want"
}

# After the switches: the variant V records what a workload does (its own
# wakeups only, through the tgid filter, so the count is exact up to the
# +2 suite_twin.sh allows for a page read over 9p waking a thread).
records() {
	local v=$1 w n
	echo "variant $v" > "$D/control" || fail "final switch to $v"
	echo reset > "$D/control"
	"$PINGPONG" -n 100 --control "$D/control" > /tmp/truth || fail "workload"
	w=$(awk '$1 == "wakeups" { print $2 }' /tmp/truth)
	n=$(V=$v field ttwu_enqueue count)
	[ "$n" -ge "$w" ] && [ "$n" -le $((w + 2)) ] || fail "$v after the switches: ttwu_enqueue $n of $w wakeups"
	note "$v records after the switches: ttwu_enqueue $n of $w wakeups"
}

t_soak_switches() {
	local i v rc t0 w half=$((SWITCHES / 2)) refused=0
	local all=(ftrace kprobe kprobe-int3 off direct) six=(ftrace kprobe kprobe-int3 tracepoint off direct)
	mark
	soak_start
	t0=$SECONDS
	# Every probe: every variant but tracepoint, which must refuse (and
	# change nothing) every tenth time it is asked.
	insmod "$KO" probes=ttwu,tkread,csread,csswitch,clockoff,marker events=64
	NSW=0
	for i in $(seq "$half"); do
		switch_to "$i" "${all[i % 5]}"
		if [ $((i % 10)) = 0 ]; then
			rc=0
			echo "variant tracepoint" > "$D/control" 2>/dev/null || rc=$?
			[ "$rc" != 0 ] || fail "switch $i: tracepoint accepted with tkread enabled"
			read -r line < "$D/control"
			expect_eq "switch $i: after the refused one" "$line" "variant ${all[i % 5]} switches $NSW"
			refused=$((refused + 1))
		fi
		[ $((i % 100)) != 0 ] || [ -z "$(log_bad)" ] || fail "switch $i: kernel log: $(log_bad)"
		if [ $((i % STEP)) = 0 ]; then
			note "$i switches, $((SECONDS - t0)) s"
			cs_kept_up "switch $i"
		fi
	done
	records direct
	# csswitch saw the clocksource switches: one at least once the
	# switcher's count rose by two from what it was after the reset (one
	# switch whole after it, however slow the machine; from -1, the first
	# cs_kept_up takes the count as it is).  These waits are not the
	# soak's: CS_WAITED stays.
	echo reset > "$D/control"
	echo start > "$D/control"
	w=$CS_WAITED CS_SEEN=-1
	cs_kept_up "after the reset"
	cs_kept_up "after the reset"
	cs_kept_up "after the reset"
	CS_WAITED=$w
	[ "$(V=direct field csswitch switches)" -ge 1 ] || fail "csswitch saw no switch after the switches"
	# clockoff's samples go to clockoff or clockoff_neg by their sign.
	[ $(($(V=direct field clockoff count) + $(V=direct field clockoff_neg count))) -ge 1 ] ||
		fail "clockoff recorded nothing after the switches"
	expect_eq "refcnt" "$(cat /sys/module/clkstat/refcnt)" 0
	rmmod clkstat
	# The probes every variant can run: all six.
	insmod "$KO" probes=ttwu,clockoff,marker events=64
	NSW=0
	for i in $(seq $((SWITCHES - half))); do
		switch_to "$((half + i))" "${six[i % 6]}"
		[ $((i % 100)) != 0 ] || [ -z "$(log_bad)" ] || fail "switch $((half + i)): kernel log: $(log_bad)"
		if [ $(((half + i) % STEP)) = 0 ]; then
			note "$((half + i)) switches, $((SECONDS - t0)) s"
			cs_kept_up "switch $((half + i))"
		fi
	done
	records tracepoint
	records direct
	# The marker reaches the event log.  Here, not with csread on, whose
	# events (every clocksource read, hpet's and acpi_pm's by the
	# thousand) wrap a 64-entry log at once; and with this shell's events
	# only, or the storm's wakeups would.
	echo "tgid $BASHPID" > "$D/control"
	echo soak > "$D/marker" || fail "marker"
	grep -q " marker [0-9]* $BASHPID - soak - - -\$" "$D/events" ||
		fail "no marker in the event log: $(grep marker "$D/events" | head -3)"
	echo "tgid 0" > "$D/control"
	expect_eq "refcnt" "$(cat /sys/module/clkstat/refcnt)" 0
	rmmod clkstat
	soak_end "$SWITCHES" switches variant_switches "checks included, $refused refused as they should"
}

tests=${*:-t_soak_cycles t_soak_switches}
for t in $tests; do
	run "$t"
done
echo "$npass passed, $nfail failed"
