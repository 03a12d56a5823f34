// SPDX-License-Identifier: GPL-2.0
/*
 * probe_tkread.c - timekeeping reads by tasks, and with the ttwu probe the
 * headline interval: from a task's wakeup to the first timekeeping read the
 * same task performs afterwards.
 *
 * Hooked (function entry; the tracepoint variant cannot run this probe,
 * the kernel has no tracepoint on timekeeping reads):
 *   __x64_sys_clock_gettime  the clock_gettime() syscall (not the vDSO,
 *                            which never enters the kernel)
 *   ktime_get, ktime_get_with_offset (real, boot and TAI ktime),
 *   ktime_get_raw, ktime_get_ts64, ktime_get_real_ts64,
 *   ktime_get_raw_ts64       the ktime_get family that reads the clocksource
 * Only reads in task context count: a read from an interrupt is not the
 * interrupted task's.
 *
 * Metrics: tkread (counters only: task-context reads per function); with
 * ttwu, ttwu_tkread (wakeup to first read) and its _migrated and _local
 * parts, enqueue_tkread (enqueue to the same read), ttwu_tkread_rqclock
 * and its parts (the runqueue clock's advance from the enqueue to the
 * read, rq_clock.c).  Counters on ttwu_tkread: migrated, no_enqueue,
 * stale, replaced, evicted, busy, switch_lost.  What each means, what is
 * not hooked and why the rq clock's interval starts at the enqueue:
 * Documentation/clkstat-probes.rst, "The tkread probe".
 */
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include "control_lang.h"
#include "direct_tramp.h"
#include "pending.h"
#include "evlog.h"
#include "hist.h"
#include "probe_clockoff.h"
#include "probe_tkread.h"
#include "probes.h"
#include "rq_clock.h"
#include "uapi/clkstat_catalog.h"
#include "test_exports.h"

/* tkread's counters: one per hooked function, named after it. */
static const char *const tk_func_names[CLKSTAT_TK_NFUNCS] = {
	CLKSTAT_TK_FUNCS(CLKSTAT_CAT_NAME)
};

static const char *const tkw_counter_names[CLKSTAT_TKW_NCOUNTERS] = {
	CLKSTAT_TKW_COUNTERS(CLKSTAT_CAT_NAME)
};

static struct clkstat_metric *tk_reads, *tkw_all;
static struct clkstat_metric *tkw_migrated, *tkw_local, *tkw_enqueue;
static struct clkstat_metric *tkw_rq, *tkw_rq_migrated, *tkw_rq_local;
static bool tk_with_ttwu;

/* Published while ttwu feeds wakeups in (both probes enabled). */
struct clkstat_metric *clkstat_ttwu_tkread;
CLKSTAT_EXPORT_FOR_TESTS(clkstat_ttwu_tkread);

/* The event log's record, out of line as ttwu's (probe_ttwu.c). */
static noinline void notrace tkw_log_read(struct task_struct *p, u64 st,
					  u64 id, u64 delta, u64 rqc,
					  bool migrated)
{
	struct clkstat_event_rec ev = {
		.type = CLKSTAT_EV_FIRST_TKREAD, .ts = clkstat_stamp_to_ns(st),
		.corr = id,
		.pid = task_pid_nr(p), .latency = delta, .rq_clock = rqc,
		.flags = CLKSTAT_EVF_LATENCY |
			 (migrated ? CLKSTAT_EVF_MIGRATED : CLKSTAT_EVF_LOCAL) |
			 (rqc ? CLKSTAT_EVF_RQ_CLOCK : 0),
	};

	clkstat_evlog_add(&ev, NULL);
}

/* A read's rare outcomes, out of line: the fast path stays a leaf. */
static noinline void notrace tkw_count(unsigned int idx)
{
	clkstat_count(clkstat_ttwu_tkread, idx);
}

/*
 * current performed a timekeeping read: close tkread's part of its
 * wakeup's entry in the wake table (which probe ttwu's handlers opened
 * at the wakeup and completed at the enqueue), with one claim of the
 * entry.  The caller has preemption off (tk_read_stamped()).  @st: the
 * read's stamp; @rqc: this CPU's rq clock, read just before it.
 */
