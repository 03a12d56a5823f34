// SPDX-License-Identifier: GPL-2.0
/*
 * hist_kunit.c - the metric store: create, record, count, start, stop,
 * reset, snapshot.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include "../kmod/clock.h"
#include "../kmod/hist.h"

static const char *const test_counters[] = { "a", "b" };

static struct clkstat_metric *make_metric(struct kunit *test, unsigned int k)
{
	struct clkstat_metric *m;

	/* A metric takes the load's frac_bits: this test's. */
	clkstat_set_frac_bits(k);
	m = clkstat_metric_create("kunit_metric", "test", test_counters, 2);
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
			"test", NULL, 0)), (long)-EEXIST);
	/* The same name from another variant is another metric. */
	other = clkstat_metric_create("kunit_metric", "other", NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_find("kunit_metric.other"),
			    other);
	clkstat_metric_destroy(other);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x", "", NULL, 0)),
			(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x",
			"abcdefghijklmnop", NULL, 0)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("", "test", NULL, 0)),
			(long)-EINVAL);
	/* 64 characters: one past the longest name. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create(
			"abcdefghijklmnopqrstuvwxyz012345abcdefghijklmnopqrstuvwxyz012345",
			"test", NULL, 0)), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(clkstat_metric_create("x", "test", NULL,
			CLKSTAT_MAX_COUNTERS + 1)), (long)-EINVAL);
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

	a = clkstat_metric_get("kunit_get", "va", NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	clkstat_metric_set_recording(a, true);
	clkstat_record(a, 100);
	KUNIT_EXPECT_PTR_EQ(test, clkstat_metric_get("kunit_get", "va", NULL, 0), a);
	b = clkstat_metric_get("kunit_get", "vb", NULL, 0);
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

/*
 * A reset while recording: readers see only what came after it, the live
 * slots are left alone, and the metric counts its resets.
 */
static void hist_reset_baseline(struct kunit *test)
{
	struct clkstat_metric *m = make_metric(test, 3);
	struct clkstat_snapshot s;
	struct clkstat_cpu_hist *all;
	unsigned int slot = clkstat_value_to_slot(5, 3);

	clkstat_metric_set_recording(m, true);
	clkstat_record(m, 5);
	clkstat_record(m, 6);
	clkstat_count(m, 0);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, s.resets, 0ULL);
	clkstat_snapshot_free(&s);

	clkstat_metric_reset(m);
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(m));
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, s.resets, 1ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 0ULL);
	KUNIT_EXPECT_EQ(test, all->slot[slot].sum, 0ULL);
	KUNIT_EXPECT_EQ(test, all->counter[0], 0ULL);
	KUNIT_EXPECT_EQ(test, all->min, U64_MAX);
	KUNIT_EXPECT_EQ(test, all->max, 0ULL);
	clkstat_snapshot_free(&s);

	clkstat_record(m, 5);
	clkstat_count(m, 0);
	clkstat_count(m, 0);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 1ULL);
	KUNIT_EXPECT_EQ(test, all->slot[slot].count, 1ULL);
	KUNIT_EXPECT_EQ(test, all->slot[slot].sum, 5ULL);
	KUNIT_EXPECT_EQ(test, all->counter[0], 2ULL);
	KUNIT_EXPECT_EQ(test, all->min, 5ULL);
	KUNIT_EXPECT_EQ(test, all->max, 5ULL);
	clkstat_snapshot_free(&s);

	clkstat_metric_reset(m);
	all = all_of(test, &s, m);
	KUNIT_EXPECT_EQ(test, s.resets, 2ULL);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 0ULL);
	clkstat_snapshot_free(&s);
	clkstat_metric_destroy(m);
}

