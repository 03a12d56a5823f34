/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the clock every probe stamps events with (clkstat_now()): the
 * TSC read directly where the kernel keeps time with a stable TSC, else
 * the fast monotonic clock.  clock.c says how and why.
 */
#ifndef _CLKSTAT_CLOCK_H
#define _CLKSTAT_CLOCK_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <asm/asm.h>
#include <asm/barrier.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "reentry.h"

struct dentry;

/* The clocks clkstat_now() can read, by their names in the metadata. */
enum clkstat_clock_id {
	CLKSTAT_CLOCK_MONO,	/* "mono": ktime_get_mono_fast_ns() */
	CLKSTAT_CLOCK_TSC,	/* "tsc": rdtsc() with the timekeeper's mult */
};

/*
 * One copy of the timekeeper's CLOCK_MONOTONIC readout, as of its last
 * update: at TSC @cyc the time was @ns; @mult and @shift convert cycles
 * to ns.  @mult 0: the timekeeper no longer runs on the TSC.
 */
struct clkstat_tsc_base {
	u64 cyc;
	u64 ns;
	u32 mult;
	u32 shift;
};

/* Two copies under a latch sequence, as the kernel's fast timekeeper. */
struct clkstat_tsc_clock {
	unsigned int seq;
	struct clkstat_tsc_base base[2];
} ____cacheline_aligned;

extern struct clkstat_tsc_clock clkstat_tsc_clock;
DECLARE_STATIC_KEY_FALSE(clkstat_clock_tsc);

/*
 * The TSC's scale for intervals: the timekeeper's mult in the low 32 bits,
 * its shift above, one word so that an interval is converted with a mult
 * and a shift of the same readout.  clock.c writes it with every readout
 * that has the TSC; it keeps the last one after the kernel left the TSC.
 */
extern u64 clkstat_tsc_scale;

/*
 * (@a * @mul) >> @shift for @shift below 64, as mul_u64_u32_shr() but
 * without its unsigned __int128: a spilled one makes GCC realign the
 * stack of the whole handler (the kernel's stack is 8-byte aligned).
 */
static __always_inline u64 clkstat_mul_shr(u64 a, u32 mul, unsigned int shift)
{
	u64 lo, hi;

	asm("mulq %3" : "=a" (lo), "=d" (hi) : "a" (a), "rm" ((u64)mul));
	asm("shrdq %%cl, %2, %0" : "+r" (lo) : "c" (shift), "r" (hi));
	return lo;
}

/*
 * CLOCK_MONOTONIC in ns of a TSC value: what ktime_get_mono_fast_ns()
 * computes for it (to 1 ns, the fraction of a ns in the timekeeper's base
 * is dropped), without its indirect call to the clocksource's read and
 * without the LFENCE of rdtsc_ordered().  A value older than the
 * timekeeper's last update comes out as that update's time, as the fast
 * clock's would; with @back (a stamp converted late, for the event log)
 * it is converted backwards from that update instead, so that two events'
 * times differ by their interval.
 *
 * rdtsc() is unordered: the CPU may read the TSC some tens of cycles
 * before or after the instructions around it.  That moves a timestamp by
 * a few ns, below a histogram slot at every frac_bits; an interval that
 * comes out negative (two CPUs, or a base newer than the read) gives a
 * delta clamped to 0 here and an interval clamped to 0 by the probes, as
 * with the fast monotonic clock across a timekeeping update.
 */
static __always_inline u64 __clkstat_tsc_to_ns(u64 cyc, bool back)
{
	const struct clkstat_tsc_base *b;
	unsigned int seq, shift;
	u64 ns, d;
	u32 mult;

	do {
		seq = READ_ONCE(clkstat_tsc_clock.seq);
		smp_rmb();	/* the sequence before the copy it selects */
		b = &clkstat_tsc_clock.base[seq & 1];
		mult = READ_ONCE(b->mult);
		if (unlikely(!mult))
			return clkstat_outcall_mono_ns();
		shift = READ_ONCE(b->shift) & 63;
		d = cyc - READ_ONCE(b->cyc);
		ns = READ_ONCE(b->ns);
		if (likely((s64)d >= 0))
			ns += clkstat_mul_shr(d, mult, shift);
		else if (back)
			ns -= clkstat_mul_shr(-d, mult, shift);
		smp_rmb();	/* the copy before the sequence's recheck */
	} while (unlikely(READ_ONCE(clkstat_tsc_clock.seq) != seq));
	return ns;
}

static __always_inline u64 clkstat_tsc_to_ns(u64 cyc)
{
	return __clkstat_tsc_to_ns(cyc, false);
}

/* CLOCK_MONOTONIC from the TSC, now: see clkstat_tsc_to_ns(). */
static __always_inline u64 clkstat_tsc_now(void)
{
	return clkstat_tsc_to_ns(rdtsc());
}

/*
 * Timestamps of every probe: CLOCK_MONOTONIC in ns, one clock for all
 * CPUs, NMI-safe, notrace.  The TSC (clkstat_tsc_now()) where clock.c
 * chose it at load, else ktime_get_mono_fast_ns().  Either may step back
 * by a few ns (a timekeeping update, an unordered TSC read); probes clamp
 * negative intervals to 0.
 */
static __always_inline u64 clkstat_now(void)
{
	if (static_branch_likely(&clkstat_clock_tsc))
		return clkstat_tsc_now();
	return clkstat_outcall_mono_ns();
}

