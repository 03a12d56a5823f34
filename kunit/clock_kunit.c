// SPDX-License-Identifier: GPL-2.0
/*
 * clock_kunit.c - the probes' stamps (kmod/clock.h): the interval of two
 * TSC stamps converted at once with the timekeeper's mult and shift, as
 * mul_u64_u32_shr() would; a negative one as 0; a start in cycles not
 * valid once the clock left the TSC; a stamp older than the readout
 * converted backwards for the event log; and stamps off
 * the TSC, which are ns already.  The TSC key is turned on only for the
 * case that needs it, and off again: no readout is published here.
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include "../kmod/clock.h"

/* clkstat_mul_shr() is mul_u64_u32_shr() without its u128. */
static void clock_mul_shr(struct kunit *test)
{
	static const u64 as[] = { 0, 1, 999, 1ULL << 32, 3000000000ULL,
				  (1ULL << 62) + 12345, (1ULL << 63) - 1 };
	static const u32 muls[] = { 0, 1, 3, 0x80000000U, 0xffffffffU,
				    5592405 };
	static const unsigned int shifts[] = { 0, 1, 22, 24, 31, 32, 63 };
	unsigned int i, j, k;

	for (i = 0; i < ARRAY_SIZE(as); i++)
		for (j = 0; j < ARRAY_SIZE(muls); j++)
			for (k = 0; k < ARRAY_SIZE(shifts); k++)
				KUNIT_EXPECT_EQ(test,
						clkstat_mul_shr(as[i], muls[j], shifts[k]),
						mul_u64_u32_shr(as[i], muls[j], shifts[k]));
}

/* Off the TSC (the key off, as clock.c leaves it here): stamps are ns. */
static void clock_stamps_mono(struct kunit *test)
{
	u64 a, b;

	KUNIT_ASSERT_FALSE(test, static_key_enabled(&clkstat_clock_tsc));
	a = clkstat_stamp();
	b = clkstat_stamp();
	KUNIT_EXPECT_EQ(test, a & CLKSTAT_STAMP_TSC, 0ULL);
	KUNIT_EXPECT_GE(test, b, a);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_ns(100, 350), 250ULL);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_ns(350, 100), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_ns(350, 350), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_to_ns(12345), 12345ULL);
	/* Begun in cycles before leaving the TSC, ended in ns: none. */
	KUNIT_EXPECT_TRUE(test, clkstat_stamp_valid(a));
	KUNIT_EXPECT_FALSE(test, clkstat_stamp_valid(CLKSTAT_STAMP_TSC | 1000));
}

/* On the TSC: tagged raw cycles, the interval converted with the scale. */
static void clock_stamps_tsc(struct kunit *test)
{
	const u64 tag = CLKSTAT_STAMP_TSC;
	/* mult 3, shift 1: 1.5 ns per cycle. */
	const u64 scale = 3 | (1ULL << 32);
	u64 saved = clkstat_tsc_scale, a;

	static_branch_enable(&clkstat_clock_tsc);
	a = clkstat_stamp();
	KUNIT_EXPECT_EQ(test, a & tag, tag);
	KUNIT_EXPECT_TRUE(test, clkstat_stamp_valid(a));
	KUNIT_EXPECT_EQ(test, clkstat_stamp_ns_at(tag | 1000, tag | 3000, scale),
			3000ULL);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_ns_at(tag | 3000, tag | 1000, scale),
			0ULL);
	/* One cycle past 2^32: no 32-bit truncation of the interval. */
	KUNIT_EXPECT_EQ(test,
			clkstat_stamp_ns_at(tag, tag | ((1ULL << 32) + 1), scale),
			mul_u64_u32_shr((1ULL << 32) + 1, 3, 1));
	/* clkstat_stamp_ns() takes the published scale. */
	WRITE_ONCE(clkstat_tsc_scale, scale);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_ns(tag | 10, tag | 20), 15ULL);
	WRITE_ONCE(clkstat_tsc_scale, saved);
	static_branch_disable(&clkstat_clock_tsc);
	KUNIT_EXPECT_EQ(test, clkstat_stamp() & tag, 0ULL);
}

/*
 * A TSC value older than the readout: clamped to the readout's time for
 * now, converted backwards for a stamp (the event log's time).  The
 * readout is written here and put back; nothing publishes one meanwhile.
 */
static void clock_stamp_before_readout(struct kunit *test)
{
	const struct clkstat_tsc_base b = { .cyc = 1000, .ns = 50000,
					    .mult = 3, .shift = 1 };
	struct clkstat_tsc_clock saved = clkstat_tsc_clock;
	const u64 tag = CLKSTAT_STAMP_TSC;

	WRITE_ONCE(clkstat_tsc_clock.seq, 0);
	clkstat_tsc_clock.base[0] = b;
	KUNIT_EXPECT_EQ(test, clkstat_tsc_to_ns(1200), 50300ULL);
	KUNIT_EXPECT_EQ(test, clkstat_tsc_to_ns(800), 50000ULL);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_to_ns(tag | 1200), 50300ULL);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_to_ns(tag | 800), 49700ULL);
	/* Two stamps' times differ by their interval, across the readout. */
	static_branch_enable(&clkstat_clock_tsc);
	KUNIT_EXPECT_EQ(test, clkstat_stamp_to_ns(tag | 1200) -
			      clkstat_stamp_to_ns(tag | 800),
			clkstat_stamp_ns_at(tag | 800, tag | 1200, 3 | 1ULL << 32));
	static_branch_disable(&clkstat_clock_tsc);
	clkstat_tsc_clock = saved;
}

static struct kunit_case clock_cases[] = {
	KUNIT_CASE(clock_mul_shr),
	KUNIT_CASE(clock_stamps_mono),
	KUNIT_CASE(clock_stamps_tsc),
	KUNIT_CASE(clock_stamp_before_readout),
	{}
};

static struct kunit_suite clock_suite = {
	.name = "clkstat_clock",
	.test_cases = clock_cases,
};

kunit_test_suite(clock_suite);
