// SPDX-License-Identifier: GPL-2.0
/*
 * probe_ttwu.c - wakeup to enqueue: from entry of try_to_wake_up(p) to entry
 * of ttwu_do_activate() for the same task, which puts it on the target
 * CPU's runqueue, possibly on another CPU after a trip through the wakelist.
 * From 6.12 on the end is the entry of enqueue_task() for a wakeup, which
 * delayed dequeue's re-enqueue reaches too (kmod/compat.h).
 *
 * In the tracepoint variant the two ends are sched_waking (in
 * try_to_wake_up() once the state matched) and sched_wakeup (in
 * ttwu_do_wakeup(), right after the enqueue, but also where a wakeup
 * found the task still queued and nothing was enqueued): a slightly
 * different interval, which is why the variant is part of the metric.
 *
 * Metrics: ttwu_enqueue (every matched wakeup), ttwu_enqueue_migrated
 * (the task lands on a CPU other than the one it was on when the wakeup
 * began: the WF_MIGRATED case) and ttwu_enqueue_local.  Counters, on
 * ttwu_enqueue: wakeups, migrated, unmatched, replaced, evicted, busy,
 * switch_lost.  What each counts: Documentation/clkstat-probes.rst, "The ttwu
 * probe".
 */
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include "btf_func.h"
#include "compat.h"
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

static const char *const ttwu_counter_names[CLKSTAT_TTWU_NCOUNTERS] = {
	CLKSTAT_TTWU_COUNTERS(CLKSTAT_CAT_NAME)
};

static struct clkstat_metric *ttwu_all, *ttwu_migrated, *ttwu_local;

/*
 * The event log's records, out of line: the handlers' own frames stay
 * free of the record (and of the stack protector's check it brings).
 */
static noinline void notrace ttwu_log_wakeup(struct task_struct *p, u64 st,
					     u64 id, u64 rqc)
{
	struct clkstat_event_rec ev = {
		.type = CLKSTAT_EV_WAKEUP, .ts = clkstat_stamp_to_ns(st),
		.corr = id,
		.pid = task_pid_nr(p), .rq_clock = rqc,
		.flags = rqc ? CLKSTAT_EVF_RQ_CLOCK : 0,
	};

	clkstat_evlog_add(&ev, NULL);
}

static noinline void notrace ttwu_log_enqueue(struct task_struct *p, u64 st,
					      u64 id, u64 delta, u64 rqc,
					      bool migrated)
{
	struct clkstat_event_rec ev = {
		.type = CLKSTAT_EV_ENQUEUE, .ts = clkstat_stamp_to_ns(st),
		.corr = id,
		.pid = task_pid_nr(p), .latency = delta, .rq_clock = rqc,
		.flags = CLKSTAT_EVF_LATENCY |
			 (migrated ? CLKSTAT_EVF_MIGRATED : CLKSTAT_EVF_LOCAL) |
			 (rqc ? CLKSTAT_EVF_RQ_CLOCK : 0),
	};

	clkstat_evlog_add(&ev, NULL);
}

/*
 * What a wakeup that claimed its entry found there: parts of the same
 * task's or another task's wakeup of the same epoch still open, lost now
 * (replaced, evicted), counted for each probe whose part this wakeup
 * opens.  A counter counts only while its metric records.
 */
static noinline void notrace ttwu_count_lost(long old,
					     const struct task_struct *p,
					     long lost, long opens)
{
	bool same = (old & ~CLKSTAT_PARTS) == (long)p;

	lost &= opens;
	if (lost & CLKSTAT_PART_TTWU)
		clkstat_count(ttwu_all, same ? CLKSTAT_TTWU_REPLACED :
					       CLKSTAT_TTWU_EVICTED);
	if (lost & CLKSTAT_PART_TKREAD)
		clkstat_count(clkstat_ttwu_tkread, same ? CLKSTAT_TKW_REPLACED :
							  CLKSTAT_TKW_EVICTED);
}

/* A wakeup found its entry held by another CPU: dropped. */
static noinline void notrace ttwu_wakeup_busy(bool rec, bool tk)
{
	if (rec)
		clkstat_count(ttwu_all, CLKSTAT_TTWU_BUSY);
	if (tk)
		clkstat_count(clkstat_ttwu_tkread, CLKSTAT_TKW_BUSY);
}

