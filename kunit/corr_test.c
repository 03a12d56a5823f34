// SPDX-License-Identifier: GPL-2.0
/*
 * corr_test.c - the per-task pending-event table: put, take, replace,
 * evict on collision, busy entries, events of another epoch.
 */
#include <kunit/test.h>
#include <linux/hash.h>
#include "../kmod/corr.h"

static long keys[4096];	/* addresses to use as keys */

/* A value to put: time ts, CPU cpu, epoch 7. */
#define VAL(ts, cpu) (&(struct clkstat_corr_val){ ts, cpu, 7 })

static void corr_put_take(struct kunit *test)
{
	struct clkstat_corr t;
	struct clkstat_corr_val v;

	KUNIT_EXPECT_EQ(test, clkstat_corr_init(&t, 100), -EINVAL);
	KUNIT_ASSERT_EQ(test, clkstat_corr_init(&t, 64), 0);

	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[0], &v),
			CLKSTAT_CORR_ABSENT);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], VAL(111, 1)),
			CLKSTAT_CORR_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], VAL(222, 2)),
			CLKSTAT_CORR_REPLACED);
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[0], &v),
			CLKSTAT_CORR_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts, 222ULL);
	KUNIT_EXPECT_EQ(test, v.cpu, 2);
	KUNIT_EXPECT_EQ(test, v.epoch, 7U);
	/* taken once, gone */
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[0], &v),
			CLKSTAT_CORR_ABSENT);
	clkstat_corr_free(&t);
}

static void corr_collision_evicts(struct kunit *test)
{
	struct clkstat_corr t;
	struct clkstat_corr_val v;
	unsigned int i, h0;

	KUNIT_ASSERT_EQ(test, clkstat_corr_init(&t, 64), 0);
	h0 = hash_ptr(&keys[0], t.bits);
	for (i = 1; i < ARRAY_SIZE(keys); i++)
		if (hash_ptr(&keys[i], t.bits) == h0)
			break;
	KUNIT_ASSERT_LT(test, i, (unsigned int)ARRAY_SIZE(keys));

	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], VAL(1, 0)),
			CLKSTAT_CORR_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[i], VAL(2, 0)),
			CLKSTAT_CORR_EVICTED);
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[0], &v),
			CLKSTAT_CORR_ABSENT);
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[i], &v),
			CLKSTAT_CORR_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts, 2ULL);
	clkstat_corr_free(&t);
}

static void corr_busy_entry(struct kunit *test)
{
	struct clkstat_corr t;
	struct clkstat_corr_entry *e;
	struct clkstat_corr_val v;

	KUNIT_ASSERT_EQ(test, clkstat_corr_init(&t, 64), 0);
	e = &t.entry[hash_ptr(&keys[0], t.bits)];
	/* As if another CPU were between its claim and its release. */
	atomic_long_set(&e->key, 1);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], VAL(1, 0)),
			CLKSTAT_CORR_BUSY);
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[0], &v),
			CLKSTAT_CORR_CONTENDED);
	atomic_long_set(&e->key, 0);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], VAL(1, 0)),
			CLKSTAT_CORR_NEW);
	clkstat_corr_free(&t);
}

/* An event of another epoch is void: overwriting it is no loss. */
static void corr_other_epoch(struct kunit *test)
{
	struct clkstat_corr_val old = { .ts = 1, .epoch = 7 };
	struct clkstat_corr_val cur = { .ts = 2, .epoch = 8 };
	struct clkstat_corr t;
	struct clkstat_corr_val v;

	KUNIT_ASSERT_EQ(test, clkstat_corr_init(&t, 64), 0);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], &old),
			CLKSTAT_CORR_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], &cur),
			CLKSTAT_CORR_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_corr_put(&t, &keys[0], &cur),
			CLKSTAT_CORR_REPLACED);
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, &keys[0], &v),
			CLKSTAT_CORR_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts, 2ULL);
	KUNIT_EXPECT_EQ(test, v.epoch, 8U);
	clkstat_corr_free(&t);
}

/* Pending events are counted per epoch; taken ones are not pending. */
static void corr_pending(struct kunit *test)
{
	struct clkstat_corr_val e7 = { .ts = 1, .epoch = 7 };
	struct clkstat_corr_val e8 = { .ts = 2, .epoch = 8 };
	struct clkstat_corr t;
	struct clkstat_corr_val v;
	unsigned int i, n = 0, n7 = 0, n8 = 0;
	long *used[40];

	KUNIT_ASSERT_EQ(test, clkstat_corr_init(&t, 64), 0);
	KUNIT_EXPECT_EQ(test, clkstat_corr_pending(&t, 7), 0UL);
	/* 40 keys in distinct entries: skip keys whose entry is taken. */
	for (i = 0; i < ARRAY_SIZE(keys) && n < ARRAY_SIZE(used); i++) {
		if (atomic_long_read(&t.entry[hash_ptr(&keys[i], t.bits)].key))
			continue;
		used[n] = &keys[i];
		KUNIT_ASSERT_EQ(test, clkstat_corr_put(&t, used[n],
						       n % 4 ? &e7 : &e8),
				CLKSTAT_CORR_NEW);
		if (n++ % 4)
			n7++;
		else
			n8++;
	}
	KUNIT_ASSERT_EQ(test, n, 40U);
	KUNIT_EXPECT_EQ(test, clkstat_corr_pending(&t, 7), (unsigned long)n7);
	KUNIT_EXPECT_EQ(test, clkstat_corr_pending(&t, 8), (unsigned long)n8);
	KUNIT_EXPECT_EQ(test, clkstat_corr_take(&t, used[1], &v),
			CLKSTAT_CORR_FOUND);
	KUNIT_EXPECT_EQ(test, clkstat_corr_pending(&t, 7),
			(unsigned long)n7 - 1);
	clkstat_corr_free(&t);
}

static struct kunit_case corr_cases[] = {
	KUNIT_CASE(corr_put_take),
	KUNIT_CASE(corr_other_epoch),
	KUNIT_CASE(corr_pending),
	KUNIT_CASE(corr_collision_evicts),
	KUNIT_CASE(corr_busy_entry),
	{}
};

static struct kunit_suite corr_suite = {
	.name = "clkstat_corr",
	.test_cases = corr_cases,
};
kunit_test_suite(corr_suite);
