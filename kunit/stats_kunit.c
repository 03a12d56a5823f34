// SPDX-License-Identifier: GPL-2.0
/*
 * stats_kunit.c - totals, slot means, quantiles and the summary, against
 * exact values computed from the raw samples.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "../kmod/hist.h"

#define NSAMPLES 2001

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank quantile of sorted samples, as the kernel defines it. */
static u64 exact_quantile(const u64 *sorted, u64 n, u32 num, u32 den)
{
	u64 rank = div64_u64(n * num + den - 1, den);

	return sorted[max_t(u64, rank, 1) - 1];
}

static struct clkstat_slot *alloc_slots(struct kunit *test)
{
	struct clkstat_slot *slot;

	slot = kunit_kcalloc(test, CLKSTAT_NSLOTS_MAX, sizeof(*slot),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	return slot;
}

/*
 * Random samples spread over the whole u64 range (a random value shifted
 * right by a random amount): for every k and quantile, the histogram's
 * answer must lie in the slot of the exact answer.
 */
static void stats_quantile_vs_exact(struct kunit *test)
{
	static const u32 q[][2] = { {0, 1}, {1, 100}, {50, 100}, {90, 100},
				    {99, 100}, {999, 1000}, {1, 1} };
	struct clkstat_slot *slot;
	struct rnd_state rnd;
	u64 *v, got, want;
	unsigned int i, k, j;

	v = kunit_kmalloc_array(test, NSAMPLES, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	slot = alloc_slots(test);
	prandom_seed_state(&rnd, 20261121);
	for (i = 0; i < NSAMPLES; i++) {
		u64 r = ((u64)prandom_u32_state(&rnd) << 32) |
			prandom_u32_state(&rnd);

		v[i] = r >> (prandom_u32_state(&rnd) % 64);
	}
	sort(v, NSAMPLES, sizeof(*v), cmp_u64, NULL);

	for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++) {
		memset(slot, 0, CLKSTAT_NSLOTS_MAX * sizeof(*slot));
		for (i = 0; i < NSAMPLES; i++)
			slot[clkstat_value_to_slot(v[i], k)].count++;
		KUNIT_EXPECT_EQ(test, clkstat_hist_total(slot, CLKSTAT_NSLOTS(k)),
				(u64)NSAMPLES);
		for (j = 0; j < ARRAY_SIZE(q); j++) {
			want = exact_quantile(v, NSAMPLES, q[j][0], q[j][1]);
			got = clkstat_hist_quantile(slot, CLKSTAT_NSLOTS(k), k,
						    NSAMPLES, v[0],
						    v[NSAMPLES - 1], q[j][0],
						    q[j][1]);
			KUNIT_EXPECT_EQ_MSG(test, clkstat_value_to_slot(got, k),
					    clkstat_value_to_slot(want, k),
					    "k %u q %u/%u got %llu want %llu",
					    k, q[j][0], q[j][1], got, want);
		}
		/* p0 and p100 are the true extremes. */
		KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot,
				CLKSTAT_NSLOTS(k), k, NSAMPLES, v[0],
				v[NSAMPLES - 1], 0, 1), v[0]);
		KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot,
				CLKSTAT_NSLOTS(k), k, NSAMPLES, v[0],
				v[NSAMPLES - 1], 1, 1), v[NSAMPLES - 1]);
	}
}

/* Exact slots give exact answers: 0..31 once each with k = 5. */
static void stats_quantile_exact_slots(struct kunit *test)
{
	struct clkstat_slot *slot = alloc_slots(test);
	unsigned int i;

	for (i = 0; i < 32; i++)
		slot[i].count = 1;
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 32, 5, 32, 0, 31,
						    50, 100), 15ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 32, 5, 32, 0, 31,
						    90, 100), 28ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 32, 5, 32, 0, 31,
						    99, 100), 31ULL);
}

/* Inside a wide slot the c samples sit at the middles of c equal parts. */
static void stats_quantile_interpolation(struct kunit *test)
{
	struct clkstat_slot *slot = alloc_slots(test);
	unsigned int s = clkstat_value_to_slot(1024, 0);	/* [1024, 2047] */

	slot[s].count = 4;
	/* rank 1 of 4 is the recorded min, rank 4 the recorded max */
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1030, 2000,
						    25, 100), 1030ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1030, 2000,
						    100, 100), 2000ULL);
	/* rank 2 of 4: 1024 + 1024 * 3/8; rank 3: 1024 + 1024 * 5/8 */
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1024, 2047,
						    50, 100), 1408ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1024, 2047,
						    75, 100), 1664ULL);
	/* clamped to the recorded min and max */
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1500, 1600,
						    50, 100), 1500ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1024, 1600,
						    75, 100), 1600ULL);
	/* empty histogram, bad fraction */
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 0, 0, 0,
						    50, 100), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_quantile(slot, 65, 0, 4, 1024, 2047,
						    2, 1), 0ULL);
}

/* Counts near 2^62 must not overflow the rank or interpolation. */
static void stats_huge_counts(struct kunit *test)
{
	struct clkstat_slot *slot = alloc_slots(test);
	u64 big = 1ULL << 62;
	u32 a = clkstat_value_to_slot(1000, 3), b = clkstat_value_to_slot(5000, 3);

	slot[a].count = big;
	slot[b].count = big - 1;
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(slot, CLKSTAT_NSLOTS(3)),
			2 * big - 1);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(clkstat_hist_quantile(slot,
			CLKSTAT_NSLOTS(3), 3, 2 * big - 1, 0, U64_MAX, 50, 100),
			3), a);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(clkstat_hist_quantile(slot,
			CLKSTAT_NSLOTS(3), 3, 2 * big - 1, 0, U64_MAX, 51, 100),
			3), b);
}

static void stats_summary(struct kunit *test)
{
	struct clkstat_cpu_hist *h;
	struct clkstat_summary s;
	static const u64 vals[] = { 100, 200, 300, 400, 10000 };
	unsigned int i, slot;

	h = kunit_kzalloc(test, clkstat_metric_cpu_bytes(5), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	clkstat_hist_summarize(h, CLKSTAT_NSLOTS(5), 5, &s);
	KUNIT_EXPECT_EQ(test, s.count, 0ULL);
	KUNIT_EXPECT_EQ(test, s.p99, 0ULL);

	h->min = 100;
	h->max = 10000;
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		slot = clkstat_value_to_slot(vals[i], 5);
		h->slot[slot].count++;
		h->slot[slot].sum += vals[i];
	}
	clkstat_hist_summarize(h, CLKSTAT_NSLOTS(5), 5, &s);
	KUNIT_EXPECT_EQ(test, s.count, 5ULL);
	KUNIT_EXPECT_EQ(test, s.mean, 2200ULL);
	KUNIT_EXPECT_EQ(test, s.min, 100ULL);
	KUNIT_EXPECT_EQ(test, s.max, 10000ULL);
	KUNIT_EXPECT_EQ(test, clkstat_value_to_slot(s.p50, 5),
			clkstat_value_to_slot(300, 5));
	KUNIT_EXPECT_EQ(test, s.p99, 10000ULL);
}

static struct kunit_case stats_cases[] = {
	KUNIT_CASE(stats_quantile_vs_exact),
	KUNIT_CASE(stats_quantile_exact_slots),
	KUNIT_CASE(stats_quantile_interpolation),
	KUNIT_CASE(stats_huge_counts),
	KUNIT_CASE(stats_summary),
	{}
};

static struct kunit_suite stats_suite = {
	.name = "clkstat_stats",
	.test_cases = stats_cases,
};
kunit_test_suite(stats_suite);
