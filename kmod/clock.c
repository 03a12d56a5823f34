// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - which clock clkstat_now() reads, chosen at load (clock=auto,
 * tsc or mono), and the epoch (clock.h).
 *
 *   tsc   where the kernel keeps time with the TSC clocksource and the TSC
 *         is stable: rdtsc() converted with the timekeeper's own readout
 *         of CLOCK_MONOTONIC, which the pvclock_gtod notifier (the hook KVM
 *         follows the timekeeper with) copies here at every update, into
 *         a latch of two copies read without a lock, NMI-safe;
 *   mono  anywhere else: ktime_get_mono_fast_ns().
 *
 * When the kernel leaves the TSC, clkstat_now() falls back to mono at the
 * next update, and a work item turns the TSC off for good (see
 * clock_left_work_fn()).  Why and how: Documentation/clkstat-probes.rst, "The
 * probes' clock".
 */
#include <linux/clocksource.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pvclock_gtod.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeper_internal.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include "clock.h"
#include "uapi/clkstat_events.h"
#include "test_exports.h"

struct clkstat_tsc_clock clkstat_tsc_clock;
CLKSTAT_EXPORT_FOR_TESTS(clkstat_tsc_clock);
DEFINE_STATIC_KEY_FALSE(clkstat_clock_tsc);
CLKSTAT_EXPORT_FOR_TESTS(clkstat_clock_tsc);
u64 clkstat_tsc_scale;

enum { CLOCK_REQ_AUTO, CLOCK_REQ_TSC, CLOCK_REQ_MONO };

static const char *const clock_req_names[] = {
	[CLOCK_REQ_AUTO] = "auto",
	[CLOCK_REQ_TSC] = "tsc",
	[CLOCK_REQ_MONO] = "mono",
};

static unsigned int clock_req = CLOCK_REQ_AUTO;

static int clock_param_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(clock_req_names, val);

	if (i < 0) {
		pr_err("clkstat: clock=%s: unknown clock (auto, tsc or mono)\n",
		       val);
		return -EINVAL;
	}
	clock_req = i;
	return 0;
}

static int clock_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", clock_req_names[clock_req]);
}

static const struct kernel_param_ops clock_param_ops = {
	.set = clock_param_set,
	.get = clock_param_get,
};

module_param_cb(clock, &clock_param_ops, NULL, 0444);
MODULE_PARM_DESC(clock, "timestamps: auto (the TSC where the kernel keeps time with a stable TSC, else mono), tsc (fail the load where it cannot), mono (ktime_get_mono_fast_ns) (default auto)");

unsigned int clkstat_epoch;
u64 clkstat_epoch_ns;
/* Orders the epoch's read-modify-write: two restarts never make one. */
static DEFINE_MUTEX(clkstat_epoch_lock);

/**
 * clkstat_epoch_restart() - begin a new epoch (clock.h)
 *
 * For a metric's start and reset (hist.c), and for a change under the
 * probes' feet that no interval may span: the clock leaving the TSC,
 * after which stamps are ns, not cycles.  Intervals pending then are
 * dropped as any that began before a start.  May sleep.
 */
void clkstat_epoch_restart(void)
{
	mutex_lock(&clkstat_epoch_lock);
	/*
	 * The start time before the number: an interval stamped after the
	 * time is never taken for one of the epoch before.
	 */
	WRITE_ONCE(clkstat_epoch_ns, clkstat_now());
	/* A hook that sees the new number sees the new time. */
	smp_wmb();
	WRITE_ONCE(clkstat_epoch, clkstat_epoch + 1);
	mutex_unlock(&clkstat_epoch_lock);
}

/* Written by the notifier only (under the timekeeper's lock). */
static struct clocksource *tsc_cs;
static bool tk_seen, tk_left;
static char tk_first_cs[CLKSTAT_EVENT_TEXT];
/* The clocksource the timekeeper left the TSC for, and when. */
static char tk_left_cs[CLKSTAT_EVENT_TEXT];
static u64 tk_last_ns, tk_left_ns;

/* The TSC was chosen at load (the notifier stays registered). */
static bool clock_registered;

/*
 * Leaving the TSC: when the watchdog marks the TSC unstable, or the
 * clocksource changes (a write to current_clocksource), the next update
 * of the timekeeper (at the latest the next tick) writes a readout with
 * mult 0, and clkstat_now() reads ktime_get_mono_fast_ns() from then on:
 * both are CLOCK_MONOTONIC, so an interval spanning the change is still
 * right.  This work item then switches the static key off for good
 * (clkstat stays on mono until reloaded), logs it, and the clock's
 * metadata says "mono (tsc until ...)".  No printk and no wakeup under
 * the timekeeper's lock: the notifier only queues an irq_work, which
 * queues this work.
 */