/*
 * A wakeup's work once its stamp is taken and its event log id known (0:
 * none): open ttwu's part of p's entry, and tkread's while it wants
 * wakeups, with one claim of the entry.  Inlined in each fast path (no
 * event log, no clock offset: no call but tail calls on rare outcomes, so
 * the handler saves no registers) and in the slow one.
 */
static __always_inline void __ttwu_wakeup(struct task_struct *p, u64 st,
					  u64 id, bool rec, bool tk)
{
	struct clkstat_wake_entry *e;
	unsigned int epoch;
	long old, opens;
	u64 rqc = 0;

	/* The task's CPU at the wakeup: where it slept, or is still queued. */
	if (tk || id)
		rqc = clkstat_rq_clock_cpu(task_cpu(p));
	if (rec) {
		__clkstat_count(ttwu_all, CLKSTAT_TTWU_WAKEUPS);
		if (id)
			ttwu_log_wakeup(p, st, id, rqc);
	}
	opens = (rec ? CLKSTAT_PART_TTWU : 0) | (tk ? CLKSTAT_PART_TKREAD : 0);
	epoch = clkstat_current_epoch();
	e = clkstat_wake_slot(&clkstat_wake_pending, p);
	old = clkstat_wake_claim(e);
	if (unlikely(old == CLKSTAT_WAKE_LOCKED)) {
		ttwu_wakeup_busy(rec, tk);
		return;
	}
	/* Parts of another epoch could not be matched: nothing is lost. */
	if (e->epoch != epoch)
		old = CLKSTAT_WAKE_FREE;
	e->ts = st;
	e->id = id;
	e->epoch = epoch;
	e->cpu = task_cpu(p);
	/* Only tkread's part reads these. */
	if (tk) {
		e->ts2 = 0;
		e->rq_clock = rqc;
		e->migrated = false;
	}
	clkstat_wake_release(e, p, opens);
	if (unlikely(old & CLKSTAT_PARTS))
		ttwu_count_lost(old, p, old & CLKSTAT_PARTS, opens);
}

/* The slow path: the clock offset's sample, the event log's id. */
static noinline void notrace ttwu_wakeup_extras(struct task_struct *p, u64 st,
						bool rec, bool tk)
{
	clkstat_clockoff_stamp(st);
	__ttwu_wakeup(p, st, clkstat_evlog_on() ? clkstat_evlog_new_id() : 0,
		      rec, tk);
}

/*
 * The fast paths, one per case of (ttwu records, tkread wants): constant
 * flags let the compiler drop what a case does not do, and out of line
 * each is a leaf of its own, whose few registers need no saving.
 */
static noinline void notrace ttwu_wakeup_rec_tk(struct task_struct *p, u64 st)
{
	__ttwu_wakeup(p, st, 0, true, true);
}

static noinline void notrace ttwu_wakeup_rec(struct task_struct *p, u64 st)
{
	__ttwu_wakeup(p, st, 0, true, false);
}

static noinline void notrace ttwu_wakeup_tk(struct task_struct *p, u64 st)
{
	__ttwu_wakeup(p, st, 0, false, true);
}

/*
 * A wakeup of p begins.  Records nothing, so it needs no preemption off
 * (the variants at try_to_wake_up()'s entry may run it preemptible):
 * every counter update is one this_cpu instruction.
 */
static void notrace ttwu_wakeup(struct task_struct *p)
{
	bool rec = clkstat_metric_recording(ttwu_all);
	bool tk = clkstat_tkread_wants();
	u64 st;

	if (!(rec || tk) || !clkstat_task_selected(p))
		return;
	st = clkstat_stamp();
	if (unlikely(clkstat_evlog_on() || READ_ONCE(clkstat_clockoff))) {
		ttwu_wakeup_extras(p, st, rec, tk);
		return;
	}
	if (rec && tk)
		ttwu_wakeup_rec_tk(p, st);
	else if (rec)
		ttwu_wakeup_rec(p, st);
	else
		ttwu_wakeup_tk(p, st);
}

/* try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags) */
static void notrace ttwu_on_wakeup(unsigned long task, unsigned long state,
				   unsigned long wake_flags)
{
	struct task_struct *p = (struct task_struct *)task;

	/*
	 * The same test as ttwu_state_match(): a call that will not wake the
	 * task must not overwrite the pending wakeup of a call that did.
	 */
	if (READ_ONCE(p->__state) & (unsigned int)state)
		ttwu_wakeup(p);
}

