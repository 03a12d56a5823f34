// SPDX-License-Identifier: GPL-2.0
/*
 * tp_probes_kunit.c - which probe the tracepoint variant registers
 * (kmod/tp_probes.c): a tracepoint clkstat knows gets the probe of its
 * own type, only from the module named for it; any other gets the
 * generic probe where indirect calls go unchecked, and none on a kCFI
 * kernel; the typed probes pass their argument on to the hook.
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include "../kmod/hook.h"
#include "../kmod/tp_probes.h"

static void tp_pick_typed(struct kunit *test)
{
	void *waking = clkstat_tp_probe_pick(NULL, "sched_waking", true);
	void *tt_a = clkstat_tp_probe_pick("clkstat_hookbench",
					   "clkstat_tt_a_tp", true);
	void *any = clkstat_tp_probe_pick(NULL, "irq_handler_entry", false);

	KUNIT_ASSERT_NOT_NULL(test, waking);
	KUNIT_ASSERT_NOT_NULL(test, tt_a);
	KUNIT_ASSERT_NOT_NULL(test, any);
	/* The same whether calls are checked or not. */
	KUNIT_EXPECT_PTR_EQ(test, waking,
			    clkstat_tp_probe_pick(NULL, "sched_waking", false));
	/* One probe per prototype: task_struct *, unsigned long, generic. */
	KUNIT_EXPECT_PTR_EQ(test, waking,
			    clkstat_tp_probe_pick(NULL, "sched_wakeup", true));
	KUNIT_EXPECT_PTR_EQ(test, tt_a,
			    clkstat_tp_probe_pick("clkstat_hookbench",
						  "clkstat_bench_hit_tp", true));
	KUNIT_EXPECT_PTR_NE(test, waking, tt_a);
	KUNIT_EXPECT_PTR_NE(test, waking, any);
	KUNIT_EXPECT_PTR_NE(test, tt_a, any);
}

static void tp_pick_unknown(struct kunit *test)
{
	void *any = clkstat_tp_probe_pick(NULL, "irq_handler_entry", false);

	/* Unknown: the generic probe without kCFI, nothing with it. */
	KUNIT_EXPECT_NULL(test, clkstat_tp_probe_pick(NULL, "irq_handler_entry",
						      true));
	/* A known name from another owner may have another type. */
	KUNIT_EXPECT_NULL(test, clkstat_tp_probe_pick("other", "sched_waking",
						      true));
	KUNIT_EXPECT_NULL(test, clkstat_tp_probe_pick(NULL, "clkstat_tt_a_tp",
						      true));
	KUNIT_EXPECT_NULL(test, clkstat_tp_probe_pick("clkstat_bench",
						      "clkstat_tt_a_tp", true));
	KUNIT_EXPECT_PTR_EQ(test, any,
			    clkstat_tp_probe_pick("other", "sched_waking",
						  false));
	KUNIT_EXPECT_PTR_EQ(test, any, clkstat_tp_probe_pick(NULL, "", false));
}

static unsigned long tp_seen[3];
static unsigned int tp_calls;

static void tp_handler(unsigned long a0, unsigned long a1, unsigned long a2)
{
	tp_seen[0] = a0;
	tp_seen[1] = a1;
	tp_seen[2] = a2;
	tp_calls++;
}

/* The probes' types, as their tracepoints call them. */
typedef void (*tp_task_fn)(void *data, struct task_struct *p);
typedef void (*tp_ulong_fn)(void *data, unsigned long a0);
typedef void (*tp_any_fn)(void *data, unsigned long a0, unsigned long a1,
			  unsigned long a2);

static void tp_probes_pass_arguments(struct kunit *test)
{
	struct clkstat_hook h = { .tp_handler = tp_handler };
	tp_task_fn task = clkstat_tp_probe_pick(NULL, "sched_waking", true);
	tp_ulong_fn ulong = clkstat_tp_probe_pick("clkstat_hookbench",
						  "clkstat_tt_b_tp", true);
	tp_any_fn any = clkstat_tp_probe_pick(NULL, "x", false);

	tp_calls = 0;
	task(&h, current);
	KUNIT_EXPECT_EQ(test, tp_seen[0], (unsigned long)current);
	KUNIT_EXPECT_EQ(test, tp_seen[1], 0UL);
	ulong(&h, 12345);
	KUNIT_EXPECT_EQ(test, tp_seen[0], 12345UL);
	any(&h, 7, 8, 9);
	KUNIT_EXPECT_EQ(test, tp_seen[0], 7UL);
	KUNIT_EXPECT_EQ(test, tp_seen[1], 8UL);
	KUNIT_EXPECT_EQ(test, tp_seen[2], 9UL);
	KUNIT_EXPECT_EQ(test, tp_calls, 3U);
}

static struct kunit_case tp_probes_cases[] = {
	KUNIT_CASE(tp_pick_typed),
	KUNIT_CASE(tp_pick_unknown),
	KUNIT_CASE(tp_probes_pass_arguments),
	{}
};

static struct kunit_suite tp_probes_suite = {
	.name = "clkstat_tp_probes",
	.test_cases = tp_probes_cases,
};
kunit_test_suite(tp_probes_suite);
