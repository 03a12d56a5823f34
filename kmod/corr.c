// SPDX-License-Identifier: GPL-2.0
/*
 * corr.c - lock-free per-task pending-event table.
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
 * CLKSTAT_CORR_EVICTED, so the table always holds the newest events.  An
 * event whose interval never ends (a wakeup that found its task already
 * running) stays until the same task's next event replaces it
 * (CLKSTAT_CORR_REPLACED) or another key evicts it.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "corr.h"

#define CLKSTAT_CORR_FREE	0L
#define CLKSTAT_CORR_LOCKED	1L

/**
 * clkstat_corr_init() - allocate an empty table
 * @t: the table
 * @entries: number of entries, a power of two
 *
 * Return: 0, -EINVAL if @entries is not a power of two, or -ENOMEM.
 */
int clkstat_corr_init(struct clkstat_corr *t, unsigned int entries)
{
	if (!is_power_of_2(entries))
		return -EINVAL;
	t->bits = ilog2(entries);
	t->entry = kvcalloc(entries, sizeof(*t->entry), GFP_KERNEL);
	return t->entry ? 0 : -ENOMEM;
}

/**
 * clkstat_corr_free() - free a table
 * @t: the table; no CPU may be using it any more
 */
void clkstat_corr_free(struct clkstat_corr *t)
{
	kvfree(t->entry);
	t->entry = NULL;
}

static struct clkstat_corr_entry *clkstat_corr_slot(struct clkstat_corr *t,
						    const void *key)
{
	return &t->entry[hash_ptr(key, t->bits)];
}

/**
 * clkstat_corr_put() - remember a pending event for a key
 * @t: the table
 * @key: the task (any pointer other than NULL)
 * @v: what to remember
 *
 * An entry holding an event of an epoch other than @v's counts as free:
 * that event can no longer be matched (see clkstat_current_epoch()), so
 * overwriting it loses nothing of the current window.
 *
 * Return: what the entry held before, see enum clkstat_corr_put_result.
 */
enum clkstat_corr_put_result clkstat_corr_put(struct clkstat_corr *t,
					      const void *key,
					      const struct clkstat_corr_val *v)
{
	struct clkstat_corr_entry *e = clkstat_corr_slot(t, key);
	long old = atomic_long_read(&e->key);

	if (old == CLKSTAT_CORR_LOCKED ||
	    !atomic_long_try_cmpxchg_acquire(&e->key, &old,
					     CLKSTAT_CORR_LOCKED))
		return CLKSTAT_CORR_BUSY;
	if (e->val.epoch != v->epoch)
		old = CLKSTAT_CORR_FREE;
	e->val = *v;
	atomic_long_set_release(&e->key, (long)key);
	if (old == CLKSTAT_CORR_FREE)
		return CLKSTAT_CORR_NEW;
	return old == (long)key ? CLKSTAT_CORR_REPLACED : CLKSTAT_CORR_EVICTED;
}

/**
 * clkstat_corr_take() - fetch and forget the pending event of a key
 * @t: the table
 * @key: the task
 * @v: set to what was remembered, when found
 *
 * Return: CLKSTAT_CORR_FOUND, CLKSTAT_CORR_ABSENT or CLKSTAT_CORR_CONTENDED.
 */
enum clkstat_corr_take_result clkstat_corr_take(struct clkstat_corr *t,
						const void *key,
						struct clkstat_corr_val *v)
{
	struct clkstat_corr_entry *e = clkstat_corr_slot(t, key);
	long old = atomic_long_read(&e->key);

	/*
	 * Most lookups miss (a timekeeping read with no wakeup pending): a
	 * plain read answers those without taking the cache line exclusive.
	 */
	if (old != (long)key)
		return old == CLKSTAT_CORR_LOCKED ? CLKSTAT_CORR_CONTENDED :
						    CLKSTAT_CORR_ABSENT;
	if (!atomic_long_try_cmpxchg_acquire(&e->key, &old,
					     CLKSTAT_CORR_LOCKED))
		return old == CLKSTAT_CORR_LOCKED ? CLKSTAT_CORR_CONTENDED :
						    CLKSTAT_CORR_ABSENT;
	*v = e->val;
	atomic_long_set_release(&e->key, CLKSTAT_CORR_FREE);
	return CLKSTAT_CORR_FOUND;
}

/**
 * clkstat_corr_pending() - how many events of an epoch are pending
 * @t: the table; no CPU may be writing to it (hooks detached)
 * @epoch: the epoch
 *
 * Return: entries holding an event of @epoch that no take has collected.
 */
unsigned long clkstat_corr_pending(const struct clkstat_corr *t,
				   unsigned int epoch)
{
	unsigned long i, n = 0;
	long key;

	if (!t->entry)
		return 0;
	for (i = 0; i < (1UL << t->bits); i++) {
		key = atomic_long_read(&t->entry[i].key);
		if (key != CLKSTAT_CORR_FREE && key != CLKSTAT_CORR_LOCKED &&
		    t->entry[i].val.epoch == epoch)
			n++;
	}
	return n;
}
