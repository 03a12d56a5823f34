/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_targets.h - clkstat_hookbench.ko's test targets (bench_targets.c):
 * traceable functions of known duration and call count for user-defined
 * probes, and the debugfs file that runs them.
 */
#ifndef _CLKSTAT_BENCH_TARGETS_H
#define _CLKSTAT_BENCH_TARGETS_H

#include <linux/compiler.h>
#include <linux/types.h>

struct dentry;

/* 16 bytes of two INTEGER-class members: returned in rax:rdx on x86_64. */
struct clkstat_tt_pair {
	u64 lo;
	u64 hi;
};

noinline __noclone void clkstat_tt_delay(u64 ns);
noinline __noclone void clkstat_tt_sec_begin(void);
noinline __noclone void clkstat_tt_sec_end(void);
noinline __noclone int clkstat_tt_recurse(int depth);
noinline __noclone long clkstat_tt_args7(long a1, long a2, long a3, long a4,
					 long a5, long a6, long a7);
noinline __noclone struct clkstat_tt_pair clkstat_tt_ret16(u64 lo, u64 hi);

void clkstat_hb_targets_init(struct dentry *dir);

#endif /* _CLKSTAT_BENCH_TARGETS_H */
