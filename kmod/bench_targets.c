// SPDX-License-Identifier: GPL-2.0
/*
 * bench_targets.c - clkstat_hookbench.ko's test targets: kernel functions
 * of known duration and known call count, a section across a known sleep
 * and a tracepoint pair, for the tests of user-defined probes (func:F,
 * sec:A-B, sec:A-B:exit, sec:A-B:cpu, tp:X-Y) in every variant of
 * clkstat.ko and in the BPF twin.
 *
 * The functions (global, noinline, __noclone, traceable):
 *
 *   clkstat_tt_delay(ns)       busy-waits at least ns on the TSC
 *   clkstat_tt_sec_begin()     a section's first marker
 *   clkstat_tt_sec_end()       a section's last marker
 *   clkstat_tt_recurse(depth)  calls itself until depth 1; returns depth
 *   clkstat_tt_args7(a1..a7)   seven integer arguments, the seventh on the
 *                              stack; returns their sum
 *   clkstat_tt_ret16(lo, hi)   returns a 16-byte struct (rax:rdx)
 *
 * and the tracepoints clkstat_tt_a_tp and clkstat_tt_b_tp
 * (bench_targets_trace.h).  /sys/kernel/debug/clkstat_hookbench/targets
 * runs them, one command per write ("delay N NS", "sec N SLEEP_US",
 * "seccpu N", "tp N SLEEP_US", "recurse N DEPTH", "args7 N", "ret16 N"),
 * and reading gives the last successful run, timed by this module with
 * the TSC from outside the targets.  The commands, their limits and
 * errors, and what each figure of the result times:
 * Documentation/clkstat-traces.rst, "Test targets of known duration and call
 * count".
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/msr.h>
#include <asm/tsc.h>
#include "bench_targets.h"
#include "probes.h"

#define CREATE_TRACE_POINTS
#include "bench_targets_trace.h"

#define TT_MAX_N	1000000U
#define TT_MAX_NS	10000000U	/* delay: 10 ms with preemption off */
#define TT_MAX_US	1000000U
#define TT_MAX_DEPTH	64U

/* What the targets write, so that no call of theirs can be dropped. */
static unsigned long tt_sink;
static unsigned long tt_begins, tt_ends;

/**
 * clkstat_tt_delay() - busy-wait at least @ns nanoseconds
 * @ns: how long, in ns of the TSC (tsc_khz)
 *
 * A loop on rdtsc_ordered() (LFENCE; RDTSC, inline: no call, no clock
 * read through timekeeping, so nothing in it that a probe of clkstat's
 * own hooks): it returns after at least @ns rounded up to the next TSC
 * cycle, and overshoots by at most one turn of the loop (one
 * rdtsc_ordered() and a PAUSE: some tens of cycles on hardware, a few
 * hundred ns under TCG) plus whatever interrupts land inside.  The caller
 * keeps preemption off, or a preemption lands inside too.  Needs tsc_khz.
 */
noinline __noclone void clkstat_tt_delay(u64 ns)
{
	u64 cycles = mul_u64_u32_div(ns, tsc_khz, 1000000) + 1;
	u64 t0 = rdtsc_ordered();

	while (rdtsc_ordered() - t0 < cycles)
		cpu_relax();
	WRITE_ONCE(tt_sink, ns);
}

/**
 * clkstat_tt_sec_begin() - a section's first marker
 *
 * Counts its calls (its body differs from clkstat_tt_sec_end()'s, so that
 * the compiler cannot fold the two into one function).
 */
noinline __noclone void clkstat_tt_sec_begin(void)
{
	WRITE_ONCE(tt_begins, tt_begins + 1);
}

/**
 * clkstat_tt_sec_end() - a section's last marker
 *
 * Counts its calls.
 */
noinline __noclone void clkstat_tt_sec_end(void)
{
	WRITE_ONCE(tt_ends, tt_ends + 1);
}

/**
 * clkstat_tt_recurse() - call itself down to depth 1
 * @depth: calls of this function in all, this one included (1: no
 *         recursion)
 *
 * The store after the inner call keeps it a real call (not a tail call
 * the compiler would turn into a loop): each level is one entry and one
 * exit, nested.
 *
 * Return: @depth (or 1 if @depth < 1).
 */
noinline __noclone int clkstat_tt_recurse(int depth)
{
	int ret = 0;

	if (depth > 1)
		ret = clkstat_tt_recurse(depth - 1);
	WRITE_ONCE(tt_sink, ret);
	return ret + 1;
}

