/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reentry.h - a handler entered again from inside clkstat is a counted
 * miss, never a recursion.
 *
 * clkstat's handlers call out of the module in a few places only: the
 * clock (ktime_get_mono_fast_ns(), which calls the clocksource's read,
 * read_hpet() say), the event log's string copy, the irq_work that
 * reports a clock change.  A hook on one of those functions, or on
 * anything they call, would run a handler from inside a handler: a
 * trace on read_hpet() whose stamp reads the HPET, or csread's exit hook
 * on the clocksource the clock reads.  So every call out goes through a
 * clkstat_outcall_*() below, which marks the CPU's bit of the current
 * context (task, softirq, hardirq, NMI: interrupt_context_level(), the
 * bits ftrace's own recursion protection keeps) for its duration, with
 * preemption off.  A handler that may be reached from such a call starts
 * with clkstat_reentered(): set means this CPU, in this context, is
 * inside one of clkstat's calls out, so the handler skips its work and
 * the miss is counted (clkstat_reentries; traces also count it in their
 * missed counter).  An interrupt that arrives during a call out runs at
 * another level and records as usual, as with ftrace's context bits and
 * a BPF trampoline's per-program active count.
 *
 * The check is behind a static key that is on only while something that
 * can be reached so is hooked (a trace, the csread probe: their
 * clkstat_reentry_arm()/_disarm()), so the default probes pay a nop for
 * it; the marking itself costs two per-CPU writes around each call out
 * that leaves the TSC (none on the TSC's fast path, which calls nothing).
 */
#ifndef _CLKSTAT_REENTRY_H
#define _CLKSTAT_REENTRY_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

DECLARE_PER_CPU(unsigned int, clkstat_outcall_ctx);
DECLARE_PER_CPU(unsigned long, clkstat_reentries);
DECLARE_STATIC_KEY_FALSE(clkstat_reentry_armed);

/* This context's bit in clkstat_outcall_ctx. */
static __always_inline unsigned int clkstat_ctx_bit(void)
{
	return 1U << interrupt_context_level();
}

/*
 * Mark this CPU's context as inside a call out; returns its bit for
 * clkstat_outcall_end().  Preemption stays off in between, so that the
 * mark is this task's alone.
 */
static __always_inline unsigned int clkstat_outcall_begin(void)
{
	unsigned int bit = clkstat_ctx_bit();

	preempt_disable_notrace();
	__this_cpu_or(clkstat_outcall_ctx, bit);
	return bit;
}

static __always_inline void clkstat_outcall_end(unsigned int bit)
{
	__this_cpu_and(clkstat_outcall_ctx, ~bit);
	preempt_enable_notrace();
}

/* ktime_get_mono_fast_ns(), marked. */
static __always_inline u64 clkstat_outcall_mono_ns(void)
{
	unsigned int bit = clkstat_outcall_begin();
	u64 ns = ktime_get_mono_fast_ns();

	clkstat_outcall_end(bit);
	return ns;
}

/**
 * clkstat_reentered() - is a handler being entered from inside clkstat?
 *
 * Call first in a handler a hook on a called-out function could reach.
 * Any context; with preemption on too: a mark is set only with
 * preemption off, so a set bit of this CPU and context can only be this
 * task's own.
 *
 * Return: true (and the miss counted) if the handler must do nothing.
 */
static __always_inline bool clkstat_reentered(void)
{
	if (!static_branch_unlikely(&clkstat_reentry_armed))
		return false;
	if (likely(!(this_cpu_read(clkstat_outcall_ctx) & clkstat_ctx_bit())))
		return false;
	this_cpu_inc(clkstat_reentries);
	return true;
}

void clkstat_reentry_arm(void);
void clkstat_reentry_disarm(void);
unsigned long clkstat_reentries_total(void);

#endif /* _CLKSTAT_REENTRY_H */
