// SPDX-License-Identifier: GPL-2.0
/*
 * bench_hooks.c - clkstat_hookbench.ko: what each hook variant adds to a
 * call of the function it hooks, printed at load as a table.
 *
 * The target is a noinline function of this module, called in a loop:
 * with nothing attached, then with the same minimal handler (one per-CPU
 * increment, which also proves the hook fired) attached through each
 * variant of clkstat.ko (direct, ftrace, kprobe, kprobe-int3, and
 * tracepoint on a tracepoint inside the target), and through a kretprobe
 * (entry handler counting, empty return handler).  What a record adds on
 * top is clkstat_bench.ko's figure.  All in one run, on one CPU, so the
 * ratios to "nothing attached" can be compared even in an emulated guest
 * where absolute ns mean little.
 *
 * hot: `calls` back-to-back calls timed as a whole, `rounds` times, the
 * variants interleaved (none, direct, ..., none, direct, ...), the fastest
 * round kept: emulated time jitters, and the minimum is the figure least
 * disturbed by what else ran.  cold, in the last round: `cold_calls`
 * calls, each after streaming through an `evict_kb` buffer to push the
 * target, the hook path and their data out of the caches, each timed on
 * its own with the TSC.  Under TCG the caches are the host's, holding the
 * emulator's translated code and the guest's memory: "cold" there says
 * how the emulated path reacts to a cold host cache, nothing more.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "hook.h"
#include "probes.h"

static unsigned int calls = 200000;
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "hot calls per variant, a multiple of 1000 (default 200000)");

static unsigned int cold_calls = 200;
module_param(cold_calls, uint, 0444);
MODULE_PARM_DESC(cold_calls, "cold calls per variant (default 200)");

static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "hot measurements per variant, interleaved, the fastest kept (default 5)");

static unsigned int evict_kb = 8192;
module_param(evict_kb, uint, 0444);
MODULE_PARM_DESC(evict_kb, "buffer streamed through before each cold call, kB (default 8192)");

#define CHUNK 1000	/* hot calls between two reschedule points */

DECLARE_TRACE(clkstat_bench_hit, TP_PROTO(unsigned long a0), TP_ARGS(a0));
DEFINE_TRACE(clkstat_bench_hit, TP_PROTO(unsigned long a0), TP_ARGS(a0));

static unsigned long bench_sink;
/* Handler runs, to check that each variant really fired on every call. */
static DEFINE_PER_CPU(u64, bench_hits);
static u8 *evict_buf;

/* The hooked function.  The tracepoint costs a nop while unused. */
static noinline __noclone void clkstat_bench_target(unsigned long a0,
						    unsigned long a1,
						    unsigned long a2)
{
	WRITE_ONCE(bench_sink, a0 + a1 + a2);
	trace_clkstat_bench_hit(a0);
}

/* The same work in every variant: count the call. */
static void notrace bench_handler(unsigned long a0, unsigned long a1,
				  unsigned long a2)
{
	this_cpu_inc(bench_hits);
}

static struct clkstat_hook bench_hook = {
	.func = "clkstat_bench_target",
	.handler = bench_handler,
	.tp = &__tracepoint_clkstat_bench_hit,
	.tp_handler = bench_handler,
};

static int notrace bench_kret_entry(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	this_cpu_inc(bench_hits);
	return 0;
}

static int notrace bench_kret_ret(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	return 0;
}

static struct kretprobe bench_kretprobe;

/* A kretprobe cannot be registered twice: fill it anew each round. */
static int bench_kretprobe_register(void)
{
	bench_kretprobe = (struct kretprobe){
		.kp.symbol_name = "clkstat_bench_target",
		.entry_handler = bench_kret_entry,
		.handler = bench_kret_ret,
		.maxactive = 4,
	};
	return register_kretprobe(&bench_kretprobe);
}

struct bench_result {
	const char *what;
	u64 hot_ns;	/* total for `calls`, fastest round */
	u64 cold_ns;	/* total for `cold_calls` */
	u64 hits;	/* handler runs in the last round */
};

static u64 bench_hits_total(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(bench_hits, cpu);
	return sum;
}

/* One hot round, and with @cold the cold calls too. */
static void bench_measure(struct bench_result *r, bool cold)
{
	u64 t0, t1, hot = 0, hits0 = bench_hits_total();
	unsigned int done, i;

	for (done = 0; done < calls; done += CHUNK) {
		preempt_disable();
		t0 = ktime_get_ns();
		for (i = 0; i < CHUNK; i++)
			clkstat_bench_target(done + i, 1, 2);
		hot += ktime_get_ns() - t0;
		preempt_enable();
		cond_resched();
	}
	if (!r->hot_ns || hot < r->hot_ns)
		r->hot_ns = hot;
	if (!cold)
		return;
	r->cold_ns = 0;
	for (i = 0; i < cold_calls; i++) {
		preempt_disable();
		memset(evict_buf, i, (size_t)evict_kb << 10);
		t0 = rdtsc_ordered();
		clkstat_bench_target(i, 1, 2);
		t1 = rdtsc_ordered();
		preempt_enable();
		r->cold_ns += clkstat_tsc_ns(t1 - t0);
		cond_resched();
	}
	r->hits = bench_hits_total() - hits0;
}