/*
 * ktime_get_mono_fast_ns() through a call that keeps every register but
 * its result (clock.c's clkstat_mono_stamp_regs() saves the others): a
 * handler that stamps with it in a branch (clkstat_stamp() off the TSC)
 * stays free of callee-saved registers on the TSC.  A C call would make
 * the compiler save them in every such handler, for the branch not
 * taken, and GCC does not take no_caller_saved_registers into account at
 * the call site, so the call is asm, with ASM_CALL_CONSTRAINT as any
 * call from asm in the kernel (objtool).
 */
u64 clkstat_mono_stamp_regs(void);

static __always_inline u64 clkstat_mono_stamp(void)
{
	u64 ns;

	asm volatile("call clkstat_mono_stamp_regs"
		     : "=a" (ns), ASM_CALL_CONSTRAINT : : "memory");
	return ns;
}

/*
 * Stamps: the hot path's timestamps, for an interval's two ends.  On the
 * TSC a stamp is the raw TSC (one unordered rdtsc), and only the
 * interval is converted, with the timekeeper's own mult and shift
 * (clkstat_stamp_ns()): the same ns as two clkstat_now() would give, up
 * to the NTP adjustment of mult between the two ends (parts per million
 * of the interval), for a tenth of their instructions.  Elsewhere a stamp
 * is clkstat_now().  clkstat_stamp_to_ns() gives a stamp's time for the
 * event log.
 *
 * A TSC stamp carries CLKSTAT_STAMP_TSC (bit 63: a TSC stays below it for
 * a century at 3 GHz), so that an interval begun in cycles and ended
 * after clock.c left the TSC (its static key off) is known as such:
 * clkstat_stamp_valid() says so, and its probe drops it.  clock.c also
 * begins a new epoch then, which drops the intervals still pending; the
 * tag covers those whose end raced with it.
 */
#define CLKSTAT_STAMP_TSC	BIT_ULL(63)

static __always_inline u64 clkstat_stamp(void)
{
	if (static_branch_likely(&clkstat_clock_tsc))
		return rdtsc() | CLKSTAT_STAMP_TSC;
	return clkstat_mono_stamp();
}

/*
 * The scale of clkstat_stamp_ns_at(): read once, it converts every
 * interval of one event with the same mult and shift.
 */
static __always_inline u64 clkstat_stamp_scale(void)
{
	return READ_ONCE(clkstat_tsc_scale);
}

/*
 * Whether an interval from stamp @from to a stamp taken now has a length:
 * not if @from is in cycles and the clock is no longer the TSC.  One nop
 * on the TSC.
 */
static __always_inline bool clkstat_stamp_valid(u64 from)
{
	if (static_branch_likely(&clkstat_clock_tsc))
		return true;
	return !(from & CLKSTAT_STAMP_TSC);
}

/*
 * The interval from stamp @from to stamp @to in ns, 0 if negative; @from
 * clkstat_stamp_valid().
 */
static __always_inline u64 clkstat_stamp_ns_at(u64 from, u64 to, u64 scale)
{
	u64 d = to - from;

	if (unlikely((s64)d <= 0))
		return 0;
	if (static_branch_likely(&clkstat_clock_tsc))
		return clkstat_mul_shr(d, (u32)scale, (scale >> 32) & 63);
	return d;
}

/* clkstat_stamp_ns_at() for an event with one interval. */
static __always_inline u64 clkstat_stamp_ns(u64 from, u64 to)
{
	return clkstat_stamp_ns_at(from, to, clkstat_stamp_scale());
}

/*
 * A stamp as clkstat_now() would have read it, for an event's time (a
 * TSC stamp converted after clock.c left the TSC: at the last readout's
 * time, see clkstat_tsc_to_ns()).  A stamp older than the timekeeper's
 * last update is converted backwards from it: the CPU that took the stamp
 * can be stopped before it converts it (an interrupt, a hypervisor; seen
 * for 1.5 ms in an emulated guest) while another CPU's tick updates the
 * base, and clamped to the update the event's time would be that late.
 */
static __always_inline u64 clkstat_stamp_to_ns(u64 stamp)
{
	if (stamp & CLKSTAT_STAMP_TSC)
		return __clkstat_tsc_to_ns(stamp & ~CLKSTAT_STAMP_TSC, true);
	return stamp;
}

int clkstat_clock_init(void);
void clkstat_clock_exit(void);
enum clkstat_clock_id clkstat_clock_id(void);
const char *clkstat_clock_name(void);
void clkstat_clock_describe(char *buf, size_t len);
void clkstat_clock_debugfs_init(struct dentry *dir);

/*
 * The epoch: a number bumped whenever a metric starts or is reset, and
 * when the clock leaves the TSC.  A probe stores it with the start of an
 * interval and drops an interval whose start belongs to an earlier epoch:
 * it began before the window (or in the other clock's units) and would
 * span the stopped time.  clkstat_epoch_ns is when the current epoch
 * began (clkstat_now()), for intervals that carry only their start time
 * (a traced function's entry): one that started before it began before
 * the window.
 */
extern unsigned int clkstat_epoch;
extern u64 clkstat_epoch_ns;

void clkstat_epoch_restart(void);

static inline unsigned int clkstat_current_epoch(void)
{
	return READ_ONCE(clkstat_epoch);
}

static inline u64 clkstat_epoch_start_ns(void)
{
	return READ_ONCE(clkstat_epoch_ns);
}

#endif /* _CLKSTAT_CLOCK_H */
