// SPDX-License-Identifier: GPL-2.0
/*
 * hist_stats.c - the summary of one histogram: count, min, mean, percentiles
 * and max, as debugfs prints it.
 *
 * A pure function over one CPU's slots (no locks, no I/O), so that KUnit
 * can feed it made-up histograms.  The quantiles and slot means are
 * shared/clkstat_hist_math.h's, which clkstat-report uses too.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include "hist.h"
#include "test_exports.h"

/**
 * clkstat_hist_summarize() - count, min, mean, percentiles and max
 * @h: one CPU's histogram, or a snapshot's all-CPU sum
 * @nslots: number of slots in @h
 * @frac_bits: fractional bits of @h
 * @sum: filled in; all zero for an empty histogram
 *
 * The mean adds up the slots' sums (saturating at U64_MAX ns, more than 584
 * years of recorded time) and divides by the count.
 */
void clkstat_hist_summarize(const struct clkstat_cpu_hist *h,
			    unsigned int nslots, unsigned int frac_bits,
			    struct clkstat_summary *sum)
{
	u64 total_ns = 0, part;
	unsigned int i, shift;

	*sum = (struct clkstat_summary){ 0 };
	sum->count = clkstat_hist_total(h->slot, nslots);
	if (!sum->count)
		return;
	for (i = 0; i < nslots; i++) {
		if (!h->slot[i].count)
			continue;
		shift = clkstat_slot_sum_shift(i, frac_bits);
		part = h->slot[i].sum;
		if (part > (U64_MAX >> shift) ||
		    check_add_overflow(total_ns, part << shift, &total_ns))
			total_ns = U64_MAX;
	}
	sum->min = h->min;
	sum->max = h->max;
	sum->mean = clamp(div64_u64(total_ns, sum->count), h->min, h->max);
#define Q(n, d) clkstat_hist_quantile(h->slot, nslots, frac_bits, \
				      sum->count, h->min, h->max, n, d)
	sum->p50 = Q(50, 100);
	sum->p90 = Q(90, 100);
	sum->p99 = Q(99, 100);
	sum->p999 = Q(999, 1000);
#undef Q
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_hist_summarize);
