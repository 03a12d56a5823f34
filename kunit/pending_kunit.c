// SPDX-License-Identifier: GPL-2.0
/*
 * pending_kunit.c - the per-task pending-event table: put, take, replace,
 * evict on collision, busy entries, events of another epoch; the wake
 * table of ttwu and tkread: claims, parts, release.
 */
#include <kunit/test.h>
#include <linux/hash.h>
#include "../kmod/pending.h"

static long keys[4096];	/* addresses to use as keys */

/* A value to put: time ts, CPU cpu, epoch 7. */
#define VAL(ts, cpu) (&(struct clkstat_pending_val){ ts, cpu, 7 })

static void pending_put_take(struct kunit *test)
{
	struct clkstat_pending t;
	struct clkstat_pending_val v;

	KUNIT_EXPECT_EQ(test, clkstat_pending_init(&t, 100), -EINVAL);
	KUNIT_ASSERT_EQ(test, clkstat_pending_init(&t, 64), 0);

	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[0], &v),
			CLKSTAT_PENDING_ABSENT);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], VAL(111, 1)),
			CLKSTAT_PENDING_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], VAL(222, 2)),
			CLKSTAT_PENDING_REPLACED);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[0], &v),
			CLKSTAT_PENDING_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts, 222ULL);
	KUNIT_EXPECT_EQ(test, v.cpu, 2);
	KUNIT_EXPECT_EQ(test, v.epoch, 7U);
	/* taken once, gone */
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[0], &v),
			CLKSTAT_PENDING_ABSENT);
	/* Every field comes back: tkread's enqueue time, flag, id, rq clock. */
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[1],
		&(struct clkstat_pending_val){ .ts = 1, .cpu = 3, .epoch = 7,
			.ts2 = 2, .migrated = true, .id = 4, .rq_clock = 5 }),
			CLKSTAT_PENDING_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[1], &v),
			CLKSTAT_PENDING_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts2, 2ULL);
	KUNIT_EXPECT_TRUE(test, v.migrated);
	KUNIT_EXPECT_EQ(test, v.id, 4ULL);
	KUNIT_EXPECT_EQ(test, v.rq_clock, 5ULL);
	clkstat_pending_free(&t);
}

static void pending_collision_evicts(struct kunit *test)
{
	struct clkstat_pending t;
	struct clkstat_pending_val v;
	unsigned int i, h0;

	KUNIT_ASSERT_EQ(test, clkstat_pending_init(&t, 64), 0);
	h0 = hash_ptr(&keys[0], t.bits);
	for (i = 1; i < ARRAY_SIZE(keys); i++)
		if (hash_ptr(&keys[i], t.bits) == h0)
			break;
	KUNIT_ASSERT_LT(test, i, (unsigned int)ARRAY_SIZE(keys));

	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], VAL(1, 0)),
			CLKSTAT_PENDING_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[i], VAL(2, 0)),
			CLKSTAT_PENDING_EVICTED);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[0], &v),
			CLKSTAT_PENDING_ABSENT);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[i], &v),
			CLKSTAT_PENDING_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts, 2ULL);
	clkstat_pending_free(&t);
}

static void pending_busy_entry(struct kunit *test)
{
	struct clkstat_pending t;
	struct clkstat_pending_entry *e;
	struct clkstat_pending_val v;

	KUNIT_ASSERT_EQ(test, clkstat_pending_init(&t, 64), 0);
	e = &t.entry[hash_ptr(&keys[0], t.bits)];
	/* As if another CPU were between its claim and its release. */
	atomic_long_set(&e->key, 1);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], VAL(1, 0)),
			CLKSTAT_PENDING_BUSY);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[0], &v),
			CLKSTAT_PENDING_CONTENDED);
	atomic_long_set(&e->key, 0);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], VAL(1, 0)),
			CLKSTAT_PENDING_NEW);
	clkstat_pending_free(&t);
}

/* An event of another epoch is void: overwriting it is no loss. */
static void pending_other_epoch(struct kunit *test)
{
	struct clkstat_pending_val old = { .ts = 1, .epoch = 7 };
	struct clkstat_pending_val cur = { .ts = 2, .epoch = 8 };
	struct clkstat_pending t;
	struct clkstat_pending_val v;

	KUNIT_ASSERT_EQ(test, clkstat_pending_init(&t, 64), 0);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], &old),
			CLKSTAT_PENDING_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], &cur),
			CLKSTAT_PENDING_NEW);
	KUNIT_EXPECT_EQ(test, clkstat_pending_put(&t, &keys[0], &cur),
			CLKSTAT_PENDING_REPLACED);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, &keys[0], &v),
			CLKSTAT_PENDING_FOUND);
	KUNIT_EXPECT_EQ(test, v.ts, 2ULL);
	KUNIT_EXPECT_EQ(test, v.epoch, 8U);
	clkstat_pending_free(&t);
}