/*
 * Recorders, a resetter and a reader racing, on CPUs of their own so that
 * a reset can land in the middle of a read: recorder i on CPU i, the
 * reader on CPU 0 and the resetter on CPU 1 (each between a recorder's
 * cond_resched() calls).  Every recorder records the same value and then
 * counts it in race.recorded; before its k-th reset the resetter notes
 * race.recorded in race.before[k].  A snapshot against reset g then holds
 * at most recorded-now minus before[g] samples, plus one in flight per
 * recorder: a snapshot that mixed in an earlier reset's data holds up to a
 * whole window more, and a negative difference would show as a huge
 * count.  A slot's sum is read right after its count and must match it,
 * give or take one sample in flight per recorder, plus whatever was
 * recorded while the copy went on (the snapshot's, and the baseline's of
 * reset g, which the resetter notes in race.span[g]): under TCG the host
 * can stall one vCPU between the two reads while the other records
 * hundreds of samples.  That bound is wide for the few reads that waited
 * on a stalled vCPU, and a few samples for most (the test prints how
 * many): a sum against the wrong reset's baseline, off by a window of
 * thousands, fails those.  The counters are read
 * before the slots, and a recorder counts a sample after recording it, so
 * the counter can only trail the count (by what was recorded while the
 * copy went on: it is not an instant) or lead it by what is in flight.
 * The resets begin once the reader has read once: a host that stalls the
 * reader's vCPU while the resetter does all of them would otherwise leave
 * no read at all, and the race untested.
 */
#define RACE_RECORDERS	2
#define RACE_RESETS	200
#define RACE_VALUE	1000

struct hist_race {
	struct clkstat_metric *m;
	atomic64_t recorded;
	u64 before[RACE_RESETS + 1];
	u64 span[RACE_RESETS + 1];	/* recorded during reset k, plus 1 */
	unsigned int resets;		/* done so far, by the resetter */
	unsigned int reads, bad;	/* the reader's */
	u64 max_tear;			/* the widest sum bound it used */
	unsigned int tight;		/* reads with a bound of 64 or less */
	struct completion first_read;	/* the reader's, before any reset */
	struct completion read_done;
	struct kunit *test;
};

static int hist_race_recorder(void *arg)
{
	struct hist_race *r = arg;
	unsigned int n = 0;

	while (!kthread_should_stop()) {
		clkstat_record(r->m, RACE_VALUE);
		clkstat_count(r->m, 0);
		atomic64_inc(&r->recorded);
		if (!(++n % 256))
			cond_resched();
	}
	return 0;
}

