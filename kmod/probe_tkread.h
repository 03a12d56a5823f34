/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_tkread.h - the link from probe ttwu to probe tkread: ttwu's hooks
 * hand tkread the wakeups and enqueues it times to the woken task's first
 * clock read.
 */
#ifndef _CLKSTAT_PROBE_TKREAD_H
#define _CLKSTAT_PROBE_TKREAD_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "hist.h"

/* ttwu_tkread while both probes are enabled, else NULL. */
extern struct clkstat_metric *clkstat_ttwu_tkread;
void clkstat_tkread_on_wakeup(struct task_struct *p, u64 now, u64 id,
			      u64 rq_clock);
void clkstat_tkread_on_enqueue(struct task_struct *p, u64 now, u64 rq_clock);

/* Does tkread want ttwu's events now? */
static inline bool clkstat_tkread_wants(void)
{
	struct clkstat_metric *m = READ_ONCE(clkstat_ttwu_tkread);

	return m && clkstat_metric_recording(m);
}

#endif /* _CLKSTAT_PROBE_TKREAD_H */