/**
 * clkstat_tt_args7() - a function with a stack argument
 * @a1: summed (rdi)
 * @a2: summed (rsi)
 * @a3: summed (rdx)
 * @a4: summed (rcx)
 * @a5: summed (r8)
 * @a6: summed (r9)
 * @a7: summed; the seventh integer argument, passed on the stack
 *
 * An exit wrapper that calls the function anew with the registers of its
 * entry (the direct and ftrace variants' exit hooks) would lose @a7: those
 * must refuse to time this one's exit.
 *
 * Return: the sum of the seven.
 */
noinline __noclone long clkstat_tt_args7(long a1, long a2, long a3, long a4,
					 long a5, long a6, long a7)
{
	long sum = a1 + a2 + a3 + a4 + a5 + a6 + a7;

	WRITE_ONCE(tt_sink, sum);
	return sum;
}

/**
 * clkstat_tt_ret16() - a function returning 16 bytes
 * @lo: returned in .lo (rax)
 * @hi: returned in .hi (rdx)
 *
 * An exit hook that keeps only rax breaks the caller's .hi.
 *
 * Return: {@lo, @hi}.
 */
noinline __noclone struct clkstat_tt_pair clkstat_tt_ret16(u64 lo, u64 hi)
{
	struct clkstat_tt_pair p = { .lo = lo, .hi = hi };

	WRITE_ONCE(tt_sink, lo ^ hi);
	return p;
}

enum tt_op { TT_DELAY, TT_SEC, TT_SECCPU, TT_TP, TT_RECURSE, TT_ARGS7,
	     TT_RET16 };

/* Each op: its name, and its second number's bound (0: none). */
static const struct {
	const char *name;
	unsigned int arg_max;
} tt_ops[] = {
	[TT_DELAY] = { "delay", TT_MAX_NS },
	[TT_SEC] = { "sec", TT_MAX_US },
	[TT_SECCPU] = { "seccpu", 0 },
	[TT_TP] = { "tp", TT_MAX_US },
	[TT_RECURSE] = { "recurse", TT_MAX_DEPTH },
	[TT_ARGS7] = { "args7", 0 },
	[TT_RET16] = { "ret16", 0 },
};

struct tt_result {
	const char *op;		/* NULL: no run yet */
	u64 calls;
	u64 elapsed_ns;
	u64 min_ns, max_ns, sum_ns;
};

/* Serializes runs and reads of the result. */
static DEFINE_MUTEX(tt_lock);
static struct tt_result tt_last;

/* One iteration's TSC interval, @t0 to @t1 (0 if the TSC stepped back). */
static void tt_account(struct tt_result *r, u64 t0, u64 t1)
{
	u64 ns = (s64)(t1 - t0) > 0 ? clkstat_tsc_ns(t1 - t0) : 0;

	r->min_ns = min(r->min_ns, ns);
	r->max_ns = max(r->max_ns, ns);
	r->sum_ns += ns;
}

/*
 * Sleep @us on an hrtimer with no slack: usleep_range(@us, @us), which
 * checkpatch refuses to see written (min == max).
 */
static void tt_sleep(unsigned int us)
{
	ktime_t t = (ktime_t)us * NSEC_PER_USEC;

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_hrtimeout_range(&t, 0, HRTIMER_MODE_REL);
}

/* Between iterations: let others run; true if the run must stop. */
static bool tt_yield(void)
{
	cond_resched();
	return fatal_signal_pending(current);
}