static int hist_race_resetter(void *arg)
{
	struct hist_race *r = arg;
	unsigned int k;

	/*
	 * However long the host holds the reader's vCPU back; the timeout
	 * only keeps a reader that never runs from hanging the test (its
	 * reads, still 0, then fail it).
	 */
	wait_for_completion_timeout(&r->first_read, 60 * HZ);
	for (k = 1; k <= RACE_RESETS && !kthread_should_stop(); k++) {
		/* before[k] is in place before a reader can see reset k. */
		WRITE_ONCE(r->before[k], atomic64_read(&r->recorded));
		clkstat_metric_reset(r->m);
		WRITE_ONCE(r->span[k], atomic64_read(&r->recorded) -
				       r->before[k] + 1);
		WRITE_ONCE(r->resets, k);
		usleep_range(200, 400);
	}
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

/* One snapshot checked against the bounds above; false if it fails them. */
static bool hist_race_check(struct hist_race *r)
{
	unsigned int slot = clkstat_value_to_slot(RACE_VALUE, 3);
	u64 sum_per = RACE_VALUE >> clkstat_slot_sum_shift(slot, 3);
	u64 count, pre, after, bound, sum, ctr, span, tear;
	struct clkstat_snapshot s;
	struct clkstat_cpu_hist *all;
	bool ok;

	pre = atomic64_read(&r->recorded);
	if (clkstat_snapshot_take(&s, r->m))
		return false;
	after = atomic64_read(&r->recorded);
	all = clkstat_snapshot_cpu(&s, s.ncpus);
	count = clkstat_hist_total(all->slot, r->m->nslots);
	sum = all->slot[slot].sum;
	ctr = all->counter[0];
	bound = after - (s.resets ? READ_ONCE(r->before[s.resets]) : 0) +
		RACE_RECORDERS;
	/* Reset s.resets may have returned without its span noted yet. */
	span = s.resets ? READ_ONCE(r->span[s.resets]) : 1;
	tear = 2 * RACE_RECORDERS + (after - pre) + (span ? span - 1 : 0);
	ok = count <= bound && all->slot[slot].count == count &&
	     ctr <= count + RACE_RECORDERS;
	if (span && tear > r->max_tear)
		r->max_tear = tear;
	if (span && tear <= 64)
		r->tight++;
	if (span)
		ok = ok && sum <= (count + tear) * sum_per &&
		     sum + tear * sum_per >= count * sum_per;
	if (!ok && !r->bad)
		kunit_info(r->test, "reset %llu: count %llu (bound %llu) sum %llu (tear %llu) counter %llu",
			   s.resets, count, bound, sum, tear, ctr);
	clkstat_snapshot_free(&s);
	return ok;
}

static int hist_race_reader(void *arg)
{
	struct hist_race *r = arg;

	while (READ_ONCE(r->resets) < RACE_RESETS) {
		if (!hist_race_check(r))
			r->bad++;
		if (!r->reads++)
			complete(&r->first_read);
		cond_resched();
	}
	complete(&r->read_done);
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static struct task_struct *hist_race_start(struct kunit *test,
					   int (*fn)(void *), void *arg,
					   unsigned int cpu, const char *name)
{
	struct task_struct *t = kthread_create(fn, arg, "%s", name);

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	wake_up_process(t);
	return t;
}

/*
 * created_ns: CLOCK_REALTIME when the values began, at creation and at
 * each reset, bracketed by the test's own readings of that clock; a
 * family's members share the reset's, so that a scraper sees them begin
 * together.
 */
static void hist_created(struct kunit *test)
{
	struct clkstat_metric *t, *a, *b;
	struct clkstat_snapshot s;
	u64 t0, t1, t2, t3, created;

	t0 = ktime_get_real_ns();
	t = clkstat_metric_create("kunit_total", "test", test_counters, 2);
	a = clkstat_metric_create("kunit_part_a", "test", NULL, 0);
	b = clkstat_metric_create("kunit_part_b", "test", NULL, 0);
	t1 = ktime_get_real_ns();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	clkstat_metric_set_parts(t, a, b);
	all_of(test, &s, t);
	created = s.created_ns;
	clkstat_snapshot_free(&s);
	KUNIT_EXPECT_GE(test, created, t0);
	KUNIT_EXPECT_LE(test, created, t1);

	/* A reset a little later moves it, visibly. */
	usleep_range(2000, 3000);
	t2 = ktime_get_real_ns();
	clkstat_metric_reset(a);
	t3 = ktime_get_real_ns();
	all_of(test, &s, t);
	created = s.created_ns;
	clkstat_snapshot_free(&s);
	KUNIT_EXPECT_GE(test, created, t2);
	KUNIT_EXPECT_LE(test, created, t3);
	KUNIT_EXPECT_GT(test, created, t1);
	all_of(test, &s, a);
	KUNIT_EXPECT_EQ(test, s.created_ns, created);
	clkstat_snapshot_free(&s);
	all_of(test, &s, b);
	KUNIT_EXPECT_EQ(test, s.created_ns, created);
	clkstat_snapshot_free(&s);

	clkstat_metric_destroy(t);
	clkstat_metric_destroy(a);
	clkstat_metric_destroy(b);
}

/*
 * A total made of two parts (clkstat_metric_set_parts()): samples go to
 * the parts only, the total reads as their sum (slots, sums, min, max)
 * with its own counters; starting and resetting the total does the same
 * to the parts, and a part reset alone lowers the total with it.
 */
static void hist_total_of_parts(struct kunit *test)
{
	struct clkstat_metric *t, *a, *b;
	struct clkstat_cpu_hist *all;
	struct clkstat_snapshot s;
	u32 s5 = clkstat_value_to_slot(5, 3), s900 = clkstat_value_to_slot(900, 3);

	t = clkstat_metric_create("kunit_total", "test", test_counters, 2);
	a = clkstat_metric_create("kunit_part_a", "test", NULL, 0);
	b = clkstat_metric_create("kunit_part_b", "test", NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	clkstat_metric_set_parts(t, a, b);
	clkstat_metric_set_recording(t, true);
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(a));
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(b));
	clkstat_record(a, 5);
	clkstat_record(a, 5);
	clkstat_record(b, 900);
	clkstat_count(t, 1);

	all = all_of(test, &s, t);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, t->nslots), 3ULL);
	KUNIT_EXPECT_EQ(test, all->slot[s5].count, 2ULL);
	KUNIT_EXPECT_EQ(test, all->slot[s5].sum, 10ULL);
	KUNIT_EXPECT_EQ(test, all->slot[s900].count, 1ULL);
	KUNIT_EXPECT_EQ(test, all->slot[s900].sum, 900ULL);
	KUNIT_EXPECT_EQ(test, all->min, 5ULL);
	KUNIT_EXPECT_EQ(test, all->max, 900ULL);
	KUNIT_EXPECT_EQ(test, all->counter[0], 0ULL);
	KUNIT_EXPECT_EQ(test, all->counter[1], 1ULL);
	clkstat_snapshot_free(&s);

	/* A part's reset is its family's: all three start over, once. */
	clkstat_metric_reset(b);
	all = all_of(test, &s, t);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, t->nslots), 0ULL);
	KUNIT_EXPECT_EQ(test, all->counter[1], 0ULL);
	KUNIT_EXPECT_EQ(test, all->min, U64_MAX);
	KUNIT_EXPECT_EQ(test, s.resets, 1ULL);
	clkstat_snapshot_free(&s);
	all = all_of(test, &s, a);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, a->nslots), 0ULL);
	KUNIT_EXPECT_EQ(test, s.resets, 1ULL);
	clkstat_snapshot_free(&s);

	/* The total's reset too; then new samples are the total's again. */
	clkstat_record(b, 900);
	clkstat_metric_reset(t);
	clkstat_record(a, 5);
	all = all_of(test, &s, t);
	KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, t->nslots), 1ULL);
	KUNIT_EXPECT_EQ(test, all->max, 5ULL);
	KUNIT_EXPECT_EQ(test, s.resets, 2ULL);
	clkstat_snapshot_free(&s);

	/* A part's stop and start are its family's. */
	clkstat_metric_set_recording(a, false);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(t));
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(b));
	clkstat_metric_set_recording(b, true);
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(t));
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(a));
	clkstat_metric_set_recording(t, false);
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(a));
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(b));

	/* The total gone, a part starts and stops on its own. */
	clkstat_metric_destroy(t);
	KUNIT_EXPECT_PTR_EQ(test, a->total, NULL);
	clkstat_metric_set_recording(a, true);
	KUNIT_EXPECT_TRUE(test, clkstat_metric_recording(a));
	KUNIT_EXPECT_FALSE(test, clkstat_metric_recording(b));
	clkstat_metric_destroy(a);
	clkstat_metric_destroy(b);
}