/* sched_waking(struct task_struct *p): fires only once the state matched. */
static void notrace ttwu_tp_waking(unsigned long task, unsigned long unused1,
				   unsigned long unused2)
{
	ttwu_wakeup((struct task_struct *)task);
}

/* An enqueue's rare outcomes, out of line: the fast path stays a leaf. */
static noinline void notrace ttwu_count(unsigned int idx)
{
	clkstat_count(ttwu_all, idx);
}

/*
 * p is on its target CPU's runqueue: close ttwu's part of its pending
 * wakeup, and give tkread's part (if it wants it) the enqueue's time, rq
 * clock and migrated flag, with one claim of p's entry.  rq: that
 * runqueue, NULL when the hook has none (the tracepoint).  Its clock is
 * read only when something keeps it (tkread, or the event log while ttwu
 * records): an enqueue that keeps nothing pays nothing for it.
 *
 * Every variant runs this with the runqueue's lock held (the enqueue
 * hook, sched_wakeup), preemption and interrupts off: the records need
 * no preempt_disable() of their own.
 */
static __always_inline void __ttwu_enqueued(struct task_struct *p,
					    const void *rq, const void *learnt,
					    bool rec, bool tk, bool slow)
{
	struct clkstat_wake_entry *e;
	u64 st, ts, id, delta, rqc = 0;
	bool busy, migrated;
	unsigned int epoch;
	long open;
	int cpu;

	/*
	 * The fast path got the rq learnt for p's CPU (NULL: rq clock off
	 * or none), which rq (if any) is: it reads that one.
	 */
	if (slow && (tk || (rec && clkstat_evlog_on())))
		rqc = rq ? clkstat_rq_clock_enqueue(rq, task_cpu(p)) :
			   clkstat_rq_clock_cpu(task_cpu(p));
	else if (tk && learnt)
		rqc = clkstat_rq_read_clock(learnt);
	e = clkstat_wake_slot(&clkstat_wake_pending, p);
	open = clkstat_wake_claim_task(e, p,
					  (rec ? CLKSTAT_PART_TTWU : 0) |
					  (tk ? CLKSTAT_PART_TKREAD : 0), &busy);
	if (unlikely(!open)) {
		if (rec)
			ttwu_count(busy ? CLKSTAT_TTWU_BUSY :
					  CLKSTAT_TTWU_UNMATCHED);
		return;
	}
	st = clkstat_stamp();
	/* tkread's pair now has two parts: see probe_tkread.c. */
	if (tk && (open & CLKSTAT_PART_TKREAD)) {
		e->ts2 = st;
		e->rq_clock = rqc;
		e->migrated = task_cpu(p) != e->cpu;
	}
	if (unlikely(!rec || !(open & CLKSTAT_PART_TTWU))) {
		clkstat_wake_release(e, p, open);
		if (rec)
			ttwu_count(CLKSTAT_TTWU_UNMATCHED);
		return;
	}
	ts = e->ts;
	id = e->id;
	cpu = e->cpu;
	epoch = e->epoch;
	clkstat_wake_release(e, p, open & ~CLKSTAT_PART_TTWU);
	if (unlikely(epoch != clkstat_current_epoch() ||
		     !clkstat_stamp_valid(ts))) {
		ttwu_count(CLKSTAT_TTWU_UNMATCHED);
		return;
	}
	delta = clkstat_stamp_ns(ts, st);
	/* set_task_cpu() has already moved p to the target CPU. */
	migrated = task_cpu(p) != cpu;
	/*
	 * ttwu_all is the total of these two (clkstat_metric_set_parts()):
	 * its migrated counter counts what its part took.
	 */
	if (!migrated)
		__clkstat_record(ttwu_local, delta);
	else if (__clkstat_record(ttwu_migrated, delta))
		__clkstat_count(ttwu_all, CLKSTAT_TTWU_MIGRATED);
	if (slow && id)
		ttwu_log_enqueue(p, st, id, delta, rqc, migrated);
}

/* With the event log on, or an rq not learnt yet: calls allowed. */
static noinline void notrace ttwu_enqueued_slow(struct task_struct *p,
						const void *rq, bool rec,
						bool tk)
{
	__ttwu_enqueued(p, rq, NULL, rec, tk, true);
}

/* The fast paths, as the wakeup's (ttwu_wakeup_rec_tk()). */
static noinline void notrace ttwu_enqueued_rec_tk(struct task_struct *p,
						  const void *learnt)
{
	__ttwu_enqueued(p, NULL, learnt, true, true, false);
}

