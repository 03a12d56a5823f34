// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - clkstat's metric store: create, find, start/stop, reset, snapshot.
 *
 * The hot path (clkstat_record(), clkstat_count()) is inline in hist.h; this
 * file holds what runs at load time or on a reader's behalf.
 */
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include "clock.h"
#include "hist.h"
#include "test_exports.h"

unsigned int clkstat_frac_bits = CLKSTAT_FRAC_BITS_DEFAULT;
CLKSTAT_EXPORT_FOR_TESTS(clkstat_frac_bits);
DEFINE_STATIC_KEY_FALSE(clkstat_frac_custom);
CLKSTAT_EXPORT_FOR_TESTS(clkstat_frac_custom);
static LIST_HEAD(clkstat_metrics);
static DEFINE_MUTEX(clkstat_metrics_lock);
/*
 * Orders resets and snapshots, so that a snapshot is taken against one
 * reset's baseline, never half of one and half of the next.  Taken after
 * clkstat_metrics_lock where both are held.
 */
static DEFINE_MUTEX(clkstat_reset_lock);
/*
 * Told of every metric created and of every metric about to be freed, so
 * that the exports (debugfs's files) follow the store without the store
 * or the probes knowing them.  Called outside clkstat_metrics_lock: a
 * subscriber may create or remove files, and wait for their readers.
 */
static BLOCKING_NOTIFIER_HEAD(clkstat_metric_chain);

/**
 * clkstat_metric_notifier_register() - be told of metrics created and destroyed
 * @nb: its notifier_call gets CLKSTAT_METRIC_ADDED or CLKSTAT_METRIC_REMOVED
 *	and the metric, in process context
 *
 * Metrics that exist already are not announced: the subscriber walks the
 * registry for them after registering.
 *
 * Return: 0 (as blocking_notifier_chain_register()).
 */
int clkstat_metric_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&clkstat_metric_chain, nb);
}

/**
 * clkstat_metric_notifier_unregister() - no longer be told
 * @nb: as registered
 *
 * Returns once no call to @nb runs.
 */
void clkstat_metric_notifier_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&clkstat_metric_chain, nb);
}

static void clkstat_metric_notify(unsigned long event,
				  struct clkstat_metric *m)
{
	blocking_notifier_call_chain(&clkstat_metric_chain, event, m);
}

/**
 * clkstat_metric_cpu_bytes() - memory one CPU's share of a metric takes
 * @frac_bits: fractional bits of the metric
 *
 * Return: bytes per CPU per metric.
 */
size_t clkstat_metric_cpu_bytes(unsigned int frac_bits)
{
	return struct_size((struct clkstat_cpu_hist *)NULL, slot,
			   CLKSTAT_NSLOTS(frac_bits));
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_metric_cpu_bytes);

/* CPU cpu's entry in an array of per-CPU histograms stride bytes apart. */
static struct clkstat_cpu_hist *clkstat_hist_at(void *base, size_t stride,
						unsigned int cpu)
{
	return (struct clkstat_cpu_hist *)((char *)base + cpu * stride);
}

static void clkstat_metric_free(struct clkstat_metric *m)
{
	free_percpu(m->cpu);
	kvfree(m->base);
	kfree(m);
}

/**
 * clkstat_metric_create() - allocate and register a metric
 * @name: what it measures, at most CLKSTAT_NAME_MAX - 1 characters
 * @variant: name of the hook variant that feeds it (kept by reference), at
 *	most CLKSTAT_VARIANT_MAX - 1 characters; name.variant must be unique
 * @counter_names: names of its event counters (kept by reference), or NULL
 * @ncounters: number of counters, at most CLKSTAT_MAX_COUNTERS
 *
 * Its slots are of the load's frac_bits (clkstat_frac_bits), the one
 * __clkstat_record() takes.  The metric starts stopped;
 * clkstat_metric_set_recording() starts it.
 *
 * Return: the metric, or an ERR_PTR: -EINVAL for bad arguments, -EEXIST for
 * a name.variant in use, -ENOMEM.
 */
