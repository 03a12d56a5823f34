// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - clkstat_bench.ko: what one record costs, printed at load.
 *
 * Times, in one run and on one CPU, a loop of clkstat_record() into a
 * metric (the same inline code the probes run), a loop of a bare per-CPU
 * counter increment, and an empty loop, and prints ns per iteration and
 * the ratio record / increment.  Also prints the memory one metric takes
 * per CPU for every frac_bits.  In an emulated guest only the ratios mean
 * something.  Load it with clkstat.ko loaded, read the log, unload it.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include "hist.h"

static unsigned int loops = 1000000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "iterations per measurement (default 1000000)");

#define CHUNK 10000	/* iterations between two reschedule points */

static DEFINE_PER_CPU(u64, bench_counter);

enum bench_kind { BENCH_EMPTY, BENCH_INC, BENCH_RECORD_HOT, BENCH_RECORD_SPREAD };

/* Total ns for `loops` iterations of one kind, in chunks. */
static u64 bench_run(enum bench_kind kind, struct clkstat_metric *m)
{
	u64 total = 0, t0;
	unsigned int done, i;

	for (done = 0; done < loops; done += CHUNK) {
		preempt_disable();
		t0 = ktime_get_ns();
		for (i = 0; i < CHUNK; i++) {
			switch (kind) {
			case BENCH_EMPTY:
				barrier();
				break;
			case BENCH_INC:
				this_cpu_inc(bench_counter);
				break;
			case BENCH_RECORD_HOT:	/* one slot, always cached */
				clkstat_record(m, 1000 + (i & 7));
				break;
			case BENCH_RECORD_SPREAD: /* ~200 slots, 1 ns to 1 s */
				clkstat_record(m, 1ULL << (i % 30) | i);
				break;
			}
		}
		total += ktime_get_ns() - t0;
		preempt_enable();
		cond_resched();
	}
	return total;
}

/* Print ns per iteration with two decimals. */
static void bench_print(const char *what, u64 ns)
{
	u64 centi = div_u64(ns * 100, loops);

	pr_info("clkstat_bench: %-34s %6llu.%02llu ns/op\n", what,
		centi / 100, centi % 100);
}

static int __init bench_init(void)
{
	struct clkstat_metric *m;
	u64 empty, inc, hot, spread;
	unsigned int k;

	if (loops < CHUNK || loops % CHUNK) {
		pr_err("clkstat_bench: loops=%u: not a multiple of %d\n", loops,
		       CHUNK);
		return -EINVAL;
	}
	m = clkstat_metric_create("bench_record", "bench", NULL, 0);
	if (IS_ERR(m))
		return PTR_ERR(m);
	clkstat_metric_set_recording(m, true);

	bench_run(BENCH_RECORD_HOT, m);	/* warm up */
	empty = bench_run(BENCH_EMPTY, m);
	inc = bench_run(BENCH_INC, m);
	hot = bench_run(BENCH_RECORD_HOT, m);
	spread = bench_run(BENCH_RECORD_SPREAD, m);
	clkstat_metric_destroy(m);

	pr_info("clkstat_bench: %u iterations each, CPU %d\n", loops,
		raw_smp_processor_id());
	bench_print("empty loop", empty);
	bench_print("per-CPU counter increment", inc);
	bench_print("clkstat_record, one slot (hot)", hot);
	bench_print("clkstat_record, 30 powers of two", spread);
	pr_info("clkstat_bench: ratio record(hot) / increment: %llu.%02llu\n",
		div64_u64(hot * 100, max(inc, 1ULL)) / 100,
		div64_u64(hot * 100, max(inc, 1ULL)) % 100);
	for (k = 0; k <= CLKSTAT_FRAC_BITS_MAX; k++)
		pr_info("clkstat_bench: memory frac_bits=%u: %u slots, %zu bytes per metric per CPU, %zu bytes for %u CPUs\n",
			k, CLKSTAT_NSLOTS(k), clkstat_metric_cpu_bytes(k),
			clkstat_metric_cpu_bytes(k) * num_possible_cpus(),
			num_possible_cpus());
	return 0;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("clkstat record-cost benchmark");