/* Pending events are counted per epoch; taken ones are not pending. */
static void pending_pending(struct kunit *test)
{
	struct clkstat_pending_val e7 = { .ts = 1, .epoch = 7 };
	struct clkstat_pending_val e8 = { .ts = 2, .epoch = 8 };
	struct clkstat_pending t;
	struct clkstat_pending_val v;
	unsigned int i, n = 0, n7 = 0, n8 = 0;
	long *used[40];

	KUNIT_ASSERT_EQ(test, clkstat_pending_init(&t, 64), 0);
	KUNIT_EXPECT_EQ(test, clkstat_pending_pending(&t, 7), 0UL);
	/* 40 keys in distinct entries: skip keys whose entry is taken. */
	for (i = 0; i < ARRAY_SIZE(keys) && n < ARRAY_SIZE(used); i++) {
		if (atomic_long_read(&t.entry[hash_ptr(&keys[i], t.bits)].key))
			continue;
		used[n] = &keys[i];
		KUNIT_ASSERT_EQ(test, clkstat_pending_put(&t, used[n],
						       n % 4 ? &e7 : &e8),
				CLKSTAT_PENDING_NEW);
		if (n++ % 4)
			n7++;
		else
			n8++;
	}
	KUNIT_ASSERT_EQ(test, n, 40U);
	KUNIT_EXPECT_EQ(test, clkstat_pending_pending(&t, 7), (unsigned long)n7);
	KUNIT_EXPECT_EQ(test, clkstat_pending_pending(&t, 8), (unsigned long)n8);
	KUNIT_EXPECT_EQ(test, clkstat_pending_take(&t, used[1], &v),
			CLKSTAT_PENDING_FOUND);
	KUNIT_EXPECT_EQ(test, clkstat_pending_pending(&t, 7),
			(unsigned long)n7 - 1);
	clkstat_pending_free(&t);
}

/* Stand-ins for task_structs, aligned as those are (pending.h). */
static struct { u8 b[64]; } __aligned(64) wake_tasks[2];

/*
 * The wake table of ttwu and tkread: a wakeup's claim of whatever the
 * entry holds, the parts open in the key, a task's claim for its own open
 * part (a plain read answers the rest), release, the open counts.
 */
static void wake_table_parts(struct kunit *test)
{
	const void *p = &wake_tasks[0], *q = &wake_tasks[1];
	struct clkstat_wake_table t = {};
	struct clkstat_wake_entry *e;
	unsigned int i;
	bool busy;

	KUNIT_EXPECT_EQ(test, clkstat_wake_init(&t, 100), -EINVAL);
	KUNIT_EXPECT_EQ(test, clkstat_wake_init(&t, 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, clkstat_wake_init(&t, 64), 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)t.entry % 64, 0UL);
	/* the slot is hash_ptr()'s, with the shift computed at init */
	for (i = 0; i < ARRAY_SIZE(wake_tasks); i++)
		KUNIT_EXPECT_PTR_EQ(test, clkstat_wake_slot(&t, &wake_tasks[i]),
				    &t.entry[hash_ptr(&wake_tasks[i], t.bits)]);
	e = clkstat_wake_slot(&t, p);
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, p, CLKSTAT_PARTS, &busy), 0L);
	KUNIT_EXPECT_FALSE(test, busy);
	/* a wakeup claims the entry whatever it holds */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim(e), CLKSTAT_WAKE_FREE);
	/* held: refused, and busy for a task's claim */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim(e), CLKSTAT_WAKE_LOCKED);
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, p, CLKSTAT_PARTS, &busy), 0L);
	KUNIT_EXPECT_TRUE(test, busy);
	e->epoch = 7;
	clkstat_wake_release(e, p, CLKSTAT_PARTS);
	KUNIT_EXPECT_EQ(test, clkstat_wake_open(&t, 7, CLKSTAT_PART_TTWU), 1UL);
	KUNIT_EXPECT_EQ(test, clkstat_wake_open(&t, 7, CLKSTAT_PART_TKREAD), 1UL);
	KUNIT_EXPECT_EQ(test, clkstat_wake_open(&t, 8, CLKSTAT_PART_TTWU), 0UL);
	/* another task finds nothing of its own there, and no busy */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, q, CLKSTAT_PARTS, &busy), 0L);
	KUNIT_EXPECT_FALSE(test, busy);
	/* the enqueue comes for ttwu's part and sees both */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, p, CLKSTAT_PART_TTWU, &busy),
			CLKSTAT_PARTS);
	clkstat_wake_release(e, p, CLKSTAT_PART_TKREAD);
	KUNIT_EXPECT_EQ(test, clkstat_wake_open(&t, 7, CLKSTAT_PART_TTWU), 0UL);
	KUNIT_EXPECT_EQ(test, clkstat_wake_open(&t, 7, CLKSTAT_PART_TKREAD), 1UL);
	/* ttwu's part is closed: a second claim for it takes nothing */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, p, CLKSTAT_PART_TTWU, &busy), 0L);
	KUNIT_EXPECT_FALSE(test, busy);
	/* the first read closes the last part: the entry is free again */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, p, CLKSTAT_PART_TKREAD, &busy),
			CLKSTAT_PART_TKREAD);
	clkstat_wake_release(e, p, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&e->key), CLKSTAT_WAKE_FREE);
	KUNIT_EXPECT_EQ(test, clkstat_wake_open(&t, 7, CLKSTAT_PART_TKREAD), 0UL);
	/* a wakeup finds the previous one's key, task and parts */
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim(e), CLKSTAT_WAKE_FREE);
	clkstat_wake_release(e, p, CLKSTAT_PART_TTWU);
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim(e), (long)p | CLKSTAT_PART_TTWU);
	clkstat_wake_release(e, q, CLKSTAT_PART_TKREAD);
	KUNIT_EXPECT_EQ(test, clkstat_wake_claim_task(e, q, CLKSTAT_PART_TTWU, &busy), 0L);
	clkstat_wake_free(&t);
	KUNIT_EXPECT_PTR_EQ(test, t.entry, NULL);
}

static struct kunit_case pending_cases[] = {
	KUNIT_CASE(wake_table_parts),
	KUNIT_CASE(pending_put_take),
	KUNIT_CASE(pending_other_epoch),
	KUNIT_CASE(pending_pending),
	KUNIT_CASE(pending_collision_evicts),
	KUNIT_CASE(pending_busy_entry),
	{}
};

static struct kunit_suite pending_suite = {
	.name = "clkstat_pending",
	.test_cases = pending_cases,
};
kunit_test_suite(pending_suite);