static void clock_left_work_fn(struct work_struct *w)
{
	static_branch_disable(&clkstat_clock_tsc);
	/* No interval with one end stamped in cycles, the other in ns. */
	clkstat_epoch_restart();
	pr_warn("clkstat: clock: the kernel left the TSC for clocksource %s at %llu ns: timestamps from ktime_get_mono_fast_ns() from now on\n",
		tk_left_cs, READ_ONCE(tk_left_ns));
}

static DECLARE_WORK(clock_left_work, clock_left_work_fn);

static void clock_left_irq_work_fn(struct irq_work *w)
{
	schedule_work(&clock_left_work);
}

static struct irq_work clock_left_irq_work;

static bool clock_is_tsc(const struct clocksource *cs)
{
	return !strcmp(cs->name, "tsc") && cs->mask == CLOCKSOURCE_MASK(64) &&
	       (cs->flags & CLOCK_SOURCE_IS_CONTINUOUS) &&
	       !(cs->flags & CLOCK_SOURCE_UNSTABLE);
}

/* The latch's write side: readers use the copy not being written. */
static void notrace clock_latch_write(const struct clkstat_tsc_base *b)
{
	struct clkstat_tsc_clock *c = &clkstat_tsc_clock;

	WRITE_ONCE(c->seq, c->seq + 1);
	smp_wmb();	/* readers on base[1] before base[0] changes */
	c->base[0] = *b;
	smp_wmb();	/* base[0] written before readers go back to it */
	WRITE_ONCE(c->seq, c->seq + 1);
	smp_wmb();	/* readers on base[0] before base[1] changes */
	c->base[1] = *b;
}

/* Under the timekeeper's lock, interrupts off: no printk, no wakeup. */
static int notrace clock_tk_update(struct notifier_block *nb,
				   unsigned long was_set, void *priv)
{
	const struct timekeeper *tk = priv;
	const struct tk_read_base *tkr = &tk->tkr_mono;
	struct clkstat_tsc_base b = {};

	if (!tk_seen) {
		tk_seen = true;
		strscpy(tk_first_cs, tkr->clock->name, sizeof(tk_first_cs));
		if (clock_is_tsc(tkr->clock))
			tsc_cs = tkr->clock;
		else
			tk_left = true;
	}
	if (tk_left)
		return NOTIFY_DONE;
	if (tkr->clock != tsc_cs || (tsc_cs->flags & CLOCK_SOURCE_UNSTABLE)) {
		strscpy(tk_left_cs, tkr->clock->name, sizeof(tk_left_cs));
		/* The last readout's time: the change is at most a tick later. */
		tk_left_ns = tk_last_ns;
		clock_latch_write(&b);		/* mult 0: mono */
		smp_wmb();			/* tk_left_* before tk_left */
		WRITE_ONCE(tk_left, true);
		irq_work_queue(&clock_left_irq_work);
		return NOTIFY_DONE;
	}
	b.cyc = tkr->cycle_last;
	b.ns = ktime_to_ns(tkr->base) + (tkr->xtime_nsec >> tkr->shift);
	b.mult = tkr->mult;
	b.shift = tkr->shift;
	tk_last_ns = b.ns;
	clock_latch_write(&b);
	WRITE_ONCE(clkstat_tsc_scale, (u64)b.shift << 32 | b.mult);
	return NOTIFY_DONE;
}

static struct notifier_block clock_tk_nb = {
	.notifier_call = clock_tk_update,
};

/**
 * clkstat_clock_init() - choose clkstat_now()'s clock (the clock parameter)
 *
 * Called at load before any probe is attached.  With clock=tsc, a kernel
 * that does not keep time with a stable TSC fails the load, the message
 * says which clocksource it runs on.
 *
 * Return: 0, or -EINVAL (clock=tsc without a stable TSC clocksource).
 */
int clkstat_clock_init(void)
{
	int ret;

	init_irq_work(&clock_left_irq_work, clock_left_irq_work_fn);
	if (clock_req == CLOCK_REQ_MONO) {
		pr_info("clkstat: clock: mono (clock=mono)\n");
		return 0;
	}
	ret = pvclock_gtod_register_notifier(&clock_tk_nb);
	if (ret) {
		pr_err("clkstat: clock: cannot follow the timekeeper (%d)\n", ret);
		return clock_req == CLOCK_REQ_TSC ? ret : 0;
	}
	/* The first call (at registration) has set tsc_cs or tk_left. */
	if (!tk_left && !check_tsc_unstable()) {
		clock_registered = true;
		static_branch_enable(&clkstat_clock_tsc);
		pr_info("clkstat: clock: tsc (clocksource tsc, timekeeper mult %u shift %u)\n",
			READ_ONCE(clkstat_tsc_clock.base[0].mult),
			READ_ONCE(clkstat_tsc_clock.base[0].shift));
		return 0;
	}
	pvclock_gtod_unregister_notifier(&clock_tk_nb);
	irq_work_sync(&clock_left_irq_work);
	cancel_work_sync(&clock_left_work);
	tk_seen = false;
	tk_left = false;
	tsc_cs = NULL;
	if (clock_req == CLOCK_REQ_TSC) {
		pr_err("clkstat: clock=tsc: the kernel keeps time with clocksource %s, not a stable TSC (boot with tsc=reliable where the TSC is sound, or use clock=auto)\n",
		       tk_first_cs);
		return -EINVAL;
	}
	pr_info("clkstat: clock: mono (clocksource %s is not a stable TSC)\n",
		tk_first_cs);
	return 0;
}