/*
 * __clkstat_record() with the load's frac_bits behind the static key: the
 * slot and sum of the metric's own frac_bits, default or not; nothing
 * taken once stopped, and its return says which.
 */
static void hist_record_frac(struct kunit *test)
{
	static const unsigned int ks[] = { 5, 0, CLKSTAT_FRAC_BITS_DEFAULT };
	struct clkstat_metric *m;
	struct clkstat_cpu_hist *all;
	struct clkstat_snapshot s;
	unsigned int i, k;
	bool took[4];

	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		k = ks[i];
		clkstat_set_frac_bits(k);
		m = clkstat_metric_create("kunit_frac", "test", NULL, 0);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
		KUNIT_EXPECT_EQ(test, m->frac_bits, k);
		clkstat_metric_set_recording(m, true);
		preempt_disable();
		took[0] = __clkstat_record(m, 1000);
		took[1] = __clkstat_record(m, 77);
		took[2] = __clkstat_record(m, 3);
		preempt_enable();
		clkstat_metric_set_recording(m, false);
		preempt_disable();
		took[3] = __clkstat_record(m, 5000);	/* stopped: dropped */
		preempt_enable();
		KUNIT_EXPECT_TRUE(test, took[0] && took[1] && took[2]);
		KUNIT_EXPECT_FALSE(test, took[3]);
		all = all_of(test, &s, m);
		KUNIT_EXPECT_EQ(test, clkstat_hist_total(all->slot, m->nslots), 3ULL);
		KUNIT_EXPECT_EQ(test,
				all->slot[clkstat_value_to_slot(1000, k)].count,
				1ULL);
		KUNIT_EXPECT_EQ(test,
				all->slot[clkstat_value_to_slot(77, k)].count,
				1ULL);
		KUNIT_EXPECT_EQ(test, all->min, 3ULL);
		KUNIT_EXPECT_EQ(test, all->max, 1000ULL);
		clkstat_snapshot_free(&s);
		clkstat_metric_destroy(m);
	}
}

