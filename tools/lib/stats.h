/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the summary clkstat-report prints for a histogram.  The
 * percentiles are shared/clkstat_hist_math.h's, the very function the module
 * uses for debugfs, so both print the same numbers for the same slots.
 */
#ifndef CLKSTAT_REPORT_STATS_H
#define CLKSTAT_REPORT_STATS_H

#include <stdint.h>
#include "model.h"

struct clkstat_slot;

struct cr_summary {
	uint64_t count;
	uint64_t min, max;		/* ns; 0 when count is 0 */
	uint64_t p50, p90, p99, p999;	/* ns, clkstat_hist_quantile() */
	double mean;			/* ns, exact: from the slots' sums */
	double stddev;			/* ns, sample (n - 1), from slot means */
};

/* Summarize h (frac_bits of its metric).  Return 0, or -ENOMEM. */
int cr_summarize(const struct cr_hist *h, unsigned int frac_bits,
		 struct cr_summary *out);

/*
 * cr_summarize()'s mean and standard deviation (stats.c) of a histogram
 * held as dense slots s[] (shared/clkstat_hist_math.h): idx lists, in
 * ascending order, the n slots that may be non-empty (every other one must
 * be empty), or is NULL for the n slots 0 .. n - 1.  count is their total,
 * [min, max] the range the mean is clamped to.  Both 0 when count is 0;
 * the standard deviation is 0 when count is 1.
 */
void cr_slots_moments(const struct clkstat_slot *s, const uint32_t *idx,
		      unsigned int n, unsigned int frac_bits, uint64_t count,
		      uint64_t min, uint64_t max, double *mean,
		      double *stddev);

#endif
