#!/bin/bash
# module_tests.sh - clkstat.ko in the guest, on Debian's stock kernel: every
# area suite (suite_*.sh, listed below where each is sourced), in one
# guest boot (tools/tests/guest.sh's default, make check's stage guest),
# their tests in one run with one closing line.
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
# The area suites:
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
#   suite_study.sh        record's study file: SIGKILL and a copy mid-run,
#                         --append, events and xcorr against its JSON, 9p
#   suite_overhead.sh     clkstat-report overhead and clkstat_hookbench.ko
#   suite_trace.sh        user-defined probes: the hookbench's test targets
#   suite_usertrace.sh    user-defined probes: trace and untrace, exact per
#                         variant, refusals, clkstat-report trace, record
#                         --probes
#   suite_exporter.sh     clkstat-report serve on the live module
#   suite_first_study.sh  the README's first study, command for command
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
. "$here/suite_study.sh"
. "$here/suite_overhead.sh"
. "$here/suite_trace.sh"
. "$here/suite_usertrace.sh"
. "$here/suite_exporter.sh"
. "$here/suite_first_study.sh"
# t_sweep by name only (run-all.sh's parts on 6.1 and 7.3 take a small
# sample of it; make sweep runs the whole, for hours): not in ALL_TESTS.
. "$here/suite_sweep.sh"

# Every suite's tests, suite by suite in the order above: each list is
# kept once, in its suite (a test added there runs here).
# shellcheck disable=SC2153
ALL_TESTS="$LOAD_TESTS $TTWU_TESTS $TKREAD_TESTS $CLOCKSOURCE_TESTS
	$CLOCKOFF_TESTS $EVENTS_TESTS $VARIANTS_TESTS $NETLINK_TESTS $TWIN_TESTS
	$CONDITIONS_TESTS $STUDY_TESTS $OVERHEAD_TESTS $TRACE_TESTS $USERTRACE_TESTS
	$EXPORTER_TESTS $FIRST_STUDY_TESTS"
# shellcheck disable=SC2048,SC2086
suite_main ${*:-$ALL_TESTS}
