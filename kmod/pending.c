// SPDX-License-Identifier: GPL-2.0
/*
 * pending.c - lock-free per-task pending-event table.
 *
 * A direct-mapped table of 2^bits entries, indexed by a hash of the key (a
 * task's address), preallocated at load.  Each entry is claimed with one
 * cmpxchg on its key word, which turns to "busy" while the owner writes or
 * reads the other fields; nobody ever waits for it.  A CPU that finds an
 * entry busy gives up and reports it, so the table is safe from any context,
 * NMI included, and never spins.
 *
 * Full table and collision are the same event here: a new key that hashes to
 * an entry holding another key's pending event overwrites it and reports
 * CLKSTAT_PENDING_EVICTED, so the table always holds the newest events.  An
 * event whose interval never ends (a wakeup that found its task already
 * running) stays until the same task's next event replaces it
 * (CLKSTAT_PENDING_REPLACED) or another key evicts it.
 *
 * The wake table (struct clkstat_wake_table) is the same kind of table
 * for probes ttwu and tkread, with one cache line per entry, preallocated
 * when probe ttwu is set up (tkread has wakeups to time only with ttwu).
 * One entry holds both probes' state of a task's latest wakeup: ttwu's
 * part waits for the enqueue, tkread's for the task's first clock read.
 * Each event (wakeup, enqueue, first read) claims the entry with one
 * cmpxchg on its key word (the task and which parts are open: pending.h)
 * and lets it go with a plain release store: one locked operation per
 * event.  A wakeup overwrites the open parts of another task's wakeup
 * ("evicted", per part) or of its own task's previous one ("replaced"); a
 * part of another epoch counts as nothing lost.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "pending.h"

#define CLKSTAT_PENDING_FREE	0L
#define CLKSTAT_PENDING_LOCKED	1L

/**
 * clkstat_pending_init() - allocate an empty table
 * @t: the table
 * @entries: number of entries, a power of two
 *
 * Return: 0, -EINVAL if @entries is not a power of two, or -ENOMEM.
 */
int clkstat_pending_init(struct clkstat_pending *t, unsigned int entries)
{
	if (!is_power_of_2(entries))
		return -EINVAL;
	t->bits = ilog2(entries);
	t->entry = kvcalloc(entries, sizeof(*t->entry), GFP_KERNEL);
	return t->entry ? 0 : -ENOMEM;
}

/**
 * clkstat_pending_free() - free a table
 * @t: the table; no CPU may be using it any more
 */
void clkstat_pending_free(struct clkstat_pending *t)
{
	kvfree(t->entry);
	t->entry = NULL;
}

/* notrace, as put and take: a trace's handlers call them. */
static notrace struct clkstat_pending_entry *
clkstat_pending_slot(struct clkstat_pending *t, const void *key)
{
	return &t->entry[hash_ptr(key, t->bits)];
}

/**
 * clkstat_pending_put() - remember a pending event for a key
 * @t: the table
 * @key: the task (any pointer other than NULL)
 * @v: what to remember
 *
 * An entry holding an event of an epoch other than @v's counts as free:
 * that event can no longer be matched (see clkstat_current_epoch()), so
 * overwriting it loses nothing of the current window.
 *
 * Return: what the entry held before, see enum clkstat_pending_put_result.
 */
enum clkstat_pending_put_result notrace
clkstat_pending_put(struct clkstat_pending *t, const void *key,
		    const struct clkstat_pending_val *v)
{
	struct clkstat_pending_entry *e = clkstat_pending_slot(t, key);
	long old = atomic_long_read(&e->key);

	if (old == CLKSTAT_PENDING_LOCKED ||
	    !atomic_long_try_cmpxchg_acquire(&e->key, &old,
					     CLKSTAT_PENDING_LOCKED))
		return CLKSTAT_PENDING_BUSY;
	if (e->val.epoch != v->epoch)
		old = CLKSTAT_PENDING_FREE;
	e->val = *v;
	atomic_long_set_release(&e->key, (long)key);
	if (old == CLKSTAT_PENDING_FREE)
		return CLKSTAT_PENDING_NEW;
	return old == (long)key ? CLKSTAT_PENDING_REPLACED : CLKSTAT_PENDING_EVICTED;
}

