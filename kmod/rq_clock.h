/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rq_clock.h - the runqueue clock (rq->clock) of a CPU, read without
 * naming struct rq: offsets from the target kernel's BTF
 * (gen_rq_offsets.sh), rq pointers learnt at enqueues (rq_clock.c).
 */
#ifndef _CLKSTAT_RQ_CLOCK_H
#define _CLKSTAT_RQ_CLOCK_H

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/types.h>

int clkstat_rq_clock_init(bool btf, unsigned int clock_off,
			  unsigned int cpu_off, unsigned int size);
void clkstat_rq_clock_exit(void);
bool clkstat_rq_clock_on(void);
u64 clkstat_rq_clock_learn(const void *rq, int cpu);

/*
 * Inline, for the probes' hot paths (no call: a handler without calls
 * saves no registers).  rq_clock.c sets these.
 */
extern bool clkstat_rq_on;
extern unsigned int clkstat_rq_clock_off;
DECLARE_PER_CPU(const void *, clkstat_rq);
/*
 * &rq->clock of the rq learnt for each CPU, NULL while none is or the rq
 * clock is off (every CPU's is cleared when it goes off): one load finds
 * a CPU's clock, with no test of clkstat_rq_on.
 */
DECLARE_PER_CPU(const u64 *, clkstat_rq_clock_p);

static __always_inline u64 clkstat_rq_read_clock(const void *rq)
{
	return READ_ONCE(*(const u64 *)((const char *)rq +
					clkstat_rq_clock_off));
}

/*
 * The rq clock of @cpu through the rq learnt for it at an enqueue; 0 when
 * off or none learnt yet.  Any context.
 */
static __always_inline u64 clkstat_rq_clock_cpu(int cpu)
{
	const u64 *clock;

	if ((unsigned int)cpu >= nr_cpu_ids)
		return 0;
	clock = READ_ONCE(per_cpu(clkstat_rq_clock_p, cpu));
	return clock ? READ_ONCE(*clock) : 0;
}

/* clkstat_rq_clock_cpu() of this CPU, preemption off. */
static __always_inline u64 clkstat_rq_clock_this_cpu(void)
{
	const u64 *clock = this_cpu_read(clkstat_rq_clock_p);

	return clock ? READ_ONCE(*clock) : 0;
}

/*
 * For an enqueue's fast path: the rq learnt for @cpu (NULL when the rq
 * clock is off or none is), and in *@new whether @rq (if any) is another
 * one, which clkstat_rq_clock_enqueue() must learn (the slow path).
 */
static __always_inline const void *clkstat_rq_clock_peek(const void *rq,
							 int cpu, bool *new)
{
	const void *learnt;

	*new = false;
	if (!READ_ONCE(clkstat_rq_on) || (unsigned int)cpu >= nr_cpu_ids)
		return NULL;
	learnt = READ_ONCE(per_cpu(clkstat_rq, cpu));
	*new = rq && learnt != rq;
	return learnt;
}

/*
 * The rq clock at an enqueue on @rq, @cpu its CPU (task_cpu() of the task
 * enqueued); a new rq is learnt out of line.  0 when off.
 */
static __always_inline u64 clkstat_rq_clock_enqueue(const void *rq, int cpu)
{
	if (!READ_ONCE(clkstat_rq_on) || !rq || (unsigned int)cpu >= nr_cpu_ids)
		return 0;
	if (likely(READ_ONCE(per_cpu(clkstat_rq, cpu)) == rq))
		return clkstat_rq_read_clock(rq);
	return clkstat_rq_clock_learn(rq, cpu);
}
const void *clkstat_rq_learnt(int cpu);

/*
 * The rq clock's advance from @base to @now, both of the same CPU (0: not
 * known).  Returns false when either is unknown.  The two are of one
 * clock that never goes back, but when the task moved to another CPU
 * between its enqueue and its read they are two CPUs' clocks: a negative
 * difference then counts as 0.
 */
static inline bool clkstat_rq_advance(u64 base, u64 now, u64 *advance)
{
	if (!base || !now)
		return false;
	*advance = now > base ? now - base : 0;
	return true;
}

#endif /* _CLKSTAT_RQ_CLOCK_H */
