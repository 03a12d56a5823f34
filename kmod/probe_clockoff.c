// SPDX-License-Identifier: GPL-2.0
/*
 * probe_clockoff.c - the offset between two clock domains, sampled at the
 * events of the other probes: CLOCK_MONOTONIC time (the clock the probes
 * stamp events with, clkstat_now(): kmod/clock.c) minus local_clock() (the
 * scheduler's clock, sched_clock with its per-CPU corrections), read back
 * to back on the same CPU.
 *
 * A constant offset shows as a narrow distribution, drift as a wide or
 * moving one.  Histograms hold magnitudes, so the sign picks the metric:
 *   clockoff      offset >= 0: monotonic time at or ahead of local_clock
 *   clockoff_neg  offset < 0, recorded as its magnitude: local_clock ahead
 *
 * The probe hooks nothing itself: it samples where ttwu sees a wakeup,
 * tkread a task's read, and csswitch a switch return, so it needs one of
 * them enabled.
 */
#include <linux/sched/clock.h>
#include "hist.h"
#include "probe_clockoff.h"
#include "probes.h"
#include "uapi/clkstat_catalog.h"

struct clkstat_metric *clkstat_clockoff;
static struct clkstat_metric *clockoff_neg;

/**
 * clkstat_clockoff_record() - record one offset sample
 * @mono: clkstat_now() just read by the calling probe
 *
 * Called through clkstat_clockoff_sample(), on the CPU that read @mono.
 */
void notrace clkstat_clockoff_record(u64 mono)
{
	u64 local = local_clock();

	if (mono >= local)
		clkstat_record(clkstat_clockoff, mono - local);
	else
		clkstat_record(clockoff_neg, local - mono);
}

static void clockoff_exit(void)
{
	WRITE_ONCE(clkstat_clockoff, NULL);
	clockoff_neg = NULL;
	clkstat_metric_destroy_name(CLKSTAT_MNAME(CLOCKOFF_NEG));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(CLOCKOFF));
}

static int clockoff_bind(const char *variant,
			 const struct clkstat_handover *h)
{
	struct clkstat_metric *pos, *neg;

	pos = clkstat_metric_get(CLKSTAT_MNAME(CLOCKOFF), variant, NULL, 0);
	if (IS_ERR(pos))
		return PTR_ERR(pos);
	neg = clkstat_metric_get(CLKSTAT_MNAME(CLOCKOFF_NEG), variant,
				 NULL, 0);
	if (IS_ERR(neg))
		return PTR_ERR(neg);
	clockoff_neg = neg;
	/* The other probes' handlers look at it; no hook is attached now. */
	WRITE_ONCE(clkstat_clockoff, pos);
	return 0;
}

static int clockoff_init(const struct clkstat_probe_cfg *cfg)
{
	int ret;

	if (!cfg->with_sampling_probe) {
		pr_err("clkstat: probe clockoff samples at the events of ttwu, tkread or csswitch: enable one of them too\n");
		return -EINVAL;
	}
	ret = clockoff_bind(cfg->variant->name, NULL);
	if (ret)
		clockoff_exit();
	return ret;
}

struct clkstat_probe clkstat_probe_clockoff = {
	.name = "clockoff",
	.init = clockoff_init,
	.bind = clockoff_bind,
	.exit = clockoff_exit,
	.hooks = NULL,
	.nhooks = 0,
};