struct clkstat_metric *clkstat_metric_create(const char *name,
					     const char *variant,
					     const char *const *counter_names,
					     unsigned int ncounters)
{
	unsigned int frac_bits = clkstat_frac_bits;
	struct clkstat_metric *m;
	unsigned int cpu;

	if (ncounters > CLKSTAT_MAX_COUNTERS ||
	    strlen(name) >= CLKSTAT_NAME_MAX || !name[0] ||
	    strlen(variant) >= CLKSTAT_VARIANT_MAX || !variant[0])
		return ERR_PTR(-EINVAL);

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return ERR_PTR(-ENOMEM);
	strscpy(m->name, name, sizeof(m->name));
	m->variant = variant;
	snprintf(m->id, sizeof(m->id), "%s.%s", name, variant);
	m->counter_names = counter_names;
	m->ncounters = ncounters;
	m->frac_bits = frac_bits;
	m->nslots = CLKSTAT_NSLOTS(frac_bits);
	m->cpu = __alloc_percpu(clkstat_metric_cpu_bytes(frac_bits),
				__alignof__(struct clkstat_cpu_hist));
	m->base = kvzalloc(array_size(nr_cpu_ids,
				      clkstat_metric_cpu_bytes(frac_bits)),
			   GFP_KERNEL);
	if (!m->cpu || !m->base) {
		clkstat_metric_free(m);
		return ERR_PTR(-ENOMEM);
	}
	for_each_possible_cpu(cpu)
		per_cpu_ptr(m->cpu, cpu)->min = U64_MAX;
	m->created_ns = ktime_get_real_ns();

	mutex_lock(&clkstat_metrics_lock);
	if (clkstat_metric_find(m->id)) {
		mutex_unlock(&clkstat_metrics_lock);
		clkstat_metric_free(m);
		return ERR_PTR(-EEXIST);
	}
	list_add_tail(&m->node, &clkstat_metrics);
	mutex_unlock(&clkstat_metrics_lock);
	clkstat_metric_notify(CLKSTAT_METRIC_ADDED, m);
	return m;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_metric_create);

/**
 * clkstat_metric_get() - the metric name.variant, created if need be
 * @name: as for clkstat_metric_create()
 * @variant: as for clkstat_metric_create()
 * @counter_names: as for clkstat_metric_create(), used only when creating
 * @ncounters: as for clkstat_metric_create(), used only when creating
 *
 * Switching variants back and forth (A B A B) finds A's metric again,
 * with what it recorded so far.  Callers that may create serialize among
 * themselves (the probes do, under the variant switch).
 *
 * Return: the metric, or an ERR_PTR from clkstat_metric_create().
 */
struct clkstat_metric *clkstat_metric_get(const char *name,
					  const char *variant,
					  const char *const *counter_names,
					  unsigned int ncounters)
{
	struct clkstat_metric *m;

	mutex_lock(&clkstat_metrics_lock);
	m = clkstat_metric_find_in(name, variant);
	mutex_unlock(&clkstat_metrics_lock);
	return m ?: clkstat_metric_create(name, variant, counter_names,
					  ncounters);
}

/*
 * A total leaving the registry (under its lock) leaves its parts on their
 * own: the registry's users (the control file) find them without it.
 */
static void clkstat_metric_orphan_parts(struct clkstat_metric *m)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(m->parts); i++)
		if (m->parts[i])
			m->parts[i]->total = NULL;
}

/**
 * clkstat_metric_destroy() - unregister and free a metric
 * @m: the metric, or NULL or an ERR_PTR (ignored)
 *
 * The caller guarantees that no hook can record into @m any more.
 */
void clkstat_metric_destroy(struct clkstat_metric *m)
{
	if (IS_ERR_OR_NULL(m))
		return;
	clkstat_metric_notify(CLKSTAT_METRIC_REMOVED, m);
	mutex_lock(&clkstat_metrics_lock);
	list_del(&m->node);
	clkstat_metric_orphan_parts(m);
	mutex_unlock(&clkstat_metrics_lock);
	clkstat_metric_free(m);
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_metric_destroy);

/**
 * clkstat_metric_destroy_name() - destroy a metric in every variant
 * @name: the metric's name, without the variant
 *
 * The caller guarantees that no hook can record into any of them.
 */
void clkstat_metric_destroy_name(const char *name)
{
	struct clkstat_metric *m, *tmp;
	LIST_HEAD(doomed);

	mutex_lock(&clkstat_metrics_lock);
	list_for_each_entry_safe(m, tmp, &clkstat_metrics, node)
		if (!strcmp(m->name, name)) {
			list_move(&m->node, &doomed);
			clkstat_metric_orphan_parts(m);
		}
	mutex_unlock(&clkstat_metrics_lock);
	list_for_each_entry_safe(m, tmp, &doomed, node) {
		clkstat_metric_notify(CLKSTAT_METRIC_REMOVED, m);
		clkstat_metric_free(m);
	}
}

