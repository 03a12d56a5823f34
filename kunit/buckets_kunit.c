// SPDX-License-Identifier: GPL-2.0
/*
 * buckets_kunit.c - uapi/clkstat_buckets.h against the naive reference in
 * bucket_ref.h, for every frac_bits, every slot, and values at and around
 * every power of two up to U64_MAX.
 */
#include <kunit/test.h>
#include "bucket_ref.h"

static void clkstat_kunit_report(void *ctx, const char *what, u64 input,
				 u64 got, u64 want)
{
	struct kunit *test = ctx;

	kunit_err(test, "%s: input %llu: got %llu, want %llu\n", what, input,
		  got, want);
}

static void buckets_match_reference(struct kunit *test)
{
	u32 k;

	for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++)
		KUNIT_EXPECT_EQ_MSG(test, clkstat_ref_check(k,
				    clkstat_kunit_report, test), 0U,
				    "frac_bits %u", k);
}

static void buckets_known_values(struct kunit *test)
{
	/* k = 3: exact below 8, then 8 sub-buckets per power of two. */
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(7, 3), 7U);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(8, 3), 8U);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(15, 3), 15U);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(16, 3), 16U);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(17, 3), 16U);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(18, 3), 17U);
	KUNIT_EXPECT_EQ(test, clkstat_slot_lower(17, 3), 18ULL);
	KUNIT_EXPECT_EQ(test, clkstat_slot_upper(17, 3), 19ULL);
	/* k = 0 is log2: slot m + 1 holds [2^m, 2^(m+1)). */
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(1000, 0), 10U);
	KUNIT_EXPECT_EQ(test, clkstat_slot_lower(10, 0), 512ULL);
	KUNIT_EXPECT_EQ(test, clkstat_slot_upper(10, 0), 1023ULL);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(U64_MAX, 5),
			CLKSTAT_NSLOTS(5) - 1);
	KUNIT_EXPECT_EQ(test, CLKSTAT_NSLOTS(0), 65U);
	KUNIT_EXPECT_EQ(test, CLKSTAT_NSLOTS(3), 496U);
	KUNIT_EXPECT_EQ(test, CLKSTAT_NSLOTS_MAX, 1920U);
	/* Sums are exact below 2^33 and scaled above. */
	KUNIT_EXPECT_EQ(test, clkstat_slot_sum_shift(
			clkstat_value_to_slot((1ULL << 33) - 1, 3), 3), 0U);
	KUNIT_EXPECT_EQ(test, clkstat_slot_sum_shift(
			clkstat_value_to_slot(1ULL << 33, 3), 3), 1U);
	KUNIT_EXPECT_EQ(test, clkstat_slot_sum_shift(
			clkstat_value_to_slot(U64_MAX, 3), 3), 31U);
}

static struct kunit_case buckets_cases[] = {
	KUNIT_CASE(buckets_match_reference),
	KUNIT_CASE(buckets_known_values),
	{}
};

static struct kunit_suite buckets_suite = {
	.name = "clkstat_buckets",
	.test_cases = buckets_cases,
};
kunit_test_suite(buckets_suite);
