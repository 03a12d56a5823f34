/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - clkstat's per-CPU log-linear histograms ("metrics").
 *
 * A metric is a named histogram fed by one probe through one hook variant.
 * Each CPU has its own slots (count and scaled sum, see
 * uapi/clkstat_buckets.h), its own min and max, and a few event counters
 * that the probe defines.  Recording is O(1), takes no lock and allocates
 * nothing.
 */
#ifndef _CLKSTAT_HIST_H
#define _CLKSTAT_HIST_H

#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/list.h>
#include "uapi/clkstat_buckets.h"
#include "uapi/clkstat_catalog.h"
#include "shared/clkstat_hist_math.h"

/* A metric's identity: "name.variant", e.g. "ttwu_enqueue.direct". */
#define CLKSTAT_ID_MAX		(CLKSTAT_NAME_MAX + CLKSTAT_VARIANT_MAX)

/* One CPU's share of a metric.  min is U64_MAX while the CPU has no sample. */
struct clkstat_cpu_hist {
	u64 min;
	u64 max;
	u64 counter[CLKSTAT_MAX_COUNTERS];
	struct clkstat_slot slot[];
};

struct clkstat_metric {
	char name[CLKSTAT_NAME_MAX];
	const char *variant;		/* hook variant feeding it */
	char id[CLKSTAT_ID_MAX];	/* name.variant: unique, the file name */
	const char *const *counter_names;
	unsigned int ncounters;
	unsigned int frac_bits;		/* clkstat_frac_bits when created */
	unsigned int nslots;
	bool recording;			/* read locklessly by the hot path */
	struct clkstat_cpu_hist __percpu *cpu;
	/*
	 * Each CPU's slots and counters as the last reset found them
	 * (nr_cpu_ids entries, clkstat_metric_cpu_bytes() apart): readers
	 * see the live values minus these.  A reset never writes a live
	 * slot or counter, which only its own CPU changes, so these only
	 * grow and what a reader sees is never negative nor more than was
	 * recorded since the reset.  Under hist.c's reset lock.
	 */
	void *base;
	u64 resets;			/* resets since creation, same lock */
	/*
	 * CLOCK_REALTIME in ns when the values readers see began: creation,
	 * or the last reset.  Same lock.  Exported so that a scraper (the
	 * OpenMetrics _created sample) can tell a reset from a slow scrape.
	 */
	u64 created_ns;
	struct list_head node;		/* in the registry */
	/*
	 * A total whose samples are its parts' (ttwu_enqueue: _local and
	 * _migrated): the probe records into one part only, and readers
	 * get the parts' slots, min and max summed (clkstat_snapshot_take()),
	 * with the total's own counters.  The three are one family:
	 * starting, stopping or resetting one of them does so to all three
	 * (clkstat_metric_set_parts()).  NULL: none.  The parts are
	 * destroyed after their total.
	 */
	struct clkstat_metric *parts[2];
	struct clkstat_metric *total;	/* a part's total; NULL: none */
};

/*
 * What readers print of a metric besides its data, copied into the
 * snapshot: a reader may hold a snapshot across calls (a netlink dump
 * paused between two recvmsg() for as long as its reader likes) while
 * the metric goes (untrace, a module's unload), so no reader keeps a
 * pointer to the metric once its lock is dropped.
 */
struct clkstat_metric_meta {
	char name[CLKSTAT_NAME_MAX];
	char variant[CLKSTAT_VARIANT_MAX];
	unsigned int frac_bits;
	unsigned int nslots;
	unsigned int ncounters;
	bool recording;
	char (*counter_names)[CLKSTAT_NAME_MAX];	/* [ncounters] */
};

/* A copy of a metric taken outside the hot path, for readers. */
struct clkstat_snapshot {
	struct clkstat_metric_meta meta;
	unsigned int ncpus;		/* nr_cpu_ids; cpu[ncpus] is all CPUs */
	size_t stride;			/* bytes between two cpu entries */
	u64 resets;			/* the metric's resets when taken */
	u64 created_ns;			/* and its created_ns */
	void *data;
};