/**
 * clkstat_metric_find() - look a metric up by identity
 * @id: its name.variant
 *
 * Caller holds clkstat_registry_lock() (or runs where the registry cannot
 * change).
 *
 * Return: the metric, or NULL.
 */
struct clkstat_metric *clkstat_metric_find(const char *id)
{
	struct clkstat_metric *m;

	list_for_each_entry(m, &clkstat_metrics, node)
		if (!strcmp(m->id, id))
			return m;
	return NULL;
}

/**
 * clkstat_metric_find_in() - look a metric up by name and variant
 * @name: its name
 * @variant: its variant
 *
 * As clkstat_metric_find() for the identity "name.variant".
 *
 * Return: the metric, or NULL.
 */
struct clkstat_metric *clkstat_metric_find_in(const char *name,
					      const char *variant)
{
	struct clkstat_metric *m;

	list_for_each_entry(m, &clkstat_metrics, node)
		if (!strcmp(m->name, name) && !strcmp(m->variant, variant))
			return m;
	return NULL;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_metric_find_in);

/**
 * clkstat_registry_lock() - hold the registry stable for iteration
 */
void clkstat_registry_lock(void)
{
	mutex_lock(&clkstat_metrics_lock);
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_registry_lock);

/**
 * clkstat_registry_unlock() - release clkstat_registry_lock()
 */
void clkstat_registry_unlock(void)
{
	mutex_unlock(&clkstat_metrics_lock);
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_registry_unlock);

/**
 * clkstat_registry() - the list of all metrics, in creation order
 *
 * Return: the list head; entries are linked through &clkstat_metric.node.
 */
struct list_head *clkstat_registry(void)
{
	return &clkstat_metrics;
}

/**
 * clkstat_set_frac_bits() - the frac_bits of every metric created after
 * @k: the load's frac_bits, at most CLKSTAT_FRAC_BITS_MAX
 *
 * Before any metric is created (module init): records
 * (__clkstat_record()) take @k without reading it from the metric.
 */
void clkstat_set_frac_bits(unsigned int k)
{
	clkstat_frac_bits = k;
	if (k != CLKSTAT_FRAC_BITS_DEFAULT)
		static_branch_enable(&clkstat_frac_custom);
	else
		static_branch_disable(&clkstat_frac_custom);
}

/**
 * clkstat_metric_set_parts() - make a metric the total of two others
 * @total: the total, whose slots are not recorded into
 * @a: one part
 * @b: the other; every sample goes to exactly one of them
 *
 * Halves what a sample costs: the probe records it once, into its part,
 * and readers sum (see &clkstat_metric.parts).  The three are one family
 * from then on: starting, stopping or resetting any of them does so to
 * all three, so that the total is always the sum of its parts and a
 * probe counts into the total what its part took (__clkstat_record()'s
 * return).  Called at bind, before any hook can
 * record; the parts must live as long as the total.
 */
void clkstat_metric_set_parts(struct clkstat_metric *total,
			      struct clkstat_metric *a, struct clkstat_metric *b)
{
	total->parts[0] = a;
	total->parts[1] = b;
	a->total = total;
	b->total = total;
}

/* The head of @m's family: its total, or itself. */
static struct clkstat_metric *clkstat_family(struct clkstat_metric *m)
{
	return m->total ?: m;
}

/**
 * clkstat_metric_set_recording() - start or stop a metric
 * @m: the metric; a total's part or total starts or stops the family
 * @on: true to record, false to ignore samples
 *
 * A sample already past the check in __clkstat_record() still lands.
 * Starting begins a new epoch (clock.h, clkstat_epoch_restart()).
 *
 * Context: process context; starting takes a mutex.
 */
void clkstat_metric_set_recording(struct clkstat_metric *m, bool on)
{
	unsigned int i;

	m = clkstat_family(m);
	/* Intervals begun before the start are not the window's. */
	if (on)
		clkstat_epoch_restart();
	/* Parts first: a total recording means its parts do. */
	for (i = 0; i < ARRAY_SIZE(m->parts); i++)
		if (m->parts[i])
			WRITE_ONCE(m->parts[i]->recording, on);
	WRITE_ONCE(m->recording, on);
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_metric_set_recording);

