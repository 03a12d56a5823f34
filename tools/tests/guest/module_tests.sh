#!/bin/bash
# module_tests.sh - clkstat.ko in the guest, on Debian's stock kernel: every
# area suite below, in one guest boot (tools/tests/guest.sh's default, make
# check's stage guest), their tests in one run with one closing line.
#
#   suite_load.sh         load with good and bad parameters, control file
#                         stop, start, reset and errors, unload under load,
#                         load/unload cycles, leaks
#   suite_ttwu.sh         probe ttwu: a workload whose wakeups are known,
#                         against ftrace's independent count
#   suite_tkread.sh       probe tkread: wakeup to first clock read
#   suite_clocksource.sh  probes csread and csswitch; the probes' clock
#                         (TSC or mono) against ktime
#   suite_clockoff.sh     probe clockoff
#   suite_events.sh       the event log and probe marker
#   suite_variants.sh     the hook variants, exact in each, switching
#   suite_netlink.sh      the netlink family, its fuzzer, record
#   suite_twin.sh         the BPF twin
#   suite_conditions.sh   record --cstates and --load, restored after
#   suite_overhead.sh     clkstat-report overhead and clkstat_hookbench.ko
#   suite_trace.sh        user-defined probes: the hookbench's test targets
#   suite_usertrace.sh    user-defined probes: trace and untrace, exact per
#                         variant, refusals, clkstat-report trace, record
#                         --probes
#   suite_exporter.sh     clkstat-report serve on the live module
#
# lib.sh holds what more than one of them uses; each runs alone too:
# tools/tests/guest.sh --suite suite_netlink.sh [TEST...].  A clean kernel
# log (t_dmesg_clean, lib.sh) closes every run.
# usage: module_tests.sh [TEST...], tests of any of the suites (as
# run-all.sh's GUEST_61 and SMOKE_73 name them); without, all of them.
# Prints TAP-like lines and ends with "N passed, N failed".
set -u
here=$(dirname "${BASH_SOURCE[0]}")
. "$here/lib.sh"
. "$here/suite_load.sh"
. "$here/suite_ttwu.sh"
. "$here/suite_tkread.sh"
. "$here/suite_clocksource.sh"
. "$here/suite_clockoff.sh"
. "$here/suite_events.sh"
. "$here/suite_variants.sh"
. "$here/suite_netlink.sh"
. "$here/suite_twin.sh"
. "$here/suite_conditions.sh"
. "$here/suite_overhead.sh"
. "$here/suite_trace.sh"
. "$here/suite_usertrace.sh"
. "$here/suite_exporter.sh"

# Every suite's tests, in the order the whole suite has always run them.
ALL_TESTS="t_load_files t_bad_params t_params_at_limits t_pingpong_local
	t_pingpong_migrate t_variant_hooks t_variants_exact t_direct_conflict
	t_tkread_local t_tkread_migrate t_tkread_variants t_tkread_alone t_tkread_rqclock
	t_variant_switch t_variant_off t_variant_switch_loop t_csread_vs_kprobe_event t_csswitch
	t_exit_hooks_switch_loop t_clock_auto t_clock_param t_clock_tsc_exact t_clock_fallback
	t_clock_tsc_events t_clockoff t_events t_events_reset
	t_record_events
	t_cs_events t_netlink t_netlink_fuzz t_netlink_events t_events_export
	t_record
	t_all_tasks_vs_ftrace t_stop_start_reset t_control_bad_writes
	t_rmmod_under_load t_cycles_under_load t_overhead t_btf_proto t_handler_bench
	t_bpf_twin_agree t_bpf_conflict t_bpf_loader_errors t_bpf_record
	t_bpf_csswitch t_bpf_events t_bpf_events_misc t_bpf_events_pruned
	t_bpf_csread t_bpf_clockoff
	t_cond_cstates t_cond_restore t_cond_load
	t_targets_traceable t_targets_counts t_targets_delay
	t_trace_load t_trace_counts t_trace_refusals t_trace_partial t_trace_tp t_trace_targets t_trace_events t_trace_drain
	t_trace_cli t_trace_record
	t_bpf_trace_func t_bpf_trace_tp t_bpf_trace_refusals t_bpf_trace_hard
	t_bpf_trace_vs_module
	t_serve_live t_serve_perfmon t_serve_textfile"
# A test added to a suite must be added here too (else make check would
# not run it), and only once.
# shellcheck disable=SC2086
if [ "$(printf '%s\n' $ALL_TESTS | sort)" != "$(printf '%s\n' $LOAD_TESTS $TTWU_TESTS \
	$TKREAD_TESTS $CLOCKSOURCE_TESTS $CLOCKOFF_TESTS $EVENTS_TESTS $VARIANTS_TESTS \
	$NETLINK_TESTS $TWIN_TESTS $OVERHEAD_TESTS $CONDITIONS_TESTS $TRACE_TESTS \
	$USERTRACE_TESTS $EXPORTER_TESTS | sort)" ]; then
	echo "module_tests.sh: ALL_TESTS is not the suites' tests, each once"
	echo "0 passed, 1 failed"
	exit 1
fi
# shellcheck disable=SC2048,SC2086
suite_main ${*:-$ALL_TESTS}