static __always_inline void tkw_first_read(struct task_struct *p, u64 st,
					   u64 rqc)
{
	struct clkstat_wake_entry *e;
	u64 ts, ts2, id, rq0, delta, adv, scale;
	unsigned int epoch;
	bool busy, migrated;
	long open;

	e = clkstat_wake_slot(&clkstat_wake_pending, p);
	open = clkstat_wake_claim_task(e, p, CLKSTAT_PART_TKREAD, &busy);
	if (!open) {
		if (unlikely(busy))
			tkw_count(CLKSTAT_TKW_BUSY);
		return;
	}
	ts = e->ts;
	ts2 = e->ts2;
	id = e->id;
	rq0 = e->rq_clock;
	migrated = e->migrated;
	epoch = e->epoch;
	clkstat_wake_release(e, p, open & ~CLKSTAT_PART_TKREAD);
	/* ts2, if any, is later than ts: valid if ts is. */
	if (unlikely(epoch != clkstat_current_epoch() ||
		     !clkstat_stamp_valid(ts))) {
		tkw_count(CLKSTAT_TKW_STALE);
		return;
	}
	scale = clkstat_stamp_scale();
	delta = clkstat_stamp_ns_at(ts, st, scale);
	/*
	 * Totals of their migrated and local parts: see tkread_bind().  The
	 * migrated counter counts what its part took.
	 */
	if (!migrated)
		__clkstat_record(tkw_local, delta);
	else if (__clkstat_record(tkw_migrated, delta))
		__clkstat_count(clkstat_ttwu_tkread, CLKSTAT_TKW_MIGRATED);
	if (clkstat_rq_advance(rq0, rqc, &adv))
		__clkstat_record(migrated ? tkw_rq_migrated : tkw_rq_local,
				 adv);
	if (unlikely(id))
		tkw_log_read(p, st, id, delta, rqc, migrated);
	if (ts2)
		__clkstat_record(tkw_enqueue,
				 clkstat_stamp_ns_at(ts2, st, scale));
	else
		__clkstat_count(clkstat_ttwu_tkread, CLKSTAT_TKW_NO_ENQUEUE);
}

/*
 * A read's stamp, and with tkread's pairs (@tk) the rq clock of this CPU
 * read just before it (rq_clock.c), with preemption off from one to the
 * other and through the pair's records: the hooks at ktime_get*()'s entry
 * may run preemptible (the direct variant).  Before the stamp, not after:
 * an interrupt between the two whose tick brings rq->clock forward (or a
 * preemption, or a vCPU the host stops) would give the read a clock later
 * than its time, an advance longer than the wakeup-to-read interval it
 * lies in.  Read first, the clock is at most the stamp's time.
 * @clockoff: probe clockoff samples, and the stamp is its offset's too.
 */
static __always_inline void tk_read_stamped(struct task_struct *p, bool tk,
					    bool clockoff)
{
	u64 st, rqc = 0;

	preempt_disable_notrace();
	if (tk)
		rqc = clkstat_rq_clock_this_cpu();
	st = clkstat_stamp();
	if (clockoff)
		clkstat_clockoff_stamp(st);
	if (tk)
		tkw_first_read(p, st, rqc);
	preempt_enable_notrace();
}

/* A read while probe clockoff samples, out of line: the rare case. */
static noinline void notrace tk_read_clockoff(struct task_struct *p, bool tk)
{
	tk_read_stamped(p, tk, true);
}

static void notrace tk_read(unsigned int func)
{
	struct task_struct *p = current;
	bool tk;

	if (!clkstat_hooked_in_task() || !clkstat_task_selected(p))
		return;
	clkstat_count(tk_reads, func);	/* counts only while recording */
	tk = clkstat_tkread_wants();
	if (unlikely(READ_ONCE(clkstat_clockoff)))
		tk_read_clockoff(p, tk);
	else if (tk)
		tk_read_stamped(p, true, false);
}

/*
 * The direct variant's trampolines, one per function, each saving the
 * argument registers its function has: a function added to
 * CLKSTAT_TK_FUNCS without its count here fails the build.
 */
#define TK_NARGS___x64_sys_clock_gettime	1	/* the syscall's pt_regs */
#define TK_NARGS_ktime_get			0
#define TK_NARGS_ktime_get_with_offset		1
#define TK_NARGS_ktime_get_raw			0
#define TK_NARGS_ktime_get_ts64			1
#define TK_NARGS_ktime_get_real_ts64		1
#define TK_NARGS_ktime_get_raw_ts64		1

/*
 * One handler per hooked function: its counter is its index.  Its direct
 * trampoline between its declaration and its definition (an X-macro
 * entry must not end with a semicolon).
 */
#define TK_HANDLER(id, fn)						\
static void notrace tk_on_##fn(unsigned long a0, unsigned long a1,	\
			       unsigned long a2);			\
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_tk_##fn, tk_on_##fn,		\
		     TK_NARGS_##fn);					\