/* One metric's part of clkstat_metric_reset(), under its lock. */
static void clkstat_metric_reset_one(struct clkstat_metric *m, u64 now)
{
	size_t stride = clkstat_metric_cpu_bytes(m->frac_bits);
	struct clkstat_cpu_hist *live, *base;
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		live = per_cpu_ptr(m->cpu, cpu);
		base = clkstat_hist_at(m->base, stride, cpu);
		/*
		 * Slots before counters, the opposite of a snapshot's
		 * reads: a probe records a sample and then counts it, so a
		 * sample recorded on another CPU between the two copies
		 * then falls after the reset for the slots and before it
		 * for the counters.  As with a snapshot (counters read
		 * first), a counter may lag the samples it counts but never
		 * runs ahead of them by more than those in flight (it did,
		 * by 23 under KASAN, when the counters were copied first).
		 *
		 * Not preemptible while copying one CPU: a recorder that
		 * preempted us between a slot's count and its sum would tear
		 * that slot's baseline by all it recorded meanwhile, for the
		 * whole epoch.  Another CPU can still record in the gap of a
		 * few instructions (its sample is then in flight).
		 */
		preempt_disable();
		for (i = 0; i < m->nslots; i++) {
			base->slot[i].count = READ_ONCE(live->slot[i].count);
			base->slot[i].sum = READ_ONCE(live->slot[i].sum);
		}
		for (i = 0; i < m->ncounters; i++)
			base->counter[i] = READ_ONCE(live->counter[i]);
		WRITE_ONCE(live->min, U64_MAX);
		WRITE_ONCE(live->max, 0);
		preempt_enable();
	}
	m->resets++;
	m->created_ns = now;
}

/**
 * clkstat_metric_reset() - start a metric's slots, min, max and counters over
 * @m: the metric
 *
 * Readers see zero afterwards, and from then on what is recorded after the
 * reset.  The live slots and counters are not cleared: the reset copies
 * them into &clkstat_metric.base, which readers subtract.  Clearing them
 * from this CPU would race with their own CPU's this_cpu_inc(), whose
 * read-modify-write could bring back a count from before the reset, or
 * keep a count whose sum was cleared.  A sample recorded on another CPU
 * while the reset copies lands whole on one side of it (its count and sum
 * may tear across it for the few instructions in between, see
 * clkstat_record()).
 *
 * Min and max cannot be subtracted: they are set back to "no sample" here,
 * and a sample in flight on another CPU at that instant may still set
 * them.  A reset begins a new epoch (clock.h).  A total's part
 * or total resets the family (clkstat_metric_set_parts()).
 */
void clkstat_metric_reset(struct clkstat_metric *m)
{
	unsigned int i;
	u64 now;

	m = clkstat_family(m);
	mutex_lock(&clkstat_reset_lock);
	clkstat_epoch_restart();
	/* One time for the family: its members begin together. */
	now = ktime_get_real_ns();
	clkstat_metric_reset_one(m, now);
	/* A family in one go: no snapshot sees its total half reset. */
	for (i = 0; i < ARRAY_SIZE(m->parts); i++)
		if (m->parts[i])
			clkstat_metric_reset_one(m->parts[i], now);
	mutex_unlock(&clkstat_reset_lock);
}

/**
 * clkstat_metric_add_counter() - add to a counter from process context
 * @m: the metric
 * @idx: counter index, below @m->ncounters
 * @n: how much
 *
 * Unlike clkstat_count(), counts whether or not the metric records: for
 * what the module itself observes (such as wakeups lost in a variant
 * switch), not for events in a recording window.
 */
void clkstat_metric_add_counter(struct clkstat_metric *m, unsigned int idx,
				u64 n)
{
	if (WARN_ON(idx >= m->ncounters))
		return;
	preempt_disable();
	this_cpu_add(m->cpu->counter[idx], n);
	preempt_enable();
}

/*
 * Add one CPU's slots, min and max of @m (since its last reset) into
 * @dst: a metric's own, or each part's of a total.  Preemption off.
 */