/**
 * clkstat_clock_exit() - stop following the timekeeper
 *
 * Called at unload after every probe is detached.
 */
void clkstat_clock_exit(void)
{
	if (!clock_registered)
		return;
	pvclock_gtod_unregister_notifier(&clock_tk_nb);
	irq_work_sync(&clock_left_irq_work);
	cancel_work_sync(&clock_left_work);
	static_branch_disable(&clkstat_clock_tsc);
	clock_registered = false;
	tk_seen = false;
	tk_left = false;
	tsc_cs = NULL;
}

/**
 * clkstat_clock_id() - the clock clkstat_now() reads now
 *
 * Return: CLKSTAT_CLOCK_TSC or CLKSTAT_CLOCK_MONO.
 */
enum clkstat_clock_id clkstat_clock_id(void)
{
	return clock_registered && !READ_ONCE(tk_left) ? CLKSTAT_CLOCK_TSC :
							 CLKSTAT_CLOCK_MONO;
}

/**
 * clkstat_clock_name() - the clock clkstat_now() reads now, by name
 *
 * Return: "tsc" or "mono".
 */
const char *clkstat_clock_name(void)
{
	return clkstat_clock_id() == CLKSTAT_CLOCK_TSC ? "tsc" : "mono";
}

/**
 * clkstat_clock_describe() - the clocks of this load, for the metadata
 * @buf: where to write, NUL-terminated
 * @len: its size
 *
 * "tsc", "mono", or once the kernel left the TSC
 * "mono (tsc until N ns, then clocksource NAME)": the first word is the
 * clock read now, N the CLOCK_MONOTONIC time of the last TSC readout.
 */
void clkstat_clock_describe(char *buf, size_t len)
{
	if (clock_registered && READ_ONCE(tk_left)) {
		smp_rmb();	/* tk_left before tk_left_* */
		snprintf(buf, len, "mono (tsc until %llu ns, then clocksource %s)",
			 tk_left_ns, tk_left_cs);
	} else {
		strscpy(buf, clkstat_clock_name(), len);
	}
}

/*
 * The check of clkstat_now() against ktime_get_ns() over a known sleep
 * (debugfs "clock": write "compare MS").  At each end, clkstat_now(), a
 * stamp (clkstat_stamp()), ktime_get_ns(), clkstat_now() back to back
 * with interrupts off: all read CLOCK_MONOTONIC, so ktime_get_ns() and
 * the stamp lie between the two clkstat_now() reads (to a ns of rounding;
 * the window is their difference; the narrowest of 5 tries is kept).
 * The intervals then differ by at most the larger window plus the
 * rounding at each end: clkstat_now()'s, and the probes' own, two stamps
 * converted as one interval by clkstat_stamp_ns().  The sleep is an
 * hrtimer's, which never ends before MS of CLOCK_MONOTONIC: msleep()
 * counts jiffies, which lag the clock while the tick is late (under TCG
 * on a busy host msleep(100) once lasted 99.58 ms of ktime).
 */
struct clock_cmp {
	u64 sleep_ms;
	u64 clk_ns, kt_ns;	/* the intervals, window midpoints for clk */
	u64 stamp_ns;		/* clkstat_stamp_ns() of the two stamps */
	u64 win0, win1;		/* the windows at start and end */
	s64 off0, off1;		/* ktime minus the window's first read */
	char clock[8];		/* the clock at the end of the sleep */
};

static DEFINE_MUTEX(clock_cmp_lock);
static struct clock_cmp clock_cmp_last;
static bool clock_cmp_done;