static noinline void notrace ttwu_enqueued_rec(struct task_struct *p)
{
	__ttwu_enqueued(p, NULL, NULL, true, false, false);
}

static noinline void notrace ttwu_enqueued_tk(struct task_struct *p,
					      const void *learnt)
{
	__ttwu_enqueued(p, NULL, learnt, false, true, false);
}

static void notrace ttwu_enqueued(struct task_struct *p, const void *rq)
{
	const void *learnt = NULL;
	bool rec, tk, new = false;

	/*
	 * Checked here too, not only at the wakeup: a filter set between a
	 * wakeup and its enqueue keeps the wakeups of the tasks it leaves out.
	 */
	if (!clkstat_task_selected(p))
		return;
	rec = clkstat_metric_recording(ttwu_all);
	tk = clkstat_tkread_wants();
	if (!rec && !tk)
		return;
	if (tk)
		learnt = clkstat_rq_clock_peek(rq, task_cpu(p), &new);
	/* An id is logged by the wakeup only with the event log on. */
	if (unlikely(clkstat_evlog_on() || new)) {
		ttwu_enqueued_slow(p, rq, rec, tk);
		return;
	}
	if (rec && tk)
		ttwu_enqueued_rec_tk(p, learnt);
	else if (rec)
		ttwu_enqueued_rec(p);
	else
		ttwu_enqueued_tk(p, learnt);
}

/*
 * ttwu_do_activate(struct rq *rq, struct task_struct *p, int wake_flags, ...)
 * before 6.12, enqueue_task(struct rq *rq, struct task_struct *p, int flags)
 * from 6.12 on, where only a wakeup's enqueue counts (compat.h).  A wakeup
 * enqueue that keeps its rq clock teaches rq_clock.c the rq of p's CPU:
 * the rq clock of a CPU is known once such an enqueue happened there.
 * The caller holds rq's lock and has updated rq->clock for this enqueue.
 */
static void notrace ttwu_on_activate(unsigned long rq, unsigned long task,
				     unsigned long flags)
{
	struct task_struct *p = (struct task_struct *)task;

	if (clkstat_wakeup_enqueue(p, flags))
		ttwu_enqueued(p, (const void *)rq);
}

/*
 * sched_wakeup(struct task_struct *p), in ttwu_do_wakeup() under the rq's
 * lock: no rq argument, the rq is the learnt one of p's CPU (if any).
 */
static void notrace ttwu_tp_wakeup(unsigned long task, unsigned long unused1,
				   unsigned long unused2)
{
	ttwu_enqueued((struct task_struct *)task, NULL);
}

/* The direct variant's trampolines: try_to_wake_up() has 3 arguments. */
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_ttwu_on_wakeup, ttwu_on_wakeup, 3);
CLKSTAT_DIRECT_TRAMP(clkstat_direct_tramp_ttwu_on_activate, ttwu_on_activate,
		     CLKSTAT_ENQUEUE_NARGS);

static struct clkstat_hook ttwu_hooks[] = {
	{ .func = CLKSTAT_FUNC_TTWU, .handler = ttwu_on_wakeup,
	  .direct_tramp =
		CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_ttwu_on_wakeup),
	  .tracepoint = CLKSTAT_TP_TTWU, .tp_handler = ttwu_tp_waking },
	{ .func = CLKSTAT_ENQUEUE_FUNC, .handler = ttwu_on_activate,
	  .direct_tramp =
		CLKSTAT_DIRECT_TRAMP_ADDR(clkstat_direct_tramp_ttwu_on_activate),
	  .tracepoint = CLKSTAT_TP_ENQUEUE, .tp_handler = ttwu_tp_wakeup },
};

static void ttwu_exit(void)
{
	ttwu_local = ttwu_migrated = ttwu_all = NULL;
	/* The total before its parts (&clkstat_metric.parts). */
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_ENQUEUE));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_ENQUEUE_LOCAL));
	clkstat_metric_destroy_name(CLKSTAT_MNAME(TTWU_ENQUEUE_MIGRATED));
	clkstat_wake_free(&clkstat_wake_pending);
}