/* Summary of a histogram, in ns.  All zero when count is zero. */
struct clkstat_summary {
	u64 count;
	u64 min;
	u64 max;
	u64 mean;
	u64 p50, p90, p99, p999;
};

struct clkstat_metric *clkstat_metric_create(const char *name,
					     const char *variant,
					     const char *const *counter_names,
					     unsigned int ncounters);
struct clkstat_metric *clkstat_metric_get(const char *name,
					  const char *variant,
					  const char *const *counter_names,
					  unsigned int ncounters);
void clkstat_metric_destroy(struct clkstat_metric *m);
void clkstat_metric_destroy_name(const char *name);
struct clkstat_metric *clkstat_metric_find(const char *id);
struct clkstat_metric *clkstat_metric_find_in(const char *name,
					      const char *variant);
void clkstat_metric_set_recording(struct clkstat_metric *m, bool on);
void clkstat_metric_reset(struct clkstat_metric *m);
void clkstat_metric_set_parts(struct clkstat_metric *total,
			      struct clkstat_metric *a, struct clkstat_metric *b);
void clkstat_metric_add_counter(struct clkstat_metric *m, unsigned int idx,
				u64 n);
void clkstat_set_frac_bits(unsigned int k);
size_t clkstat_metric_cpu_bytes(unsigned int frac_bits);

/* What a metric notifier is told, with the metric as its data. */
enum clkstat_metric_event {
	CLKSTAT_METRIC_ADDED,		/* created and registered */
	CLKSTAT_METRIC_REMOVED,		/* about to be freed */
};

struct notifier_block;
int clkstat_metric_notifier_register(struct notifier_block *nb);
void clkstat_metric_notifier_unregister(struct notifier_block *nb);

/* Iterate the registry; callers hold clkstat_registry_lock(). */
void clkstat_registry_lock(void);
void clkstat_registry_unlock(void);
struct list_head *clkstat_registry(void);

int clkstat_snapshot_take(struct clkstat_snapshot *s,
			  const struct clkstat_metric *m);
void clkstat_snapshot_free(struct clkstat_snapshot *s);

/* cpu == s->ncpus selects the all-CPU sum. */
static inline struct clkstat_cpu_hist *
clkstat_snapshot_cpu(const struct clkstat_snapshot *s, unsigned int cpu)
{
	return (struct clkstat_cpu_hist *)((char *)s->data + cpu * s->stride);
}

/* hist_stats.c: a pure function over one CPU's (or the sum's) slots. */
void clkstat_hist_summarize(const struct clkstat_cpu_hist *h,
			    unsigned int nslots, unsigned int frac_bits,
			    struct clkstat_summary *sum);

static inline bool clkstat_metric_recording(const struct clkstat_metric *m)
{
	return READ_ONCE(m->recording);
}

/*
 * What a sample adds to its slot's sum: itself below
 * 2^CLKSTAT_SUM_EXACT_BITS ns (8.6 s, every latency the probes see but a
 * pathological one), where clkstat_slot_sum_shift() is 0 whatever the
 * slot: the common case skips computing the shift.
 */
static __always_inline u64 clkstat_record_sum(u64 v, u32 slot, unsigned int k)
{
	if (likely(v < (1ULL << CLKSTAT_SUM_EXACT_BITS)))
		return v;
	return v >> clkstat_slot_sum_shift(slot, k);
}

/*
 * The record of a sample whose slot and scaled sum are known, into a
 * metric the caller found recording.
 */
static __always_inline void __clkstat_add_at(struct clkstat_metric *m,
					     u64 v, u32 slot, u64 sum)
{
	struct clkstat_cpu_hist __percpu *h = m->cpu;
	u64 old, prev;

	this_cpu_inc(h->slot[slot].count);
	this_cpu_add(h->slot[slot].sum, sum);
	/* Most samples move neither: one read and one compare each. */
	old = this_cpu_read(h->min);
	if (unlikely(v < old)) {
		do {
			prev = this_cpu_cmpxchg(h->min, old, v);
			if (prev == old)
				break;
			old = prev;
		} while (v < old);
	}
	old = this_cpu_read(h->max);
	if (unlikely(v > old)) {
		do {
			prev = this_cpu_cmpxchg(h->max, old, v);
			if (prev == old)
				break;
			old = prev;
		} while (v > old);
	}
}

