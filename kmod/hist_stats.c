// SPDX-License-Identifier: GPL-2.0
/*
 * hist_stats.c - summaries of one histogram: totals, slot means, quantiles.
 *
 * Pure functions over an array of slots (no locks, no I/O), so that KUnit
 * can feed them made-up histograms.  Integer arithmetic only: the kernel has
 * no floating point, and the products go through mul_u64_u64_div_u64() so
 * that counts up to 2^64 do not overflow.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include "hist.h"

/**
 * clkstat_hist_total() - number of samples in a histogram
 * @slot: the slots
 * @nslots: how many
 *
 * Return: the sum of the slots' counts.
 */
u64 clkstat_hist_total(const struct clkstat_slot *slot, unsigned int nslots)
{
	u64 total = 0;
	unsigned int i;

	for (i = 0; i < nslots; i++)
		total += slot[i].count;
	return total;
}

/**
 * clkstat_slot_mean() - mean of the samples in one slot, in ns
 * @slot: the slots
 * @idx: which slot
 * @frac_bits: the histogram's fractional bits
 *
 * The mean is clamped to the slot's bounds, which it can only leave when a
 * reader raced with a writer and saw a count without its sum.
 *
 * Return: the mean, or 0 for an empty slot.
 */
u64 clkstat_slot_mean(const struct clkstat_slot *slot, unsigned int idx,
		      unsigned int frac_bits)
{
	const struct clkstat_slot *s = &slot[idx];
	u64 mean;

	if (!s->count)
		return 0;
	mean = div64_u64(s->sum, s->count) <<
		clkstat_slot_sum_shift(idx, frac_bits);
	return clamp(mean, clkstat_slot_lower(idx, frac_bits),
		     clkstat_slot_upper(idx, frac_bits));
}

/**
 * clkstat_hist_quantile() - the num/den quantile of a histogram, in ns
 * @slot: the slots
 * @nslots: how many
 * @frac_bits: the histogram's fractional bits
 * @total: clkstat_hist_total() of the slots
 * @min: smallest sample recorded
 * @max: largest sample recorded
 * @num: numerator of the quantile (e.g. 999 for p99.9 with @den 1000)
 * @den: denominator, not zero, at least @num
 *
 * Nearest rank: the sample of rank r = ceil(total * num / den) (at least 1).
 * Inside its slot the c samples are taken as spread evenly, the j-th at the
 * middle of the j-th of c equal parts of [lower, upper]; exact slots give
 * exact values.  The first and last ranks are the recorded @min and @max,
 * and every result is clamped to [@min, @max].  The error is at most the
 * slot's width, 2^-k of the value.
 *
 * Return: the quantile, or 0 for an empty histogram.
 */
u64 clkstat_hist_quantile(const struct clkstat_slot *slot,
			  unsigned int nslots, unsigned int frac_bits,
			  u64 total, u64 min, u64 max, u32 num, u32 den)
{
	u64 rank, cum = 0, lower, width, v;
	unsigned int i;

	if (!total || !den || num > den)
		return 0;
	/* ceil(total * num / den) == total - floor(total * (den - num) / den) */
	rank = total - mul_u64_u64_div_u64(total, den - num, den);
	if (rank <= 1)
		return min;
	if (rank >= total)
		return max;

	for (i = 0; i < nslots; i++) {
		u64 c = slot[i].count;

		if (!c || cum + c < rank) {
			cum += c;
			continue;
		}
		lower = clkstat_slot_lower(i, frac_bits);
		width = clkstat_slot_upper(i, frac_bits) - lower + 1;
		/* j = rank - cum; position (2j - 1) / (2c) of the slot */
		v = lower + mul_u64_u64_div_u64(width, 2 * (rank - cum) - 1,
						2 * c);
		return clamp(v, min, max);
	}
	/* Only reachable when total disagrees with the slots. */
	return max;
}

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
