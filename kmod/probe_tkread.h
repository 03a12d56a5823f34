/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_tkread.h - the link from probe ttwu to probe tkread: ttwu's hooks
 * open and complete tkread's part of each wakeup in the wake table
 * (pending.h), which tkread closes at the woken task's first clock read.
 */
#ifndef _CLKSTAT_PROBE_TKREAD_H
#define _CLKSTAT_PROBE_TKREAD_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "hist.h"

/* ttwu_tkread while both probes are enabled, else NULL. */
extern struct clkstat_metric *clkstat_ttwu_tkread;

/* Does tkread want ttwu's events now? */
static inline bool clkstat_tkread_wants(void)
{
	struct clkstat_metric *m = READ_ONCE(clkstat_ttwu_tkread);

	return m && clkstat_metric_recording(m);
}

#endif /* _CLKSTAT_PROBE_TKREAD_H */
