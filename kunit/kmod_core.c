// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod/ sources under test, compiled into the test module.  Only the
 * logic that needs no hook: the store, its statistics, the wakeup table,
 * the control language, the event log, the rq clock's cache, the
 * BTF prototype reader, and the probes' clock (clock.c: its static key
 * stays off here, so timestamps are ktime_get_mono_fast_ns(), through
 * reentry.c's marked call out).  kmod_tp.c holds one more.
 */
#include "../kmod/hist.c"
#include "../kmod/hist_stats.c"
#include "../kmod/pending.c"
#include "../kmod/control_lang.c"
#include "../kmod/evlog.c"
#include "../kmod/rq_clock.c"
#include "../kmod/btf_func.c"
#include "../kmod/clock.c"
#include "../kmod/reentry.c"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for clkstat");
