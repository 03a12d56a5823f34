/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_hist_math.h - reading a histogram: totals, slot means and
 * quantiles over an array of slots, the same in the module (debugfs,
 * netlink) and in tools/clkstat-report, so that both print the same p99
 * for the same slots.  Integer arithmetic only: the kernel has no floating
 * point.  The bucket layout itself is clkstat_buckets.h.
 */
#ifndef _CLKSTAT_SHARED_HIST_MATH_H
#define _CLKSTAT_SHARED_HIST_MATH_H

#include "../uapi/clkstat_buckets.h"

#ifdef __KERNEL__
#include <linux/math64.h>
#endif

/* One slot: its count and its scaled sum (clkstat_slot_sum_shift()). */
struct clkstat_slot {
	__u64 count;
	__u64 sum;
};

/* a * b / c without overflowing the product (c not zero). */
static inline __u64 clkstat_mul_div(__u64 a, __u64 b, __u64 c)
{
#ifdef __KERNEL__
	return mul_u64_u64_div_u64(a, b, c);
#else
	return (__u64)((__uint128_t)a * b / c);
#endif
}

/* a / b, b not zero (32-bit kernels need div64_u64()). */
static inline __u64 clkstat_div(__u64 a, __u64 b)
{
#ifdef __KERNEL__
	return div64_u64(a, b);
#else
	return a / b;
#endif
}

static inline __u64 clkstat_clamp_u64(__u64 v, __u64 lo, __u64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/**
 * clkstat_hist_total() - number of samples in a histogram
 * @slot: the slots
 * @nslots: how many
 *
 * Return: the sum of the slots' counts.
 */
static inline __u64 clkstat_hist_total(const struct clkstat_slot *slot,
				       unsigned int nslots)
{
	__u64 total = 0;
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
static inline __u64 clkstat_slot_mean(const struct clkstat_slot *slot,
				      unsigned int idx, unsigned int frac_bits)
{
	const struct clkstat_slot *s = &slot[idx];
	__u64 mean;

	if (!s->count)
		return 0;
	mean = clkstat_div(s->sum, s->count) << clkstat_slot_sum_shift(idx, frac_bits);
	return clkstat_clamp_u64(mean, clkstat_slot_lower(idx, frac_bits),
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
static inline __u64 clkstat_hist_quantile(const struct clkstat_slot *slot,
					  unsigned int nslots,
					  unsigned int frac_bits, __u64 total,
					  __u64 min, __u64 max, __u32 num,
					  __u32 den)
{
	__u64 rank, cum = 0, lower, width, v;
	unsigned int i;

	if (!total || !den || num > den)
		return 0;
	/* ceil(total * num / den) == total - floor(total * (den - num) / den) */
	rank = total - clkstat_mul_div(total, den - num, den);
	if (rank <= 1)
		return min;
	if (rank >= total)
		return max;

	for (i = 0; i < nslots; i++) {
		__u64 c = slot[i].count;

		if (!c || cum + c < rank) {
			cum += c;
			continue;
		}
		lower = clkstat_slot_lower(i, frac_bits);
		width = clkstat_slot_upper(i, frac_bits) - lower + 1;
		/* j = rank - cum; position (2j - 1) / (2c) of the slot */
		v = lower + clkstat_mul_div(width, 2 * (rank - cum) - 1, 2 * c);
		return clkstat_clamp_u64(v, min, max);
	}
	/* Only reachable when total disagrees with the slots. */
	return max;
}

#endif /* _CLKSTAT_SHARED_HIST_MATH_H */
