#!/bin/bash
# lean_variants.sh - clkstat on a kernel that lacks variants: the lean
# test kernel (tools/vm/lean.config, static ftrace: no direct calls, no
# ftrace_ops with args), run by tools/tests/lean.sh.  Each missing variant
# is refused by name, naming the option, at load and at a switch, and
# changes nothing; the others load, count exactly against the workload's
# truth and ftrace, switch, and unload, leaving nothing hooked.
# usage: lean_variants.sh [TEST...]; last line "N passed, N failed".
. "$(dirname "$0")/lib.sh"

# VARIANT:OPTION for each variant kmod/Kbuild leaves out on this kernel.
MISSING="direct:CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	ftrace:CONFIG_DYNAMIC_FTRACE_WITH_ARGS"
PRESENT="kprobe kprobe-int3 tracepoint"
KP=/sys/kernel/debug/kprobes/list

# The kernel really lacks them: else this suite proves nothing.
t_kernel_lacks() {
	local cfg
	cfg=$(zcat /proc/config.gz 2>/dev/null || true)
	[ -e "$T/available_filter_functions" ] &&
		fail "this kernel has dynamic ftrace (available_filter_functions)"
	[ -z "$cfg" ] || ! grep -qx 'CONFIG_DYNAMIC_FTRACE=y' <<< "$cfg" ||
		fail "CONFIG_DYNAMIC_FTRACE=y"
	note "no available_filter_functions: static ftrace only"
}

# A load asking for a missing variant fails with EINVAL and one line
# naming the variant and the option, and leaves nothing; the default
# variant is direct, so a bare load is refused the same way.
t_missing_refused_at_load() {
	local m v opt
	for m in $MISSING; do
		v=${m%%:*} opt=${m#*:}
		bad_param_one "variant=$v needs $opt, which this kernel lacks" \
			variant="$v" probes=ttwu,tkread
	done
	bad_param_one "variant=direct needs CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS" probes=ttwu
	! grep -q clkstat "$KP" || fail "kprobes left: $(cat $KP)"
}

# The others: exact against the truth and ftrace, local and migrating.
t_present_exact() {
	# shellcheck disable=SC2086
	variants_exact $PRESENT
}

# A switch to a missing variant is EINVAL with a line naming the option,
# and changes nothing: the same variant, switches, metric files and
# counts, still recording through the variant attached.  A switch between
# present variants works, and an unload leaves nothing hooked.
t_missing_refused_at_switch() {
	local m v opt before files
	insmod "$KO" variant=kprobe probes=ttwu,tkread
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null
	before=$(cat "$D/control")
	files=$(ls "$D")
	for m in $MISSING; do
		v=${m%%:*} opt=${m#*:}
		mark
		if echo "variant $v" > "$D/control" 2> /tmp/err; then
			fail "switch to $v accepted"
		fi
		grep -q 'Invalid argument' /tmp/err || fail "switch to $v: $(cat /tmp/err)"
		since_mark | grep -qF "control: variant $v needs $opt, which this kernel lacks" ||
			fail "switch to $v: no line naming $opt: $(since_mark | tail -3)"
		expect_eq "control after the refused switch to $v" "$(cat "$D/control")" "$before"
		expect_eq "files after the refused switch to $v" "$(ls "$D")" "$files"
		expect_eq "last_error after the refused switch to $v" "$(cat "$D/last_error")" \
			"variant $v: variant $v needs $opt, which this kernel lacks"
	done
	expect_eq "kprobe count kept" "$(V=kprobe field ttwu_enqueue count)" 100
	grep -qE " k +try_to_wake_up\+$FENTRY " "$KP" || fail "kprobe gone: $(cat $KP)"
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null
	expect_eq "kprobe count after the refusals" "$(V=kprobe field ttwu_enqueue count)" 100
	# kprobe-int3 (tracepoint has no tkread: t_tkread_variants).
	echo "variant kprobe-int3" > "$D/control"
	grep -q '^variant kprobe-int3 switches 1$' "$D/control" || fail "control: $(head -1 $D/control)"
	grep -E " k +try_to_wake_up\+$INT3 " "$KP" | grep -qv FTRACE || fail "no int3 kprobe: $(cat $KP)"
	"$PINGPONG" -n 50 --reads 1 --control "$D/control" > /dev/null
	expect_eq "kprobe-int3 count" "$(V=kprobe-int3 field ttwu_enqueue count)" 100
	expect_eq "kprobe-int3 ttwu_tkread count" "$(V=kprobe-int3 field ttwu_tkread count)" 100
	rmmod clkstat
	! grep -q clkstat "$KP" || fail "kprobes left after rmmod: $(cat $KP)"
	! grep -q clkstat /proc/modules || fail "still loaded"
}

tests=${*:-t_kernel_lacks t_missing_refused_at_load t_present_exact
	t_missing_refused_at_switch}
# shellcheck disable=SC2086
run_suite $tests
