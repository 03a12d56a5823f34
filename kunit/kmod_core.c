// SPDX-License-Identifier: GPL-2.0
/*
 * The kmod/ sources under test, compiled into the test module.  Only the
 * logic that needs no hook: the store, its statistics, the wakeup table,
 * the control language, the event log, the rq clock's cache and the
 * BTF prototype reader.
 */
#include "../kmod/hist.c"
#include "../kmod/hist_stats.c"
#include "../kmod/pending.c"
#include "../kmod/control.c"
#include "../kmod/evlog.c"
#include "../kmod/rq_clock.c"
#include "../kmod/btf_func.c"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for clkstat");
