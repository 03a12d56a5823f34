/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * clkstat_buckets.h - the log-linear bucket math of clkstat, in one place.
 *
 * The module, the userspace tools and the BPF programs all include this
 * file, so that a value lands in the same slot whoever records it.  It has
 * no kernel-only includes and no dependency on libc.
 *
 * Layout, for k = frac_bits (0..CLKSTAT_FRAC_BITS_MAX):
 *  - values 0 .. 2^k - 1 have one exact slot each (slot == value);
 *  - every power of two above, [2^m, 2^(m+1)) for m = k .. 63, is split
 *    into 2^k equal sub-buckets of width 2^(m-k).
 * Slot numbers are contiguous and ordered by value:
 *   slot(v) = v                                   for v < 2^k
 *   slot(v) = (m - k + 1) * 2^k + ((v >> (m - k)) & (2^k - 1))   otherwise,
 * where m is the index of the highest set bit of v.  There are
 * (65 - k) * 2^k slots; the last one ends at U64_MAX inclusive, so every
 * u64 value, U64_MAX included, has a slot and nothing is clipped.
 *
 * Sums: a slot also keeps the sum of its samples, scaled down by
 * clkstat_slot_sum_shift() for slots above 2^CLKSTAT_SUM_EXACT_BITS, so
 * that every sample adds less than 2^CLKSTAT_SUM_EXACT_BITS to the sum.
 * A slot's sum on one CPU can then only wrap after more than 2^63 ns
 * (292 years) of recorded time in that slot.
 */
#ifndef _UAPI_CLKSTAT_BUCKETS_H
#define _UAPI_CLKSTAT_BUCKETS_H

#ifndef __VMLINUX_H__		/* BPF programs get the types from vmlinux.h */
#include <linux/types.h>
#endif

#define CLKSTAT_FRAC_BITS_MAX	5
#define CLKSTAT_FRAC_BITS_DEFAULT 3
/* Number of slots for k fractional bits. */
#define CLKSTAT_NSLOTS(k)	((65U - (k)) << (k))
#define CLKSTAT_NSLOTS_MAX	CLKSTAT_NSLOTS(CLKSTAT_FRAC_BITS_MAX)
/* Values below 2^CLKSTAT_SUM_EXACT_BITS ns (8.6 s) are summed exactly. */
#define CLKSTAT_SUM_EXACT_BITS	33

/*
 * Always inlined, wherever they are compiled: the record is a handful of
 * instructions around clkstat_value_to_slot(), and a compiler that weighs
 * inlining per translation unit does not always inline a plain static
 * inline (the module's bench.o called it).  The kernel spells it
 * __always_inline; BPF programs (libbpf's bpf_helpers.h) and userspace
 * (glibc's sys/cdefs.h) may define that too, and get the attribute
 * itself where they do not.  checkpatch.pl exempts include/uapi/ from
 * preferring the kernel's macro; tools/tests/style.sh does the same here.
 */
#if defined(__KERNEL__) || defined(__always_inline)
#define CLKSTAT_ALWAYS_INLINE	static __always_inline
#else
#define CLKSTAT_ALWAYS_INLINE	static inline __attribute__((__always_inline__))
#endif

/*
 * Index of the highest set bit of a non-zero value.  BPF has no count-leading
 * -zeros instruction, so it (and a test build of the fallback) uses a
 * six-step binary search instead; clang unrolls the loop.
 */
CLKSTAT_ALWAYS_INLINE __u32 clkstat_msb64(__u64 v)
{
#if defined(__bpf__) || defined(CLKSTAT_PORTABLE_MSB)
	__u32 m = 0;

	__u32 step;

	for (step = 32; step; step >>= 1) {
		if (v >> step) {
			v >>= step;
			m += step;
		}
	}
	return m;
#else
	return 63U - (__u32)__builtin_clzll(v);
#endif
}

/**
 * clkstat_value_to_slot() - the slot that holds a value
 * @v: the value (nanoseconds, or any u64)
 * @k: fractional bits, 0..CLKSTAT_FRAC_BITS_MAX
 *
 * Return: the slot index, below CLKSTAT_NSLOTS(@k).
 */
CLKSTAT_ALWAYS_INLINE __u32 clkstat_value_to_slot(__u64 v, __u32 k)
{
	__u32 m;

	if (v < (1ULL << k))
		return (__u32)v;
	m = clkstat_msb64(v);
	return ((m - k + 1) << k) | (__u32)((v >> (m - k)) & ((1ULL << k) - 1));
}

/**
 * clkstat_slot_lower() - smallest value that lands in a slot
 * @slot: slot index, below CLKSTAT_NSLOTS(@k)
 * @k: fractional bits
 *
 * Return: the inclusive lower bound of @slot.
 */
CLKSTAT_ALWAYS_INLINE __u64 clkstat_slot_lower(__u32 slot, __u32 k)
{
	__u32 b = slot >> k;	/* 0 for the exact slots, else m - k + 1 */

	if (b == 0)
		return slot;
	return ((1ULL << k) | (slot & ((1U << k) - 1))) << (b - 1);
}

/**
 * clkstat_slot_upper() - largest value that lands in a slot
 * @slot: slot index, below CLKSTAT_NSLOTS(@k)
 * @k: fractional bits
 *
 * Return: the inclusive upper bound of @slot (U64_MAX for the last slot).
 */
CLKSTAT_ALWAYS_INLINE __u64 clkstat_slot_upper(__u32 slot, __u32 k)
{
	__u32 b = slot >> k;

	if (b == 0)
		return slot;
	return clkstat_slot_lower(slot, k) + ((1ULL << (b - 1)) - 1);
}

/**
 * clkstat_slot_sum_shift() - how far a slot's samples are shifted when summed
 * @slot: slot index
 * @k: fractional bits
 *
 * A slot's sum holds the sum of (sample >> shift); multiply back by
 * 2^shift to get nanoseconds.  The shift is zero below
 * 2^CLKSTAT_SUM_EXACT_BITS.
 *
 * Return: the shift, 0..31.
 */
CLKSTAT_ALWAYS_INLINE __u32 clkstat_slot_sum_shift(__u32 slot, __u32 k)
{
	__u32 b = slot >> k;
	__u32 top = b ? b + k : 0;	/* m + 1: bits in the slot's values */

	return top > CLKSTAT_SUM_EXACT_BITS ? top - CLKSTAT_SUM_EXACT_BITS : 0;
}

#endif /* _UAPI_CLKSTAT_BUCKETS_H */
