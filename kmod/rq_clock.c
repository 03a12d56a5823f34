// SPDX-License-Identifier: GPL-2.0
/*
 * rq_clock.c - a CPU's runqueue clock, rq->clock: the scheduler's per-CPU
 * clock (sched_clock_cpu()), brought forward by update_rq_clock() under
 * the runqueue's lock: at each schedule(), before each enqueue, at the
 * tick.  Between updates it stands still, so it lags sched_clock by the
 * time since the last update, and on an idle CPU whose tick is stopped it
 * stands still for the whole idle period.
 *
 * The module cannot name struct rq nor the per-CPU runqueues: the offsets
 * of rq->clock and rq->cpu come from the target kernel's BTF at build time
 * (gen_rq_offsets.sh, generated/rq_offsets.h; init.c passes them here),
 * and a CPU's rq pointer is learnt from probe ttwu's enqueue hook, checked
 * (rq->cpu must equal task_cpu(p)) before it is cached; a mismatch turns
 * the rq clock off for good with one warning.  Reads are racy but never
 * torn (an aligned u64 load on x86-64).  Why each of these holds:
 * Documentation/clkstat-probes.rst, "The runqueue clock".
 */
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include "rq_clock.h"
#include "test_exports.h"

bool clkstat_rq_on;
static bool rq_warned;
unsigned int clkstat_rq_clock_off;
static unsigned int rq_cpu_off;
DEFINE_PER_CPU(const void *, clkstat_rq);
DEFINE_PER_CPU(const u64 *, clkstat_rq_clock_p);
static int rq_bad_cpu, rq_bad_got;

/*
 * The warning of a failed check, printed from an irq_work: the check runs
 * with a runqueue lock held, where printk() could wake klogd and deadlock
 * (the scheduler's printk_deferred() is not exported to modules).
 */
static void rq_warn(struct irq_work *w)
{
	pr_warn("clkstat: rq clock off: rq->cpu at offset %u is %d for CPU %d: struct rq's layout is not this kernel's\n",
		rq_cpu_off, READ_ONCE(rq_bad_got), READ_ONCE(rq_bad_cpu));
}

static DEFINE_IRQ_WORK(rq_warn_work, rq_warn);

/*
 * Off: no clock is read after this (a reader that loaded a pointer just
 * before reads a clock that exists, the rq being the kernel's).  From the
 * enqueue hook too, once: a loop over the possible CPUs, no lock.
 */
static void notrace rq_clock_off(void)
{
	int cpu;

	WRITE_ONCE(clkstat_rq_on, false);
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(clkstat_rq_clock_p, cpu), NULL);
}

/**
 * clkstat_rq_clock_init() - turn the rq clock on with struct rq's layout
 * @btf: whether the layout was found (false: the clock stays off)
 * @clock_off: offset of rq->clock (u64)
 * @cpu_off: offset of rq->cpu (int)
 * @size: sizeof(struct rq)
 *
 * Forgets every learnt rq.  Return: 0, or -EINVAL for a layout that
 * cannot be struct rq's (the clock stays off).
 */
int clkstat_rq_clock_init(bool btf, unsigned int clock_off,
			  unsigned int cpu_off, unsigned int size)
{
	int cpu;

	rq_clock_off();
	rq_warned = false;
	for_each_possible_cpu(cpu)
		per_cpu(clkstat_rq, cpu) = NULL;
	if (!btf)
		return 0;
	if (size < 8 || clock_off % 8 || cpu_off % 4 ||
	    clock_off > size - 8 || cpu_off > size - 4)
		return -EINVAL;
	clkstat_rq_clock_off = clock_off;
	rq_cpu_off = cpu_off;
	WRITE_ONCE(clkstat_rq_on, true);
	return 0;
}

/**
 * clkstat_rq_clock_exit() - turn the rq clock off
 *
 * After the hooks are gone: waits for a pending warning.
 */
void clkstat_rq_clock_exit(void)
{
	rq_clock_off();
	irq_work_sync(&rq_warn_work);
}

/**
 * clkstat_rq_clock_on() - whether rq clocks can be read
 *
 * Return: false without BTF, or after a failed check.
 */
bool notrace clkstat_rq_clock_on(void)
{
	return READ_ONCE(clkstat_rq_on);
}

/**
 * clkstat_rq_clock_learn() - the rq clock at an enqueue whose rq is new
 * @rq: the runqueue a task is being enqueued on
 * @cpu: task_cpu() of that task, which is @rq's CPU
 *
 * clkstat_rq_clock_enqueue()'s slow path, for an rq not learnt yet for
 * @cpu.  Any context the enqueue hook runs in (the rq's lock held).  A new rq
 * pointer for @cpu is cached once its rq->cpu says @cpu.  A mismatch
 * turns the rq clock off, with one warning (rq_warn()): the offsets are
 * not this kernel's.
 *
 * Return: rq->clock, or 0 when off.
 */
u64 notrace clkstat_rq_clock_learn(const void *rq, int cpu)
{
	int got;

	if (!READ_ONCE(clkstat_rq_on) || !rq || cpu < 0 || (unsigned int)cpu >= nr_cpu_ids)
		return 0;
	if (READ_ONCE(per_cpu(clkstat_rq, cpu)) != rq) {
		got = READ_ONCE(*(const int *)((const char *)rq + rq_cpu_off));
		if (got != cpu) {
			rq_clock_off();
			if (!xchg(&rq_warned, true)) {
				WRITE_ONCE(rq_bad_cpu, cpu);
				WRITE_ONCE(rq_bad_got, got);
				irq_work_queue(&rq_warn_work);
			}
			return 0;
		}
		WRITE_ONCE(per_cpu(clkstat_rq, cpu), rq);
		WRITE_ONCE(per_cpu(clkstat_rq_clock_p, cpu),
			   (const u64 *)((const char *)rq + clkstat_rq_clock_off));
	}
	return clkstat_rq_read_clock(rq);
}

/**
 * clkstat_rq_learnt() - the rq pointer learnt for @cpu
 * @cpu: a CPU
 *
 * For the handler benchmark, which passes it to the enqueue handler as
 * the enqueue would.
 *
 * Return: the rq, or NULL when off or none learnt yet.
 */
const void *clkstat_rq_learnt(int cpu)
{
	if (!READ_ONCE(clkstat_rq_on) || cpu < 0 || (unsigned int)cpu >= nr_cpu_ids)
		return NULL;
	return READ_ONCE(per_cpu(clkstat_rq, cpu));
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_rq_learnt);
