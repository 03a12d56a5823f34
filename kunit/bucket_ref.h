/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bucket_ref.h - a naive reference for uapi/clkstat_buckets.h and the check
 * that compares the two, shared by the KUnit suite (kernel) and the cmocka
 * test (userspace), so that both sides test the very same properties.
 *
 * The reference is written differently on purpose: a bit-by-bit loop for
 * the highest bit, division and multiplication instead of masks and shifts.
 */
#ifndef _CLKSTAT_BUCKET_REF_H
#define _CLKSTAT_BUCKET_REF_H

#include "../kmod/uapi/clkstat_buckets.h"

static inline __u32 clkstat_ref_slot(__u64 v, __u32 k)
{
	__u64 sub = 1ULL << k, width, t = v;
	__u32 m = 0;

	if (v < sub)
		return (__u32)v;
	while (t >>= 1)
		m++;
	width = (1ULL << m) / sub;
	return (__u32)((m - k + 1) * sub + (v - (1ULL << m)) / width);
}

static inline __u64 clkstat_ref_lower(__u32 s, __u32 k)
{
	__u64 sub = 1ULL << k;
	__u32 m;

	if (s < sub)
		return s;
	m = s / sub + k - 1;
	return (1ULL << m) + (s % sub) * ((1ULL << m) / sub);
}

static inline __u64 clkstat_ref_upper(__u32 s, __u32 k)
{
	__u64 sub = 1ULL << k;

	if (s < sub)
		return s;
	return clkstat_ref_lower(s, k) + (1ULL << (s / sub + k - 1)) / sub - 1;
}

/* The i-th value worth checking: around every power of two, and the top. */
#define CLKSTAT_REF_NVALUES (64 * 5 + 2)
static inline __u64 clkstat_ref_value(unsigned int i)
{
	__u64 p;

	if (i >= 64 * 5)
		return i == 64 * 5 ? ~0ULL : ~0ULL - 1;
	p = 1ULL << (i / 5);
	switch (i % 5) {
	case 0: return p - 1;
	case 1: return p;
	case 2: return p + 1;
	case 3: return p + p / 2;	/* the middle of the power of two */
	default: return p + p - 1 + (p == 1);	/* the top of it */
	}
}

/* Called for each mismatch: what (a description), the input, got, want. */
typedef void (*clkstat_ref_report_fn)(void *ctx, const char *what,
				      __u64 input, __u64 got, __u64 want);

/*
 * Check every slot and every interesting value for k fractional bits.
 * Returns the number of mismatches; each one is also reported.
 */
static inline unsigned int clkstat_ref_check(__u32 k,
					     clkstat_ref_report_fn report,
					     void *ctx)
{
	unsigned int bad = 0, i;
	__u32 n = CLKSTAT_NSLOTS(k), s;
	__u64 v;

#define CLKSTAT_REF_EXPECT(what, in, got, want) do {			\
		if ((__u64)(got) != (__u64)(want)) {			\
			bad++;						\
			report(ctx, what, in, got, want);		\
		}							\
	} while (0)

	for (s = 0; s < n; s++) {
		CLKSTAT_REF_EXPECT("lower(slot)", s, clkstat_slot_lower(s, k),
				   clkstat_ref_lower(s, k));
		CLKSTAT_REF_EXPECT("upper(slot)", s, clkstat_slot_upper(s, k),
				   clkstat_ref_upper(s, k));
		CLKSTAT_REF_EXPECT("slot(lower(slot))", s,
				   clkstat_value_to_slot(clkstat_slot_lower(s, k), k), s);
		CLKSTAT_REF_EXPECT("slot(upper(slot))", s,
				   clkstat_value_to_slot(clkstat_slot_upper(s, k), k), s);
		if (s + 1 < n)
			CLKSTAT_REF_EXPECT("lower(slot+1) == upper(slot)+1", s,
					   clkstat_slot_lower(s + 1, k),
					   clkstat_slot_upper(s, k) + 1);
		/* Every sample adds less than 2^CLKSTAT_SUM_EXACT_BITS. */
		CLKSTAT_REF_EXPECT("upper >> sum_shift < 2^33", s,
				   clkstat_slot_upper(s, k) >>
				   clkstat_slot_sum_shift(s, k) >>
				   CLKSTAT_SUM_EXACT_BITS, 0);
	}
	CLKSTAT_REF_EXPECT("upper(last slot)", n - 1,
			   clkstat_slot_upper(n - 1, k), ~0ULL);
	CLKSTAT_REF_EXPECT("slot(0)", 0, clkstat_value_to_slot(0, k), 0);
	for (i = 0; i < CLKSTAT_REF_NVALUES; i++) {
		v = clkstat_ref_value(i);
		s = clkstat_value_to_slot(v, k);
		CLKSTAT_REF_EXPECT("slot(value)", v, s, clkstat_ref_slot(v, k));
		CLKSTAT_REF_EXPECT("slot(value) < nslots", v, s < n, 1);
		CLKSTAT_REF_EXPECT("lower(slot(value)) <= value", v,
				   clkstat_slot_lower(s, k) <= v, 1);
		CLKSTAT_REF_EXPECT("value <= upper(slot(value))", v,
				   v <= clkstat_slot_upper(s, k), 1);
	}
#undef CLKSTAT_REF_EXPECT
	return bad;
}

#endif /* _CLKSTAT_BUCKET_REF_H */
