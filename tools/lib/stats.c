// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the summary of one histogram (stats.h).
 *
 * count, min and max are the histogram's own.  The percentiles are
 * clkstat_hist_quantile() of shared/clkstat_hist_math.h over the dense
 * slots, the function the module's debugfs files use, so that both print
 * the same p99 for the same slots.  The mean is exact, from the slots'
 * sums; the standard deviation that of the samples taken each at their
 * slot's mean (cr_slots_moments() says how exact each is).
 *
 * cr_slots_moments() is that mean and standard deviation on its own, over
 * dense slots of which only some (idx) may be non-empty: cr_summarize()
 * and the bootstrap of --compare (bootstrap.c), which evaluates them on every
 * resample's pooled slots, share it.  Documentation/clkstat.rst, "The
 * report", says what the summary's numbers are to a reader.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "../../kmod/shared/clkstat_hist_math.h"
#include "stats.h"

/*
 * mean: the slots' sums (each scaled back by clkstat_slot_sum_shift())
 * added in 128-bit integers, which cannot overflow (a sum is below 2^64,
 * the shift at most 31, and there are at most CLKSTAT_NSLOTS_MAX slots),
 * divided by the count in long double.  It is exact, up to the rounding to
 * a double, for samples below 2^CLKSTAT_SUM_EXACT_BITS ns (8.6 s); above,
 * the module drops the low clkstat_slot_sum_shift() bits of each sample
 * before adding it (a relative error below 2^-32).  Like the module's
 * summary it is clamped to [min, max].
 *
 * stddev: the sample standard deviation (n - 1 in the denominator) of the
 * samples taken each at its slot's mean, clkstat_slot_mean().  How the
 * samples spread inside a slot is not known, so it is exact when every
 * sample is in a one-value slot (all values below 2^(frac_bits + 1)) and
 * otherwise within the bucket resolution: it leaves out the spread inside
 * each slot, at most half the slot's width (2^-frac_bits of the value),
 * so it is low by at most the widest non-empty slot's half width (times
 * sqrt(n / (n - 1))), give or take the slot means' truncation to whole ns.
 * tools/tests/render_test.c checks both bounds against brute force.
 */
void cr_slots_moments(const struct clkstat_slot *s, const uint32_t *idx,
		      unsigned int n, unsigned int frac_bits, uint64_t count,
		      uint64_t min, uint64_t max, double *mean_out,
		      double *stddev_out)
{
	uint64_t smean[CLKSTAT_NSLOTS_MAX];	/* slot means, first pass */
	unsigned __int128 total_ns = 0;
	long double vmean = 0, ss = 0, d, mean;
	unsigned int i, j;

	*mean_out = 0;
	*stddev_out = 0;
	if (!count)
		return;
	if (n > CLKSTAT_NSLOTS_MAX)
		n = CLKSTAT_NSLOTS_MAX;		/* no layout has more */
	for (j = 0; j < n; j++) {
		i = idx ? idx[j] : j;
		smean[j] = 0;
		if (!s[i].count)
			continue;
		total_ns += (unsigned __int128)s[i].sum <<
			    clkstat_slot_sum_shift(i, frac_bits);
		smean[j] = clkstat_slot_mean(s, i, frac_bits);
		vmean += (long double)s[i].count * smean[j];
	}
	mean = (long double)total_ns / count;
	if (mean < min)
		mean = min;
	if (mean > max)
		mean = max;
	*mean_out = (double)mean;

	/*
	 * Two passes in long double around the mean of the values the
	 * deviation is taken of (the slot means), not the exact mean: the
	 * variance of one set of values about its own mean.
	 */
	if (count > 1) {
		vmean /= count;
		for (j = 0; j < n; j++) {
			i = idx ? idx[j] : j;
			if (!s[i].count)
				continue;
			d = smean[j] - vmean;
			ss += (long double)s[i].count * d * d;
		}
		*stddev_out = (double)sqrtl(ss / (count - 1));
	}
}

int cr_summarize(const struct cr_hist *h, unsigned int frac_bits,
		 struct cr_summary *out)
{
	unsigned int nslots = CLKSTAT_NSLOTS(frac_bits), i;
	struct clkstat_slot *s;
	uint64_t min, max;

	*out = (struct cr_summary){ 0 };
	s = cr_hist_dense(h, frac_bits);
	if (!s)
		return -ENOMEM;
	out->count = clkstat_hist_total(s, nslots);
	if (!out->count) {
		free(s);
		return 0;
	}
	min = h->min;
	max = h->max;
	if (min > max) {
		/*
		 * Samples without a recorded min and max (a reader that raced
		 * a writer, or an edited snapshot): the bounds of the first
		 * and last non-empty slots, so that the quantiles still clamp
		 * to something sensible.
		 */
		for (i = 0; !s[i].count; i++)
			;
		min = clkstat_slot_lower(i, frac_bits);
		for (i = nslots - 1; !s[i].count; i--)
			;
		max = clkstat_slot_upper(i, frac_bits);
	}
	out->min = min;
	out->max = max;
#define Q(n, d) clkstat_hist_quantile(s, nslots, frac_bits, out->count, \
				      min, max, n, d)
	out->p50 = Q(50, 100);
	out->p90 = Q(90, 100);
	out->p99 = Q(99, 100);
	out->p999 = Q(999, 1000);
#undef Q

	cr_slots_moments(s, NULL, nslots, frac_bits, out->count, min, max,
			 &out->mean, &out->stddev);
	free(s);
	return 0;
}
