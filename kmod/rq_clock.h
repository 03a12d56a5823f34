/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rq_clock.h - the runqueue clock (rq->clock) of a CPU, read without
 * naming struct rq: offsets from the target kernel's BTF
 * (gen_rq_offsets.sh), rq pointers learnt at enqueues (rq_clock.c).
 */
#ifndef _CLKSTAT_RQ_CLOCK_H
#define _CLKSTAT_RQ_CLOCK_H

#include <linux/types.h>

int clkstat_rq_clock_init(bool btf, unsigned int clock_off,
			  unsigned int cpu_off, unsigned int size);
void clkstat_rq_clock_exit(void);
bool clkstat_rq_clock_on(void);
u64 clkstat_rq_clock_enqueue(const void *rq, int cpu);
u64 clkstat_rq_clock_cpu(int cpu);
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