/* Row 0: nothing attached; then the variants; last the kretprobe. */
static const char *const bench_rows[] = {
	"none", "direct", "ftrace", "kprobe", "kprobe-int3", "tracepoint",
	"kretprobe",
};

static int bench_row(unsigned int row, struct bench_result *r, bool cold)
{
	const struct clkstat_backend *b = NULL;
	int ret = 0;

	r->what = bench_rows[row];
	if (row == 0) {
		bench_measure(r, cold);
		return 0;
	}
	if (row == ARRAY_SIZE(bench_rows) - 1) {
		ret = bench_kretprobe_register();
	} else {
		b = clkstat_backend_find(r->what);
		ret = b ? clkstat_hooks_attach(b, &bench_hook, 1) : -EINVAL;
	}
	if (ret) {
		pr_err("clkstat_hookbench: cannot attach %s: %d\n", r->what,
		       ret);
		return ret;
	}
	bench_measure(r, cold);
	if (b)
		clkstat_hooks_detach(b, &bench_hook, 1);
	else
		unregister_kretprobe(&bench_kretprobe);
	return 0;
}

/* x.yy from a ratio of two totals. */
static void bench_ratio(u64 a, u64 b, u64 *whole, u64 *centi)
{
	u64 r = div64_u64(a * 100, max(b, 1ULL));

	*whole = r / 100;
	*centi = r % 100;
}

static void bench_print(const struct bench_result *r,
			const struct bench_result *none)
{
	u64 hot = div_u64(r->hot_ns * 100, calls);
	u64 cold = div_u64(r->cold_ns * 100, max(cold_calls, 1U));
	u64 hw, hc, cw, cc;

	bench_ratio(r->hot_ns, none->hot_ns, &hw, &hc);
	bench_ratio(r->cold_ns, none->cold_ns, &cw, &cc);
	pr_info("clkstat_hookbench: %-12s %8llu.%02llu %6llu.%02llu %9llu.%02llu %6llu.%02llu %9llu\n",
		r->what, hot / 100, hot % 100, hw, hc, cold / 100, cold % 100,
		cw, cc, r->hits);
}

static int __init hookbench_init(void)
{
	struct bench_result res[ARRAY_SIZE(bench_rows)] = {};
	unsigned int i, r;
	int ret = 0;

	if (!calls || calls % CHUNK || !rounds || rounds > 100) {
		pr_err("clkstat_hookbench: calls=%u rounds=%u: calls must be a positive multiple of %d, rounds in 1..100\n",
		       calls, rounds, CHUNK);
		return -EINVAL;
	}
	if (!tsc_khz) {
		pr_err("clkstat_hookbench: cold calls are timed with the TSC, and tsc_khz is 0\n");
		return -EOPNOTSUPP;
	}
	if (!cold_calls || !evict_kb || evict_kb > 262144) {
		pr_err("clkstat_hookbench: cold_calls=%u evict_kb=%u: both must be positive, evict_kb at most 262144\n",
		       cold_calls, evict_kb);
		return -EINVAL;
	}
	evict_buf = vmalloc((size_t)evict_kb << 10);
	if (!evict_buf)
		return -ENOMEM;

	bench_measure(&res[0], false);	/* warm up */
	res[0].hot_ns = 0;
	for (r = 0; r < rounds && !ret; r++)
		for (i = 0; i < ARRAY_SIZE(bench_rows) && !ret; i++)
			ret = bench_row(i, &res[i], r == rounds - 1);
	vfree(evict_buf);
	if (ret)
		return ret;

	pr_info("clkstat_hookbench: %u hot calls (fastest of %u interleaved rounds), %u cold calls after %u kB evicted, CPU %d, handler = one per-CPU increment\n",
		calls, rounds, cold_calls, evict_kb, raw_smp_processor_id());
	pr_info("clkstat_hookbench: %-12s %11s %9s %12s %9s %9s\n", "variant",
		"hot ns/call", "x none", "cold ns/call", "x none", "handler");
	for (i = 0; i < ARRAY_SIZE(bench_rows); i++)
		bench_print(&res[i], &res[0]);
	for (i = 1; i < ARRAY_SIZE(bench_rows); i++) {
		if (res[i].hits != calls + cold_calls) {
			pr_err("clkstat_hookbench: %s: handler ran %llu times for %u calls\n",
			       res[i].what, res[i].hits, calls + cold_calls);
			ret = -EIO;
		}
	}
	return ret;
}

/* Everything was released at the end of init: the result is in the log. */
static void __exit hookbench_exit(void)
{
}

module_init(hookbench_init);
module_exit(hookbench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("clkstat hook-variant overhead benchmark");
