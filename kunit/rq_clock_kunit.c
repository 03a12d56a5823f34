// SPDX-License-Identifier: GPL-2.0
/*
 * rq_clock_kunit.c - the rq clock without struct rq (kmod/rq_clock.c): a
 * fake runqueue laid out as the offsets say, learnt at an enqueue whose
 * rq->cpu matches, read through the cache, turned off for good by a
 * mismatch; layouts that cannot be struct rq's; the advance of two reads.
 */
#include <kunit/test.h>
#include "../kmod/rq_clock.h"

/* A fake struct rq: cpu at 8, clock at 16, 64 bytes. */
struct fake_rq {
	u64 pad;
	int cpu;
	int pad2;
	u64 clock;
	u64 rest[5];
};

#define FAKE_INIT() clkstat_rq_clock_init(true, 16, 8, sizeof(struct fake_rq))

static void rq_clock_learn_read(struct kunit *test)
{
	struct fake_rq rq = { .cpu = 0, .clock = 1000 };

	KUNIT_ASSERT_EQ(test, FAKE_INIT(), 0);
	KUNIT_EXPECT_TRUE(test, clkstat_rq_clock_on());
	/* Nothing enqueued on CPU 0 yet: unknown. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(0), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&rq, 0), 1000ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(0), 1000ULL);
	/* Reads follow the clock. */
	rq.clock = 2500;
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(0), 2500ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&rq, 0), 2500ULL);
	/* CPUs out of range: unknown, and the clock stays on. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(-1), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(nr_cpu_ids), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&rq, nr_cpu_ids), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(NULL, 0), 0ULL);
	KUNIT_EXPECT_TRUE(test, clkstat_rq_clock_on());
	/* A new init forgets the learnt rq. */
	KUNIT_ASSERT_EQ(test, FAKE_INIT(), 0);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(0), 0ULL);
	clkstat_rq_clock_exit();
	KUNIT_EXPECT_FALSE(test, clkstat_rq_clock_on());
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&rq, 0), 0ULL);
}

static void rq_clock_mismatch_turns_off(struct kunit *test)
{
	struct fake_rq good = { .cpu = 0, .clock = 1000 };
	struct fake_rq bad = { .cpu = 5, .clock = 3000 };

	KUNIT_ASSERT_EQ(test, FAKE_INIT(), 0);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&good, 0), 1000ULL);
	/* Another rq for CPU 0 whose cpu field says 5: wrong layout. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&bad, 0), 0ULL);
	KUNIT_EXPECT_FALSE(test, clkstat_rq_clock_on());
	/* Off for good: neither end reads any more. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_enqueue(&good, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_cpu(0), 0ULL);
	clkstat_rq_clock_exit();	/* waits for the warning */
}

static void rq_clock_layouts(struct kunit *test)
{
	/* No BTF: off, no error. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(false, 16, 8, 64), 0);
	KUNIT_EXPECT_FALSE(test, clkstat_rq_clock_on());
	/* A clock not 8-aligned, a cpu not 4-aligned, either past the end. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(true, 12, 8, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(true, 16, 6, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(true, 64, 8, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(true, 16, 64, 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(true, 0, 0, 4), -EINVAL);
	KUNIT_EXPECT_FALSE(test, clkstat_rq_clock_on());
	/* At the very end: fine. */
	KUNIT_EXPECT_EQ(test, clkstat_rq_clock_init(true, 56, 60, 64), 0);
	KUNIT_EXPECT_TRUE(test, clkstat_rq_clock_on());
	clkstat_rq_clock_exit();
}

static void rq_clock_advance(struct kunit *test)
{
	u64 adv = 99;

	KUNIT_EXPECT_TRUE(test, clkstat_rq_advance(1000, 1500, &adv));
	KUNIT_EXPECT_EQ(test, adv, 500ULL);
	KUNIT_EXPECT_TRUE(test, clkstat_rq_advance(1000, 1000, &adv));
	KUNIT_EXPECT_EQ(test, adv, 0ULL);
	/* Two CPUs' clocks, the later one behind: 0. */
	KUNIT_EXPECT_TRUE(test, clkstat_rq_advance(1500, 1000, &adv));
	KUNIT_EXPECT_EQ(test, adv, 0ULL);
	/* An end unknown: no sample, adv untouched. */
	adv = 99;
	KUNIT_EXPECT_FALSE(test, clkstat_rq_advance(0, 1000, &adv));
	KUNIT_EXPECT_FALSE(test, clkstat_rq_advance(1000, 0, &adv));
	KUNIT_EXPECT_EQ(test, adv, 99ULL);
}

static struct kunit_case rq_clock_cases[] = {
	KUNIT_CASE(rq_clock_learn_read),
	KUNIT_CASE(rq_clock_mismatch_turns_off),
	KUNIT_CASE(rq_clock_layouts),
	KUNIT_CASE(rq_clock_advance),
	{}
};

static struct kunit_suite rq_clock_suite = {
	.name = "clkstat_rq_clock",
	.test_cases = rq_clock_cases,
};
kunit_test_suite(rq_clock_suite);
