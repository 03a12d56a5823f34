/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_clockoff.h - the clock offset sample: what probe clockoff offers
 * the probes that sample it at their events (ttwu, tkread, csswitch).
 */
#ifndef _CLKSTAT_PROBE_CLOCKOFF_H
#define _CLKSTAT_PROBE_CLOCKOFF_H

#include <linux/compiler.h>
#include <linux/types.h>
#include "clock.h"
#include "hist.h"

/* clockoff's metric while the probe is enabled, else NULL. */
extern struct clkstat_metric *clkstat_clockoff;
void clkstat_clockoff_record(u64 mono);

/* Sample the clock offset at an event, with the event's clkstat_now(). */
static __always_inline void clkstat_clockoff_sample(u64 mono)
{
	struct clkstat_metric *m = READ_ONCE(clkstat_clockoff);

	if (m && clkstat_metric_recording(m))
		clkstat_clockoff_record(mono);
}

/* The same at an event timed with a stamp (clock.h), converted only then. */
static __always_inline void clkstat_clockoff_stamp(u64 stamp)
{
	struct clkstat_metric *m = READ_ONCE(clkstat_clockoff);

	if (unlikely(m) && clkstat_metric_recording(m))
		clkstat_clockoff_record(clkstat_stamp_to_ns(stamp));
}

#endif /* _CLKSTAT_PROBE_CLOCKOFF_H */