static int tt_run(struct tt_result *r, enum tt_op op, unsigned int n,
		  unsigned int arg)
{
	struct clkstat_tt_pair p;
	unsigned int i;
	long sum;
	u64 t0, t1;
	int depth;

	for (i = 0; i < n; i++) {
		if (op == TT_SEC || op == TT_TP) {
			t0 = rdtsc_ordered();
			if (op == TT_SEC)
				clkstat_tt_sec_begin();
			else
				trace_clkstat_tt_a_tp(i);
			tt_sleep(arg);
			if (op == TT_SEC)
				clkstat_tt_sec_end();
			else
				trace_clkstat_tt_b_tp(i);
			t1 = rdtsc_ordered();
			tt_account(r, t0, t1);
			if (tt_yield())
				return -EINTR;
			continue;
		}
		preempt_disable();
		t0 = rdtsc_ordered();
		switch (op) {
		case TT_DELAY:
			clkstat_tt_delay(arg);
			break;
		case TT_SECCPU:
			clkstat_tt_sec_begin();
			clkstat_tt_sec_end();
			break;
		case TT_RECURSE:
			depth = clkstat_tt_recurse(arg);
			break;
		case TT_ARGS7:
			sum = clkstat_tt_args7(i, 1, 2, 3, 4, 5, 6);
			break;
		default:
			p = clkstat_tt_ret16(i, ~(u64)i);
			break;
		}
		t1 = rdtsc_ordered();
		preempt_enable();
		tt_account(r, t0, t1);
		if ((op == TT_RECURSE && depth != arg) ||
		    (op == TT_ARGS7 && sum != (long)i + 21) ||
		    (op == TT_RET16 && (p.lo != i || p.hi != ~(u64)i))) {
			pr_err("clkstat_hookbench: %s: call %u returned a wrong value\n",
			       tt_ops[op].name, i);
			return -EIO;
		}
		if (tt_yield())
			return -EINTR;
	}
	return 0;
}

/* A decimal in 1..@max, or -EINVAL. */
static int tt_number(const char *s, unsigned int max, unsigned int *v)
{
	if (!isdigit(*s) || kstrtouint(s, 10, v) || !*v || *v > max)
		return -EINVAL;
	return 0;
}

/* "OP N [ARG]" into @op, @n, @arg; -EINVAL if anything is wrong. */
static int tt_parse(const char *buf, enum tt_op *op, unsigned int *n,
		    unsigned int *arg)
{
	char name[16], ns[16], as[16], extra;
	unsigned int i;
	int got;

	got = sscanf(buf, "%15s %15s %15s %c", name, ns, as, &extra);
	if (got < 2 || got > 3)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(tt_ops); i++)
		if (!strcmp(name, tt_ops[i].name))
			break;
	if (i == ARRAY_SIZE(tt_ops))
		return -EINVAL;
	*op = i;
	if ((got == 3) != !!tt_ops[i].arg_max)
		return -EINVAL;
	if (tt_number(ns, TT_MAX_N, n))
		return -EINVAL;
	*arg = 0;
	if (got == 3 && tt_number(as, tt_ops[i].arg_max, arg))
		return -EINVAL;
	return 0;
}

static ssize_t tt_write(struct file *file, const char __user *ubuf,
			size_t len, loff_t *ppos)
{
	struct tt_result r = { .min_ns = U64_MAX };
	unsigned int n, arg;
	enum tt_op op;
	char buf[64];
	u64 t0;
	int ret;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	ret = tt_parse(buf, &op, &n, &arg);
	if (ret)
		return ret;
	if (!tsc_khz)
		return -EOPNOTSUPP;

	r.op = tt_ops[op].name;
	r.calls = op == TT_RECURSE ? (u64)n * arg : n;
	mutex_lock(&tt_lock);
	t0 = ktime_get_ns();
	ret = tt_run(&r, op, n, arg);
	r.elapsed_ns = ktime_get_ns() - t0;
	if (!ret)
		tt_last = r;
	mutex_unlock(&tt_lock);
	return ret ? ret : len;
}

static ssize_t tt_read(struct file *file, char __user *ubuf, size_t len,
		       loff_t *ppos)
{
	char buf[160];
	int n;

	mutex_lock(&tt_lock);
	if (!tt_last.op)
		n = scnprintf(buf, sizeof(buf), "op none\n");
	else
		n = scnprintf(buf, sizeof(buf),
			      "op %s calls %llu elapsed_ns %llu min_ns %llu max_ns %llu sum_ns %llu\n",
			      tt_last.op, tt_last.calls, tt_last.elapsed_ns,
			      tt_last.min_ns, tt_last.max_ns, tt_last.sum_ns);
	mutex_unlock(&tt_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations tt_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = tt_read,
	.write = tt_write,
	.llseek = default_llseek,
};

/**
 * clkstat_hb_targets_init() - create the targets file
 * @dir: clkstat_hookbench's debugfs directory
 *
 * Removed with @dir (debugfs_remove_recursive() waits for a run under
 * way to return).
 */
void clkstat_hb_targets_init(struct dentry *dir)
{
	debugfs_create_file("targets", 0600, dir, NULL, &tt_fops);
}
