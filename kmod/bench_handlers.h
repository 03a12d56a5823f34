/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_handlers.h - the handler benchmark of clkstat_hookbench.ko
 * (bench_handlers.c): clkstat.ko's handlers, timed by its "pair" and "triple"
 * modes.
 */
#ifndef _CLKSTAT_BENCH_HANDLERS_H
#define _CLKSTAT_BENCH_HANDLERS_H

#include <linux/types.h>

enum clkstat_hbench_mode {
	CLKSTAT_HBENCH_PAIR,	/* the wakeup hook's handler, the enqueue's */
	CLKSTAT_HBENCH_TRIPLE,	/* the pair, then the first read's */
	CLKSTAT_HBENCH_PAIR0,	/* the pair's calls, to empty handlers */
	CLKSTAT_HBENCH_TRIPLE0,	/* the triple's calls, to empty handlers */
};

struct clkstat_hbench_result {
	u64 ns;			/* the whole loop, ktime_get_mono_fast_ns() */
	u64 enqueue;		/* samples ttwu_enqueue got meanwhile */
	u64 tkread;		/* samples ttwu_tkread got (0 without it) */
	int cpu;		/* where the first chunk ran */
	bool migrated;		/* a chunk ran on another CPU */
};

int clkstat_bench_handlers(enum clkstat_hbench_mode mode, unsigned int n,
			   struct clkstat_hbench_result *r);

#endif /* _CLKSTAT_BENCH_HANDLERS_H */
