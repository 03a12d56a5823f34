// SPDX-License-Identifier: GPL-2.0
/*
 * hist_test.c - the metric store: create, record, count, start, stop,
 * reset, snapshot.
 */
#include <kunit/test.h>
#include "../kmod/hist.h"

static const char *const test_counters[] = { "a", "b" };

static struct clkstat_metric *make_metric(struct kunit *test, unsigned int k)
{
	struct clkstat_metric *m;

	m = clkstat_metric_create("kunit_metric", "test", k, test_counters, 2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	return m;
}

/* Snapshot m and return its all-CPU entry (freed by the caller's snap). */
static struct clkstat_cpu_hist *all_of(struct kunit *test,
				       struct clkstat_snapshot *s,
				       struct clkstat_metric *m)
{
	KUNIT_ASSERT_EQ(test, clkstat_snapshot_take(s, m), 0);
	return clkstat_snapshot_cpu(s, s->ncpus);
}

static void hist_record_snapshot(struct kunit *test)
{
	static const u64 vals[] = { 0, 1, 7, 8, 9, 1000, 1000, 123456789,
				    1ULL << 40, U64_MAX };
	struct clkstat_metric *m = make_metric(test, 3);
	struct clkstat_snapshot s;
	struct clkstat_cpu_hist *all;
	unsigned int i, slot;
	u64 percpu_total = 0;

	clkstat_metric_set_recording(m, true);
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		clkstat_record(m, vals[i]);
	all = all_of(test, &s, m);

	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots),
			(u64)ARRAY_SIZE(vals));
	KUNIT_EXPECT_EQ(test, all->min, 0ULL);
	KUNIT_EXPECT_EQ(test, all->max, U64_MAX);
	slot = clkstat_value_to_slot(1000, 3);
	KUNIT_EXPECT_EQ(test, all->slot[slot].count, 2ULL);
	KUNIT_EXPECT_EQ(test, all->slot[slot].sum, 2000ULL);
	KUNIT_EXPECT_EQ(test, clkstat_slot_mean(all->slot, slot, 3), 1000ULL);
	/* U64_MAX: last slot, sum scaled by its shift, mean within the slot. */
	slot = m->nslots - 1;
	KUNIT_EXPECT_EQ(test, all->slot[slot].count, 1ULL);
	KUNIT_EXPECT_EQ(test, all->slot[slot].sum,
			U64_MAX >> clkstat_slot_sum_shift(slot, 3));
	KUNIT_EXPECT_GE(test, clkstat_slot_mean(all->slot, slot, 3),
			clkstat_slot_lower(slot, 3));
	/* The per-CPU entries add up to the all-CPU one. */
	for (i = 0; i < s.ncpus; i++)
		percpu_total += clkstat_hist_total(clkstat_snapshot_cpu(&s, i)->slot,
						   m->nslots);
	KUNIT_EXPECT_EQ(test, percpu_total, (u64)ARRAY_SIZE(vals));
	clkstat_snapshot_free(&s);
	clkstat_metric_destroy(m);
}

static void hist_start_stop_reset(struct kunit *test)
{
	struct clkstat_metric *m = make_metric(test, 0);
	struct clkstat_snapshot s;
	struct clkstat_cpu_hist *all;

	/* A new metric is stopped: nothing lands. */
	clkstat_record(m, 5);
	clkstat_count(m, 0);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 0ULL);
	KUNIT_EXPECT_EQ(test, all->counter[0], 0ULL);
	KUNIT_EXPECT_EQ(test, all->min, U64_MAX);
	clkstat_snapshot_free(&s);

	clkstat_metric_set_recording(m, true);
	clkstat_record(m, 5);
	clkstat_record(m, 6);
	clkstat_count(m, 1);
	clkstat_metric_set_recording(m, false);
	clkstat_record(m, 7);
	clkstat_count(m, 1);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 2ULL);
	KUNIT_EXPECT_EQ(test, all->counter[1], 1ULL);
	KUNIT_EXPECT_EQ(test, all->min, 5ULL);
	KUNIT_EXPECT_EQ(test, all->max, 6ULL);
	clkstat_snapshot_free(&s);

	/* Reset clears slots, counters, min and max, and keeps the state. */
	clkstat_metric_reset(m);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 0ULL);
	KUNIT_EXPECT_EQ(test, all->counter[1], 0ULL);
	KUNIT_EXPECT_EQ(test, all->min, U64_MAX);
	KUNIT_EXPECT_EQ(test, all->max, 0ULL);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(m));
	clkstat_snapshot_free(&s);

	clkstat_metric_set_recording(m, true);
	clkstat_record(m, 9);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 1ULL);
	KUNIT_EXPECT_EQ(test, all->min, 9ULL);
	clkstat_snapshot_free(&s);
	clkstat_metric_destroy(m);
}