static void hist_reset_race(struct kunit *test)
{
	struct hist_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *rec[RACE_RECORDERS], *rst, *rd;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	if (num_online_cpus() < RACE_RECORDERS)
		kunit_skip(test, "needs %d online CPUs", RACE_RECORDERS);
	r->test = test;
	init_completion(&r->first_read);
	init_completion(&r->read_done);
	r->m = make_metric(test, 3);
	clkstat_metric_set_recording(r->m, true);
	for (i = 0; i < RACE_RECORDERS; i++)
		rec[i] = hist_race_start(test, hist_race_recorder, r, i,
					 i ? "clkstat_rec1" : "clkstat_rec0");
	rd = hist_race_start(test, hist_race_reader, r, 0, "clkstat_read");
	rst = hist_race_start(test, hist_race_resetter, r, 1, "clkstat_rst");
	wait_for_completion(&r->read_done);
	kthread_stop(rst);
	kthread_stop(rd);
	for (i = 0; i < RACE_RECORDERS; i++)
		kthread_stop(rec[i]);
	kunit_info(test, "%u reads, %u resets, %lld samples; sum within 64 samples in %u reads, within %llu in all",
		   r->reads, READ_ONCE(r->resets),
		   (long long)atomic64_read(&r->recorded), r->tight,
		   r->max_tear);
	KUNIT_EXPECT_EQ(test, r->bad, 0U);
	KUNIT_EXPECT_GT(test, r->reads, 0U);
	clkstat_metric_destroy(r->m);
}

static struct kunit_case hist_cases[] = {
	KUNIT_CASE(hist_record_snapshot),
	KUNIT_CASE(hist_start_stop_reset),
	KUNIT_CASE(hist_create_errors),
	KUNIT_CASE(hist_epoch),
	KUNIT_CASE(hist_memory_per_cpu),
	KUNIT_CASE(hist_get_and_destroy_name),
	KUNIT_CASE(hist_add_counter),
	KUNIT_CASE(hist_reset_baseline),
	KUNIT_CASE(hist_total_of_parts),
	KUNIT_CASE(hist_created),
	KUNIT_CASE(hist_record_frac),
	KUNIT_CASE(hist_reset_race),
	{}
};

/* Each test begins with the default frac_bits, whatever the last set. */
static int hist_test_init(struct kunit *test)
{
	clkstat_set_frac_bits(CLKSTAT_FRAC_BITS_DEFAULT);
	return 0;
}

static struct kunit_suite hist_suite = {
	.name = "clkstat_hist",
	.init = hist_test_init,
	.test_cases = hist_cases,
};
kunit_test_suite(hist_suite);