/* Of 5 tries, the narrowest window (the first may fault or be slow). */
static void clock_cmp_sample(u64 *a, u64 *s, u64 *k, u64 *b)
{
	unsigned long flags;
	u64 a1, s1, k1, b1;
	int i;

	*a = 0;
	*b = U64_MAX;
	for (i = 0; i < 5; i++) {
		local_irq_save(flags);
		a1 = clkstat_now();
		s1 = clkstat_stamp();
		k1 = ktime_get_ns();
		b1 = clkstat_now();
		local_irq_restore(flags);
		if (b1 - a1 < *b - *a) {
			*a = a1;
			*s = s1;
			*k = k1;
			*b = b1;
		}
	}
}

static void clock_cmp_run(struct clock_cmp *r, unsigned int ms)
{
	u64 a0, s0, k0, b0, a1, s1, k1, b1;

	clock_cmp_sample(&a0, &s0, &k0, &b0);
	usleep_range((unsigned long)ms * USEC_PER_MSEC,
		     (unsigned long)ms * USEC_PER_MSEC + USEC_PER_MSEC);
	clock_cmp_sample(&a1, &s1, &k1, &b1);
	r->sleep_ms = ms;
	r->clk_ns = (a1 + (b1 - a1) / 2) - (a0 + (b0 - a0) / 2);
	r->kt_ns = k1 - k0;
	/* 0 if the clock left the TSC meanwhile. */
	r->stamp_ns = clkstat_stamp_valid(s0) ? clkstat_stamp_ns(s0, s1) : 0;
	r->win0 = b0 - a0;
	r->win1 = b1 - a1;
	r->off0 = (s64)(k0 - a0);
	r->off1 = (s64)(k1 - a1);
	strscpy(r->clock, clkstat_clock_name(), sizeof(r->clock));
}

static int clock_show(struct seq_file *sf, void *unused)
{
	char desc[80];

	clkstat_clock_describe(desc, sizeof(desc));
	seq_printf(sf, "clock %s\n", desc);
	seq_printf(sf, "param %s\n", clock_req_names[clock_req]);
	if (clkstat_clock_id() == CLKSTAT_CLOCK_TSC)
		seq_printf(sf, "tsc_mult %u shift %u\n",
			   READ_ONCE(clkstat_tsc_clock.base[0].mult),
			   READ_ONCE(clkstat_tsc_clock.base[0].shift));
	mutex_lock(&clock_cmp_lock);
	if (clock_cmp_done) {
		const struct clock_cmp *r = &clock_cmp_last;

		seq_printf(sf, "compare sleep_ms %llu clock %s clkstat_ns %llu ktime_ns %llu diff_ns %lld stamp_ns %llu stamp_diff_ns %lld window_ns %llu %llu offset_ns %lld %lld\n",
			   r->sleep_ms, r->clock, r->clk_ns, r->kt_ns,
			   (s64)(r->clk_ns - r->kt_ns), r->stamp_ns,
			   (s64)(r->stamp_ns - r->kt_ns), r->win0, r->win1,
			   r->off0, r->off1);
	}
	mutex_unlock(&clock_cmp_lock);
	seq_puts(sf, "# write \"compare MS\" (1..10000): clkstat_now() and the probes' stamps against ktime_get_ns() over a sleep of MS ms (an hrtimer)\n");
	return 0;
}

static int clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, clock_show, NULL);
}

static ssize_t clock_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	struct clock_cmp r;
	unsigned int ms;
	char buf[32];

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "compare %u", &ms) != 1 || !ms || ms > 10000)
		return -EINVAL;
	clock_cmp_run(&r, ms);
	mutex_lock(&clock_cmp_lock);
	clock_cmp_last = r;
	clock_cmp_done = true;
	mutex_unlock(&clock_cmp_lock);
	return len;
}

static const struct file_operations clock_fops = {
	.owner = THIS_MODULE,
	.open = clock_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = clock_write,
};

/**
 * clkstat_clock_debugfs_init() - create debugfs "clock" in @dir
 * @dir: clkstat's debugfs directory
 *
 * The file (0600) says which clock, the parameter and the last
 * comparison; a write of "compare MS" runs one.  Removed with @dir.
 */
void clkstat_clock_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("clock", 0600, dir, NULL, &clock_fops);
}

/* Without the attribute its callers' registers would not survive it. */
#if !__has_attribute(__no_caller_saved_registers__)
#error "clkstat needs a compiler with no_caller_saved_registers (GCC 7, clang 5)"
#endif

/**
 * clkstat_mono_stamp_regs() - ktime_get_mono_fast_ns(), keeping registers
 *
 * Called from asm only (clock.h's clkstat_mono_stamp()): it saves and
 * restores every register it uses but %rax, its result, at a cost of
 * some pushes where the clock is not the TSC.  Any context.
 *
 * Return: ktime_get_mono_fast_ns(), called as a call out (reentry.h).
 */
u64 __no_caller_saved_registers notrace clkstat_mono_stamp_regs(void)
{
	return clkstat_outcall_mono_ns();
}