static void hist_create_errors(struct kunit *test)
{
	struct clkstat_metric *m = make_metric(test, 3);

	struct clkstat_metric *other;

	KUNIT_EXPECT_STREQ(test, m->id, "kunit_metric.test");
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_find("kunit_metric.test"), m);
	KUNIT_EXPECT_NULL(test, clkstat_metric_find("kunit_metric"));
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("kunit_metric",
			"test", 3, NULL, 0)), (long)-EEXIST);
	/* The same name from another variant is another metric. */
	other = clkstat_metric_create("kunit_metric", "other", 3, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_find("kunit_metric.other"),
			    other);
	clkstat_metric_destroy(other);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x", "",
			3, NULL, 0)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x",
			"abcdefghijklmnop", 3, NULL, 0)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x", "test",
			CLKSTAT_FRAC_BITS_MAX + 1, NULL, 0)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("", "test", 3,
			NULL, 0)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create(
			"abcdefghijklmnopqrstuvwxyz012345", "test", 3, NULL, 0)),
			(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x", "test", 3,
			NULL, CLKSTAT_MAX_COUNTERS + 1)), (long)-EINVAL);
	clkstat_metric_destroy(m);
	KUNIT_EXPECT_NULL(test, clkstat_metric_find("kunit_metric.test"));
}

/* Starting and resetting begin a new epoch; stopping does not. */
static void hist_epoch(struct kunit *test)
{
	struct clkstat_metric *m = make_metric(test, 3);
	unsigned int e;

	e = clkstat_current_epoch();
	clkstat_metric_set_recording(m, true);
	KUNIT_EXPECT_NE(test, clkstat_current_epoch(), e);
	e = clkstat_current_epoch();
	clkstat_metric_set_recording(m, false);
	KUNIT_EXPECT_EQ(test, clkstat_current_epoch(), e);
	clkstat_metric_reset(m);
	KUNIT_EXPECT_NE(test, clkstat_current_epoch(), e);
	clkstat_metric_destroy(m);
}

static void hist_memory_per_cpu(struct kunit *test)
{
	/* Header (min, max, 8 counters) plus count and sum per slot. */
	KUNIT_EXPECT_EQ(test, clkstat_metric_cpu_bytes(0), (size_t)(80 + 65 * 16));
	KUNIT_EXPECT_EQ(test, clkstat_metric_cpu_bytes(5),
			(size_t)(80 + 1920 * 16));
}

/* get finds a variant's metric again; destroy_name ends every variant. */
static void hist_get_and_destroy_name(struct kunit *test)
{
	struct clkstat_metric *a, *b;

	a = clkstat_metric_get("kunit_get", "va", 3, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	clkstat_metric_set_recording(a, true);
	clkstat_record(a, 100);
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_get("kunit_get", "va", 3,
						     NULL, 0), a);
	b = clkstat_metric_get("kunit_get", "vb", 3, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, a, b);
	clkstat_registry_lock();
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_find("kunit_get.va"), a);
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_find("kunit_get.vb"), b);
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_find_in("kunit_get", "vb"), b);
	KUNIT_EXPECT_NULL(test, clkstat_metric_find_in("kunit_get", "vc"));
	clkstat_registry_unlock();
	clkstat_metric_destroy_name("kunit_get");
	clkstat_registry_lock();
	KUNIT_EXPECT_NULL(test, clkstat_metric_find("kunit_get.va"));
	KUNIT_EXPECT_NULL(test, clkstat_metric_find("kunit_get.vb"));
	clkstat_registry_unlock();
}

/* add_counter counts whether or not the metric records. */
static void hist_add_counter(struct kunit *test)
{
	struct clkstat_metric *m = make_metric(test, 3);
	struct clkstat_snapshot s;

	clkstat_metric_set_recording(m, false);
	clkstat_metric_add_counter(m, 1, 7);
	clkstat_count(m, 1);			/* stopped: not counted */
	KUNIT_ASSERT_EQ(test, clkstat_snapshot_take(&s, m), 0);
	KUNIT_EXPECT_EQ(test, clkstat_snapshot_cpu(&s, s.ncpus)->counter[1],
			7ULL);
	clkstat_snapshot_free(&s);
	clkstat_metric_destroy(m);
}

static struct kunit_case hist_cases[] = {
	KUNIT_CASE(hist_record_snapshot),
	KUNIT_CASE(hist_start_stop_reset),
	KUNIT_CASE(hist_create_errors),
	KUNIT_CASE(hist_epoch),
	KUNIT_CASE(hist_memory_per_cpu),
	KUNIT_CASE(hist_get_and_destroy_name),
	KUNIT_CASE(hist_add_counter),
	{}
};

static struct kunit_suite hist_suite = {
	.name = "clkstat_hist",
	.test_cases = hist_cases,
};
kunit_test_suite(hist_suite);