static void notrace tk_on_##fn(unsigned long a0, unsigned long a1,	\
			       unsigned long a2)			\
{									\
	tk_read(CLKSTAT_TK_##id);					\
}
CLKSTAT_TK_FUNCS(TK_HANDLER)

#define TK_HOOK(id, fn)							\
	[CLKSTAT_TK_##id] = { .handler = tk_on_##fn,			\
		.direct_tramp =						\
		CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_tk_##fn) },
static struct clkstat_hook tk_hooks[CLKSTAT_TK_NFUNCS] = {
	CLKSTAT_TK_FUNCS(TK_HOOK)
};

static void tkread_exit(void)
{
	WRITE_ONCE(clkstat_ttwu_tkread, NULL);
	tkw_all = tkw_enqueue = tkw_local = tkw_migrated = tk_reads = NULL;
	tkw_rq = tkw_rq_migrated = tkw_rq_local = NULL;
	/* Totals before their parts (&clkstat_metric.parts). */
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_TKREAD_RQCLOCK));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_TKREAD_RQCLOCK_LOCAL));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_TKREAD_RQCLOCK_MIGRATED));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(ENQUEUE_TKREAD));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_TKREAD));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_TKREAD_LOCAL));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_TKREAD_MIGRATED));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TKREAD));
}

static int tkread_bind(const char *variant,
		       const struct clkstat_handover *h)
{
	struct clkstat_metric *reads, *all = NULL, *mig = NULL, *loc = NULL;
	struct clkstat_metric *enq = NULL, *rq = NULL, *rqm = NULL, *rql = NULL;
	unsigned long lost;
	int ret;

	reads = clkstat_metric_get(CLKSTAT_MNAME(TKREAD), variant,
				   tk_func_names, CLKSTAT_TK_NFUNCS);
	ret = PTR_ERR_OR_ZERO(reads);
	if (ret || !tk_with_ttwu)
		goto out;
	all = clkstat_metric_get(CLKSTAT_MNAME(TTWU_TKREAD), variant,
				 tkw_counter_names, CLKSTAT_TKW_NCOUNTERS);
	mig = clkstat_metric_get(CLKSTAT_MNAME(TTWU_TKREAD_MIGRATED), variant,
				 NULL, 0);
	loc = clkstat_metric_get(CLKSTAT_MNAME(TTWU_TKREAD_LOCAL), variant, NULL, 0);
	enq = clkstat_metric_get(CLKSTAT_MNAME(ENQUEUE_TKREAD), variant, NULL, 0);
	rq = clkstat_metric_get(CLKSTAT_MNAME(TTWU_TKREAD_RQCLOCK), variant, NULL,
				0);
	rqm = clkstat_metric_get(CLKSTAT_MNAME(TTWU_TKREAD_RQCLOCK_MIGRATED),
				 variant, NULL, 0);
	rql = clkstat_metric_get(CLKSTAT_MNAME(TTWU_TKREAD_RQCLOCK_LOCAL),
				 variant, NULL, 0);
	/* What did get created stays registered until exit. */
	ret = PTR_ERR_OR_ZERO(all) ?: PTR_ERR_OR_ZERO(mig) ?:
	      PTR_ERR_OR_ZERO(loc) ?: PTR_ERR_OR_ZERO(enq) ?:
	      PTR_ERR_OR_ZERO(rq) ?: PTR_ERR_OR_ZERO(rqm) ?:
	      PTR_ERR_OR_ZERO(rql);
	if (ret)
		return ret;
	/* As in ttwu_bind(). */
	lost = clkstat_handover_recorded(h, tkw_all) ?
	       clkstat_wake_open(&clkstat_wake_pending, clkstat_current_epoch(),
				 CLKSTAT_PART_TKREAD) : 0;
	if (lost)
		clkstat_metric_add_counter(all, CLKSTAT_TKW_SWITCH_LOST, lost);
	/* Each pair is recorded once, into its part; readers add up. */
	clkstat_metric_set_parts(all, mig, loc);
	clkstat_metric_set_parts(rq, rqm, rql);
out:
	if (ret)
		return ret;
	tk_reads = reads;
	tkw_all = all;
	tkw_migrated = mig;
	tkw_local = loc;
	tkw_enqueue = enq;
	tkw_rq = rq;
	tkw_rq_migrated = rqm;
	tkw_rq_local = rql;
	/* ttwu's handlers look at it; no hook is attached now. */
	WRITE_ONCE(clkstat_ttwu_tkread, all);
	return 0;
}

static int tkread_init(const struct clkstat_probe_cfg *cfg)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < CLKSTAT_TK_NFUNCS; i++)
		tk_hooks[i].func = tk_func_names[i];
	/* With ttwu, its wake table holds tkread's part of each wakeup. */
	tk_with_ttwu = cfg->with_ttwu;
	ret = tkread_bind(cfg->variant->name, NULL);
	if (ret)
		tkread_exit();
	return ret;
}

struct clkstat_probe clkstat_probe_tkread = {
	.name = "tkread",
	.init = tkread_init,
	.bind = tkread_bind,
	.exit = tkread_exit,
	.hooks = tk_hooks,
	.nhooks = CLKSTAT_TK_NFUNCS,
};
CLKSTAT_EXPORT_FOR_TESTS(clkstat_probe_tkread);