static void clkstat_snapshot_add(struct clkstat_cpu_hist *dst,
				 const struct clkstat_metric *m,
				 unsigned int cpu, size_t stride)
{
	const struct clkstat_cpu_hist *src = per_cpu_ptr(m->cpu, cpu);
	const struct clkstat_cpu_hist *base = clkstat_hist_at(m->base, stride,
							      cpu);
	unsigned int i;

	dst->min = min(dst->min, READ_ONCE(src->min));
	dst->max = max(dst->max, READ_ONCE(src->max));
	for (i = 0; i < m->nslots; i++) {
		dst->slot[i].count += READ_ONCE(src->slot[i].count) -
				      base->slot[i].count;
		dst->slot[i].sum += READ_ONCE(src->slot[i].sum) -
				    base->slot[i].sum;
	}
}

/**
 * clkstat_snapshot_take() - copy a metric's per-CPU data for a reader
 * @s: the snapshot to fill
 * @m: the metric
 *
 * Copies every possible CPU (an offline CPU keeps what it recorded) and
 * adds them up into the extra all-CPU entry: what was recorded since the
 * last reset (the live values minus &clkstat_metric.base, all against the
 * same reset).  A total's slots, min and max are its parts' added up
 * (&clkstat_metric.parts), its counters its own.  Sleeps; not for the
 * hot path.
 *
 * Return: 0 or -ENOMEM.
 */
int clkstat_snapshot_take(struct clkstat_snapshot *s,
			  const struct clkstat_metric *m)
{
	struct clkstat_cpu_hist *all, *dst;
	const struct clkstat_cpu_hist *src, *base;
	unsigned int cpu, i, p;

	memset(&s->meta, 0, sizeof(s->meta));
	strscpy(s->meta.name, m->name, sizeof(s->meta.name));
	strscpy(s->meta.variant, m->variant, sizeof(s->meta.variant));
	s->meta.frac_bits = m->frac_bits;
	s->meta.nslots = m->nslots;
	s->meta.recording = clkstat_metric_recording(m);
	s->meta.ncounters = m->ncounters;
	s->ncpus = nr_cpu_ids;
	s->stride = clkstat_metric_cpu_bytes(m->frac_bits);
	s->data = kvzalloc(array_size(s->ncpus + 1, s->stride), GFP_KERNEL);
	if (!s->data)
		return -ENOMEM;
	if (m->ncounters) {
		s->meta.counter_names = kcalloc(m->ncounters, CLKSTAT_NAME_MAX,
						GFP_KERNEL);
		if (!s->meta.counter_names) {
			kvfree(s->data);
			s->data = NULL;
			return -ENOMEM;
		}
		for (i = 0; i < m->ncounters; i++)
			strscpy(s->meta.counter_names[i], m->counter_names[i],
				CLKSTAT_NAME_MAX);
	}

	all = clkstat_snapshot_cpu(s, s->ncpus);
	all->min = U64_MAX;
	mutex_lock(&clkstat_reset_lock);
	s->resets = m->resets;	/* its parts' too: a family resets as one */
	s->created_ns = m->created_ns;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		dst = clkstat_snapshot_cpu(s, cpu);
		dst->min = U64_MAX;
		if (!cpu_possible(cpu))
			continue;
		src = per_cpu_ptr(m->cpu, cpu);
		base = clkstat_hist_at(m->base, s->stride, cpu);
		/* As in clkstat_metric_reset(): one CPU's copy in one go. */
		preempt_disable();
		for (i = 0; i < m->ncounters; i++) {
			dst->counter[i] = READ_ONCE(src->counter[i]) -
					  base->counter[i];
			all->counter[i] += dst->counter[i];
		}
		if (m->parts[0]) {
			for (p = 0; p < ARRAY_SIZE(m->parts); p++)
				if (m->parts[p])
					clkstat_snapshot_add(dst, m->parts[p],
							     cpu, s->stride);
		} else {
			clkstat_snapshot_add(dst, m, cpu, s->stride);
		}
		preempt_enable();
		all->min = min(all->min, dst->min);
		all->max = max(all->max, dst->max);
		for (i = 0; i < m->nslots; i++) {
			all->slot[i].count += dst->slot[i].count;
			all->slot[i].sum += dst->slot[i].sum;
		}
	}
	mutex_unlock(&clkstat_reset_lock);
	return 0;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_snapshot_take);

/**
 * clkstat_snapshot_free() - free what clkstat_snapshot_take() allocated
 * @s: the snapshot
 */
void clkstat_snapshot_free(struct clkstat_snapshot *s)
{
	kvfree(s->data);
	s->data = NULL;
	kfree(s->meta.counter_names);
	s->meta.counter_names = NULL;
}
CLKSTAT_EXPORT_FOR_TESTS(clkstat_snapshot_free);
