/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the clock every probe stamps events with (clkstat_now()): the
 * TSC read directly where the kernel keeps time with a stable TSC, else
 * the fast monotonic clock.  clock.c says how and why.
 */
#ifndef _CLKSTAT_CLOCK_H
#define _CLKSTAT_CLOCK_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/msr.h>
#include <asm/tsc.h>

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
 * CLOCK_MONOTONIC from the TSC, in ns: what ktime_get_mono_fast_ns()
 * computes (to 1 ns, the fraction of a ns in the timekeeper's base is
 * dropped), without its indirect call to the clocksource's read and
 * without the LFENCE of rdtsc_ordered().
 *
 * rdtsc() is unordered: the CPU may read the TSC some tens of cycles
 * before or after the instructions around it.  That moves a timestamp by
 * a few ns, below a histogram slot at every frac_bits; an interval that
 * comes out negative (two CPUs, or a base newer than the read) gives a
 * delta clamped to 0 here and an interval clamped to 0 by the probes, as
 * with the fast monotonic clock across a timekeeping update.
 */
static __always_inline u64 clkstat_tsc_now(void)
{
	const struct clkstat_tsc_base *b;
	unsigned int seq;
	u64 ns, d;
	u32 mult;

	do {
		seq = READ_ONCE(clkstat_tsc_clock.seq);
		smp_rmb();	/* the sequence before the copy it selects */
		b = &clkstat_tsc_clock.base[seq & 1];
		mult = READ_ONCE(b->mult);
		if (unlikely(!mult))
			return ktime_get_mono_fast_ns();
		d = rdtsc() - READ_ONCE(b->cyc);
		if (unlikely((s64)d < 0))
			d = 0;
		ns = READ_ONCE(b->ns) + mul_u64_u32_shr(d, mult,
							READ_ONCE(b->shift));
		smp_rmb();	/* the copy before the sequence's recheck */
	} while (unlikely(READ_ONCE(clkstat_tsc_clock.seq) != seq));
	return ns;
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
	return ktime_get_mono_fast_ns();
}

int clkstat_clock_init(void);
void clkstat_clock_exit(void);
enum clkstat_clock_id clkstat_clock_id(void);
const char *clkstat_clock_name(void);
void clkstat_clock_describe(char *buf, size_t len);
void clkstat_clock_debugfs_init(struct dentry *dir);

#endif /* _CLKSTAT_CLOCK_H */
