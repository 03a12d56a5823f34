// SPDX-License-Identifier: GPL-2.0
/*
 * bench_handlers.c - the handler benchmark: what probes ttwu and tkread
 * cost per event, measured on their real handlers, called in the order
 * the kernel calls them, on the current task:
 *
 *   pair    the wakeup hook's handler, then the enqueue hook's: one
 *           ttwu_enqueue sample, as the default probes (ttwu alone) do
 *   triple  the pair, then the first read's handler (ktime_get()'s entry
 *           hook of tkread): one ttwu_tkread sample more
 *   pair0, triple0  the same calls, the same way, to empty handlers: the
 *           loop and the calls, which the figures above include
 *
 * The handlers are called through pointers, as a dispatcher does, with
 * the task made to look asleep for the wakeup's state test and the
 * runqueue the probe learnt for the enqueue, the probes held and the task
 * filter narrowed to the bench's thread group meanwhile.  How, and why:
 * Documentation/clkstat-overhead.rst, "The handler modes".
 */
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include "bench_handlers.h"
#include "compat.h"
#include "control_lang.h"
#include "hist.h"
#include "hook.h"
#include "probe_tkread.h"
#include "probes.h"
#include "rq_clock.h"
#include "uapi/clkstat_catalog.h"

#define HBENCH_CHUNK	1000	/* iterations between two reschedule points */

static void notrace hbench_empty(unsigned long a0, unsigned long a1,
				 unsigned long a2)
{
}

/* Samples a metric got since its last reset, all CPUs; 0 without it. */
static u64 hbench_count(const char *name, const char *variant)
{
	struct clkstat_snapshot s;
	struct clkstat_summary sum;
	struct clkstat_metric *m;
	u64 n = 0;

	clkstat_registry_lock();
	m = clkstat_metric_find_in(name, variant);
	if (m && !clkstat_snapshot_take(&s, m)) {
		clkstat_hist_summarize(clkstat_snapshot_cpu(&s, s.ncpus),
				       m->nslots, m->frac_bits, &sum);
		n = sum.count;
		clkstat_snapshot_free(&s);
	}
	clkstat_registry_unlock();
	return n;
}

/* As the control file does it: under the registry's lock. */
static void hbench_set_recording(struct clkstat_metric *m, bool on)
{
	clkstat_registry_lock();
	clkstat_metric_set_recording(m, on);
	clkstat_registry_unlock();
}

/* Stop ttwu_tkread if it records; returns it then, to start again. */
static struct clkstat_metric *hbench_tkread_pause(void)
{
	struct clkstat_metric *tkw = READ_ONCE(clkstat_ttwu_tkread);

	if (!tkw || !clkstat_metric_recording(tkw))
		return NULL;
	hbench_set_recording(tkw, false);
	return tkw;
}

static void hbench_loop(clkstat_entry_fn wake, clkstat_entry_fn enq,
			clkstat_entry_fn read, unsigned int n)
{
	unsigned long task = (unsigned long)current;
	unsigned long rq = (unsigned long)clkstat_rq_learnt(smp_processor_id());
	unsigned int i;

	for (i = 0; i < n; i++) {
		__set_current_state(TASK_INTERRUPTIBLE);
		wake(task, TASK_NORMAL, 0);
		__set_current_state(TASK_RUNNING);
		enq(rq, task, CLKSTAT_WAKEUP_ENQUEUE_FLAGS);
		if (read)
			read(0, 0, 0);
	}
}

/**
 * clkstat_bench_handlers() - run the probes' handlers N times, timed
 * @mode: what to run, see enum clkstat_hbench_mode
 * @n: iterations, at least 1
 * @r: set to the result (zeroed first)
 *
 * Runs in chunks with preemption off, rescheduling between them; a fatal
 * signal ends it.  Process context, may sleep.
 *
 * Return: 0; -ENOENT when a probe the mode needs is not enabled (ttwu;
 * for a triple tkread too); -EINTR when interrupted.
 */
int clkstat_bench_handlers(enum clkstat_hbench_mode mode, unsigned int n,
			   struct clkstat_hbench_result *r)
{
	bool triple = mode == CLKSTAT_HBENCH_TRIPLE ||
		      mode == CLKSTAT_HBENCH_TRIPLE0;
	bool empty = mode == CLKSTAT_HBENCH_PAIR0 ||
		     mode == CLKSTAT_HBENCH_TRIPLE0;
	clkstat_entry_fn wake, enq, read = NULL;
	const struct clkstat_variant *v;
	struct clkstat_metric *tkw = NULL;
	unsigned int done, chunk;
	u64 enq0, tk0, t0;
	int ret = 0;
	pid_t tgid;

	*r = (struct clkstat_hbench_result){};
	if (!n || mode > CLKSTAT_HBENCH_TRIPLE0)
		return -EINVAL;
	v = clkstat_probes_hold();
	if (!v || !clkstat_probe_enabled(&clkstat_probe_ttwu) ||
	    (triple && !clkstat_probe_enabled(&clkstat_probe_tkread))) {
		clkstat_probes_release();
		return -ENOENT;
	}
	wake = empty ? hbench_empty : clkstat_probe_ttwu.hooks[0].handler;
	enq = empty ? hbench_empty : clkstat_probe_ttwu.hooks[1].handler;
	if (triple)
		read = empty ? hbench_empty :
		       clkstat_probe_tkread.hooks[CLKSTAT_TK_KTIME_GET].handler;
	tgid = READ_ONCE(clkstat_filter_tgid);
	WRITE_ONCE(clkstat_filter_tgid, current->tgid);
	if (!triple)
		tkw = hbench_tkread_pause();
	enq0 = hbench_count(CLKSTAT_MNAME(TTWU_ENQUEUE), v->name);
	tk0 = hbench_count(CLKSTAT_MNAME(TTWU_TKREAD), v->name);
	for (done = 0; done < n; done += chunk) {
		chunk = min(n - done, (unsigned int)HBENCH_CHUNK);
		preempt_disable();
		if (!done)
			r->cpu = smp_processor_id();
		else if (smp_processor_id() != r->cpu)
			r->migrated = true;
		t0 = ktime_get_mono_fast_ns();
		hbench_loop(wake, enq, read, chunk);
		r->ns += ktime_get_mono_fast_ns() - t0;
		preempt_enable();
		cond_resched();
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
	r->enqueue = hbench_count(CLKSTAT_MNAME(TTWU_ENQUEUE), v->name) - enq0;
	r->tkread = hbench_count(CLKSTAT_MNAME(TTWU_TKREAD), v->name) - tk0;
	if (tkw)
		hbench_set_recording(tkw, true);
	WRITE_ONCE(clkstat_filter_tgid, tgid);
	clkstat_probes_release();
	return ret;
}
