// SPDX-License-Identifier: GPL-2.0
/*
 * reentry.c - the state behind reentry.h: the per-CPU marks, the count of
 * handlers that found themselves entered from inside clkstat, and the
 * static key that turns the check on while a hook can be reached so.
 */
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include "reentry.h"
#include "test_exports.h"

DEFINE_PER_CPU(unsigned int, clkstat_outcall_ctx);
/* clock.h's clkstat_now() marks it in clkstat_hookbench.ko too. */
CLKSTAT_EXPORT_PER_CPU_FOR_TESTS(clkstat_outcall_ctx);
DEFINE_PER_CPU(unsigned long, clkstat_reentries);
DEFINE_STATIC_KEY_FALSE(clkstat_reentry_armed);

/**
 * clkstat_reentry_arm() - a hook that a call out may reach is attached
 *
 * Counted: the check stays on until every arm has its disarm.  Called
 * before such a hook is attached, so that its first call is checked.
 * Sleeps (static key patching).
 */
void clkstat_reentry_arm(void)
{
	static_branch_inc(&clkstat_reentry_armed);
}

/**
 * clkstat_reentry_disarm() - undo one clkstat_reentry_arm()
 *
 * Called after the hook is detached and its handlers have returned.
 */
void clkstat_reentry_disarm(void)
{
	static_branch_dec(&clkstat_reentry_armed);
}

/**
 * clkstat_reentries_total() - handlers skipped as entered from clkstat
 *
 * Return: the sum over CPUs since load (info, debugfs, netlink).
 */
unsigned long clkstat_reentries_total(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(clkstat_reentries, cpu);
	return n;
}