/**
 * clkstat_pending_take() - fetch and forget the pending event of a key
 * @t: the table
 * @key: the task
 * @v: set to what was remembered, when found
 *
 * Return: CLKSTAT_PENDING_FOUND, CLKSTAT_PENDING_ABSENT or CLKSTAT_PENDING_CONTENDED.
 */
enum clkstat_pending_take_result notrace
clkstat_pending_take(struct clkstat_pending *t, const void *key,
		     struct clkstat_pending_val *v)
{
	struct clkstat_pending_entry *e = clkstat_pending_slot(t, key);
	long old = atomic_long_read(&e->key);

	/*
	 * Most lookups miss (a timekeeping read with no wakeup pending): a
	 * plain read answers those without taking the cache line exclusive.
	 */
	if (old != (long)key)
		return old == CLKSTAT_PENDING_LOCKED ? CLKSTAT_PENDING_CONTENDED :
						    CLKSTAT_PENDING_ABSENT;
	if (!atomic_long_try_cmpxchg_acquire(&e->key, &old,
					     CLKSTAT_PENDING_LOCKED))
		return old == CLKSTAT_PENDING_LOCKED ? CLKSTAT_PENDING_CONTENDED :
						    CLKSTAT_PENDING_ABSENT;
	*v = e->val;
	atomic_long_set_release(&e->key, CLKSTAT_PENDING_FREE);
	return CLKSTAT_PENDING_FOUND;
}

/**
 * clkstat_pending_pending() - how many events of an epoch are pending
 * @t: the table; no CPU may be writing to it (hooks detached)
 * @epoch: the epoch
 *
 * Return: entries holding an event of @epoch that no take has collected.
 */
unsigned long clkstat_pending_pending(const struct clkstat_pending *t,
				   unsigned int epoch)
{
	unsigned long i, n = 0;
	long key;

	if (!t->entry)
		return 0;
	for (i = 0; i < (1UL << t->bits); i++) {
		key = atomic_long_read(&t->entry[i].key);
		if (key != CLKSTAT_PENDING_FREE && key != CLKSTAT_PENDING_LOCKED &&
		    t->entry[i].val.epoch == epoch)
			n++;
	}
	return n;
}

struct clkstat_wake_table clkstat_wake_pending;

/**
 * clkstat_wake_init() - allocate an empty wake table
 * @t: the table
 * @entries: number of entries, a power of two
 *
 * Return: 0, -EINVAL if @entries is not a power of two above 1, or
 * -ENOMEM.
 */
int clkstat_wake_init(struct clkstat_wake_table *t, unsigned int entries)
{
	BUILD_BUG_ON(sizeof(struct clkstat_wake_entry) != 64);
	/* The parts' bits below a task's alignment (pending.h). */
	BUILD_BUG_ON(CLKSTAT_PARTS >= L1_CACHE_BYTES);
	if (!is_power_of_2(entries) || entries < 2)
		return -EINVAL;
	t->bits = ilog2(entries);
	t->shift = 64 - t->bits;
	/*
	 * Entries on cache lines: kmalloc aligns a power-of-two size to
	 * itself, vmalloc to a page.
	 */
	t->entry = kvcalloc(entries, sizeof(*t->entry), GFP_KERNEL);
	return t->entry ? 0 : -ENOMEM;
}

/**
 * clkstat_wake_free() - free a wake table
 * @t: the table; no CPU may be using it any more
 */
void clkstat_wake_free(struct clkstat_wake_table *t)
{
	kvfree(t->entry);
	t->entry = NULL;
}

/**
 * clkstat_wake_open() - how many parts of an epoch are still open
 * @t: the table; no CPU may be writing to it (hooks detached)
 * @epoch: the epoch
 * @part: CLKSTAT_PART_TTWU or CLKSTAT_PART_TKREAD
 *
 * Return: entries holding a wakeup of @epoch whose @part is open.
 */
unsigned long clkstat_wake_open(const struct clkstat_wake_table *t,
				unsigned int epoch, long part)
{
	unsigned long i, n = 0;
	long key;

	if (!t->entry)
		return 0;
	for (i = 0; i < (1UL << t->bits); i++) {
		key = atomic_long_read(&t->entry[i].key);
		if (key != CLKSTAT_WAKE_LOCKED && (key & part) &&
		    t->entry[i].epoch == epoch)
			n++;
	}
	return n;
}