static int ttwu_bind(const char *variant,
		     const struct clkstat_handover *h)
{
	struct clkstat_metric *all, *mig, *loc;
	unsigned long lost;
	int ret;

	all = clkstat_metric_get(CLKSTAT_MNAME(TTWU_ENQUEUE), variant,
				 ttwu_counter_names, CLKSTAT_TTWU_NCOUNTERS);
	mig = clkstat_metric_get(CLKSTAT_MNAME(TTWU_ENQUEUE_MIGRATED), variant,
				 NULL, 0);
	loc = clkstat_metric_get(CLKSTAT_MNAME(TTWU_ENQUEUE_LOCAL), variant,
				 NULL, 0);
	/* What did get created stays registered until exit. */
	ret = PTR_ERR_OR_ZERO(all) ?: PTR_ERR_OR_ZERO(mig) ?:
	      PTR_ERR_OR_ZERO(loc);
	if (ret)
		return ret;
	/*
	 * Wakeups pending when the old variant stopped recording are lost:
	 * their enqueue will belong to the new variant's epoch.  Nothing is
	 * lost if it was not recording (and at load there is no old one).
	 */
	lost = clkstat_handover_recorded(h, ttwu_all) ?
	       clkstat_wake_open(&clkstat_wake_pending, clkstat_current_epoch(),
				 CLKSTAT_PART_TTWU) : 0;
	if (lost)
		clkstat_metric_add_counter(all, CLKSTAT_TTWU_SWITCH_LOST, lost);
	clkstat_metric_set_parts(all, mig, loc);
	ttwu_all = all;
	ttwu_migrated = mig;
	ttwu_local = loc;
	return 0;
}

/*
 * The two functions' prototypes as the handlers (and the direct
 * trampolines' argument counts) assume them, checked against the running
 * kernel's BTF: a kernel that changed one would have the handlers read
 * something else as the woken task, or the trampoline clobber an
 * argument.  Without BTF the check cannot run; clkstat then goes by the
 * kernel version it was built for (compat.h) and says so.
 */
static int ttwu_check_protos(void)
{
	static const char *const names[] = { CLKSTAT_FUNC_TTWU,
					     CLKSTAT_ENQUEUE_FUNC };
	static const unsigned int nargs[] = { 3, CLKSTAT_ENQUEUE_NARGS };
	static const unsigned int task[] = { 0, 1 };	/* where p is */
	struct clkstat_btf_proto p[ARRAY_SIZE(names)];
	unsigned int i;
	int ret;

	ret = clkstat_btf_vmlinux_protos(names, ARRAY_SIZE(names), p);
	if (ret == -ENODATA) {
		pr_info("clkstat: probe ttwu: the kernel has no BTF, the arguments of %s() and %s() are not checked\n",
			names[0], names[1]);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(names) && ret == -ENOENT; i++)
		if (!p[i].nfuncs) {
			/* Inlined, or no BTF FUNC: the attach says more. */
			pr_info("clkstat: probe ttwu: no BTF for %s(), its arguments are not checked\n",
				names[i]);
			return 0;
		}
	if (ret) {
		pr_err("clkstat: probe ttwu: cannot read the kernel's BTF: %d\n",
		       ret);
		return ret;
	}
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (p[i].arg_regs <= nargs[i] && !p[i].stack_args &&
		    !p[i].varargs && (p[i].task_args & BIT(task[i])))
			continue;
		pr_err("clkstat: probe ttwu: %s() on this kernel takes %u argument registers%s, and argument %u %s a task; clkstat expects at most %u, with the task as argument %u\n",
		       names[i], p[i].arg_regs,
		       p[i].stack_args || p[i].varargs ? " and the stack" : "",
		       task[i] + 1,
		       p[i].task_args & BIT(task[i]) ? "is" : "is not",
		       nargs[i], task[i] + 1);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int ttwu_init(const struct clkstat_probe_cfg *cfg)
{
	int ret;

	ret = ttwu_check_protos();
	if (ret)
		return ret;
	ret = clkstat_wake_init(&clkstat_wake_pending, cfg->pending_entries);
	if (!ret)
		ret = ttwu_bind(cfg->variant->name, NULL);
	if (ret)
		ttwu_exit();
	return ret;
}

struct clkstat_probe clkstat_probe_ttwu = {
	.name = "ttwu",
	.init = ttwu_init,
	.bind = ttwu_bind,
	.exit = ttwu_exit,
	.hooks = ttwu_hooks,
	.nhooks = ARRAY_SIZE(ttwu_hooks),
};
CLKSTAT_EXPORT_FOR_TESTS(clkstat_probe_ttwu);
