// SPDX-License-Identifier: GPL-2.0
/*
 * evlog_kunit.c - the event log: a ring that keeps the newest events and
 * counts the overwritten ones, the reader's copy in time order, text cut
 * to fit, an empty log.
 */
#include <kunit/test.h>
#include <linux/seq_file.h>
#include "../kmod/evlog.h"

static void evlog_ring_overwrites(struct kunit *test)
{
	struct clkstat_evview *v;
	void *priv;
	int i;

	KUNIT_ASSERT_EQ(test, clkstat_evlog_init(4), 0);
	KUNIT_EXPECT_TRUE(test, clkstat_evlog_on());
	/* Six events on one CPU, timestamps out of order. */
	preempt_disable();
	for (i = 0; i < 6; i++) {
		struct clkstat_event_rec ev = {
			.type = CLKSTAT_EV_WAKEUP, .ts = 100 - i, .corr = i + 1,
			.pid = 42, .latency = i == 5 ? 7 : 0,
			.flags = i == 5 ? CLKSTAT_EVF_LATENCY : 0,
		};

		clkstat_evlog_add(&ev, i == 5 ? "a_text_longer_than_sixteen" :
					       NULL);
	}
	preempt_enable();
	KUNIT_ASSERT_EQ(test, clkstat_evlog_open(&priv), 0);
	v = priv;
	KUNIT_EXPECT_EQ(test, v->n, (size_t)4);
	KUNIT_EXPECT_EQ(test, v->overwritten, 2ULL);
	/* The newest four (ids 3..6), oldest timestamp first. */
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, v->ev[i].r.ts, (u64)(95 + i));
		KUNIT_EXPECT_EQ(test, v->ev[i].r.corr, (u64)(6 - i));
		KUNIT_EXPECT_EQ(test, v->ev[i].r.pid, 42U);
	}
	KUNIT_EXPECT_TRUE(test, v->ev[0].r.flags & CLKSTAT_EVF_LATENCY);
	KUNIT_EXPECT_EQ(test, v->ev[0].r.latency, 7ULL);
	KUNIT_EXPECT_STREQ(test, v->ev[0].r.text, "a_text_longer_t");
	KUNIT_EXPECT_FALSE(test, v->ev[1].r.flags & CLKSTAT_EVF_LATENCY);
	clkstat_evlog_release(priv);
	clkstat_evlog_exit();
	KUNIT_EXPECT_FALSE(test, clkstat_evlog_on());
}

static void evlog_off(struct kunit *test)
{
	void *priv;

	KUNIT_ASSERT_EQ(test, clkstat_evlog_init(0), 0);
	KUNIT_EXPECT_FALSE(test, clkstat_evlog_on());
	/* Logging without a log does nothing. */
	clkstat_evlog_add(&(struct clkstat_event_rec){
		.type = CLKSTAT_EV_MARKER, .ts = 1, .pid = 1 }, "x");
	KUNIT_EXPECT_EQ(test, clkstat_evlog_open(&priv), -ENOENT);
	KUNIT_EXPECT_NE(test, clkstat_evlog_new_id(), 0ULL);
	KUNIT_EXPECT_NE(test, clkstat_evlog_new_id(), clkstat_evlog_new_id());
}

static struct kunit_case evlog_cases[] = {
	KUNIT_CASE(evlog_ring_overwrites),
	KUNIT_CASE(evlog_off),
	{}
};

static struct kunit_suite evlog_suite = {
	.name = "clkstat_evlog",
	.test_cases = evlog_cases,
};
kunit_test_suite(evlog_suite);