/*
 * The record of a sample at @k fractional bits into a metric the caller
 * found recording.  Callers pass a constant @k for the default, in a
 * branch of their own, so that its shifts fold.
 */
static __always_inline void __clkstat_add(struct clkstat_metric *m, u64 v,
					  unsigned int k)
{
	u32 slot = clkstat_value_to_slot(v, k);

	__clkstat_add_at(m, v, slot, clkstat_record_sum(v, slot, k));
}

/*
 * The load's frac_bits (the parameter frac_bits, init.c), every metric's
 * and the one name for it; and whether it is not the default: records
 * take the slot with constant shifts behind a static key instead of a
 * load and a compare.
 */
extern unsigned int clkstat_frac_bits;
DECLARE_STATIC_KEY_FALSE(clkstat_frac_custom);

/**
 * __clkstat_record() - record one sample into a metric, preemption off
 * @m: the metric
 * @v: the sample, in ns
 *
 * The probes' one way to record.  For callers whose context already
 * keeps them on one CPU: under a runqueue's lock, in a tracepoint's or an
 * ftrace callback's handler, or inside preempt_disable_notrace() taken
 * once for a whole event.  Any such context, hard IRQ and NMI included.
 * On x86 each this_cpu operation below is one instruction, so an
 * interrupt or NMI that records into the same slot between them adds its
 * own sample whole and loses nothing; min and max are updated with
 * this_cpu_cmpxchg (not locked: one CPU's data) for the same reason.
 * What can tear is a reader on another CPU: it may see a sample's count
 * without its sum, for the few instructions in between.  Only this CPU
 * ever writes its slots and counters (a reset leaves them alone, see
 * &clkstat_metric.base), so they only grow.
 *
 * A probe that counts what it recorded in a total's counter (a migrated
 * wakeup) counts only when this returns true, so that the counter and
 * the part's samples agree whatever stop races with them.
 *
 * Return: true if @m was recording and took the sample.
 */
static __always_inline bool __clkstat_record(struct clkstat_metric *m, u64 v)
{
	if (!READ_ONCE(m->recording))
		return false;
	if (static_branch_unlikely(&clkstat_frac_custom))
		__clkstat_add(m, v, clkstat_frac_bits);
	else
		__clkstat_add(m, v, CLKSTAT_FRAC_BITS_DEFAULT);
	return true;
}

/**
 * clkstat_record() - record one sample into a metric, from any context
 * @m: the metric
 * @v: the sample, in ns
 *
 * __clkstat_record() with preemption disabled around it, so that every
 * update of the sample happens on one CPU: for callers that may be
 * preemptible.  A caller recording several samples for one event takes
 * preempt_disable_notrace() once and calls __clkstat_record().
 */
static __always_inline void clkstat_record(struct clkstat_metric *m, u64 v)
{
	preempt_disable_notrace();
	__clkstat_record(m, v);
	preempt_enable_notrace();
}

/**
 * clkstat_count() - bump one of a metric's event counters
 * @m: the metric
 * @idx: counter index, below @m->ncounters
 *
 * Counts only while the metric records, so that counters and histogram
 * describe the same window.  Any context.
 */
static __always_inline void clkstat_count(struct clkstat_metric *m,
					  unsigned int idx)
{
	if (READ_ONCE(m->recording))
		this_cpu_inc(m->cpu->counter[idx]);
}

/* clkstat_count() for a caller that found @m recording for this event. */
static __always_inline void __clkstat_count(struct clkstat_metric *m,
					    unsigned int idx)
{
	this_cpu_inc(m->cpu->counter[idx]);
}

/* Add n to a counter, as clkstat_count() adds 1. */
static __always_inline void clkstat_count_add(struct clkstat_metric *m,
					      unsigned int idx, u64 n)
{
	if (READ_ONCE(m->recording))
		this_cpu_add(m->cpu->counter[idx], n);
}

#endif /* _CLKSTAT_HIST_H */
